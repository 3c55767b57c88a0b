"""A seat's score so far: collection points, interim bonus, final bonus.

Scores are public: every card in a collection was taken in view of all, and
the bonus cards lie open in front of their owners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamelog.games.three_too_many.collection import score_collection

if TYPE_CHECKING:
    from gamelog.games.three_too_many.rules import ThreeTooManyState


def totals(state: ThreeTooManyState) -> tuple[int, ...]:
    """Each seat's score: collection, interim bonus, and (at the end) final bonus."""
    return tuple(
        score_collection(state.collections[i]).points
        + (state.interim_bonus[i] or 0)
        + (state.final_bonus[i] if state.ended else 0)
        for i in range(len(state.seats))
    )
