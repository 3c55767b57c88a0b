"""Audit: a changed byte anywhere in a stored game is found and named by its
position; a failed audit of a running game shows what was stored only to its
arbiter; the server audits a running game with its secret seed, which a
seat's copy of the record cannot.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gamelog.cli.process import ServerProcess
from gamelog.service.usecases.application import GameLog

from support.cli import gamelog, gamelog_json
from support.random_play import random_game
from support.two_seats import new_game, play_cards


def test_audit_names_the_position_of_a_flipped_byte(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}
    app = GameLog(env=env)
    played = random_game(app, "three-too-many", 2, seed=3)
    game_id = played.game_id
    assert app.queries.audit(game_id).ok
    app.close()

    target = 9
    with sqlite3.connect(db) as conn:
        query = "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?"
        (state,) = (
            conn.execute(query, (game_id.hex, target + 1)).fetchone()
            or conn.execute(query, (str(game_id), target + 1)).fetchone()
        )
        data = bytearray(state)
        at = data.index(b'"card":') + len(b'"card":')
        data[at] = ord("1") if data[at] != ord("1") else ord("2")
        conn.execute("UPDATE stored_events SET state = ? WHERE state = ?", (bytes(data), state))
    fresh = GameLog(env=env)
    report = fresh.queries.audit(game_id)
    assert not report.ok
    assert report.first_difference is not None
    assert report.first_difference.position == target
    fresh.close()


def test_a_failed_audit_of_a_running_game_shows_stored_events_only_to_the_arbiter(
    tmp_path: Path,
) -> None:
    db = tmp_path / "g.db"
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}
    app = GameLog(env=env)
    created = new_game(app)
    play_cards(app, created, 4)
    app.close()
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT rowid, state FROM stored_events").fetchall()
        rowid, state = next((r, s) for r, s in rows if b'"card":' in s and b'"kind":"move"' in s)
        data = bytearray(state)
        at = data.index(b'"card":') + len(b'"card":')
        data[at] = ord("1") if data[at] != ord("1") else ord("2")
        conn.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (bytes(data), rowid))
    fresh = GameLog(env=env)
    as_spectator = fresh.queries.audit(created.game_id, None)
    as_arbiter = fresh.queries.audit(created.game_id, created.arbiter_token)
    fresh.close()
    assert not as_spectator.ok and not as_arbiter.ok
    assert as_spectator.first_difference is not None and as_arbiter.first_difference is not None
    assert as_spectator.first_difference.position == as_arbiter.first_difference.position
    assert as_spectator.first_difference.stored is None
    assert as_arbiter.first_difference.stored is not None


def test_the_server_audits_a_running_game_with_its_secret_seed(
    sqlite_server: ServerProcess, tmp_path: Path
) -> None:
    created = gamelog_json(sqlite_server, "new", "three-too-many", "--players", "ann,ben")
    with sqlite_server.client() as client:
        token = created["seat_tokens"]["ann"]
        client.play(created["game_id"], client.legal_moves(created["game_id"], token)[0], 0, token)
    for token_args in ([], ["--token", created["arbiter_token"]]):
        report = gamelog_json(sqlite_server, "audit", created["game_id"], *token_args)[0]
        assert report["ok"] and report["seed_checked"] and not report["deferred_positions"]
    # A copy without the seed (a seat's export) can only defer the seed checks.
    export = tmp_path / "ann.json"
    gamelog(sqlite_server, "export", created["game_id"], "-o", str(export), "--token", token)
    report = gamelog_json(sqlite_server, "audit", str(export))[0]
    assert report["ok"] and not report["seed_checked"]
