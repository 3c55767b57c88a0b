"""How many tables a round needs, and of which sizes.

The director gives a range of table sizes. A round uses the fewest tables
that seat everyone, as equal in size as the range allows, larger tables
first; when no number of tables seats everyone, the fewest players possible
get a bye:

>>> plan_tables(10, 3, 4)
TablePlan(sizes=(4, 3, 3), byes=0)
>>> plan_tables(12, 3, 4)
TablePlan(sizes=(4, 4, 4), byes=0)
>>> plan_tables(7, 2, 2)
TablePlan(sizes=(2, 2, 2), byes=1)
>>> plan_tables(5, 3, 4)
TablePlan(sizes=(4,), byes=1)
>>> plan_tables(2, 3, 4)
TablePlan(sizes=(), byes=2)

Why fewest tables: a range such as 3–5 names the sizes the game plays well
at, and a fuller table is the game as designed; players who asked for 4 a
table set the range 4–4.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamelog.tournaments.refusals import TournamentError


@dataclass(frozen=True)
class TablePlan:
    sizes: tuple[int, ...]
    """Table sizes from the largest to the smallest."""
    byes: int

    @property
    def seated(self) -> int:
        return sum(self.sizes)


def plan_tables(players: int, smallest: int, largest: int) -> TablePlan:
    """Split ``players`` into tables of ``smallest`` to ``largest`` seats."""
    if smallest > largest:
        raise TournamentError(
            "bad-table-size",
            f"the smallest table ({smallest}) is larger than the largest ({largest})",
        )
    if smallest < 2:
        raise TournamentError("bad-table-size", "a table seats at least 2 players")
    if players < 0:
        raise TournamentError("bad-players", "a round cannot have fewer than no players")
    best_seated, best_tables = 0, 0
    # t tables seat anything from t*smallest to t*largest players.
    for tables in range(1, players // smallest + 1):
        seated = min(players, tables * largest)
        if seated > best_seated:
            best_seated, best_tables = seated, tables
        if seated == players:
            break
    if best_tables == 0:
        return TablePlan((), players)
    base, extra = divmod(best_seated, best_tables)
    sizes = (base + 1,) * extra + (base,) * (best_tables - extra)
    return TablePlan(sizes, players - best_seated)
