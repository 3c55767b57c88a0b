"""Who moves first: colours at 2-player tables, seat rotation at larger ones.

**Colours** (2-player tables; white moves first) follow the FIDE Dutch
rules' colour preferences. A player's colour difference is whites minus
blacks; the preference is

* *absolute* for the other colour after two games in a row with one colour,
  or when the difference is beyond ±1;
* *strong* for the equalising colour when the difference is ±1;
* *mild* for the other colour than last time when the difference is 0;
* none before the first game.

>>> [colour_preference(past) for past in ("WW", "WBW", "WB", "")]
[('B', 3), ('B', 2), ('W', 1), (None, 0)]

Two paired players both get their preference when they differ. Otherwise
the stronger preference wins; between equal ones, each gets the opposite of
what they had in the latest game in which their colours differed; failing
that, the higher-ranked player gets the preference. Players with none get
colours by a coin from the seed. ``first`` is the higher-ranked player:

>>> allocate_colours("ann", "WBW", "ben", "BWB", coin=True)
('ben', 'ann')
>>> allocate_colours("ann", "WB", "ben", "BW", coin=False)  # no clash: both granted
('ann', 'ben')
>>> allocate_colours("ann", "WB", "ben", "WB", coin=False)  # a clash of equals: ann's W
('ann', 'ben')
>>> allocate_colours("ann", "BW", "ben", "BWW", coin=True)  # ben's absolute B wins
('ann', 'ben')

**Seat rotation** (3 or more seats): the player who has sat first least
often sits first; among equals, the one whose seats so far were latest on
average (seat ``i`` of ``k`` counts ``i / (k - 1)``; no games count ½); then
by lot. The others follow in the same order, so who sat early sits late:

>>> past = {"ann": ((0, 4), (1, 4)), "ben": ((3, 4), (2, 4)), "cy": ((2, 4), (0, 4)), "dee": ()}
>>> rotate_seats(["ann", "ben", "cy", "dee"], past, lots={"ann": 0, "ben": 1, "cy": 2, "dee": 3})
('ben', 'dee', 'cy', 'ann')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from gamelog.tournaments.points import exact_sum

Preference = tuple[str | None, int]
"""A colour (``"W"``/``"B"``) or None, and its strength: 0 none, 1 mild,
2 strong, 3 absolute."""

NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


def colour_preference(colours: str) -> Preference:
    """The colour a player with these past colours (``"WBW"``) should get next."""
    if not colours:
        return None, NONE
    difference = colours.count("W") - colours.count("B")
    other = "B" if colours[-1] == "W" else "W"
    if difference > 1:
        return "B", ABSOLUTE
    if difference < -1:
        return "W", ABSOLUTE
    if colours[-2:] in ("WW", "BB"):
        return other, ABSOLUTE
    if difference == 1:
        return "B", STRONG
    if difference == -1:
        return "W", STRONG
    return other, MILD


def colour_clash(a: Preference, b: Preference) -> int:
    """0 when both preferences can be granted; else the weaker of the two
    clashing strengths (3: both must have the same colour)."""
    if a[0] is None or b[0] is None or a[0] != b[0]:
        return 0
    return min(a[1], b[1])


def allocate_colours(
    first: str, first_colours: str, second: str, second_colours: str, coin: bool
) -> tuple[str, str]:
    """(white, black) for two paired players; ``first`` is the higher-ranked."""
    (wish_a, strength_a), (wish_b, strength_b) = (
        colour_preference(first_colours),
        colour_preference(second_colours),
    )
    if wish_a is None and wish_b is None:
        return (first, second) if coin else (second, first)
    if wish_a is None or wish_b is None or wish_a != wish_b:
        a_white = wish_a == "W" if wish_a is not None else wish_b == "B"
    elif strength_a != strength_b:
        a_white = (wish_a == "W") == (strength_a > strength_b)
    else:
        for mine, theirs in zip(reversed(first_colours), reversed(second_colours)):
            if mine != theirs:
                a_white = mine == "B"
                break
        else:
            a_white = wish_a == "W"
    return (first, second) if a_white else (second, first)


def rotate_seats(
    players: Sequence[str],
    seats: Mapping[str, Sequence[tuple[int, int]]],
    lots: Mapping[str, int],
) -> tuple[str, ...]:
    """The table's players in seat order; ``seats`` holds each one's past
    (seat index, table size), ``lots`` the seeded lot breaking last ties."""

    def key(player: str) -> tuple[int, Fraction, int]:
        past = seats.get(player, ())
        firsts = sum(1 for seat, _ in past if seat == 0)
        if past:
            mean = exact_sum(Fraction(seat, size - 1) for seat, size in past) / len(past)
        else:
            mean = Fraction(1, 2)
        return firsts, -mean, lots[player]

    return tuple(sorted(players, key=key))
