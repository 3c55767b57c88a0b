"""What the use cases of ``GameLog`` answer: plain, frozen data."""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

from gamelog.games.protocol import JSON, Viewer
from gamelog.replay.record import Record


@dataclass(frozen=True)
class Shown:
    """A stored record as one caller may see it, with its line of notation."""

    record: Record
    notation: str


@dataclass(frozen=True)
class LegalMoves:
    seat: str
    position: int
    moves: list[JSON]
    sample_note: str | None = None
    """None when ``moves`` is every legal move; else what the sample covers."""


@dataclass(frozen=True)
class CreatedGame:
    game_id: UUID
    tokens: dict[str, str]
    arbiter_token: str
    commitment: str
    record: Record


@dataclass(frozen=True)
class Played:
    position: int
    records: list[Record]
    replayed: bool = False
    """True when a retried request id returned the first call's result."""
    seat: str = ""
    finished: bool = False
    game: str = ""
    shown: list[Shown] = field(default_factory=list)
    """The records as the caller (``seat``) may see them, with their notation."""


@dataclass(frozen=True)
class PositionView:
    game_id: UUID
    game: str
    position: int
    last_position: int
    ply: int
    viewer: Viewer
    view: dict[str, JSON]
    to_act: list[str]
    finished: bool
    result: dict[str, JSON] | None
    text: str
    pending_undo: dict[str, JSON] | None = None
    svg: str = ""
    tags: dict[str, str] = field(default_factory=dict)
    clocks: dict[str, JSON] | None = None
    """With a time control: ``time_control``, ``on_timeout``, ``remaining_ms``
    per seat, ``running`` (whose clock runs now), ``out_of_time``."""
    undo_policy: str = "none"


@dataclass(frozen=True)
class GameSummary:
    game_id: UUID
    game: str
    rules_version: str
    seats: list[str]
    finished: bool
    created_at: str
    parent: dict[str, JSON] | None
    metadata: dict[str, JSON] = field(default_factory=dict)
    last_position: int = 0
    tournament_id: str = ""
    """The tournament here that seated this game at one of its tables (the
    game index's); empty for any other game."""

    @property
    def status(self) -> str:
        return "finished" if self.finished else "running"


@dataclass(frozen=True)
class GamesPage:
    games: list[GameSummary]
    next_page_token: str = ""
    """Where the next (older) page starts; empty when there is none."""


@dataclass(frozen=True)
class TakeBackOutcome:
    position: int
    taken_back: bool
    records: list[Record]
    seat: str = ""
    """The caller: the seat that asked or answered, or ARBITER."""
    game: str = ""
    shown: list[Shown] = field(default_factory=list)


@dataclass(frozen=True)
class TreeNode:
    game_id: UUID
    parent_game_id: UUID | None
    parent_position: int
    last_position: int
    finished: bool


@dataclass(frozen=True)
class LineDiff:
    common_plies: int
    identical: bool
    description: str


@dataclass(frozen=True)
class Imported:
    games: list[CreatedGame]
    id_map: dict[str, UUID]
    already_stored: dict[str, list[UUID]] = field(default_factory=dict)
    """Games of the file this store already held (imported before): the
    file's game id and the stored copies' ids. The import made another copy."""
