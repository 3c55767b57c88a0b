"""A seat's score so far (collection points, interim bonus, final bonus), and the result.

Scores are public: every card in a collection was taken in view of all, and
the bonus cards lie open in front of their owners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamelog.games.protocol import JSON, Result, rank_by
from gamelog.games.three_too_many.collection import score_collection

if TYPE_CHECKING:
    from gamelog.games.three_too_many.state import ThreeTooManyState


def totals(state: ThreeTooManyState) -> tuple[int, ...]:
    """Each seat's score: collection, interim bonus, and (at the end) final bonus."""
    return tuple(
        score_collection(state.collections[i]).points
        + (state.interim_bonus[i] or 0)
        + (state.final_bonus[i] if state.ended else 0)
        for i in range(len(state.seats))
    )


def final_result(state: ThreeTooManyState) -> Result | None:
    """The outcome once the game has ended: totals, places and each part of the score."""
    if not state.ended:
        return None
    by_seat = dict(zip(state.seats, totals(state)))
    details: dict[str, JSON] = {}
    for i, seat in enumerate(state.seats):
        score = score_collection(state.collections[i])
        details[seat] = {
            "single_colours": score.singles,
            "pairs": score.pairs,
            "face_down": score.face_down,
            "collection": score.points,
            "interim_bonus": state.interim_bonus[i] or 0,
            "final_bonus": state.final_bonus[i],
            "total": by_seat[seat],
        }
    return Result(scores=by_seat, ranking=rank_by(by_seat, state.seats), details=details)
