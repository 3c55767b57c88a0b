"""PostgreSQL: moves are written through one kept connection (service/storage/pg_recorder.py).

The recorder keeps a connection for writing instead of taking the next one of
its pool for every transaction. These tests hold it to what the pool gave for
free: a connection that dies is replaced and the move is still stored once; a
lost race for a position is still a conflict; several threads writing at once
all get their moves stored.

Marked ``postgres``: required under .ci/run.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from gamelog.service.model.refusals import Conflict
from gamelog.service.rpc.server import open_application
from gamelog.service.storage.settings import postgres_env
from gamelog.service.usecases.application import GameLog

pytestmark = pytest.mark.postgres


def _terminate(dsn: str, pid: int) -> None:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as admin:
        row = admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()
        assert row == (True,)


def _audit(app: GameLog, game_id: Any) -> Any:
    return app.queries.audit(game_id)


def test_moves_share_one_writer_connection(postgres_app: GameLog) -> None:
    created = postgres_app.games.create_game("freeform", ["ann", "ben"])
    pids = set()
    for position in range(6):
        seat = ("ann", "ben")[position % 2]
        postgres_app.games.play(created.game_id, created.tokens[seat], {"note": position}, position)
        pids.add(postgres_app.store.recorder.writer_backend_pid)  # type: ignore[attr-defined]
    assert len(pids) == 1 and None not in pids


def test_a_writer_connection_that_died_is_replaced_and_the_move_stored_once(
    postgres_app: GameLog, postgres_dsn: str
) -> None:
    created = postgres_app.games.create_game("freeform", ["ann", "ben"])
    postgres_app.games.play(created.game_id, created.tokens["ann"], {"note": 1}, 0)
    dead = postgres_app.store.recorder.writer_backend_pid  # type: ignore[attr-defined]
    assert dead is not None
    _terminate(postgres_dsn, dead)

    played = postgres_app.games.play(created.game_id, created.tokens["ben"], {"note": 2}, 1)

    assert played.position == 2
    assert postgres_app.store.recorder.writer_backend_pid not in (None, dead)  # type: ignore[attr-defined]
    records = postgres_app.store.records(created.game_id)
    assert [r["position"] for r in records] == [0, 1, 2]
    assert _audit(postgres_app, created.game_id).ok


def test_a_lost_race_through_the_writer_is_a_conflict_and_the_writer_goes_on(
    postgres_dsn: str,
) -> None:
    first = open_application(postgres_env(postgres_dsn))
    second = open_application(postgres_env(postgres_dsn))
    try:
        created = first.games.create_game("freeform", ["ann", "ben"])
        token = created.tokens["ann"]
        # Both processes hold the game at position 0 (the second reads it now).
        assert second.queries.view(created.game_id, token).position == 0
        second.games.create_game("freeform", ["cy"])  # the second's writer is open
        writer = second.store.recorder.writer_backend_pid  # type: ignore[attr-defined]
        first.games.play(created.game_id, token, {"note": "first"}, 0)

        with pytest.raises(Conflict):
            second.games.play(created.game_id, token, {"note": "second"}, 0)
        # A refused insert leaves the connection good: it is kept.
        assert second.store.recorder.writer_backend_pid == writer  # type: ignore[attr-defined]

        ben = created.tokens["ben"]
        assert second.games.play(created.game_id, ben, {"note": "then"}, 1).position == 2
        records = second.store.records(created.game_id)
        assert [r.get("move") for r in records[1:]] == [{"note": "first"}, {"note": "then"}]
    finally:
        first.close()
        second.close()


def test_threads_writing_at_once_all_get_their_moves_stored(postgres_app: GameLog) -> None:
    games = [postgres_app.games.create_game("freeform", ["ann", "ben"]) for _ in range(8)]
    failures: list[BaseException] = []

    def play_out(created: Any) -> None:
        try:
            for position in range(10):
                seat = ("ann", "ben")[position % 2]
                postgres_app.games.play(
                    created.game_id, created.tokens[seat], {"n": position}, position
                )
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=play_out, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures
    for created in games:
        assert postgres_app.store.records(created.game_id)[-1]["position"] == 10
        assert _audit(postgres_app, created.game_id).ok


def test_closing_the_application_gives_the_writer_back(postgres_dsn: str) -> None:
    app = open_application(postgres_env(postgres_dsn))
    created = app.games.create_game("freeform", ["ann", "ben"])
    app.games.play(created.game_id, created.tokens["ann"], {"note": 1}, 0)
    assert app.store.recorder.writer_backend_pid is not None  # type: ignore[attr-defined]
    app.close()
    assert app.store.recorder.writer_backend_pid is None  # type: ignore[attr-defined]
