"""The fixtures every folder shares: one per kind of store, the server processes
on them, and a throw-away PostgreSQL database per test session.

In this process (the application, ``GameLog``):

- ``memory_app``: on eventsourcing's in-memory store (``eventsourcing.popo``)
- ``sqlite_app``: on a fresh SQLite file, opened as ``gamelog serve --db`` opens it
- ``postgres_app``: on the session's PostgreSQL database, as ``gamelog serve --postgres`` opens it

Server processes (``gamelog serve``), which make a test end-to-end:

- ``sqlite_server``: one per session (and xdist worker), on a SQLite file; ``client`` talks to it
- ``memory_server``: one per test module, on the in-memory store
- ``two_postgres_servers``: two processes on the session's PostgreSQL database,
  fresh for each test (a test may kill their connections or count their listeners)

A test that uses a server fixture is marked ``e2e`` here; one that starts a
process itself (a server, the ``gamelog`` command, a browser) is marked by
hand, and one that forgets is stopped by ``e2e_guard``. tests/README.md maps
the whole suite.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import Client
from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.service.rpc.server import open_application
from gamelog.service.storage.settings import postgres_env, store_env
from gamelog.service.usecases.application import GameLog

PG_ADMIN_DSN = os.environ.get(
    "GAMELOG_TEST_PG", "host=127.0.0.1 port=5432 user=postgres dbname=test"
)


# -- the application on each kind of store -----------------------------------------------


@pytest.fixture
def memory_app() -> Iterator[GameLog]:
    application = GameLog(env=store_env(memory=True))
    yield application
    application.close()


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[GameLog]:
    """On ``tmp_path / "g.sqlite"``; a test may open the file again beside it."""
    application = GameLog(env=store_env(db=str(tmp_path / "g.sqlite")))
    yield application
    application.close()


@pytest.fixture
def postgres_app(postgres_dsn: str) -> Iterator[GameLog]:
    application = open_application(postgres_env(postgres_dsn))
    yield application
    application.close()


# -- server processes ----------------------------------------------------------------------


@pytest.fixture(scope="session")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("server")
    running = start_server_process(folder, "--db", str(folder / "gamelog.sqlite"))
    yield running
    running.stop()


@pytest.fixture
def client(sqlite_server: ServerProcess) -> Iterator[Client]:
    """A client of ``sqlite_server``."""
    with sqlite_server.client() as c:
        yield c


@pytest.fixture(scope="module")
def memory_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    running = start_server_process(tmp_path_factory.mktemp("memory"), "--memory")
    yield running
    running.stop()


@pytest.fixture
def two_postgres_servers(
    postgres_dsn: str, tmp_path: Path
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    first = start_server_process(tmp_path, "--postgres", postgres_dsn)
    second = start_server_process(tmp_path, "--postgres", postgres_dsn)
    yield first, second
    first.stop()
    second.stop()


# -- end-to-end tests ----------------------------------------------------------------------

SERVER_FIXTURES = frozenset(
    {"sqlite_server", "memory_server", "two_postgres_servers", "web", "browser"}
)
"""Fixtures that start a server process, a ``gamelog web`` process or a browser."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)


_running: list[pytest.Item] = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    _running.append(item)
    try:
        return (yield)
    finally:
        _running.pop()


def _what_it_starts(args: Any) -> str | None:
    command = " ".join(map(str, args)) if isinstance(args, list | tuple) else str(args)
    if "gamelog.cli.main" in command:
        return "the gamelog command"
    if "playwright" in command:
        return "a browser"
    return None


@pytest.fixture(scope="session", autouse=True)
def signing_keys_in_a_temporary_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[None]:
    """PostgreSQL servers keep their signing key under $XDG_CONFIG_HOME
    (storage/signing_key.py): the tests' servers keep theirs in a folder of
    the session's, never in the home of whoever runs the tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
        yield


@pytest.fixture(scope="session", autouse=True)
def e2e_guard() -> Iterator[None]:
    """A test not marked ``e2e`` that starts a gamelog process or a browser fails
    at once, so that ``pytest -m "not e2e"`` runs in-process tests alone."""

    class GuardedPopen(subprocess.Popen):
        def __init__(self, args: Any, *rest: Any, **options: Any) -> None:
            started = _what_it_starts(args)
            test = _running[-1] if _running else None
            if started and test is not None and test.get_closest_marker("e2e") is None:
                pytest.fail(f"{test.nodeid} starts {started}: mark it @pytest.mark.e2e")
            super().__init__(args, *rest, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subprocess, "Popen", GuardedPopen)
        yield


# -- PostgreSQL ----------------------------------------------------------------------------


def _postgres_reachable() -> str | None:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_DSN, connect_timeout=3):
            return None
    except Exception as error:  # any failure means: no server here
        return str(error)


@pytest.fixture(scope="session")
def postgres_dsn() -> Iterator[str]:
    """A fresh database for this test session, dropped afterwards.

    Skipped when no PostgreSQL is reachable, unless GAMELOG_REQUIRE_POSTGRES=1
    (as .ci/run sets), where that is a failure."""
    problem = _postgres_reachable()
    if problem is not None:
        if os.environ.get("GAMELOG_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required but not reachable: {problem}")
        pytest.skip(f"no PostgreSQL reachable: {problem}")
    import psycopg

    name = f"gamelog_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"host=127.0.0.1 port=5432 user=postgres dbname={name}"
    finally:
        with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- proof for .ci/run that the PostgreSQL tests ran ------------------------------------

_postgres_outcomes: dict[str, int] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "postgres" in report.keywords and (report.when == "call" or report.outcome == "skipped"):
        _postgres_outcomes[report.outcome] = _postgres_outcomes.get(report.outcome, 0) + 1


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write how the PostgreSQL-marked tests ended (the controller only)."""
    summary = os.environ.get("GAMELOG_POSTGRES_SUMMARY")
    if summary and not hasattr(session.config, "workerinput"):
        Path(summary).write_text(
            " ".join(f"{k}={v}" for k, v in sorted(_postgres_outcomes.items())) + "\n"
        )
