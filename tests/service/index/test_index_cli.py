"""``gamelog list`` and ``gamelog reindex`` for real, and the index after kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.process import GAMELOG, ServerProcess, start_server_process
from gamelog.service.index.adapters import INDEX_FOLLOW
from gamelog.service.storage.settings import postgres_env, store_env
from gamelog.service.usecases.application import GameLog

from support.index_scan import TwoProcessHistory, from_index, full_scan

pytestmark = pytest.mark.e2e


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [*GAMELOG, *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "200"},
    )
    if check and result.returncode != 0:
        raise AssertionError(f"gamelog {' '.join(args)} failed: {result.stderr}{result.stdout}")
    return result


def listed(server: ServerProcess, *args: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        run("list", *args, "--json", "--server", server.address).stdout
    )
    return rows


# -- gamelog list ----------------------------------------------------------------------


def test_list_filters_and_prints_short_ids_and_tags(sqlite_server: ServerProcess) -> None:
    event = f"Open-{uuid.uuid4().hex[:6]}"
    with sqlite_server.client() as client:
        first = client.create("freeform", ["ann", "ben"], metadata={"Event": event, "Round": "1"})
        second = client.create(
            "three-too-many", ["ann", "cy"], metadata={"Event": event, "Round": "2"}
        )
        third = client.create("freeform", ["dee", "ben"], metadata={"Event": event, "Round": "2"})
        client.play(first.game_id, {"text": "e4"}, 0, first.seat_tokens["ann"])
        result = {"result": {"scores": {"dee": 1, "ben": 0}}}
        client.play(third.game_id, result, 0, third.arbiter_token)

    def ids(*args: str) -> list[str]:
        return [row["game_id"] for row in listed(sqlite_server, "--event", event, *args)]

    assert ids() == [third.game_id, second.game_id, first.game_id]
    assert ids("--round", "2") == [third.game_id, second.game_id]
    assert ids("--tag", "Round=1") == [first.game_id]
    assert ids("--tag", "Round=2", "--tag", f"Event={event}") == [third.game_id, second.game_id]
    assert ids("--game", "freeform") == [third.game_id, first.game_id]
    assert ids("--status", "finished") == [third.game_id]
    assert ids("--status", "running", "--player", "ann") == [second.game_id, first.game_id]
    assert ids("--limit", "1") == [third.game_id]
    (row,) = listed(sqlite_server, "--event", event, "--round", "1")
    assert (row["last_position"], row["status"], row["metadata"]) == (
        1,
        "running",
        {"Event": event, "Round": "1"},
    )
    table = run("list", "--event", event, "--server", sqlite_server.address).stdout
    for created in (first, second, third):
        assert created.game_id[:8] in table and created.game_id not in table
    assert f"Event={event}, Round=2" in table


@pytest.mark.parametrize("tag", ["Event", "=Open"])
def test_list_refuses_a_tag_that_is_no_pair(sqlite_server: ServerProcess, tag: str) -> None:
    refused = run("list", "--tag", tag, "--server", sqlite_server.address, check=False)
    assert refused.returncode == 2 and "KEY=VALUE" in refused.stderr


def test_list_refuses_an_unknown_status(sqlite_server: ServerProcess) -> None:
    refused = run("list", "--status", "paused", "--server", sqlite_server.address, check=False)
    assert refused.returncode == 2 and "running" in refused.stderr


# -- gamelog reindex ---------------------------------------------------------------------


def open_app(env: dict[str, str]) -> GameLog:
    return GameLog(env={**env, INDEX_FOLLOW: "n"})


def test_reindex_needs_a_store_it_can_find(tmp_path: Path) -> None:
    missing = run("reindex", "--db", str(tmp_path / "nothing.sqlite"), check=False)
    assert missing.returncode == 2 and "does not exist" in missing.stderr


# -- kill -9 during writes, then reindex ------------------------------------------------


def _write_until_killed(
    server: ServerProcess,
    restart: Callable[[], ServerProcess],
    env: dict[str, str],
    store_args: list[str],
) -> None:
    """Random creates, moves, finishes, forks and imports from four clients,
    and listings (which bring the index up to the log) from a fifth, until
    the server is killed with SIGKILL. After a restart the index equals a
    full scan of the log, and ``gamelog reindex`` rebuilds exactly that index."""
    killed = threading.Event()
    errors: list[BaseException] = []
    done = [0]

    def write(seed: int) -> None:
        try:
            with server.client() as client:
                history = TwoProcessHistory([client], seed)
                history.create()
                while not killed.is_set():
                    history.step()
                    done[0] += 1
        except BaseException as error:
            if not killed.is_set():
                errors.append(error)

    def list_() -> None:
        try:
            with server.client() as client:
                while not killed.is_set():
                    client.games(20)
        except BaseException as error:
            if not killed.is_set():
                errors.append(error)

    threads = [threading.Thread(target=write, args=(seed,)) for seed in range(4)]
    threads.append(threading.Thread(target=list_))
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while done[0] < 80 and time.monotonic() < deadline and not errors:
        time.sleep(0.05)
    killed.set()
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(10)
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    assert done[0] >= 80

    revived = restart()
    try:
        with revived.client() as client:
            client.games(1)
    finally:
        revived.stop()
    app = open_app(env)
    try:
        live = from_index(app)
        assert live == full_scan(app)
    finally:
        app.close()
    rebuilt = json.loads(run("reindex", *store_args, "--json").stdout)
    assert rebuilt["games"] == len(live)
    app = open_app(env)
    try:
        assert from_index(app) == live
    finally:
        app.close()


def test_reindex_after_kill_9_during_writes_gives_the_same_index_on_sqlite(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "killed.sqlite")
    server = start_server_process(tmp_path, "--db", db)
    _write_until_killed(
        server,
        lambda: start_server_process(tmp_path, "--db", db),
        store_env(db=db),
        ["--db", db],
    )


@pytest.mark.postgres
def test_reindex_after_kill_9_during_writes_gives_the_same_index_on_postgres(
    tmp_path: Path, postgres_dsn: str
) -> None:
    server = start_server_process(tmp_path, "--postgres", postgres_dsn)
    _write_until_killed(
        server,
        lambda: start_server_process(tmp_path, "--postgres", postgres_dsn),
        postgres_env(postgres_dsn),
        ["--postgres", postgres_dsn],
    )
