"""Hadara property tests over random legal 2-5 player games: replay equals
live play; no viewer is sent what ``hidden_from`` says it may not know (views
and redacted events at every position); refused moves raise IllegalMove with
a reason; a 5-player play-out stays fast."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.games.hadara import RULES
from gamelog.games.hadara.cards import COLOURS
from gamelog.games.leaks import find_leaks
from gamelog.games.playout import PlayedLine, play_out, replay
from gamelog.games.protocol import ARBITER, IllegalMove, Move, rng_for

PROPERTY = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seats_of(n: int) -> tuple[str, ...]:
    return tuple(f"s{i + 1}" for i in range(n))


def game(n: int, seed: int, first_game: bool) -> PlayedLine:
    return play_out(RULES, seats_of(n), seed, options={"first_game": first_game})


@PROPERTY
@given(n=st.integers(2, 5), seed=st.integers(0, 2**32), first_game=st.booleans())
def test_replay_equals_live_state(n: int, seed: int, first_game: bool) -> None:
    line = game(n, seed, first_game)
    assert replay(RULES, line) == line.states
    assert RULES.result(line.final_state) is not None and RULES.to_act(line.final_state) == ()


@PROPERTY
@given(n=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_no_viewer_sees_hidden_components(n: int, seed: int) -> None:
    line = game(n, seed, first_game=False)
    viewers: list[Any] = [*line.seats, None]
    state = RULES.start(line.seats, line.options)
    events = [e for e in line.setup_events] + [e for _, _, es in line.moves for e in es]
    states = []
    for event in events:
        state = RULES.evolve(state, event)
        states.append(state)
    for viewer in viewers:
        # A record fetched at any later position still holds this event, so
        # it must hide everything hidden from then on: the union of the
        # hidden sets from its position to the end.
        hidden_at = [RULES.hidden_from(s, viewer) for s in states]
        hidden_later: set[str | int] = set()
        for index in reversed(range(len(events))):
            hidden = hidden_at[index]
            hidden_later |= hidden
            redacted = RULES.redact(events[index], viewer)
            assert find_leaks(redacted, hidden_later) == [], (viewer, events[index]["type"])
            assert find_leaks(RULES.view(states[index], viewer), hidden) == [], viewer
            if index:
                # what becomes hidden is only a card just covered on an outer stack
                grown = hidden - hidden_at[index - 1]
                tops = {states[index - 1].top(c) for c in COLOURS}
                assert grown <= tops, (viewer, events[index]["type"], grown)
    for event in events:
        assert RULES.redact(event, ARBITER) == event
    # sealed draws are seen by nobody else before the reveal
    for seat, _, produced in line.moves:
        for event in produced:
            if event["type"] == "DrawChosen":
                for viewer in viewers:
                    if viewer != seat:
                        assert RULES.redact(event, viewer) == {
                            "type": "DrawChosen",
                            "seat": seat,
                        }


def broken(move: Move) -> list[Move]:
    """Each field of a legal move spoiled, and a move with a stray field."""
    spoiled: list[Move] = [{**move, key: "?"} for key in move]
    spoiled.append({**move, "bogus": 1})
    return spoiled


@PROPERTY
@given(n=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_refused_moves_raise_illegal_move_with_reason(n: int, seed: int) -> None:
    line = game(n, seed, first_game=False)
    picker = random.Random(seed)
    positions = picker.sample(range(len(line.moves)), min(25, len(line.moves)))
    for ply in positions:
        state = line.states[ply]
        acting = RULES.to_act(state)
        for seat in line.seats:
            if seat not in acting:
                try:
                    RULES.decide(state, seat, {"pass": True}, rng_for(b"x", 1))
                except IllegalMove as error:
                    assert error.code == "not-your-turn" and error.message
                else:
                    raise AssertionError("a seat moved out of turn")
        seat = acting[0]
        for move in RULES.legal_moves(state, seat)[:6]:
            RULES.decide(state, seat, move, rng_for(b"x", 1))
            for bad in broken(move):
                try:
                    RULES.decide(state, seat, bad, rng_for(b"x", 1))
                except IllegalMove as error:
                    assert error.code and error.message
                else:
                    raise AssertionError(f"accepted {bad}")
    final = line.final_state
    try:
        RULES.decide(final, line.seats[0], {"pass": True}, rng_for(b"x", 1))
    except IllegalMove as error:
        assert error.code == "game-over"


def test_a_five_player_playout_reaches_its_end() -> None:
    # Speed is measured in bench/, never in a timed test.
    line = play_out(RULES, seats_of(5), seed=11)
    assert RULES.result(line.final_state) is not None
