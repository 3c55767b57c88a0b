"""What the director decides when creating a tournament.

>>> chess = Settings(rounds=5)
>>> chess.table_size, chess.place_points(2), chess.bye_score()
((2, 2), (Fraction(1, 1), Fraction(0, 1)), Fraction(1, 1))
>>> club = Settings(rounds=7, table_size=(3, 4), points=((4, 2, 0), (4, 2, 1, 0)))
>>> [str(p) for p in club.place_points(4)], club.bye_score()
(['4', '2', '1', '0'], Fraction(7, 4))

* ``table_size``: the smallest and largest table, e.g. ``(3, 4)``; ``(2, 2)``
  for one-on-one games.
* ``system``: ``"swiss"`` (round 1 drawn from the seed, later rounds by
  standings) or ``"round-robin"`` (Berger tables, 2-player tables only).
* ``points``: points per place for each table size, best place first. A
  table size the director gave nothing for scores ``size - 1, …, 1, 0``
  (so 2-player tables score 1 for a win, 0 for a loss, ½ each for a draw).
* ``tiebreaks``: the director's order, chosen from :data:`TIEBREAKS`. A
  random tie-break drawn from the seed always comes last.
* ``bye_points`` or ``bye_place``: what a bye scores, as points or as the
  points of that place at a table of the largest size. Neither: a win (first
  place) when tables seat two, as in chess; otherwise the mean of a full
  table's points, so a bye neither helps nor hurts on average.
* ``forfeit_points``: what a player who forfeits scores (the others at the
  table score their places as usual).
* ``seeding``: how round 1 is seated: ``"lot"`` (drawn from the seed) or
  ``"rating"`` (by the registered ratings, :mod:`gamelog.tournaments.seeding`).

Points are :class:`~fractions.Fraction`; records store them as exact strings
(``"3/2"``), never floats (see :mod:`gamelog.tournaments.points`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from typing import Final

from gamelog.tournaments.refusals import TournamentError

TIEBREAKS: Final = ("game-score", "buchholz", "median-buchholz", "first-places", "head-to-head")
"""Tie-breaks a director may order: total game score; Buchholz (sum of the
opponents' points); median Buchholz (the same without the highest and the
lowest opponent); number of first places; head-to-head among the tied."""

SYSTEMS: Final = ("swiss", "round-robin")
SEEDINGS: Final = ("lot", "rating")

LARGEST_TABLE: Final = 16


def _exact(value: Fraction | int | str) -> Fraction:
    if isinstance(value, float):
        raise TournamentError("bad-points", "points must be exact (an integer or a fraction)")
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError) as error:
        raise TournamentError("bad-points", f"{value!r} is not a number of points") from error


MAX_ROUNDS = 100
"""The most rounds a tournament plays (an imported one too)."""


@dataclass(frozen=True)
class Settings:
    rounds: int
    table_size: tuple[int, int] = (2, 2)
    system: str = "swiss"
    points: tuple[tuple[Fraction | int | str, ...], ...] = ()
    tiebreaks: tuple[str, ...] = ("buchholz", "median-buchholz", "first-places")
    bye_points: Fraction | int | str | None = None
    bye_place: int | None = None
    forfeit_points: Fraction | int | str = 0
    seeding: str = "lot"
    _points: dict[int, tuple[Fraction, ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        smallest, largest = self.table_size
        if not 2 <= smallest <= largest <= LARGEST_TABLE:
            raise TournamentError(
                "bad-table-size", f"tables seat from 2 to {LARGEST_TABLE} players, smallest first"
            )
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise TournamentError("bad-rounds", f"a tournament has 1 to {MAX_ROUNDS} rounds")
        if self.system not in SYSTEMS:
            raise TournamentError("bad-system", f"the pairing system is one of {list(SYSTEMS)}")
        if self.system == "round-robin" and largest != 2:
            raise TournamentError(
                "round-robin-multiplayer",
                "a round robin needs 2-player tables: at larger tables no schedule lets "
                "every pair meet once for most field sizes; use the swiss system",
            )
        if self.seeding not in SEEDINGS:
            raise TournamentError("bad-seeding", f"round 1 is seeded by one of {list(SEEDINGS)}")
        if self.seeding != "lot" and self.system == "round-robin":
            raise TournamentError(
                "bad-seeding", "a round robin numbers its players by lot; seed a swiss by rating"
            )
        unknown = [name for name in self.tiebreaks if name not in TIEBREAKS]
        if unknown:
            raise TournamentError("bad-tiebreak", f"tie-breaks are chosen from {list(TIEBREAKS)}")
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise TournamentError("bad-tiebreak", "a tie-break is named twice")
        tables: dict[int, tuple[Fraction, ...]] = {}
        for given in self.points:
            row = tuple(_exact(value) for value in given)
            if not 2 <= len(row) <= LARGEST_TABLE or len(row) in tables:
                raise TournamentError("bad-points", "give one row of points per table size")
            if any(worse > better for better, worse in pairwise(row)):
                raise TournamentError("bad-points", "a lower place cannot score more")
            tables[len(row)] = row
        for size in range(2, LARGEST_TABLE + 1):
            tables.setdefault(size, tuple(Fraction(size - 1 - place) for place in range(size)))
        object.__setattr__(self, "_points", tables)
        if self.bye_points is not None and self.bye_place is not None:
            raise TournamentError("bad-bye", "a bye scores either points or a place, not both")
        if self.bye_points is not None:
            _exact(self.bye_points)
        if self.bye_place is not None and not 1 <= self.bye_place <= largest:
            raise TournamentError("bad-bye", f"a bye's place is 1 to {largest}")
        _exact(self.forfeit_points)

    def place_points(self, size: int) -> tuple[Fraction, ...]:
        """Points for the places at a table of ``size`` players, best first."""
        if size not in self._points:
            raise TournamentError("bad-table-size", f"no table seats {size} players")
        return self._points[size]

    def bye_score(self) -> Fraction:
        """What one bye scores."""
        if self.bye_points is not None:
            return _exact(self.bye_points)
        full = self.place_points(self.table_size[1])
        if self.bye_place is not None:
            return full[self.bye_place - 1]
        if len(full) == 2:
            return full[0]
        return Fraction(sum(full), len(full))

    def forfeit_score(self) -> Fraction:
        return _exact(self.forfeit_points)
