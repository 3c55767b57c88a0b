"""Who gets a bye when not everyone can be seated.

A bye goes to a different player each time where possible: first to those
who have had the fewest byes, and among them to the lowest-ranked. ``order``
is the round's pairing order, best first:

>>> bye_order(["ann", "ben", "cy", "dee"], {"dee": 1})
('cy', 'ben', 'ann', 'dee')
>>> choose_byes(["ann", "ben", "cy", "dee"], 2, {"dee": 1})
('cy', 'ben')

The Swiss pairing walks :func:`bye_order` too, but skips a player whose bye
would force a rematch that another player's bye avoids (see
:mod:`gamelog.tournaments.swiss`). A bye scores what the director set
(:meth:`~gamelog.tournaments.settings.Settings.bye_score`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def bye_order(order: Sequence[str], byes: Mapping[str, int]) -> tuple[str, ...]:
    """Players in the order they should get a bye."""
    rank = {player: index for index, player in enumerate(order)}
    return tuple(sorted(order, key=lambda player: (byes.get(player, 0), -rank[player])))


def choose_byes(order: Sequence[str], count: int, byes: Mapping[str, int]) -> tuple[str, ...]:
    """The ``count`` players who get a bye this round."""
    return bye_order(order, byes)[:count]
