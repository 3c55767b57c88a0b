"""Phase 6: the player order, from the markers taken in Gizeh.

Page 7: the player with marker "1" puts his player marker on the first space,
and so on; players who played no torturer card there, and so took no marker,
keep their position. We read that as: marker holders go first, by marker
number; everybody else follows in the order they had. The rulebook's example
(Red takes "1", nobody else takes one; the order becomes Red - Blue - Yellow):

>>> new_order(("blue", "yellow", "red"), {"red": 1}, gizeh_activated=True)
(('red', 'blue', 'yellow'), 'markers')

Without Gizeh activated the order stays; with two players the second player
becomes the start player instead:

>>> new_order(("blue", "red"), {}, gizeh_activated=False)
(('red', 'blue'), 'two-player-swap')
>>> new_order(("blue", "yellow", "red"), {}, gizeh_activated=False)
(('blue', 'yellow', 'red'), 'unchanged')
"""

from __future__ import annotations

from collections.abc import Mapping

MARKERS = "markers"
UNCHANGED = "unchanged"
TWO_PLAYER_SWAP = "two-player-swap"


def new_order(
    order: tuple[str, ...], markers: Mapping[str, int], gizeh_activated: bool
) -> tuple[tuple[str, ...], str]:
    """The order for the rest of the round and the next, and which rule set it."""
    if not gizeh_activated:
        if len(order) == 2:
            return (order[1], order[0]), TWO_PLAYER_SWAP
        return order, UNCHANGED
    if not markers:
        return order, UNCHANGED
    holders = sorted(markers, key=lambda seat: markers[seat])
    return (*holders, *(seat for seat in order if seat not in markers)), MARKERS
