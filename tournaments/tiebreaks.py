"""Tie-breaks: how players on equal points are ordered.

Each is computed from a player's :class:`Scorecard`, the tournament so far
as seen from that player. Two players ``ann`` and ``ben`` on 3 points:
ann's opponents scored 2, 4 and 1, ben's 3, 3 and 3; ann won two games, ben
one:

>>> cards = {
...     "ann": Scorecard("ann", Fraction(3), 45, 2, ("o2", "o4", "o1"), {}),
...     "ben": Scorecard("ben", Fraction(3), 52, 1, ("o3", "o3b", "o3c"), {}),
... }
>>> points = {"o1": Fraction(1), "o2": Fraction(2), "o3": Fraction(3), "o3b": Fraction(3),
...           "o3c": Fraction(3), "o4": Fraction(4)}
>>> [buchholz(cards[p], points) for p in ("ann", "ben")]
[Fraction(7, 1), Fraction(9, 1)]
>>> [median_buchholz(cards[p], points) for p in ("ann", "ben")]
[Fraction(2, 1), Fraction(3, 1)]
>>> [game_score(cards[p]) for p in ("ann", "ben")], [first_places(cards[p]) for p in ("ann", "ben")]
([Fraction(45, 1), Fraction(52, 1)], [Fraction(2, 1), Fraction(1, 1)])

* **game score**: the sum of the player's scores in the games themselves.
* **Buchholz**: the sum of the points of every opponent, once per game
  played together (at a 4-player table, three opponents a game). Byes and
  forfeited games add nothing (FIDE would count a virtual opponent; we do
  not).
* **median Buchholz**: the same without the highest and the lowest single
  opponent's points, when there are more than two; otherwise as Buchholz.
* **first places**: tables at which the player alone had first place (at
  2-player tables: wins), forfeit wins included; a shared first place and a
  bye do not count, as FIDE's number of wins does not count draws.
* **head-to-head**: among the players still tied, each game two of them
  played together gives the better-placed 1 and the other 0, a shared place
  ½ each; a player's head-to-head is the sum over the tied players they met.
  At 2-player tables this is the usual direct encounter.

>>> h2h = {"ann": {"ben": Fraction(1)}, "ben": {"ann": Fraction(0), "cy": Fraction(1, 2)}}
>>> head_to_head(Scorecard("ben", Fraction(3), 0, 0, (), h2h["ben"]), {"ann", "ben", "cy"})
Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction

from gamelog.tournaments.points import exact_sum


@dataclass(frozen=True)
class Scorecard:
    player: str
    points: Fraction
    game_score: int
    firsts: int
    opponents: tuple[str, ...]
    """One entry per opponent per game played together, in round order."""
    encounters: Mapping[str, Fraction]
    """Head-to-head points against each opponent (1 above, ½ shared, 0 below), summed."""


def game_score(card: Scorecard) -> Fraction:
    return Fraction(card.game_score)


def buchholz(card: Scorecard, points: Mapping[str, Fraction]) -> Fraction:
    return exact_sum(points[opponent] for opponent in card.opponents)


def median_buchholz(card: Scorecard, points: Mapping[str, Fraction]) -> Fraction:
    values = sorted(points[opponent] for opponent in card.opponents)
    if len(values) > 2:
        values = values[1:-1]
    return exact_sum(values)


def first_places(card: Scorecard) -> Fraction:
    return Fraction(card.firsts)


def head_to_head(card: Scorecard, tied: Collection[str]) -> Fraction:
    return exact_sum(won for opponent, won in card.encounters.items() if opponent in tied)


def tiebreak_value(
    name: str, card: Scorecard, points: Mapping[str, Fraction], tied: Collection[str]
) -> Fraction:
    """The tie-break ``name`` (one of settings.TIEBREAKS) for ``card``; ``tied``
    is the group of players still tied with it (head-to-head only)."""
    if name == "game-score":
        return game_score(card)
    if name == "buchholz":
        return buchholz(card, points)
    if name == "median-buchholz":
        return median_buchholz(card, points)
    if name == "first-places":
        return first_places(card)
    if name == "head-to-head":
        return head_to_head(card, tied)
    raise ValueError(f"no tie-break {name!r}")
