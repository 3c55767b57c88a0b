"""Phase 8 and the end of the game: the secret count, the troop bonus, the
winner and the chain of tie-breaks.

Page 7: each player secretly counts the points of his boat cards; the player
with the most torturer troops on all locations gets one more point, decided
afresh at every round end. A player with 10 or more points (12 or 15 in the
longer variant) ends the game. The winner is the player with the most points;
ties go to the most cards in hand, then the most boat cards, then the player
earliest in the player order.

>>> troop_bonus({"ann": 3, "ben": 1, "cy": 0})
'ann'
>>> troop_bonus({"ann": 2, "ben": 2}) is None
True
>>> ranking(["ann", "ben", "cy"], points={"ann": 11, "ben": 11, "cy": 4},
...         hands={"ann": 0, "ben": 2, "cy": 5}, boats={"ann": 3, "ben": 3, "cy": 1},
...         order=["cy", "ann", "ben"])
['ben', 'ann', 'cy']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gamelog.games.pyramidion.state import ALL_BOATS, PyramidionState


def troop_bonus(troops: Mapping[str, int]) -> str | None:
    """The one seat with the most troops on the locations; nobody on a tie
    (page 7 speaks of "the player with the most") or when nobody has any."""
    most = max(troops.values(), default=0)
    leaders = [seat for seat, number in troops.items() if number == most]
    return leaders[0] if most > 0 and len(leaders) == 1 else None


def count(state: PyramidionState) -> tuple[dict[str, int], str | None]:
    """Each seat's points now (its boats plus the troop bonus) and who has the bonus."""
    bonus = troop_bonus({seat: state.troops_of(seat) for seat in state.seats})
    points = {
        seat: sum(state.boats[n].points for n in state.loaded.get(seat, ()))
        + (1 if seat == bonus else 0)
        for seat in state.seats
    }
    return points, bonus


def game_ends(state: PyramidionState, points: Mapping[str, int]) -> bool:
    """Someone reached the goal, or no boat is left to load (the variant's
    end, and in the points game the only way on once the boats run out)."""
    boats_gone = not state.display and not state.boats_left
    if state.goal == ALL_BOATS:
        return boats_gone
    return boats_gone or any(p >= int(state.goal) for p in points.values())


def ranking(
    seats: Sequence[str],
    points: Mapping[str, int],
    hands: Mapping[str, int],
    boats: Mapping[str, int],
    order: Sequence[str],
) -> list[str]:
    """Seats from first to last by the tie-break chain; the player order makes
    every place distinct."""
    place = {seat: index for index, seat in enumerate(order)}
    return sorted(seats, key=lambda seat: (-points[seat], -hands[seat], -boats[seat], place[seat]))
