"""A tournament as the fold of its records has it: players, rounds, results.

``TournamentState`` is what ``tournament_record.step`` makes of the records
so far, and what every command and the audit check a new record against:
the players and when they play (``changes``), each round as it was seated
(``SeatedRound``: its tables, their games, and the results that came in, kept
apart by where they came from), the rounds withdrawn, and whether it is
finished. A record that does not fit raises ``TournamentRecordError``.

A table's *effective* result is the director's latest (entered, corrected or
a forfeit), else the one its game recorded:

>>> from gamelog.tournaments.rounds import Result, Table
>>> played, corrected = Result((("ben",), ("ann",)), {}), Result((("ann", "ben"),), {})
>>> seated = SeatedRound(1, (Table(1, ("ann", "ben")),), (), {1: "g1"},
...     recorded={1: played}, directed={1: corrected})
>>> seated.effective(1) == corrected, seated.complete()
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gamelog.replay.record import Record
from gamelog.tournaments.players import Player, RosterChange, active_players
from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.rounds import Result, Round, Table
from gamelog.tournaments.settings import Settings


class TournamentRecordError(TournamentError):
    """A tournament record that does not fit the records before it."""


@dataclass(frozen=True)
class SeatedRound:
    """One round as the records have it: its seating, its tables' games, and
    the results that came in (kept apart by where they came from)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    games: Mapping[int, str]
    """Table number → the hash of the creation record of the table's game."""
    duplicate: str = "none"
    replaced: tuple[str, ...] = ()
    """Games of tables a seating override replaced (never played)."""
    recorded: Mapping[int, Result] = field(default_factory=dict)
    """Results of tables whose game ended in the store."""
    recorded_ends: Mapping[int, str] = field(default_factory=dict)
    """The hash of each such game's ``finished`` record."""
    directed: Mapping[int, Result] = field(default_factory=dict)
    """The director's latest result per table (entered, corrected, forfeit)."""
    held: frozenset[int] = frozenset()
    """Tables of a duplicate round whose game is over, its end held."""

    def round(self) -> Round:
        """The round for the pure core, with every table's effective result."""
        results = {**self.recorded, **self.directed}
        return Round(self.number, self.tables, self.byes, results)

    def effective(self, table: int) -> Result | None:
        return self.directed.get(table) or self.recorded.get(table)

    def complete(self) -> bool:
        return all(self.effective(t.number) is not None for t in self.tables)

    def table(self, number: int) -> Table:
        for table in self.tables:
            if table.number == number:
                return table
        raise TournamentRecordError("no-such-table", f"round {self.number} has no table {number}")


@dataclass(frozen=True)
class TournamentState:
    created: Record
    settings: Settings
    players: tuple[Player, ...] = ()
    player_keys: tuple[str, ...] = ()
    """Each player's id casefolded, in ``players``' order: a registration
    checks it for a taken id at C speed (a scan of ``players`` in Python made
    folding 5,000 registrations take 1.6 s)."""
    changes: tuple[RosterChange, ...] = ()
    rounds: tuple[SeatedRound, ...] = ()
    withdrawn: tuple[SeatedRound, ...] = ()
    """Rounds the director withdrew before they started, in the order of
    their withdrawal: their games are never played."""
    finished: bool = False
    position: int = 0
    last_hash: str = ""

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def core_rounds(self) -> list[Round]:
        return [seated.round() for seated in self.rounds]

    def player(self, player_id: str) -> Player:
        for player in self.players:
            if player.id == player_id:
                return player
        raise TournamentRecordError("unknown-player", f"no player {player_id!r}")

    def active(self, round_number: int) -> tuple[str, ...]:
        return active_players(self.players, self.changes, round_number)

    def withdrawals(self, round_number: int) -> int:
        """How often round ``round_number`` was withdrawn (its tables' seeds
        differ each time it is paired again)."""
        return sum(1 for seated in self.withdrawn if seated.number == round_number)

    def seated(self, round_number: int) -> SeatedRound:
        if not 1 <= round_number <= len(self.rounds):
            raise TournamentRecordError("no-such-round", f"round {round_number} is not paired")
        return self.rounds[round_number - 1]
