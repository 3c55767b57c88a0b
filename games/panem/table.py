"""The table being decided: the events so far, each folded into the state at
once, and the checks every decider shares."""

from __future__ import annotations

import random
from typing import Any

from gamelog.games.panem.evolve import evolve
from gamelog.games.panem.state import PanemState
from gamelog.games.protocol import Event, IllegalMove, Move


class Table:
    """Events decided so far, each already folded into ``s``."""

    def __init__(self, state: PanemState, rng: random.Random) -> None:
        self.s = state
        self.rng = rng
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.s = evolve(self.s, event)


def card_ids(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise IllegalMove("bad-move", f"{what} must be a list of card ids")
    if len(set(value)) != len(value):
        raise IllegalMove("bad-move", f"{what} names a card twice")
    return list(value)


def only(move: Move, *keys: str) -> None:
    extra = set(move) - set(keys)
    if extra:
        raise IllegalMove("bad-move", f"unexpected {sorted(extra)} in this move")
