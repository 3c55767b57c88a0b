"""Take-backs: an undo is an event, never a deletion.

The game's undo policy (none, the opponents' consent, the arbiter, free)
decides who may take moves back; no policy lets a seat take back across a
draw without the arbiter (the seat has seen the cards); a request still
pending lapses when the game ends; and a take-back is audited like a move,
in a record file and in the store (docs/design.md, "The log is immutable").
The same policies are held in process, through gRPC and through the
``gamelog undo`` command.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import ApiError, Client
from gamelog.cli.process import ServerProcess
from gamelog.replay.record import seal
from gamelog.service.model.refusals import PermissionDenied, Refused
from gamelog.service.usecases.application import GameLog

from support.cli import gamelog, gamelog_json
from support.refusals import refused
from support.two_seats import SEATS, finished_game, new_game, play_cards

# -- each policy, in process ---------------------------------------------------------


def test_undo_policy_none_refuses_even_a_request(memory_app: GameLog) -> None:
    created = new_game(memory_app, "none")
    play_cards(memory_app, created, 2)
    with pytest.raises(Refused) as refused:
        memory_app.games.take_back(created.game_id, created.tokens["ann"], "request", 1, 2)
    assert refused.value.code == "undo-not-allowed"


def test_undo_policy_arbiter_lets_only_the_arbiter(memory_app: GameLog) -> None:
    created = new_game(memory_app, "arbiter")
    play_cards(memory_app, created, 3)
    with pytest.raises(PermissionDenied):
        memory_app.games.take_back(created.game_id, created.tokens["ann"], "request", 1, 3)
    outcome = memory_app.games.take_back(created.game_id, created.arbiter_token, "request", 1, 3)
    assert outcome.taken_back and outcome.position == 4
    assert (
        memory_app.queries.state_at(created.game_id).state
        == memory_app.queries.state_at(created.game_id, 1).state
    )
    assert [r["kind"] for r in memory_app.store.records(created.game_id)][-1] == "takeback"


def test_undo_policy_free_appends_and_deletes_nothing(memory_app: GameLog) -> None:
    created = new_game(memory_app, "free")
    play_cards(memory_app, created, 4)
    before = memory_app.store.records(created.game_id)
    memory_app.games.take_back(created.game_id, created.tokens["ben"], "request", 2, 4)
    after = memory_app.store.records(created.game_id)
    assert after[:5] == before
    assert after[5]["kind"] == "takeback" and after[5]["to_position"] == 2
    assert memory_app.queries.state_at(created.game_id).ply == 2
    # Play goes on from the restored position.
    play_cards(memory_app, created, 1)
    assert memory_app.queries.state_at(created.game_id).ply == 3
    assert memory_app.queries.audit(created.game_id).ok


def test_undo_policy_consent_needs_every_other_seat(memory_app: GameLog) -> None:
    created = new_game(memory_app, "consent")
    play_cards(memory_app, created, 3)
    game_id = created.game_id
    first = memory_app.games.take_back(game_id, created.tokens["ann"], "request", 1, 3)
    assert not first.taken_back
    assert memory_app.queries.view(game_id, None).pending_undo == {
        "seat": "ann",
        "to_position": 1,
        "approved": [],
    }
    with pytest.raises(Refused):
        memory_app.games.take_back(game_id, created.tokens["ann"], "approve", 0, 4)
    declined = memory_app.games.take_back(game_id, created.tokens["ben"], "decline", 0, 4)
    assert not declined.taken_back and memory_app.queries.view(game_id, None).pending_undo is None
    memory_app.games.take_back(game_id, created.tokens["ann"], "request", 1, 5)
    approved = memory_app.games.take_back(game_id, created.tokens["ben"], "approve", 0, 6)
    assert approved.taken_back
    kinds = [r["kind"] for r in memory_app.store.records(game_id)][4:]
    assert kinds == ["undo-request", "undo-decline", "undo-request", "undo-approve", "takeback"]
    assert (
        memory_app.queries.state_at(game_id).state == memory_app.queries.state_at(game_id, 1).state
    )
    assert memory_app.queries.audit(game_id).ok


def test_no_take_back_across_a_draw_without_the_arbiter(memory_app: GameLog) -> None:
    """Each player refills after playing six cards: those moves draw hidden cards."""
    created = new_game(memory_app, "free")
    game_id = created.game_id
    drew_at = None
    while drew_at is None:
        play_cards(memory_app, created, 1)
        last = memory_app.store.records(game_id)[-1]
        if any(e["type"] == "CardsDrawn" for e in last["events"]):
            drew_at = last["position"]
    with pytest.raises(Refused) as refused:
        memory_app.games.take_back(game_id, created.tokens["ann"], "request", drew_at - 1, drew_at)
    assert refused.value.code == "takeback-across-hidden"
    drawn = memory_app.store.records(game_id)[drew_at]
    memory_app.games.take_back(game_id, created.arbiter_token, "request", drew_at - 1, drew_at)
    # The same move at the same position draws the same cards again.
    memory_app.games.play(game_id, created.tokens[drawn["seat"]], drawn["move"], drew_at + 1)
    replayed = memory_app.store.records(game_id)[-1]
    assert replayed["ply"] == drawn["ply"] and replayed["events"] == drawn["events"]


# -- each policy, through gRPC and the command line ----------------------------------


@pytest.mark.parametrize("policy", ["none", "consent", "arbiter", "free"])
def test_undo_policies_through_grpc(client: Client, policy: str) -> None:
    created = client.create("three-too-many", ["ann", "ben"], undo_policy=policy, seed_hex="0102")
    gid = created.game_id
    tokens = created.seat_tokens
    drew_at = None
    while True:  # play until a move draws cards, then one move that does not
        state = client.state(gid)
        token = tokens[state.to_act[0]]
        played = client.play(gid, client.legal_moves(gid, token)[0], state.last_position, token)
        drew = any(
            e["type"] == "CardsDrawn" for e in json.loads(played.records[0].record_json)["events"]
        )
        if drew:
            drew_at = played.position
        elif drew_at is not None:
            break
    last = played.position
    with pytest.raises(ApiError) as across:
        client.take_back(gid, "request", drew_at - 1, last, tokens["ann"])
    assert across.value.reason in {"undo-not-allowed", "arbiter-only", "takeback-across-hidden"}
    outcome: dict[str, Any] = {}
    if policy == "none":
        with pytest.raises(ApiError) as refused:
            client.take_back(gid, "request", last - 1, last, tokens["ann"])
        assert refused.value.code == "FAILED_PRECONDITION"
    elif policy == "arbiter":
        with pytest.raises(ApiError) as refused:
            client.take_back(gid, "request", last - 1, last, tokens["ann"])
        assert refused.value.code == "PERMISSION_DENIED"
        done = client.take_back(gid, "request", last - 1, last, created.arbiter_token)
        outcome["taken_back"] = done.taken_back
    elif policy == "free":
        done = client.take_back(gid, "request", last - 1, last, tokens["ben"])
        outcome["taken_back"] = done.taken_back
    else:
        asked = client.take_back(gid, "request", last - 1, last, tokens["ann"])
        assert not asked.taken_back
        done = client.take_back(gid, "approve", 0, asked.position, tokens["ben"])
        outcome["taken_back"] = done.taken_back
    if policy != "none":
        assert outcome["taken_back"]
        assert client.state(gid).ply == client.state(gid, at=last - 1).ply
    assert client.audit(gid).ok


def _play_until_a_move(server: ServerProcess, created: dict[str, Any], draws: bool) -> int:
    """Play each seat's first legal move (through the API, for speed) until a
    move draws cards (``draws``) or draws none; returns its position."""
    gid = created["game_id"]
    with server.client() as client:
        while True:
            state = client.state(gid)
            token = created["seat_tokens"][state.to_act[0]]
            move = client.legal_moves(gid, token)[0]
            played = client.play(gid, move, state.last_position, token)
            record = json.loads(played.records[0].record_json)
            if any(e["type"] == "CardsDrawn" for e in record["events"]) == draws:
                return int(played.position)


def _drawing_game(server: ServerProcess, undo: str) -> tuple[str, dict[str, Any], int]:
    """A two-player game played until a move draws cards; returns its position."""
    created = gamelog_json(
        server, "new", "three-too-many", "--players", "ann,ben", "--undo", undo, "--seed", "5"
    )
    return created["game_id"], created, _play_until_a_move(server, created, draws=True)


@pytest.mark.parametrize("policy", ["none", "consent", "arbiter", "free"])
def test_undo_by_policy_and_never_across_a_draw(sqlite_server: ServerProcess, policy: str) -> None:
    gid, created, drew_at = _drawing_game(sqlite_server, policy)
    ann, ben = created["seat_tokens"]["ann"], created["seat_tokens"]["ben"]
    across = gamelog(
        sqlite_server, "undo", gid, "request", "--to", str(drew_at - 1), "--token", ann, check=False
    )
    assert across.returncode == 1
    expected = {
        "none": "undo-not-allowed",
        "consent": "takeback-across-hidden",
        "arbiter": "arbiter-only",
        "free": "takeback-across-hidden",
    }[policy]
    assert expected in across.stderr
    # Play on until a move draws nothing: taking that one back crosses no draw.
    target = str(_play_until_a_move(sqlite_server, created, draws=False) - 1)
    if policy == "none":
        refused = gamelog(
            sqlite_server, "undo", gid, "request", "--to", target, "--token", ann, check=False
        )
        assert refused.returncode == 1 and "undo-not-allowed" in refused.stderr
    elif policy == "consent":
        asked = gamelog_json(sqlite_server, "undo", gid, "request", "--to", target, "--token", ann)
        assert not asked["taken_back"]
        approved = gamelog_json(sqlite_server, "undo", gid, "approve", "--token", ben)
        assert approved["taken_back"]
    elif policy == "arbiter":
        refused = gamelog(
            sqlite_server, "undo", gid, "request", "--to", target, "--token", ann, check=False
        )
        assert refused.returncode == 1 and "arbiter-only" in refused.stderr
        done = gamelog_json(
            sqlite_server,
            "undo",
            gid,
            "request",
            "--to",
            target,
            "--token",
            created["arbiter_token"],
        )
        assert done["taken_back"]
    else:
        done = gamelog_json(sqlite_server, "undo", gid, "request", "--to", target, "--token", ben)
        assert done["taken_back"]
    if policy != "none":
        assert (
            gamelog_json(sqlite_server, "show", gid)["ply"]
            == gamelog_json(sqlite_server, "show", gid, "--at", target)["ply"]
        )
    # The arbiter may order a take-back across the draw under any policy.
    ordered = gamelog_json(
        sqlite_server,
        "undo",
        gid,
        "request",
        "--to",
        str(drew_at - 1),
        "--token",
        created["arbiter_token"],
    )
    assert ordered["taken_back"]
    assert gamelog(sqlite_server, "audit", gid).returncode == 0


# -- at the end ----------------------------------------------------------------------


def test_a_pending_request_lapses_at_the_end_and_no_answer_comes_after(
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


# -- audited like moves --------------------------------------------------------------


def test_a_forged_take_back_does_not_audit_clean(client: Client) -> None:
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


def test_a_take_back_cache_edited_in_the_store_fails_the_audit(tmp_path: Path) -> None:
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
