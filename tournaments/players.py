"""Players, and who plays in which round.

A player has a stable id (what every table, result and standing names), a
display name, and optionally a rating and a club. A player plays from the
round they entered (``first_round``, 1 unless they entered late); a
:class:`RosterChange` withdraws them from a round on, or brings them back:

>>> players = [Player("p1", "Ann"), Player("p2", "Ben", rating=1800),
...            Player("p3", "Cy", first_round=2)]
>>> changes = [RosterChange(2, "p1", plays=False), RosterChange(4, "p1", plays=True)]
>>> [active_players(players, changes, n) for n in (1, 2, 3, 4)]
[('p1', 'p2'), ('p2', 'p3'), ('p2', 'p3'), ('p1', 'p2', 'p3')]

A withdrawn player keeps the points already scored and stays in the
standings; only pairing leaves them out. Active players come in id order, so
nothing downstream depends on the order a roster was typed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamelog.tournaments.refusals import TournamentError


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    rating: int | None = None
    club: str | None = None
    first_round: int = 1
    """The first round the player may be paired in (a late entry enters later)."""

    def __post_init__(self) -> None:
        if not self.id or "#" in self.id:
            raise TournamentError("bad-player", "a player id must be non-empty, without '#'")
        if self.first_round < 1:
            raise TournamentError("bad-player", f"{self.id} cannot enter before round 1")


@dataclass(frozen=True)
class RosterChange:
    """From round ``round`` on, ``player`` plays (a re-entry) or not (a withdrawal)."""

    round: int
    player: str
    plays: bool


def check_roster(players: Sequence[Player], changes: Sequence[RosterChange]) -> None:
    """Refuse duplicate ids and changes naming nobody."""
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise TournamentError("duplicate-player", "two players have the same id")
    known = set(ids)
    for change in changes:
        if change.player not in known:
            raise TournamentError("unknown-player", f"no player {change.player!r}")
        if change.round < 1:
            raise TournamentError("bad-round", "rounds are numbered from 1")


def active_players(
    players: Sequence[Player], changes: Sequence[RosterChange], round_number: int
) -> tuple[str, ...]:
    """Ids of the players to be paired in ``round_number``, in id order.

    Changes apply in round order, and in the order given within one round
    (the event log's order), so a later change of the same round wins.
    """
    check_roster(players, changes)
    playing = {player.id: player.first_round <= round_number for player in players}
    for change in sorted(changes, key=lambda c: c.round):
        if change.round <= round_number:
            playing[change.player] = change.plays
    return tuple(sorted(pid for pid, plays in playing.items() if plays))
