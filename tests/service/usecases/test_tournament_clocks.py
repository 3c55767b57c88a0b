"""Time control: clocks kept from the records' own times; a seat that runs out
of time loses, or has the rest of its moves made by rule, as the director
chose; the audit runs the clocks again."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

import gamelog.service.model.server_clock as server_clock
from gamelog.replay.audit import audit_records
from gamelog.replay.record import seal
from gamelog.service.index.view import GameFilter
from gamelog.service.model.refusals import InvalidArgument, Refused
from gamelog.service.usecases.application import GameLog

from support.random_play import InProcessGame, play_random
from support.tournaments import names, start


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    fake = FakeClock()
    monkeypatch.setattr(server_clock, "now", fake)
    yield fake


def _to_act(app: GameLog, game_id: UUID) -> str:
    game = app.queries.state_at(game_id)
    return str(game.rules.to_act(game.state)[0])


def _move(app: GameLog, game_id: UUID, token: str, seat: str) -> None:
    game = app.queries.state_at(game_id)
    move = game.rules.legal_moves(game.state, seat)[0]
    app.games.play(game_id, token, move, game.position)


def _timed_table(app: GameLog, on_timeout: str) -> tuple[Any, UUID]:
    t = start(
        app,
        "three-too-many",
        1,
        (3, 3),
        names(3),
        seed=b"clocks",
        time_control="60+5",
        on_timeout=on_timeout,
    )
    games = t.pair()
    return t, games[1]


def test_clocks_run_for_the_seat_to_act_and_the_increment_is_added(
    memory_app: GameLog, clock: FakeClock
) -> None:
    t, game_id = _timed_table(memory_app, "lose")
    first = _to_act(memory_app, game_id)
    clock.advance(10)
    _move(memory_app, game_id, t.tokens[first], first)
    second = _to_act(memory_app, game_id)
    clock.advance(3)
    clocks = memory_app.queries.view(game_id, None).clocks
    assert clocks is not None and clocks["time_control"] == "60+5"
    assert clocks["remaining_ms"][first] == 55_000  # 60 - 10 + 5
    assert clocks["remaining_ms"][second] == 57_000  # running for 3 s
    assert clocks["running"] == [second]
    tags = memory_app.queries.state_at(game_id).record_created["metadata"]
    assert tags["TimeControl"] == "60+5" and tags["OnTimeout"] == "lose"


def test_a_seat_out_of_time_loses_when_the_state_is_read(
    memory_app: GameLog, clock: FakeClock
) -> None:
    t, game_id = _timed_table(memory_app, "lose")
    first = _to_act(memory_app, game_id)
    _move(memory_app, game_id, t.tokens[first], first)
    late = _to_act(memory_app, game_id)
    clock.advance(61)
    view = memory_app.queries.view(game_id, None)  # reading notices it, and records it
    assert view.finished
    records = memory_app.store.records(game_id)
    assert [r["kind"] for r in records[-2:]] == ["timeout", "finished"]
    assert records[-2]["seats"] == [late] and records[-2]["on_timeout"] == "lose"
    assert records[-1]["result"]["ranking"][-1] == [late]
    assert memory_app.queries.audit(game_id).ok
    # The result flowed into the tournament: the late seat scores nothing.
    points = {r.player: r.points for r in memory_app.tournament_queries.standings(t.tournament_id)}
    assert points[late] == "0"
    assert [r["kind"] for r in memory_app.tournament_queries.tournament_records(t.tournament_id)][
        -1
    ] == "result-recorded"
    lines = [s.notation for s in memory_app.queries.visible_records(game_id, None)]
    assert f"time is up for {late}: lost on time" in lines


def test_a_late_move_is_refused_and_the_time_out_stored(
    memory_app: GameLog, clock: FakeClock
) -> None:
    t, game_id = _timed_table(memory_app, "lose")
    first = _to_act(memory_app, game_id)
    clock.advance(60)
    with pytest.raises(Refused, match="over"):
        _move(memory_app, game_id, t.tokens[first], first)
    assert memory_app.store.records(game_id)[-2]["kind"] == "timeout"
    assert memory_app.queries.state_at(game_id).is_finished


def test_play_by_rule_makes_the_rest_of_the_seats_moves(
    memory_app: GameLog, clock: FakeClock
) -> None:
    t, game_id = _timed_table(memory_app, "play-by-rule")
    late = _to_act(memory_app, game_id)
    clock.advance(61)
    with pytest.raises(Refused, match="time has run out"):
        _move(memory_app, game_id, t.tokens[late], late)
    records = memory_app.store.records(game_id)
    assert records[1]["kind"] == "timeout" and records[1]["on_timeout"] == "play-by-rule"
    assert records[2]["kind"] == "move" and records[2]["seat"] == late and records[2]["by_rule"]
    # The others play on in time; each of the late seat's turns is made at once.
    play_random(InProcessGame(memory_app, game_id, t.tokens), random.Random(3))
    game = memory_app.queries.state_at(game_id)
    assert game.is_finished
    records = memory_app.store.records(game_id)
    by_rule = [r for r in records if r.get("by_rule")]
    assert by_rule and all(r["seat"] == late for r in by_rule)
    assert not any(
        r["kind"] == "move" and r["seat"] == late and not r.get("by_rule") for r in records
    )
    assert memory_app.queries.audit(game_id).ok
    lines = [s.notation for s in memory_app.queries.visible_records(game_id, None)]
    assert any(line.endswith("(by rule: out of time)") for line in lines)
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    assert memory_app.tournament_queries.audit_tournament(t.tournament_id).ok


def _resealed(records: list[dict[str, Any]], index: int, **changes: Any) -> list[dict[str, Any]]:
    out = [{k: v for k, v in r.items() if k != "timestamp"} for r in records]
    out[index].update(changes)
    for i in range(index, len(out)):
        record = {k: v for k, v in out[i].items() if k != "hash"}
        if i:
            record["prev_hash"] = out[i - 1]["hash"]
        out[i] = seal(record)
    return out


def test_the_audit_runs_the_clocks_again(memory_app: GameLog, clock: FakeClock) -> None:
    t, game_id = _timed_table(memory_app, "lose")
    first = _to_act(memory_app, game_id)
    clock.advance(5)
    _move(memory_app, game_id, t.tokens[first], first)
    clock.advance(61)
    memory_app.queries.view(game_id, None)
    records = memory_app.store.records(game_id)
    assert audit_records(records).ok
    # A time-out recorded before the seat's time ran out does not audit.
    early = records[-2]["time"].replace("19:01:06", "19:00:30")
    report = audit_records(_resealed(records, len(records) - 2, time=early))
    assert not report.ok and "time-out" in report.first_difference.problem
    # A move made after the time ran out, with no time-out recorded, does not audit.
    live = records[:2]
    moved_late = _resealed(live, 1, time="2026-11-30T19:01:10.000Z")
    report = audit_records(moved_late, seed=None)
    assert not report.ok and "ran out" in report.first_difference.problem


def test_a_single_game_may_have_a_clock(memory_app: GameLog, clock: FakeClock) -> None:
    created = memory_app.games.create_game(
        "three-too-many", ["ann", "ben"], metadata={"TimeControl": "30", "OnTimeout": "lose"}
    )
    clock.advance(31)
    assert memory_app.queries.view(created.game_id, None).finished
    assert memory_app.queries.audit(created.game_id).ok
    for bad in ({"TimeControl": "half an hour"}, {"OnTimeout": "lose"}, {"TimeControl": "0"}):
        with pytest.raises(InvalidArgument):
            memory_app.games.create_game("three-too-many", ["ann", "ben"], metadata=bad)
    with pytest.raises(InvalidArgument, match="freeform"):
        memory_app.games.create_game("freeform", ["ann"], metadata={"TimeControl": "30"})


def test_the_sweep_ends_every_game_out_of_time_and_only_those(
    memory_app: GameLog, clock: FakeClock
) -> None:
    def timed(seconds: str) -> UUID:
        tags = {"TimeControl": seconds, "OnTimeout": "lose"}
        return memory_app.games.create_game("three-too-many", ["ann", "ben"], metadata=tags).game_id

    untimed = memory_app.games.create_game("three-too-many", ["ann", "ben"]).game_id
    short, long = timed("30"), timed("90")
    assert memory_app.timekeeper.fall_flags() == 0
    clock.advance(31)
    assert memory_app.timekeeper.fall_flags() == 1
    assert memory_app.timekeeper.fall_flags() == 0  # stored once
    later = timed("20")  # created after a sweep moved on: still swept
    clock.advance(60)
    assert memory_app.timekeeper.fall_flags() == 2

    finished = {game.game_id: game.finished for game in memory_app.listing.list_games().games}
    assert [finished[g] for g in (untimed, short, long, later)] == [False, True, True, True]
    assert [
        g.game_id for g in memory_app.listing.list_games(filters=GameFilter(status="running")).games
    ] == [untimed]
    for game_id in (short, long, later):
        assert memory_app.queries.audit(game_id).ok


def test_a_sweep_reads_again_only_the_games_whose_flag_may_fall(
    memory_app: GameLog, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweep keeps each game's next flag from its last position: a game
    is read again once that moment has come or a record was stored, never
    on every sweep (a sweep of a store bigger than the cache would read
    every game each second)."""
    tags = {"TimeControl": "30", "OnTimeout": "lose"}
    short, long = (
        memory_app.games.create_game("three-too-many", ["ann", "ben"], metadata=tags)
        for _ in range(2)
    )
    assert memory_app.timekeeper.fall_flags() == 0
    read: list[UUID] = []
    current_game = memory_app.store.game_at

    def counting(game_id: UUID, at_position: int) -> Any:
        read.append(game_id)
        return current_game(game_id, at_position)

    monkeypatch.setattr(memory_app.store, "game_at", counting)
    clock.advance(20)
    assert memory_app.timekeeper.fall_flags() == 0 and read == []

    seat = _to_act(memory_app, long.game_id)
    _move(memory_app, long.game_id, long.tokens[seat], seat)  # the other seat's clock runs now
    read.clear()  # the move read it
    assert memory_app.timekeeper.fall_flags() == 0 and read == [long.game_id]

    clock.advance(11)  # short's first seat has used its 30 s; long's second has used 11
    assert memory_app.timekeeper.fall_flags() == 1 and read == [long.game_id, short.game_id]
    assert memory_app.queries.state_at(short.game_id).is_finished
    assert not memory_app.queries.state_at(long.game_id).is_finished
