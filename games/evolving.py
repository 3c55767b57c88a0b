"""How every game folds an event: one table from the event's ``"type"`` to a
small pure function, in the game's ``evolve.py``.

A game's ``evolve`` is the table's lookup, so a reader finds what an event
does by its name, and a test can check that every event the rules emit has
its entry (tests/games/test_layout.py):

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Count:
...     moves: int = 0
>>> EVOLVE: EvolveTable[Count] = {"Moved": lambda state, event: Count(state.moves + 1)}
>>> evolve_by(EVOLVE, "counting", Count(), {"type": "Moved"})
Count(moves=1)
>>> evolve_by(EVOLVE, "counting", Count(), {"type": "Jumped"})
Traceback (most recent call last):
ValueError: unknown counting event 'Jumped'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from gamelog.games.protocol import Event

S = TypeVar("S")

EvolveTable = Mapping[str, Callable[[S, Event], S]]
"""Event type -> the pure function that folds one such event into a state."""


def evolve_by(table: EvolveTable[S], game: str, state: S, event: Event) -> S:
    """Fold ``event`` into ``state`` by the table's entry for its type; an
    event type the table does not know is a ``ValueError`` naming ``game``."""
    kind = event["type"]
    apply = table.get(kind)
    if apply is None:
        raise ValueError(f"unknown {game} event {kind!r}")
    return apply(state, event)
