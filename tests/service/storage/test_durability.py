"""Nothing acknowledged is ever lost: kill -9 during a stream of moves from
several clients, restart, and every acknowledged move is there and the games
audit clean; SQLite commits with synchronous=FULL. (A graceful stop on
SIGTERM: rpc/test_shutdown.py.)"""

from __future__ import annotations

import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import ApiError
from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.service.storage.settings import store_env


def _play_until_stopped(
    server: ServerProcess,
    game: Any,
    stop: threading.Event,
    acked: list[tuple[int, str]],
    seed: int,
) -> None:
    chooser = random.Random(seed)
    gid = game.game_id
    try:
        with server.client() as client:
            while not stop.is_set():
                state = client.state(gid)
                if state.finished:
                    return
                token = game.seat_tokens[state.to_act[0]]
                move = chooser.choice(client.legal_moves(gid, token))
                played = client.play(gid, move, state.last_position, token)
                record = played.records[0]
                acked.append((record.position, record.record_json))
    except ApiError:
        return  # the server went away mid-call: that move was not acknowledged


def _kill_during_moves(server: ServerProcess, restart: Any, clients: int = 4) -> None:
    with server.client() as setup:
        games = [setup.create("three-too-many", ["ann", "ben", "cy"]) for _ in range(clients)]
    stop = threading.Event()
    acked: list[list[tuple[int, str]]] = [[] for _ in games]
    threads = [
        threading.Thread(target=_play_until_stopped, args=(server, g, stop, acked[i], i))
        for i, g in enumerate(games)
    ]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 20
    while sum(len(a) for a in acked) < 40 and time.monotonic() < deadline:
        time.sleep(0.05)
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(10)
    stop.set()
    for t in threads:
        t.join(30)
    assert sum(len(a) for a in acked) >= 40

    revived: ServerProcess = restart()
    try:
        with revived.client() as client:
            for game, acknowledged in zip(games, acked):
                import json

                stored = client.records(game.game_id, game.arbiter_token)
                by_position = {r["position"]: r for r in stored}
                for position, record_json in acknowledged:
                    assert by_position[position]["hash"] == json.loads(record_json)["hash"]
                report = client.audit(game.game_id)
                assert report.ok, report.report_json
                # Play goes on after the restart.
                state = client.state(game.game_id)
                if not state.finished:
                    token = game.seat_tokens[state.to_act[0]]
                    move = client.legal_moves(game.game_id, token)[0]
                    client.play(game.game_id, move, state.last_position, token)
    finally:
        revived.stop()


@pytest.mark.e2e
def test_kill_9_loses_no_acknowledged_move_on_sqlite(tmp_path: Path) -> None:
    db = str(tmp_path / "durable.sqlite")
    server = start_server_process(tmp_path, "--db", db)
    _kill_during_moves(server, lambda: start_server_process(tmp_path, "--db", db))


@pytest.mark.postgres
@pytest.mark.e2e
def test_kill_9_loses_no_acknowledged_move_on_postgres(postgres_dsn: str, tmp_path: Path) -> None:
    server = start_server_process(tmp_path, "--postgres", postgres_dsn)
    _kill_during_moves(server, lambda: start_server_process(tmp_path, "--postgres", postgres_dsn))


def test_sqlite_commits_are_synchronous_full(tmp_path: Path) -> None:
    """The durability mode the README states: WAL with synchronous=FULL."""
    from gamelog.service.usecases.application import GameLog

    app = GameLog(env=store_env(db=str(tmp_path / "x.sqlite")))
    with app.store.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 2
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0].lower() == "wal"
    app.close()
