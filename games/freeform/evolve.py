"""Folding events into the state: a pure fold, no checks, no randomness.

``EVOLVE`` maps each event type to the small function that folds it
(``games/evolving.py``).
"""

from __future__ import annotations

from gamelog.games.evolving import EvolveTable, evolve_by
from gamelog.games.freeform.state import FreeformState
from gamelog.games.protocol import Event, Result
from gamelog.games.protocol import frozen_replace as replace


def evolve(state: FreeformState, event: Event) -> FreeformState:
    return evolve_by(EVOLVE, "freeform", state, event)


def _move_recorded(state: FreeformState, event: Event) -> FreeformState:
    index = state.seats.index(event["seat"])
    counts = list(state.moves_by_seat)
    counts[index] += 1
    return replace(
        state,
        moves=state.moves + 1,
        moves_by_seat=tuple(counts),
        last_move=event["move"],
        last_seat=event["seat"],
    )


def _result_entered(state: FreeformState, event: Event) -> FreeformState:
    result = Result(
        scores=dict(event["scores"]),
        ranking=tuple(tuple(place) for place in event["ranking"]),
    )
    return replace(state, result=result)


EVOLVE: EvolveTable[FreeformState] = {
    "MoveRecorded": _move_recorded,
    "ResultEntered": _result_entered,
}
