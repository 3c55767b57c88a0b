"""Random legal play-outs straight on the rules, with no store in between.

Used by tests, fuzzing and benchmarks: start a table, deal, then let a seeded
random player pick a seat that may act and one of its legal moves, until the
game ends.

>>> from gamelog.games.freeform import RULES
>>> line = play_out(RULES, ("a", "b"), seed=7, max_moves=5)
>>> len(line.moves)
5
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamelog.games.protocol import ARBITER, Event, Move, Options, Rules, rng_for


@dataclass
class PlayedLine:
    """A whole game as played: options, the set-up events, each move with its
    events, and the state after the set-up and after every move."""

    seats: tuple[str, ...]
    options: Options
    seed: bytes
    setup_events: list[Event]
    moves: list[tuple[str, Move, list[Event]]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)

    @property
    def final_state(self) -> Any:
        return self.states[-1]


def deal(rules: Rules[Any], seats: Sequence[str], options: Options, seed: bytes) -> PlayedLine:
    state = rules.start(seats, options)
    events = rules.setup(options, seats, rng_for(seed, 0))
    for event in events:
        state = rules.evolve(state, event)
    return PlayedLine(tuple(seats), options, seed, events, [], [state])


def play_out(
    rules: Rules[Any],
    seats: Sequence[str],
    seed: int,
    max_moves: int = 10_000,
    options: dict[str, Any] | None = None,
    choose: Callable[[random.Random, list[Move]], Move] | None = None,
) -> PlayedLine:
    """Play random legal moves until the game ends or ``max_moves`` is reached."""
    chooser = random.Random(seed)
    pick = choose or (lambda r, moves: r.choice(moves))
    normalized = rules.normalize_options(options or {}, seats)
    line = deal(rules, seats, normalized, seed.to_bytes(8, "big"))
    state = line.final_state
    while len(line.moves) < max_moves:
        # Seats first; the arbiter only when nobody else may act (freeform's result).
        to_act = rules.to_act(state)
        actors = [s for s in to_act if s != ARBITER] or list(to_act)
        if not actors:
            break
        seat = chooser.choice(actors)
        moves = rules.legal_moves(state, seat)
        if not moves:
            raise AssertionError(f"{seat} may act but has no legal move")
        move = pick(chooser, moves)
        events = rules.decide(state, seat, move, rng_for(line.seed, len(line.moves) + 1))
        for event in events:
            state = rules.evolve(state, event)
        line.moves.append((seat, move, events))
        line.states.append(state)
    return line


def replay(rules: Rules[Any], line: PlayedLine) -> list[Any]:
    """The states of a played line folded again from its events alone: one
    after the set-up, then one after each move (compare with ``line.states``)."""
    state = rules.start(line.seats, line.options)
    for event in line.setup_events:
        state = rules.evolve(state, event)
    states = [state]
    for _, _, events in line.moves:
        for event in events:
            state = rules.evolve(state, event)
        states.append(state)
    return states
