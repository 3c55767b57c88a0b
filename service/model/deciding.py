"""Asking a game's rules for the events of a move, and folding them once.

Rules that fold the events they decide anyway (``FoldsWhileDeciding``) hand
over the state they reached. The aggregate then keeps that state for the
move's stored event instead of folding the same events again, but only where
the store gives back the very events decided (docs/service-decisions.md,
"A move's state is folded once"): ``folded_ahead`` holds them, with the
state, while that one event is applied.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, cast

from gamelog.games.protocol import Event, Move, Rules

Decided = tuple[list[Event], Any]
"""The events the rules decided, and the state they lead to (or None)."""

_FOLDED_AHEAD: ContextVar[Decided | None] = ContextVar("folded_ahead", default=None)


def decide(rules: Rules[Any], state: Any, seat: str, move: Move, rng: random.Random) -> Decided:
    """The rules' events for ``move``, and the state they lead to where the
    rules fold while deciding (else None)."""
    decide_and_fold = getattr(rules, "decide_and_fold", None)
    if decide_and_fold is None:
        return rules.decide(state, seat, move, rng), None
    return cast(Decided, decide_and_fold(state, seat, move, rng))


@contextmanager
def folded_ahead(events: list[Event], after: Any) -> Iterator[None]:
    """While the move storing ``events`` is applied: ``after`` is its state."""
    reset = _FOLDED_AHEAD.set((events, after))
    try:
        yield
    finally:
        _FOLDED_AHEAD.reset(reset)


def fold_move(rules: Rules[Any], state: Any, events: list[Event]) -> Any:
    """``state`` after a move's stored ``events``: the state the rules reached
    deciding these very events, if they handed it over, else the fold."""
    ahead = _FOLDED_AHEAD.get()
    if ahead is not None and ahead[0] is events:
        return ahead[1]
    for event in events:
        state = rules.evolve(state, event)
    return state
