"""Commands: creating a game and playing a move, on the application directly.

A refused command writes nothing, and says why; a move names the position it
is played at, so two clients racing for one position get one winner; a
retried request returns the first result; a stored move is answered even
when its line cannot be worded; a token that is not the game's own costs one
read. Seat names hold the documented pattern through gRPC too. (Take-backs,
forks and commitments have modules of their own.)"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import Client
from gamelog.service.model.refusals import (
    Conflict,
    GamelogError,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    Refused,
    Unauthenticated,
)
from gamelog.service.usecases.application import GameLog

from support.refusals import refused
from support.two_seats import SEATS, new_game, to_act


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
    memory_app: GameLog, game: str, seats: list[str], options: dict[str, Any], reason: str | None
) -> None:
    with pytest.raises(InvalidArgument) as refused:
        memory_app.games.create_game(game, seats, options)
    if reason:
        assert refused.value.code == reason
    assert memory_app.listing.list_games().games == []


def test_refused_moves_store_nothing(memory_app: GameLog) -> None:
    created = new_game(memory_app)
    game_id = created.game_id
    before = memory_app.store.records(game_id)
    seat = to_act(memory_app, created)
    other = next(s for s in SEATS if s != seat)
    hand = memory_app.queries.view(game_id, created.tokens[seat]).view
    bad_calls: list[tuple[type[GamelogError], Any]] = [
        (
            PermissionDenied,
            lambda: memory_app.games.play(game_id, created.tokens[other], {"card": 1}, 0),
        ),
        (Refused, lambda: memory_app.games.play(game_id, created.tokens[seat], {"card": 999}, 0)),
        (
            Refused,
            lambda: memory_app.games.play(game_id, created.tokens[seat], {"nonsense": True}, 0),
        ),
        (InvalidArgument, lambda: memory_app.games.play(game_id, created.tokens[seat], [1, 2], 0)),
        (Conflict, lambda: memory_app.games.play(game_id, created.tokens[seat], {"card": 1}, 5)),
        (Unauthenticated, lambda: memory_app.games.play(game_id, "garbage", {"card": 1}, 0)),
        (Unauthenticated, lambda: memory_app.games.play(game_id, None, {"card": 1}, 0)),
        (
            NotFound,
            lambda: memory_app.games.play(created.game_id.__class__(int=1), "x", {"card": 1}, 0),
        ),
    ]
    for error_class, call in bad_calls:
        with pytest.raises(error_class) as refused:
            call()
        assert refused.value.code and refused.value.message
        assert memory_app.store.records(game_id) == before
    assert hand is not None


def test_a_stale_position_is_aborted_and_two_racers_get_one_winner(memory_app: GameLog) -> None:
    created = new_game(memory_app)
    seat = to_act(memory_app, created)
    game = memory_app.queries.state_at(created.game_id)
    moves = game.rules.legal_moves(game.state, seat)
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def racer(move: Any) -> None:
        barrier.wait()
        try:
            memory_app.games.play(created.game_id, created.tokens[seat], move, 0)
            outcomes.append("won")
        except Conflict:
            outcomes.append("aborted")

    threads = [threading.Thread(target=racer, args=(m,)) for m in moves[:2]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["aborted", "won"]
    assert memory_app.queries.state_at(created.game_id).position == 1


def test_a_retried_request_returns_the_first_result(memory_app: GameLog) -> None:
    created = new_game(memory_app)
    seat = to_act(memory_app, created)
    game = memory_app.queries.state_at(created.game_id)
    move = game.rules.legal_moves(game.state, seat)[0]
    first = memory_app.games.play(
        created.game_id, created.tokens[seat], move, 0, request_id="req-1"
    )
    again = memory_app.games.play(
        created.game_id, created.tokens[seat], move, 0, request_id="req-1"
    )
    assert again.replayed and again.position == first.position == 1
    assert again.records[0]["hash"] == first.records[0]["hash"]
    assert len(memory_app.store.records(created.game_id)) == 2
    other_move = game.rules.legal_moves(game.state, seat)[1]
    with pytest.raises(InvalidArgument, match="different move"):
        memory_app.games.play(
            created.game_id, created.tokens[seat], other_move, 1, request_id="req-1"
        )


def test_a_retried_request_returns_its_own_move_and_the_end_it_caused(memory_app: GameLog) -> None:
    created = memory_app.games.create_game("freeform", SEATS)
    game_id = created.game_id
    first = memory_app.games.play(game_id, created.tokens["ann"], {"say": "e4"}, 0, request_id="a")
    memory_app.games.play(game_id, created.tokens["ben"], {"say": "e5"}, 1)
    again = memory_app.games.play(game_id, created.tokens["ann"], {"say": "e4"}, 0, request_id="a")
    assert again.replayed and not again.finished
    assert (again.position, again.records) == (first.position, first.records)
    result = {"result": {"scores": {"ann": 1, "ben": 0}}}
    ended = memory_app.games.play(game_id, created.arbiter_token, result, 2, request_id="end")
    retried = memory_app.games.play(game_id, created.arbiter_token, result, 2, request_id="end")
    assert retried.replayed and retried.finished and ended.finished
    assert [r["kind"] for r in retried.records] == ["move", "finished"]
    assert (retried.position, retried.records) == (ended.position, ended.records)


def test_a_stored_move_is_answered_even_when_its_line_cannot_be_worded(
    memory_app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gamelog.replay.notation as notation

    def broken(*args: Any) -> str:
        raise RuntimeError("a game's notate went wrong")

    created = memory_app.games.create_game("freeform", ["ann"])
    monkeypatch.setattr(notation, "record_line", broken)
    played = memory_app.games.play(created.game_id, created.tokens["ann"], {"text": "e4"}, 0)
    assert played.position == 1
    assert [shown.notation for shown in played.shown] == ["move"]
    monkeypatch.undo()
    assert [r["position"] for r in memory_app.store.records(created.game_id)] == [0, 1]


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


@pytest.mark.parametrize(
    ("seats", "reason"),
    [(["ann\n", "ben"], "bad-seat-name"), (["ann", "ANN"], "duplicate-seat")],
)
def test_seat_names_hold_the_documented_pattern_exactly(
    client: Client, seats: list[str], reason: str
) -> None:
    error = refused(client.create, "three-too-many", seats)
    assert (error.code, error.reason) == ("INVALID_ARGUMENT", reason)
