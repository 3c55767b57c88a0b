"""What earlier rounds mean for pairing the next one: who met whom, who sat
where, who had a bye.

Two players *met* when they sat at one table and neither forfeited: a
forfeited game was not played, so (as in the FIDE rules) the two may be
paired again, and it does not count for colours or seats. A table whose
result is not in yet counts as played.

>>> from gamelog.tournaments.rounds import Result, Round, Table
>>> r1 = Round(1, (Table(1, ("ann", "ben")), Table(2, ("cy", "dee"))), byes=("eve",))
>>> r2 = Round(2, (Table(1, ("eve", "ann")), Table(2, ("ben", "cy"))), byes=("dee",),
...            results={2: Result((("ben",), ("cy",)), forfeited=frozenset({"cy"}))})
>>> past = history_of([r1, r2])
>>> past.times_met("ann", "ben"), past.times_met("ben", "cy"), sorted(past.opponents("ann"))
(1, 0, ['ben', 'eve'])
>>> past.seats["ann"], past.colours("ann"), past.byes
(((0, 2), (1, 2)), 'WB', {'eve': 1, 'dee': 1})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations

from gamelog.tournaments.rounds import Round


@dataclass(frozen=True)
class History:
    met: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Per player, how often they met each opponent."""
    seats: Mapping[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    """Per player, (seat index, table size) of each game played, in round order."""
    byes: Mapping[str, int] = field(default_factory=dict)
    """Per player, how many byes they had."""

    def times_met(self, a: str, b: str) -> int:
        return self.met.get(a, {}).get(b, 0)

    def opponents(self, player: str) -> frozenset[str]:
        return frozenset(self.met.get(player, {}))

    def colours(self, player: str) -> str:
        """The player's colours at 2-player tables: ``W`` moved first, ``B`` second."""
        return "".join("WB"[seat] for seat, size in self.seats.get(player, ()) if size == 2)

    def most_opponents(self) -> int:
        """The largest number of different opponents any player met."""
        return max((len(opponents) for opponents in self.met.values()), default=0)


def history_of(rounds: Iterable[Round]) -> History:
    met: dict[str, dict[str, int]] = {}
    seats: dict[str, list[tuple[int, int]]] = {}
    byes: dict[str, int] = {}
    for round_ in sorted(rounds, key=lambda r: r.number):
        for player in round_.byes:
            byes[player] = byes.get(player, 0) + 1
        for table in round_.tables:
            result = round_.results.get(table.number)
            played = [p for p in table.seats if result is None or result.played(p)]
            if len(played) < 2:
                continue
            for a, b in combinations(played, 2):
                met.setdefault(a, {})[b] = met.get(a, {}).get(b, 0) + 1
                met.setdefault(b, {})[a] = met.get(b, {}).get(a, 0) + 1
            for index, player in enumerate(table.seats):
                if player in played:
                    seats.setdefault(player, []).append((index, len(table.seats)))
    return History(met, {p: tuple(s) for p, s in seats.items()}, byes)
