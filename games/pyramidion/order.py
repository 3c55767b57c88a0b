"""Phase 6: the player order, from the markers taken in Gizeh.

Page 7: "Der Spieler mit der “1” legt seinen Spieler-Marker auf das erste
Feld dieses Ortes usw."; players who played no torturer card there, and so
took no marker, keep their position. We read that as: the holder of marker n
takes space n; everybody else fills the spaces left, in the order they had.
The rulebook's example (Red takes "1", nobody else takes one; the order
becomes Red - Blue - Yellow):

>>> new_order(("blue", "yellow", "red"), {"red": 1}, gizeh_activated=True)
(('red', 'blue', 'yellow'), 'markers')

A marker left untaken leaves its space to the others: Red takes only "2",
Blue keeps the first space:

>>> new_order(("blue", "yellow", "red"), {"red": 2}, gizeh_activated=True)
(('blue', 'red', 'yellow'), 'markers')

With two players, the first taking only "2" gives the first space away:

>>> new_order(("blue", "red"), {"blue": 2}, gizeh_activated=True)
(('red', 'blue'), 'markers')

Without Gizeh activated the order stays ("wird die Spielerreihenfolge nicht
verändert"), with two players too: they load in this order in phase 7.

>>> new_order(("blue", "red"), {}, gizeh_activated=False)
(('blue', 'red'), 'unchanged')
>>> new_order(("blue", "yellow", "red"), {}, gizeh_activated=False)
(('blue', 'yellow', 'red'), 'unchanged')

With two players the second player then becomes the start player "für die
nächste Runde": the swap comes when the round ends and the game goes on.

>>> next_round_order(("blue", "red"), gizeh_activated=False)
('red', 'blue')
>>> next_round_order(("blue", "red"), gizeh_activated=True) is None
True
>>> next_round_order(("blue", "yellow", "red"), gizeh_activated=False) is None
True
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
        return order, UNCHANGED
    if not markers:
        return order, UNCHANGED
    by_space = {number: seat for seat, number in markers.items()}
    others = iter(seat for seat in order if seat not in markers)
    spaces = range(1, len(order) + 1)
    return tuple(by_space[n] if n in by_space else next(others) for n in spaces), MARKERS


def next_round_order(order: tuple[str, ...], gizeh_activated: bool) -> tuple[str, ...] | None:
    """Two players, Gizeh not activated this round: the order for the next
    round, the second player first (page 7's two-player rules); else None."""
    if len(order) == 2 and not gizeh_activated:
        return (order[1], order[0])
    return None
