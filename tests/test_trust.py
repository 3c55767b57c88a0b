"""Trust, tried as an attacker would: one regression test per defect of the trust issue.

Each test goes through the public gRPC API (a real server process) or, where
the attack is on the store itself, through the store's own file. The numbers
name the defects; the brute force of hidden parts against every channel a seat
or spectator reads (defects 1, 2 and 15) is in ``test_leaks_all_games``.
"""

from __future__ import annotations

import copy
import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import ApiError, Client
from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.games.three_too_many.cards import NUMBER_CARDS
from gamelog.replay.audit import audit_records
from gamelog.replay.record import json_hash, seal
from gamelog.service.model.refusals import Refused, StorageFull
from gamelog.service.rpc.status import status_for
from gamelog.service.usecases.application import GameLog

from helpers import play_to_the_end

SEATS = ["ann", "ben"]


def refused(call: Any, *args: Any, **kwargs: Any) -> ApiError:
    with pytest.raises(ApiError) as error:
        call(*args, **kwargs)
    return error.value


def finished_game(client: Client, game: str = "three-too-many", seed: int = 3) -> Any:
    created = client.create(game, SEATS, seed_hex=seed.to_bytes(4, "big").hex())
    play_to_the_end(client, created, random.Random(seed))
    return created


def count_games(client: Client) -> int:
    return len(client.games(10_000))


def others_still_work(client: Client, game_id: str) -> None:
    """What a malformed or refused import must never break for other games."""
    assert any(g.game_id == game_id for g in client.games(10_000))
    assert client.tree(game_id).root_game_id
    assert client.export(game_id)["games"]


def make_deal(seats: list[str]) -> dict[str, Any]:
    rest = [c for c in NUMBER_CARDS if c not in (10, 46, 77)]
    hands, piles = {}, {}
    for i, seat in enumerate(seats):
        mine = rest[i * 20 : (i + 1) * 20]
        hands[seat], piles[seat] = mine[:8], mine[8:]
    return {"display": [10, 46, 77], "hands": hands, "piles": piles}


# -- 1. part hashes hide what they stand for -------------------------------------------


def test_1_an_explicit_deal_cannot_be_confirmed_from_its_options_hash(client: Client) -> None:
    deal = make_deal(SEATS)
    created = client.create("three-too-many", SEATS, {"deal": deal})
    spectator = client.records(created.game_id)[0]
    full = client.records(created.game_id, created.arbiter_token)[0]
    assert spectator["options"] is None and "options" not in spectator["salts"]
    assert full["options"]["deal"] == deal
    # The attacker's best guess is the truth itself: it does not match.
    assert json_hash(full["options"]) != spectator["options_hash"]
    assert full["salts"]["options"] not in json.dumps(spectator)


# -- 3, 4, 5. record files are untrusted input ------------------------------------------


@pytest.fixture
def export(client: Client) -> dict[str, Any]:
    created = finished_game(client)
    return dict(client.export(created.game_id))


def game_of(export: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(export["games"][0])


def with_games(export: dict[str, Any], *games: dict[str, Any]) -> dict[str, Any]:
    return {**export, "games": list(games)}


def test_3_a_malformed_import_is_refused_and_breaks_nothing(
    client: Client, export: dict[str, Any]
) -> None:
    bystander = client.create("freeform", SEATS).game_id
    bad_metadata = game_of(export)
    bad_metadata["records"] = bad_metadata["records"][:1]
    bad_metadata["records"][0]["metadata"] = 5
    bad_parent = game_of(export)
    bad_parent["records"] = bad_parent["records"][:1]
    bad_parent["records"][0]["parent"] = {"game_id": "x", "position": 0, "hash": "0" * 64}
    for game in (bad_metadata, bad_parent):
        error = refused(client.import_file, with_games(export, game))
        assert error.code in ("INVALID_ARGUMENT", "FAILED_PRECONDITION"), error
        others_still_work(client, bystander)


def test_4_an_import_stores_the_whole_file_or_nothing(
    client: Client, export: dict[str, Any]
) -> None:
    good = game_of(export)
    malformed = game_of(export)
    malformed["game_id"] = "second"
    malformed["records"][3]["events"] = "nonsense"
    before = count_games(client)
    error = refused(client.import_file, with_games(export, good, malformed))
    assert error.code == "INVALID_ARGUMENT" and "second" in error.message
    forged = game_of(export)
    forged["game_id"] = "second"
    forged["records"][-1]["result"]["scores"]["ann"] += 1
    refused(client.import_file, with_games(export, good, forged))
    assert count_games(client) == before


@pytest.mark.parametrize("seat", ["#arbiter", "ann\n", "a" * 300, "", "ANN"])
def test_5_an_import_meets_createGames_seat_names(
    client: Client, export: dict[str, Any], seat: str
) -> None:
    game = game_of(export)
    game["records"][0]["seats"] = [seat, "ann"] if seat == "ANN" else [seat, "ben"]
    error = refused(client.import_file, with_games(export, game))
    assert error.code == "INVALID_ARGUMENT" and "seat" in error.message


def test_5_an_import_meets_the_limits_on_tags_games_and_records(
    client: Client, export: dict[str, Any]
) -> None:
    game = game_of(export)
    game["records"][0]["metadata"] = {f"Tag{i}": "x" for i in range(20_000)}
    assert "tag" in refused(client.import_file, with_games(export, game)).message
    creation_only = game_of(export)
    creation_only["records"] = creation_only["records"][:1]
    many = [dict(creation_only, game_id=f"g{i}") for i in range(3_000)]
    assert "at most" in refused(client.import_file, with_games(export, *many)).message


# -- 6, 7. forks need their parent's line; grafting needs the parent's arbiter ----------


def test_6_a_fork_whose_parent_is_missing_is_refused_and_never_audits_clean(
    client: Client,
) -> None:
    created = client.create("three-too-many", SEATS)
    token = created.seat_tokens["ann"]
    client.play(created.game_id, client.legal_moves(created.game_id, token)[0], 0, token)
    fork = client.fork(created.game_id, 1, created.arbiter_token)
    data = client.export(fork.game_id, fork.arbiter_token)
    # The fork alone, its parent named by an id no store holds.
    data["games"][0]["records"][0]["parent"]["game_id"] = "nowhere"
    error = refused(client.import_file, data)
    assert error.code == "FAILED_PRECONDITION" and error.reason == "parent-missing"
    report = audit_records(data["games"][0]["records"], parent_records=None)
    assert not report.ok and "parent" in report.first_difference.problem


def test_7_grafting_onto_a_stored_game_needs_its_arbiter_token(client: Client) -> None:
    victim = finished_game(client, seed=7)
    attacker_fork = client.fork(victim.game_id, 3)
    branch = client.export(attacker_fork.game_id, attacker_fork.arbiter_token)
    assert branch["games"][0]["records"][0]["parent"]["game_id"] == victim.game_id
    error = refused(client.import_file, branch)
    assert error.code == "PERMISSION_DENIED" and error.reason == "graft-needs-arbiter"
    attacker_token = attacker_fork.arbiter_token
    assert refused(client.import_file, branch, attacker_token).code == "PERMISSION_DENIED"
    # The victim's own arbiter may graft; the victim's export still imports.
    client.import_file(branch, victim.arbiter_token)
    client.import_file(client.export(victim.game_id, victim.arbiter_token))


# -- 8. a running game's secret seed must match its commitment ---------------------------


def test_8_a_running_game_with_a_seed_that_breaks_its_commitment_is_refused(
    client: Client,
) -> None:
    created = client.create("three-too-many", SEATS)
    token = created.seat_tokens["ann"]
    client.play(created.game_id, client.legal_moves(created.game_id, token)[0], 0, token)
    data = client.export(created.game_id, created.arbiter_token)
    entry = data["games"][0]
    assert entry["secret_seed"] and entry["secret_seed_nonce"]
    client.import_file(data)  # the true secret imports
    entry["secret_seed"] = "00" * 32
    error = refused(client.import_file, data)
    assert error.reason == "audit-failed" and "commitment" in error.message


# -- 9. take-backs and undo steps are audited like moves ----------------------------------


def test_9_a_forged_take_back_does_not_audit_clean(client: Client) -> None:
    created = finished_game(client, seed=9)
    data = client.export(created.game_id)
    records = data["games"][0]["records"]
    # Under policy "none", a take-back by a seat before the end, re-chained.
    end = records.pop()
    forged = {
        "position": len(records),
        "kind": "takeback",
        "prev_hash": records[-1]["hash"],
        "to_position": 1,
        "by": "ann",
        "approved_by": ["ben"],
        "ply": 1,
        "time": end["time"],
    }
    records.append(seal(forged))
    end = seal(
        {
            **{k: v for k, v in end.items() if k not in ("hash", "salts")},
            "position": len(records),
            "prev_hash": records[-1]["hash"],
        }
    )
    records.append(end)
    error = refused(client.import_file, data)
    assert error.reason == "audit-failed" and "takeback" in error.message
    for by, approvals in (("mallory", ["ghost"]), ("ann", ["ghost"])):
        records[-2] = seal({**forged, "by": by, "approved_by": approvals})
        assert refused(client.import_file, data).code == "INVALID_ARGUMENT"


def test_9_a_take_back_cache_edited_in_the_store_fails_the_audit(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}
    app = GameLog(env=env)
    created = app.games.create_game("three-too-many", SEATS, undo_policy="free")
    game = app.queries.state_at(created.game_id)
    card = game.state.hands[0][0]
    app.games.play(created.game_id, created.tokens["ann"], {"card": card}, 0)
    app.games.take_back(created.game_id, created.arbiter_token, "request", 0, 1)
    assert app.queries.audit(created.game_id).ok
    app.close()
    with sqlite3.connect(db) as conn:
        topic = "%MovesTakenBack"
        (stored,) = conn.execute(
            "SELECT state FROM stored_events WHERE topic LIKE ?", (topic,)
        ).fetchone()
        event = json.loads(stored)
        hands = event["restored_state"]["f"]["hands"]["~t"][0]["~t"]
        assert hands[0] == card
        hands[0] = 60  # a start card, never dealt: a card ann never had
        conn.execute(
            "UPDATE stored_events SET state = ? WHERE topic LIKE ?",
            (json.dumps(event).encode(), topic),
        )
    reader = GameLog(env=env)
    report = reader.queries.audit(created.game_id)
    assert not report.ok and report.first_difference.position == 2
    assert "cached" in report.first_difference.problem
    reader.close()


# -- 10, 11. rights come from the token's own game; a finished game takes no undo ---------


def test_10_exporting_a_parent_never_shows_its_forks_beyond_a_spectator(
    client: Client,
) -> None:
    parent = finished_game(client, seed=10)
    fork = client.fork(parent.game_id, 2)  # anyone may fork a finished game
    token = fork.seat_tokens["ann"]
    client.play(fork.game_id, client.legal_moves(fork.game_id, token)[0], 0, token)
    for parent_token in (parent.seat_tokens["ann"], parent.arbiter_token, None):
        data = client.export(parent.game_id, parent_token)
        assert [g["game_id"] for g in data["games"]] == [parent.game_id]
        assert data["left_out"] == [
            {
                "game_id": fork.game_id,
                "reason": "running, and this token may not see its hidden parts",
            }
        ]
        client.import_file(data)  # a stranger's fork never spoils the parent's export
    # A spectator's copy of everything shows the fork as a spectator sees it.
    redacted = client.export(parent.game_id, parent.arbiter_token, redacted=True)
    branch = next(g for g in redacted["games"] if g["game_id"] == fork.game_id)
    assert "secret_seed" not in branch and branch["records"] == client.records(fork.game_id)
    assert client.export(fork.game_id, fork.arbiter_token)["games"][0]["secret_seed"]


def test_11_a_pending_request_lapses_at_the_end_and_no_answer_comes_after(
    client: Client,
) -> None:
    created = client.create("freeform", SEATS, undo_policy="consent")
    tokens = created.seat_tokens
    client.play(created.game_id, {"say": "a"}, 0, tokens["ann"])
    client.play(created.game_id, {"say": "b"}, 1, tokens["ben"])
    client.take_back(created.game_id, "request", 1, 2, tokens["ann"])
    result = {"result": {"scores": {"ann": 1, "ben": 0}}}
    client.play(created.game_id, result, 3, created.arbiter_token)
    state = client.state(created.game_id)
    assert state.finished and not state.pending_undo_json
    for action in ("decline", "approve"):
        at = state.last_position
        error = refused(client.take_back, created.game_id, action, 1, at, tokens["ben"])
        assert error.code == "FAILED_PRECONDITION" and error.reason == "game-over"
    assert client.audit(created.game_id).ok
    client.import_file(client.export(created.game_id))


# -- 12, 13. refusals that say what is wrong ----------------------------------------------


def test_12_bad_input_gets_a_clear_refusal_never_internal(
    client: Client, export: dict[str, Any]
) -> None:
    created = client.create("freeform", SEATS)
    ann = created.seat_tokens["ann"]
    surrogate = '{"say": "\\ud800"}'
    stub = client.stub
    from gamelog.cli.client import api_error, bearer
    from gamelog.v1 import gamelog_pb2 as pb

    def raw(name: str, request: Any, token: str | None = None) -> ApiError:
        try:
            getattr(stub, name)(request, metadata=bearer(token), timeout=30)
        except Exception as error:
            return api_error(error)  # type: ignore[arg-type]
        raise AssertionError(f"{name} accepted bad input")

    assert (
        raw("PlayMove", pb.PlayMoveRequest(game_id=created.game_id, move_json=surrogate), ann).code
        == "INVALID_ARGUMENT"
    )
    options = pb.CreateGameRequest(
        game="freeform", seats=SEATS, options_json='{"title": "\\udfff"}'
    )
    assert raw("CreateGame", options).code == "INVALID_ARGUMENT"
    cases = []
    running = client.create("three-too-many", SEATS)
    running_file = client.export(running.game_id, running.arbiter_token)
    running_file["games"][0]["secret_seed"] = "zz"
    cases.append(running_file)
    no_kind = copy.deepcopy(export)
    del no_kind["games"][0]["records"][1]["kind"]
    cases.append(no_kind)
    unknown_set = copy.deepcopy(export)
    unknown_set["games"][0]["records"][0]["options"]["component_set"] = "three-too-many/nope"
    cases.append(unknown_set)
    for data in cases:
        error = refused(client.import_file, data)
        assert error.code in ("INVALID_ARGUMENT", "FAILED_PRECONDITION"), error


def test_12_a_full_store_refuses_with_resource_exhausted_and_recovers(
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


@pytest.mark.parametrize(
    ("seats", "reason"),
    [(["ann\n", "ben"], "bad-seat-name"), (["ann", "ANN"], "duplicate-seat")],
)
def test_13_seat_names_hold_the_documented_pattern_exactly(
    client: Client, seats: list[str], reason: str
) -> None:
    error = refused(client.create, "three-too-many", seats)
    assert (error.code, error.reason) == ("INVALID_ARGUMENT", reason)


# -- defence in depth: a damaged stored game never breaks calls about the others ----------


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


def test_a_refused_command_is_a_refusal_not_an_internal_error() -> None:
    assert status_for(Refused("game-over", "over")).code.name == "FAILED_PRECONDITION"
