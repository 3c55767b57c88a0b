"""Panem: set-up, every location action, every advantage, tributes, the end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from gamelog.games.panem import RULES
from gamelog.games.panem.state import NEUTRAL, PanemState
from gamelog.games.protocol import ARBITER, IllegalMove, InvalidOptions

SEATS4 = ("ann", "ben", "cat", "dan")


def seats(n: int) -> tuple[str, ...]:
    return SEATS4[:n]


def new_game(n: int = 4, deal: dict[str, Any] | None = None, seed: int = 1) -> PanemState:
    options = RULES.normalize_options({"deal": deal} if deal else {}, seats(n))
    state = RULES.start(seats(n), options)
    for event in RULES.setup(options, seats(n), random.Random(seed)):
        state = RULES.evolve(state, event)
    return state


def play(state: PanemState, seat: str, move: dict[str, Any], seed: int = 7) -> PanemState:
    for event in RULES.decide(state, seat, move, random.Random(seed)):
        state = RULES.evolve(state, event)
    return state


def test_registered_and_named() -> None:
    from gamelog.games import get_rules

    assert get_rules("panem") is RULES
    assert RULES.rules_version == "1.0"
    assert (RULES.min_players, RULES.max_players) == (2, 4)


def test_player_count_is_checked() -> None:
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({}, ("a",))
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({}, ("a", "b", "c", "d", "e"))


def test_first_move_is_the_start_players() -> None:
    state = new_game(4)
    assert RULES.to_act(state) == ("ann",)
    state = play(state, "ann", {"go": "forest-1"})
    with pytest.raises(IllegalMove):
        RULES.decide(state, "ben", {"go": "forest-2"}, random.Random(1))
    assert RULES.view(state, ARBITER)["figures"]["ann"] == "forest-1"
    assert NEUTRAL not in state.glass_ball
