"""A damaged or full store: a stored game that cannot be read answers DATA_LOSS
and never breaks calls about other games; a full store refuses with
RESOURCE_EXHAUSTED, keeps what it stored, and takes moves again once there
is room.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.service.model.refusals import StorageFull
from gamelog.service.rpc.status import status_for
from gamelog.service.usecases.application import GameLog

from support.refusals import refused
from support.two_seats import SEATS, finished_game


def test_a_full_store_refuses_with_resource_exhausted_and_recovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from eventsourcing import sqlite as es_sqlite

    limit: dict[str, int | None] = {"pages": None}
    original = es_sqlite.SQLiteConnectionPool._create_connection

    def limited(self: Any) -> Any:
        connection = original(self)
        if limit["pages"] is not None:
            connection._sqlite_conn.execute(f"PRAGMA max_page_count = {limit['pages']}")
        return connection

    monkeypatch.setattr(es_sqlite.SQLiteConnectionPool, "_create_connection", limited)
    db = tmp_path / "full.db"
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}
    app = GameLog(env=env)
    created = app.games.create_game("freeform", SEATS)
    app.close()
    (pages,) = sqlite3.connect(db).execute("PRAGMA page_count").fetchone()
    limit["pages"] = pages
    app = GameLog(env=env)
    big = {"say": "x" * 60_000}
    with pytest.raises(StorageFull):
        for position in range(20):
            app.games.play(created.game_id, created.tokens["ann"], big, position)
    stored = app.queries.state_at(created.game_id).position
    app.close()
    assert status_for(StorageFull("storage-full", "")).code.name == "RESOURCE_EXHAUSTED"
    limit["pages"] = None
    app = GameLog(env=env)
    assert app.queries.state_at(created.game_id).position == stored
    app.games.play(created.game_id, created.tokens["ann"], {"say": "room again"}, stored)
    assert app.queries.audit(created.game_id).ok
    app.close()


@pytest.fixture
def damaged_store(tmp_path: Path) -> Iterator[tuple[ServerProcess, str, str, str]]:
    """Three finished games in a SQLite file, two of them damaged on disk:
    one holds bytes that are no event at all, one a record whose events are
    malformed at position 2."""
    db = tmp_path / "g.db"
    server = start_server_process(tmp_path, "--db", str(db))
    with server.client() as client:
        garbled, malformed, healthy = (finished_game(client, seed=s).game_id for s in (21, 22, 23))
        client.fork(healthy, 2)
    server.stop()

    def stored_id(game_id: str) -> str:
        return game_id.replace("-", "")

    with sqlite3.connect(db) as conn:
        where = "WHERE originator_id = ? AND originator_version = ?"
        conn.execute(
            f"UPDATE stored_events SET state = ? {where}", (b'{"not": js', stored_id(garbled), 1)
        )
        (stored,) = conn.execute(
            f"SELECT state FROM stored_events {where}", (stored_id(malformed), 3)
        ).fetchone()
        event = json.loads(stored)
        event["record"]["events"] = [{"kind": "no type"}]
        conn.execute(
            f"UPDATE stored_events SET state = ? {where}",
            (json.dumps(event).encode(), stored_id(malformed), 3),
        )
    server = start_server_process(tmp_path, "--db", str(db))
    yield server, garbled, malformed, healthy
    server.stop()


@pytest.mark.e2e
def test_a_damaged_game_is_data_loss_and_the_others_keep_working(
    damaged_store: tuple[ServerProcess, str, str, str],
) -> None:
    server, garbled, malformed, healthy = damaged_store
    with server.client() as client:
        # The index read the damaged games before the damage, so it may still
        # list them; what matters is that listing the others keeps working.
        listed = [g.game_id for g in client.games(10_000)]
        assert healthy in listed
        assert len(client.tree(healthy).nodes) == 2 and client.export(healthy)["games"]
        for damaged, position in ((garbled, 0), (malformed, 2)):
            for call in (client.state, client.records, client.export, client.audit):
                error = refused(call, damaged)
                assert error.code == "DATA_LOSS", (call, error)
                assert damaged in error.message and f"position {position}" in error.message
