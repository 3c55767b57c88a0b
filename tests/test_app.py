"""The service layer's promises, on the application directly: refusals write
nothing, positions guard against forks, retries are idempotent, undo follows
the game's policy and never crosses hidden information, forks never leak,
and audit finds a changed byte."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from gamelog.games.protocol import ARBITER
from gamelog.service.model.refusals import (
    Conflict,
    GamelogError,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    Refused,
    Unauthenticated,
)
from gamelog.service.usecases.answers import CreatedGame
from gamelog.service.usecases.application import GameLog

from helpers import play_random_game

SEATS = ["ann", "ben"]


def new_game(app: GameLog, undo: str = "none", seed: int = 7) -> CreatedGame:
    return app.games.create_game(
        "three-too-many", SEATS, undo_policy=undo, seed=seed.to_bytes(4, "big")
    )


def play_cards(app: GameLog, created: CreatedGame, count: int) -> None:
    """Play ``count`` moves, each seat its lowest card."""
    for _ in range(count):
        game = app.queries.state_at(created.game_id)
        seat = game.rules.to_act(game.state)[0]
        move = min(game.rules.legal_moves(game.state, seat), key=lambda m: m["card"])
        app.games.play(created.game_id, created.tokens[seat], move, game.position)


def to_act(app: GameLog, created: CreatedGame) -> str:
    game = app.queries.state_at(created.game_id)
    return str(game.rules.to_act(game.state)[0])


def test_creation_publishes_commitment_and_distinct_tokens(app: GameLog) -> None:
    short_seed = b"\x01\x02\x03"  # 2^24 candidates: found in seconds if the hash were bare
    created = app.games.create_game("three-too-many", SEATS, seed=short_seed)
    assert created.commitment != hashlib.sha256(short_seed).hexdigest()
    assert "seed_nonce" not in app.store.records(created.game_id)[0]
    tokens = [*created.tokens.values(), created.arbiter_token]
    assert len(set(tokens)) == 3 and all(len(t) >= 32 for t in tokens)
    assert app.access.viewer(created.game_id, created.tokens["ann"]) == "ann"
    assert app.access.viewer(created.game_id, created.arbiter_token) == ARBITER
    assert "seed" not in app.store.records(created.game_id)[0]


@pytest.mark.parametrize(
    ("game", "seats", "options", "reason"),
    [
        ("chess", SEATS, {}, "unknown-game"),
        ("three-too-many", ["solo"], {}, "bad-player-count"),
        ("three-too-many", ["a", "b", "c", "d", "e"], {}, "bad-player-count"),
        ("three-too-many", ["ann", "ann"], {}, "duplicate-seat"),
        ("three-too-many", ["ann", "#arbiter"], {}, "bad-seat-name"),
        ("three-too-many", ["ann", ""], {}, "bad-seat-name"),
        ("three-too-many", SEATS, {"deal": "nonsense"}, None),
    ],
)
def test_bad_creation_is_refused_and_stores_nothing(
    app: GameLog, game: str, seats: list[str], options: dict[str, Any], reason: str | None
) -> None:
    with pytest.raises(InvalidArgument) as refused:
        app.games.create_game(game, seats, options)
    if reason:
        assert refused.value.code == reason
    assert app.listing.list_games().games == []


def test_refused_moves_store_nothing(app: GameLog) -> None:
    created = new_game(app)
    game_id = created.game_id
    before = app.store.records(game_id)
    seat = to_act(app, created)
    other = next(s for s in SEATS if s != seat)
    hand = app.queries.view(game_id, created.tokens[seat]).view
    bad_calls: list[tuple[type[GamelogError], Any]] = [
        (PermissionDenied, lambda: app.games.play(game_id, created.tokens[other], {"card": 1}, 0)),
        (Refused, lambda: app.games.play(game_id, created.tokens[seat], {"card": 999}, 0)),
        (Refused, lambda: app.games.play(game_id, created.tokens[seat], {"nonsense": True}, 0)),
        (InvalidArgument, lambda: app.games.play(game_id, created.tokens[seat], [1, 2], 0)),
        (Conflict, lambda: app.games.play(game_id, created.tokens[seat], {"card": 1}, 5)),
        (Unauthenticated, lambda: app.games.play(game_id, "garbage", {"card": 1}, 0)),
        (Unauthenticated, lambda: app.games.play(game_id, None, {"card": 1}, 0)),
        (NotFound, lambda: app.games.play(created.game_id.__class__(int=1), "x", {"card": 1}, 0)),
    ]
    for error_class, call in bad_calls:
        with pytest.raises(error_class) as refused:
            call()
        assert refused.value.code and refused.value.message
        assert app.store.records(game_id) == before
    assert hand is not None


def test_a_stale_position_is_aborted_and_two_racers_get_one_winner(app: GameLog) -> None:
    created = new_game(app)
    seat = to_act(app, created)
    game = app.queries.state_at(created.game_id)
    moves = game.rules.legal_moves(game.state, seat)
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def racer(move: Any) -> None:
        barrier.wait()
        try:
            app.games.play(created.game_id, created.tokens[seat], move, 0)
            outcomes.append("won")
        except Conflict:
            outcomes.append("aborted")

    threads = [threading.Thread(target=racer, args=(m,)) for m in moves[:2]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["aborted", "won"]
    assert app.queries.state_at(created.game_id).position == 1


def test_a_retried_request_returns_the_first_result(app: GameLog) -> None:
    created = new_game(app)
    seat = to_act(app, created)
    game = app.queries.state_at(created.game_id)
    move = game.rules.legal_moves(game.state, seat)[0]
    first = app.games.play(created.game_id, created.tokens[seat], move, 0, request_id="req-1")
    again = app.games.play(created.game_id, created.tokens[seat], move, 0, request_id="req-1")
    assert again.replayed and again.position == first.position == 1
    assert again.records[0]["hash"] == first.records[0]["hash"]
    assert len(app.store.records(created.game_id)) == 2
    other_move = game.rules.legal_moves(game.state, seat)[1]
    with pytest.raises(InvalidArgument, match="different move"):
        app.games.play(created.game_id, created.tokens[seat], other_move, 1, request_id="req-1")


def test_a_retried_request_returns_its_own_move_and_the_end_it_caused(app: GameLog) -> None:
    created = app.games.create_game("freeform", SEATS)
    game_id = created.game_id
    first = app.games.play(game_id, created.tokens["ann"], {"say": "e4"}, 0, request_id="a")
    app.games.play(game_id, created.tokens["ben"], {"say": "e5"}, 1)
    again = app.games.play(game_id, created.tokens["ann"], {"say": "e4"}, 0, request_id="a")
    assert again.replayed and not again.finished
    assert (again.position, again.records) == (first.position, first.records)
    result = {"result": {"scores": {"ann": 1, "ben": 0}}}
    ended = app.games.play(game_id, created.arbiter_token, result, 2, request_id="end")
    retried = app.games.play(game_id, created.arbiter_token, result, 2, request_id="end")
    assert retried.replayed and retried.finished and ended.finished
    assert [r["kind"] for r in retried.records] == ["move", "finished"]
    assert (retried.position, retried.records) == (ended.position, ended.records)


def test_the_end_reveals_the_seed_and_refuses_more_moves(app: GameLog) -> None:
    played = play_random_game(app, "three-too-many", 3, seed=11)
    records = app.store.records(played.game_id)
    end = records[-1]
    assert end["kind"] == "finished"
    revealed = bytes.fromhex(end["seed_nonce"]) + bytes.fromhex(end["seed"])
    assert hashlib.sha256(revealed).hexdigest() == records[0]["commitment"]
    with pytest.raises(Refused, match="over"):
        app.games.play(played.game_id, played.created.tokens["p1"], {"card": 1}, end["position"])


# -- undo -----------------------------------------------------------------------------


def test_undo_policy_none_refuses_even_a_request(app: GameLog) -> None:
    created = new_game(app, "none")
    play_cards(app, created, 2)
    with pytest.raises(Refused) as refused:
        app.games.take_back(created.game_id, created.tokens["ann"], "request", 1, 2)
    assert refused.value.code == "undo-not-allowed"


def test_undo_policy_arbiter_lets_only_the_arbiter(app: GameLog) -> None:
    created = new_game(app, "arbiter")
    play_cards(app, created, 3)
    with pytest.raises(PermissionDenied):
        app.games.take_back(created.game_id, created.tokens["ann"], "request", 1, 3)
    outcome = app.games.take_back(created.game_id, created.arbiter_token, "request", 1, 3)
    assert outcome.taken_back and outcome.position == 4
    assert (
        app.queries.state_at(created.game_id).state
        == app.queries.state_at(created.game_id, 1).state
    )
    assert [r["kind"] for r in app.store.records(created.game_id)][-1] == "takeback"


def test_undo_policy_free_appends_and_deletes_nothing(app: GameLog) -> None:
    created = new_game(app, "free")
    play_cards(app, created, 4)
    before = app.store.records(created.game_id)
    app.games.take_back(created.game_id, created.tokens["ben"], "request", 2, 4)
    after = app.store.records(created.game_id)
    assert after[:5] == before
    assert after[5]["kind"] == "takeback" and after[5]["to_position"] == 2
    assert app.queries.state_at(created.game_id).ply == 2
    # Play goes on from the restored position.
    play_cards(app, created, 1)
    assert app.queries.state_at(created.game_id).ply == 3
    assert app.queries.audit(created.game_id).ok


def test_undo_policy_consent_needs_every_other_seat(app: GameLog) -> None:
    created = new_game(app, "consent")
    play_cards(app, created, 3)
    game_id = created.game_id
    first = app.games.take_back(game_id, created.tokens["ann"], "request", 1, 3)
    assert not first.taken_back
    assert app.queries.view(game_id, None).pending_undo == {
        "seat": "ann",
        "to_position": 1,
        "approved": [],
    }
    with pytest.raises(Refused):
        app.games.take_back(game_id, created.tokens["ann"], "approve", 0, 4)
    declined = app.games.take_back(game_id, created.tokens["ben"], "decline", 0, 4)
    assert not declined.taken_back and app.queries.view(game_id, None).pending_undo is None
    app.games.take_back(game_id, created.tokens["ann"], "request", 1, 5)
    approved = app.games.take_back(game_id, created.tokens["ben"], "approve", 0, 6)
    assert approved.taken_back
    kinds = [r["kind"] for r in app.store.records(game_id)][4:]
    assert kinds == ["undo-request", "undo-decline", "undo-request", "undo-approve", "takeback"]
    assert app.queries.state_at(game_id).state == app.queries.state_at(game_id, 1).state
    assert app.queries.audit(game_id).ok


def test_no_take_back_across_a_draw_without_the_arbiter(app: GameLog) -> None:
    """Each player refills after playing six cards: those moves draw hidden cards."""
    created = new_game(app, "free")
    game_id = created.game_id
    drew_at = None
    while drew_at is None:
        play_cards(app, created, 1)
        last = app.store.records(game_id)[-1]
        if any(e["type"] == "CardsDrawn" for e in last["events"]):
            drew_at = last["position"]
    with pytest.raises(Refused) as refused:
        app.games.take_back(game_id, created.tokens["ann"], "request", drew_at - 1, drew_at)
    assert refused.value.code == "takeback-across-hidden"
    drawn = app.store.records(game_id)[drew_at]
    app.games.take_back(game_id, created.arbiter_token, "request", drew_at - 1, drew_at)
    # The same move at the same position draws the same cards again.
    app.games.play(game_id, created.tokens[drawn["seat"]], drawn["move"], drew_at + 1)
    replayed = app.store.records(game_id)[-1]
    assert replayed["ply"] == drawn["ply"] and replayed["events"] == drawn["events"]


# -- forks ----------------------------------------------------------------------------


def test_forking_a_running_game_is_the_arbiters_and_draws_afresh(app: GameLog) -> None:
    created = new_game(app)
    play_cards(app, created, 3)
    game_id = created.game_id
    with pytest.raises(PermissionDenied):
        app.games.fork(game_id, created.tokens["ann"], 2)
    with pytest.raises(PermissionDenied):
        app.games.fork(game_id, None, 2)
    with pytest.raises(Refused):
        app.games.fork(game_id, created.arbiter_token, 2, keep_seed=True)
    fork = app.games.fork(game_id, created.arbiter_token, 2)
    assert fork.commitment != created.commitment
    assert app.queries.state_at(fork.game_id).state == app.queries.state_at(game_id, 2).state
    parent = app.store.records(fork.game_id)[0]["parent"]
    assert parent == {
        "game_id": str(game_id),
        "position": 2,
        "hash": app.store.records(game_id)[2]["hash"],
    }
    root, nodes = app.listing.tree(fork.game_id)
    assert root == game_id and [n.game_id for n in nodes] == [game_id, fork.game_id]
    assert app.queries.audit(fork.game_id).ok


def test_diff_names_the_first_ply_where_lines_part(app: GameLog) -> None:
    played = play_random_game(app, "three-too-many", 2, seed=5)
    fork = app.games.fork(played.game_id, None, 10, keep_seed=True)
    game = app.queries.state_at(fork.game_id)
    seat = game.rules.to_act(game.state)[0]
    original_move = app.store.records(played.game_id)[11]["move"]
    other = next(m for m in game.rules.legal_moves(game.state, seat) if m != original_move)
    app.games.play(fork.game_id, fork.tokens[seat], other, 0)
    diff = app.queries.diff(played.game_id, fork.game_id, None)
    assert not diff.identical and diff.common_plies == 10
    assert app.queries.diff(played.game_id, played.game_id, None).identical


# -- audit ----------------------------------------------------------------------------


def test_audit_names_the_position_of_a_flipped_byte(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}
    app = GameLog(env=env)
    played = play_random_game(app, "three-too-many", 2, seed=3)
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


def test_a_fork_from_a_position_later_taken_back(app: GameLog) -> None:
    created = new_game(app, "free")
    play_cards(app, created, 5)
    taken_back_state = app.queries.state_at(created.game_id, 4).state
    app.games.take_back(created.game_id, created.tokens["ann"], "request", 2, 5)
    play_cards(app, created, 2)
    fork = app.games.fork(created.game_id, created.arbiter_token, 4)
    assert app.queries.state_at(fork.game_id).state == taken_back_state
    assert app.queries.state_at(fork.game_id).ply == 4
    assert app.queries.audit(fork.game_id).ok


def test_diff_shows_a_running_games_moves_only_to_its_arbiter(app: GameLog) -> None:
    one, other = new_game(app, seed=1), new_game(app, seed=1)
    play_cards(app, one, 2)
    play_cards(app, other, 1)
    for token in (one.arbiter_token, None, one.tokens["ann"]):
        diff = app.queries.diff(one.game_id, other.game_id, token)
        assert "hidden until both games end" in diff.description
    assert diff.common_plies == 1


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


def test_a_stored_move_is_answered_even_when_its_line_cannot_be_worded(
    app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamelog.replay.notation as notation

    def broken(*args: Any) -> str:
        raise RuntimeError("a game's notate went wrong")

    created = app.games.create_game("freeform", ["ann"])
    monkeypatch.setattr(notation, "record_line", broken)
    played = app.games.play(created.game_id, created.tokens["ann"], {"text": "e4"}, 0)
    assert played.position == 1
    assert [shown.notation for shown in played.shown] == ["move"]
    monkeypatch.undo()
    assert [r["position"] for r in app.store.records(created.game_id)] == [0, 1]


def test_a_wrong_token_for_a_game_not_in_memory_reads_only_its_creation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refusing a token that is not the game's own looks for a tournament
    tag in the creation record: one event read, not the whole game folded
    (anyone may send any token, as often as they like)."""
    from gamelog.service.model.refusals import Unauthenticated

    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "g.db")}
    writer = GameLog(env=env)
    created = writer.games.create_game("three-too-many", ["ann", "ben"])
    writer.close()
    reader = GameLog(env=env)  # nothing of the game in its memory
    try:
        folded: list[Any] = []
        game = reader.store.game
        monkeypatch.setattr(reader.store, "game", lambda *a, **k: folded.append(a) or game(*a, **k))
        with pytest.raises(Unauthenticated):
            reader.access.viewer(created.game_id, "not-a-token")
        assert folded == []
        assert reader.access.viewer(created.game_id, created.tokens["ann"]) == "ann"
    finally:
        reader.close()
