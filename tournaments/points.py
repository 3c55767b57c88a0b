"""Tournament points from a table's result: points per place, shared places
splitting the points of the places they cover, exactly.

At a 4-player table scoring 4, 2, 1, 0, two players sharing second place
cover places 2 and 3 and get (2 + 1) / 2 each:

>>> from gamelog.tournaments.rounds import Result
>>> result = Result((("cy",), ("ann", "dee"), ("ben",)))
>>> points = table_points(result, (Fraction(4), Fraction(2), Fraction(1), Fraction(0)), Fraction(0))
>>> {player: exact_text(p) for player, p in sorted(points.items())}
{'ann': '3/2', 'ben': '0', 'cy': '4', 'dee': '3/2'}
>>> sum(points.values())
Fraction(7, 1)

A draw at a 2-player table is two players sharing first place: ½ each. A
player who forfeited scores the forfeit points instead of their place's.

Records never hold floats: :func:`exact_text` writes ``"3/2"`` and
:func:`exact` reads it back.

>>> exact("3/2") + exact("1/2"), exact_text(Fraction(-1, 2))
(Fraction(2, 1), '-1/2')

People read decimals: :func:`decimal_text` shows points as a director and a
spreadsheet expect them (``6.5``, never ``13/2``, which a spreadsheet reads as
a date), and :func:`decimal_number` gives the same value as a JSON number.
Sums and comparisons stay exact inside; only the shown form is rounded.

>>> decimal_text(Fraction(13, 2)), decimal_text(Fraction(-3, 2)), decimal_text(Fraction(7, 3))
('6.5', '-1.5', '2.333')
>>> decimal_number("13/2"), decimal_number("4")
(6.5, 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from functools import cache

from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.rounds import Result


def table_points(
    result: Result, place_points: Sequence[Fraction], forfeit: Fraction
) -> dict[str, Fraction]:
    """Each player's points for ``result`` by ``place_points`` (best first)."""
    size = sum(len(place) for place in result.ranking)
    if len(place_points) != size:
        raise TournamentError(
            "bad-points", f"{len(place_points)} places' points for a table of {size}"
        )
    shares = _shares(tuple(place_points), tuple(len(place) for place in result.ranking))
    return {
        player: forfeit if player in result.forfeited else share
        for place, share in zip(result.ranking, shares)
        for player in place
    }


@cache
def _shares(place_points: tuple[Fraction, ...], shape: tuple[int, ...]) -> tuple[Fraction, ...]:
    """Each place's share: the points of the places it covers over its players."""
    shares, covered = [], 0
    for players in shape:
        shares.append(Fraction(sum(place_points[covered : covered + players]), players))
        covered += players
    return tuple(shares)


def exact_sum(values: Iterable[Fraction | int]) -> Fraction:
    """The exact sum, reduced once at the end rather than at every step
    (``sum`` of Fractions reduces each partial sum, which a standings table
    of a large field feels).

    >>> exact_sum([Fraction(1, 2), Fraction(3, 2), 1, Fraction(1, 3)])
    Fraction(10, 3)
    """
    numerator, denominator = 0, 1
    for value in values:
        if isinstance(value, int):
            numerator += value * denominator
        elif value.denominator == denominator:
            numerator += value.numerator
        else:
            numerator = numerator * value.denominator + value.numerator * denominator
            denominator *= value.denominator
    return Fraction(numerator, denominator)


def exact_text(value: Fraction) -> str:
    """``"3/2"``, ``"2"``, ``"-1/2"``: how points are written in records."""
    return str(value)


def exact(text: str) -> Fraction:
    """Points from their exact text (``"3/2"``, ``"2"``); refuses anything else."""
    if not isinstance(text, str) or not text or any(c not in "-0123456789/" for c in text):
        raise TournamentError("bad-points", f"{text!r} is not an exact number of points")
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError) as error:
        raise TournamentError("bad-points", f"{text!r} is not an exact number of points") from error


SHOWN_PLACES = 3
"""Decimal places shown at most: halves, quarters and eighths show exactly,
thirds as ``2.333`` (the standings order by the exact values)."""


def decimal_text(value: Fraction | str) -> str:
    """Points (exact, or their exact text) as a decimal: ``6.5``, ``7``,
    ``-0.25``, ``2.333``; at most ``SHOWN_PLACES`` places, no trailing zeros."""
    points = exact(value) if isinstance(value, str) else value
    quotient = Decimal(points.numerator) / Decimal(points.denominator)
    shown = quotient.quantize(Decimal(1).scaleb(-SHOWN_PLACES), rounding=ROUND_HALF_EVEN)
    text = f"{shown:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def decimal_number(value: Fraction | str) -> int | float:
    """Points as a JSON number: an int when whole, else the decimal shown."""
    text = decimal_text(value)
    return float(text) if "." in text else int(text)
