"""A round: its tables, its byes, and the results that came in.

A table lists its players in seat order; the first moves first (plays white
at a 2-player table). A result is the game's ranking, places from first to
last with ties sharing a place, and optionally the game's scores. A forfeit
is a result too: the director ranks the players who were there and names
those who forfeited, who score the tournament's forfeit points whatever
their place:

>>> table = Table(1, ("ann", "ben", "cy", "dee"))
>>> scores = {"cy": 61, "ann": 40, "dee": 40, "ben": 12}
>>> played = Result((("cy",), ("ann", "dee"), ("ben",)), scores)
>>> check_result(table, played)
>>> no_show = Result((("ann",), ("cy",), ("dee",), ("ben",)), forfeited=frozenset({"ben"}))
>>> check_result(table, no_show)
>>> round_1 = Round(1, (table,), byes=("eve",), results={1: played})
>>> round_1.players()
('ann', 'ben', 'cy', 'dee', 'eve')

Results are the *effective* ones: when the director corrects a result, the
event log keeps both and the caller passes the correction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from gamelog.tournaments.refusals import TournamentError


@dataclass(frozen=True)
class Table:
    number: int
    """1 is the top table (the leaders')."""
    seats: tuple[str, ...]
    """Player ids in seat order: ``seats[0]`` moves first."""


@dataclass(frozen=True)
class Result:
    ranking: tuple[tuple[str, ...], ...]
    """Places from first to last; players sharing a place share a tuple."""
    scores: Mapping[str, int] = field(default_factory=dict)
    """The game's own scores (the game-score tie-break); may be empty."""
    forfeited: frozenset[str] = frozenset()
    """Players who forfeited: they score the forfeit points and did not play."""

    def played(self, player: str) -> bool:
        """The player took part in the game (did not forfeit)."""
        return player not in self.forfeited


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    results: Mapping[int, Result] = field(default_factory=dict)
    """Effective result per table number; a table still playing has none."""

    def players(self) -> tuple[str, ...]:
        """Everyone seated or given a bye, in id order."""
        return tuple(sorted([p for t in self.tables for p in t.seats] + list(self.byes)))

    def table(self, number: int) -> Table:
        for table in self.tables:
            if table.number == number:
                return table
        raise TournamentError("no-such-table", f"round {self.number} has no table {number}")

    def with_result(self, number: int, result: Result) -> Round:
        """This round with ``result`` entered (or corrected) at table ``number``."""
        check_result(self.table(number), result)
        return replace(self, results={**self.results, number: result})

    def finished(self) -> bool:
        return all(table.number in self.results for table in self.tables)


def check_result(table: Table, result: Result) -> None:
    """Refuse a result that does not rank exactly the table's players."""
    ranked = [player for place in result.ranking for player in place]
    if any(not place for place in result.ranking):
        raise TournamentError("bad-result", "a place in the ranking is empty")
    if len(ranked) != len(table.seats) or set(ranked) != set(table.seats):
        raise TournamentError(
            "bad-result", f"the ranking must name each player of table {table.number} once"
        )
    strangers = (set(result.scores) | set(result.forfeited)) - set(table.seats)
    if strangers:
        raise TournamentError(
            "bad-result", f"{sorted(strangers)} did not sit at table {table.number}"
        )
    if any(
        isinstance(score, bool) or not isinstance(score, int) for score in result.scores.values()
    ):
        raise TournamentError("bad-result", "game scores are integers")


def check_round(round_: Round, active: Iterable[str], table_size: tuple[int, int]) -> None:
    """Refuse a seating (the pairing's or a director's override) that does not
    seat every active player exactly once, at tables within the size range."""
    smallest, largest = table_size
    numbers = [table.number for table in round_.tables]
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        raise TournamentError("bad-seating", "tables are numbered 1, 2, 3, … once each")
    for table in round_.tables:
        if not smallest <= len(table.seats) <= largest:
            raise TournamentError(
                "bad-seating",
                f"table {table.number} seats {len(table.seats)}; "
                f"tables seat {smallest} to {largest}",
            )
    seated = [p for t in round_.tables for p in t.seats] + list(round_.byes)
    if len(set(seated)) != len(seated):
        raise TournamentError("bad-seating", "a player is seated twice")
    expected = set(active)
    if set(seated) != expected:
        missing, extra = sorted(expected - set(seated)), sorted(set(seated) - expected)
        raise TournamentError(
            "bad-seating",
            f"not seated: {_some(missing)}; not playing this round: {_some(extra)}",
        )
    for number, result in round_.results.items():
        check_result(round_.table(number), result)


def _some(players: list[str], shown: int = 5) -> str:
    """The first few of ``players``, and how many more: a refusal stays short
    however many players a seating leaves out.

    >>> _some(["ann", "ben"]), _some([f"p{n}" for n in range(9)], 3)
    ("['ann', 'ben']", "['p0', 'p1', 'p2'] and 6 more")
    """
    head = repr([player[:40] for player in players[:shown]])
    return head if len(players) <= shown else f"{head} and {len(players) - shown} more"
