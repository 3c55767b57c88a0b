"""Pyramidion property tests over random legal games of 2 to 5 players.

Random play mixes declared facts and refereed moves (the arbiter moves when
it alone can). Replay gives the live state; decide is deterministic; nothing
a seat or a spectator is sent (views, redacted events) holds a boat card
hidden from it (``hidden_from``: displayed boats, other seats' loaded boats),
nor a boat's points or another seat's count; every refused move raises
IllegalMove with a reason, and every listed move is accepted. Games end, with
the page-7 set (boats declared) and with a club's deck (boats dealt), for each
goal.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_pyramidion import TEST_SET

from gamelog.games.leaks import find_leaks
from gamelog.games.playout import PlayedLine, play_out, replay
from gamelog.games.protocol import ARBITER, IllegalMove, rng_for
from gamelog.games.pyramidion import RULES

SEATS = ("ann", "ben", "cy", "dot", "eve")
SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPTIONS: list[dict[str, Any]] = [
    {},
    {"goal": 12},
    {"goal": "all-boats"},
    {"components": TEST_SET},
    {"components": TEST_SET, "goal": "all-boats"},
]

games = st.tuples(
    st.sampled_from([2, 3, 4, 5]),
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(range(len(OPTIONS))),
)


def random_line(game: tuple[int, int, int]) -> PlayedLine:
    n, seed, options = game
    return play_out(RULES, SEATS[:n], seed, max_moves=3000, options=OPTIONS[options])


@SETTINGS
@given(game=games)
def test_random_games_end_and_replay_equals_live(game: tuple[int, int, int]) -> None:
    line = random_line(game)
    result = RULES.result(line.final_state)
    assert result is not None, "random play must end the game"
    assert sorted(s for place in result.ranking for s in place) == sorted(line.seats)
    assert replay(RULES, line) == line.states
    for ply, ((seat, move, events), before) in enumerate(zip(line.moves, line.states), 1):
        assert RULES.decide(before, seat, move, rng_for(line.seed, ply)) == events
    kinds = {e["type"] for _, _, events in line.moves for e in events}
    assert {"BoatTurnedUp", "BoatLoaded", "OrderSet", "RoundEnded", "GameEnded"} <= kinds
    declared = [e for _, _, events in line.moves for e in events if e.get("declared")]
    refereed = [e for _, _, events in line.moves for e in events if not e.get("declared")]
    assert declared and refereed


def secrets_in(data: Any) -> list[str]:
    """Points and counts anywhere in ``data`` (the things a boat card hides)."""
    found: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("points", "card"):
                found.append(key)
            found += secrets_in(value)
    elif isinstance(data, list):
        for value in data:
            found += secrets_in(value)
    return found


@SETTINGS
@given(game=games)
def test_no_view_or_event_leaks_a_hidden_boat_or_count(game: tuple[int, int, int]) -> None:
    line = random_line(game)
    viewers: list[str | None] = [*line.seats, None]
    sent: dict[str | None, list[dict[str, Any]]] = {
        v: [RULES.redact(e, v) for e in line.setup_events] for v in viewers
    }
    steps = [(line.states[0], line.setup_events)]
    steps += [(after, events) for (_, _, events), after in zip(line.moves, line.states[1:])]
    for index, (state, events) in enumerate(steps):
        for viewer in viewers:
            hidden = RULES.hidden_from(state, viewer)
            redacted = [RULES.redact(e, viewer) for e in events]
            if index:
                sent[viewer].extend(redacted)
            view = RULES.view(state, viewer)
            assert find_leaks(view, hidden) == [], (index, viewer)
            assert find_leaks(redacted, hidden) == [], (index, viewer)
            if state.over:
                continue
            assert find_leaks(sent[viewer], hidden) == [], (index, viewer)
            # A displayed boat's points show to nobody; a loaded one's to its owner.
            assert not secrets_in(view["display"])
            for seat, entry in view["seats"].items():
                if seat != viewer:
                    assert not secrets_in(entry["boats"]) and "count" not in entry
            for event in redacted:
                if event["type"] == "RoundEnded":
                    assert set(event["counts"]) <= {viewer}
                if event["type"] in ("BoatTurnedUp", "BoatLoaded") and event.get("seat") != viewer:
                    assert not secrets_in(event)


JUNK: list[Any] = [
    {},
    {"declare": 3},
    {"declare": ["done"]},
    {"declare": "done", "now": True},
    {"declare": "draw", "cards": True},
    {"declare": "draw", "cards": -2},
    {"declare": "gain", "resources": []},
    {"declare": "gain", "resources": {"stone": 1}, "from": "nile"},
    {"declare": "play", "location": ["gizeh"], "cards": 1},
    {"declare": "marker", "number": "1"},
    {"declare": "boat", "requirements": {"stone": 1}, "points": -1},
    {"declare": "production", "location": "gizeh", "produces": "camel"},
    {"declare": "display-complete"},
    {"load": "1"},
    {"load": 1, "fetch": "all"},
    {"load": 1, "fetch": [{"location": "gizeh"}]},
    {"load": 1, "statue_for": "food"},
    {"pass": False},
    {"pass": True},
    [],
    "pass",
]


@SETTINGS
@given(game=games, probe=st.integers(min_value=0, max_value=2**32))
def test_refused_moves_raise_illegal_move_with_a_reason(
    game: tuple[int, int, int], probe: int
) -> None:
    line = random_line(game)
    r = random.Random(probe)
    positions = r.sample(range(len(line.states)), min(15, len(line.states)))
    for index in positions:
        state = line.states[index]
        actors = RULES.to_act(state)
        rng = rng_for(line.seed, index + 1)
        candidates: list[tuple[str, Any]] = [
            (r.choice([*line.seats, ARBITER]), move) for move in JUNK
        ]
        idle = [s for s in line.seats if s not in actors]
        for seat in actors:
            for move in RULES.legal_moves(state, seat)[:3]:
                candidates += [(other, move) for other in idle]
        listed = {seat: RULES.legal_moves(state, seat) for seat in actors}
        for seat, move in candidates:
            try:
                RULES.decide(state, seat, move, rng)
            except IllegalMove as refusal:
                assert refusal.code and refusal.message, (seat, move)
                assert move not in listed.get(seat, []), (seat, move, refusal)
            else:
                assert seat in actors, (seat, move)
        for seat in actors:
            assert listed[seat], f"{seat} may act but is offered nothing"
            for move in listed[seat]:
                RULES.decide(state, seat, move, rng)
