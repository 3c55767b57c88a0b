"""What the tournament use cases answer: plain, frozen data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from gamelog.replay.record import Record


@dataclass(frozen=True)
class CreatedTournament:
    tournament_id: UUID
    director_token: str
    commitment: str
    record: Record


@dataclass(frozen=True)
class RegisteredPlayer:
    id: str
    name: str
    token: str
    first_round: int


@dataclass(frozen=True)
class SeatedTable:
    number: int
    seats: list[str]
    game_id: UUID | None
    result: dict[str, Any] | None
    """The effective result: ranking, scores, forfeited, and ``source``
    (``game``, or the director's record kind); None while it is played."""


@dataclass(frozen=True)
class SeatedRound:
    number: int
    tables: list[SeatedTable]
    byes: list[str]
    duplicate: str = "none"


@dataclass(frozen=True)
class PlayerEntry:
    id: str
    name: str
    rating: int | None
    club: str | None
    first_round: int
    active: bool
    """Plays in the next round (not withdrawn)."""


@dataclass(frozen=True)
class TournamentSummary:
    tournament_id: UUID
    name: str
    site: str
    dates: str
    game: str
    settings: dict[str, Any]
    players: list[PlayerEntry]
    rounds: list[SeatedRound]
    finished: bool
    position: int
    origin_id: UUID
    """The id it was created under (``Tournament.origin_id``): its own, or
    for an import the archive's."""


@dataclass(frozen=True)
class StandingRow:
    place: int
    player: str
    name: str
    points: str
    """Exact: ``"7/2"``, never a float."""
    tiebreaks: list[str]
    lot: int
    played: int
    byes: int
    by_round: list[str | None] = field(default_factory=list)


@dataclass(frozen=True)
class ImportedTournament:
    tournament_id: UUID
    director_token: str
    player_tokens: dict[str, str]
    id_map: dict[str, UUID]
    """Each game id in the archive → its new id here."""
    origin_id: UUID
    """The archive's tournament id, which its records and tags name."""
    already_stored: list[UUID] = field(default_factory=list)
    """Tournaments of this store imported from the same archive before (the
    same creation record): the import is one more copy, and says so."""
