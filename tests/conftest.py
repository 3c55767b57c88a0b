"""Shared fixtures: in-memory and SQLite applications, real server processes,
and a throw-away PostgreSQL database per test session."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamelog.cli.client import Client
from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.service.usecases.application import GameLog

PG_ADMIN_DSN = os.environ.get(
    "GAMELOG_TEST_PG", "host=127.0.0.1 port=5432 user=postgres dbname=test"
)


@pytest.fixture
def app() -> Iterator[GameLog]:
    application = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    yield application
    application.close()


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[GameLog]:
    application = GameLog(
        env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "g.db")}
    )
    yield application
    application.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One real SQLite-backed server process shared by the gRPC tests."""
    folder = tmp_path_factory.mktemp("server")
    running = start_server_process(folder, "--db", str(folder / "gamelog.sqlite"))
    yield running
    running.stop()


@pytest.fixture
def client(server: ServerProcess) -> Iterator[Client]:
    with server.client() as c:
        yield c


# -- PostgreSQL ----------------------------------------------------------------------


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
