"""The game index: one row per stored game (and per tournament), kept beside the events.

The index is a *read model*: a view of the event log that answers "which games
are there?" at the cost of the answer, not of the store. It is an
eventsourcing ``TrackingRecorder``: every change to it is stored in the same
transaction as the position in the log up to which it is complete, so each
event is applied exactly once and the index resumes where it stopped after a
crash (``projection`` says which events change what, ``follower``
feeds it from the log). This module holds what the index holds and what it can
be asked; ``sqlite`` stores it in SQLite (and in memory), ``postgres``
in PostgreSQL. Tournaments are listed from the same index, a table of their
own beside the games' (``tournament_sql``), fed by the same projection and
rebuilt with it: one tracking position covers both.

    >>> filters = GameFilter(game="panem", tags={"Event": "Club night"})
    >>> filters.problem() is None
    True
    >>> GameFilter(status="paused").problem()
    "status is 'running' or 'finished', not 'paused'"
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from uuid import UUID

from eventsourcing.persistence import Tracking, TrackingRecorder

from gamelog.games.protocol import JSON
from gamelog.replay.checks import MAX_TAG_VALUE, quoted
from gamelog.tournaments.ratings import RatedGame, RatingFilter

STATUSES = ("running", "finished")
DATE_PREFIX = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")
MAX_TAG_FILTERS = 32
MAX_TREE_DEPTH = 10_000
"""Branches of branches deeper than this are left out of a tree (a guard: no
real study goes that deep, and a tree query must end)."""


@dataclass(frozen=True)
class IndexedGame:
    """What the index knows of one game: its creation, and whether it ended."""

    game_id: UUID
    seq: int
    """The notification id of the game's creation: the listing's order."""
    game: str
    rules_version: str
    seats: tuple[str, ...]
    tags: Mapping[str, str]
    parent: Mapping[str, JSON] | None
    """As the creation record names it: ``game_id``, ``position``, ``hash``."""
    created_at: str
    creation_hash: str
    """The hash of the creation record (position 0): equal for two imports of one record."""
    finished: bool = False
    tournament_id: str = ""
    """The tournament whose table this game is (set by the tournaments' hook)."""

    @property
    def parent_game_id(self) -> UUID | None:
        return UUID(str(self.parent["game_id"])) if self.parent else None

    @property
    def parent_position(self) -> int:
        return int(str(self.parent["position"])) if self.parent else -1


# -- what events change ---------------------------------------------------------------


@dataclass(frozen=True)
class GameAdded:
    game: IndexedGame


@dataclass(frozen=True)
class GameFinished:
    game_id: UUID


@dataclass(frozen=True)
class TableAssigned:
    """A game became a tournament's table (the hook for the tournaments'
    aggregate: see ``projection``). The game's creation must come
    earlier in the log."""

    game_id: UUID
    tournament_id: str


@dataclass(frozen=True)
class IndexedTournament:
    """What the index knows of one tournament: its creation, and whether it finished."""

    tournament_id: UUID
    seq: int
    """The notification id of its creation: the listing's order."""
    name: str
    game: str
    site: str
    dates: str
    created_at: str
    creation_hash: str
    """The hash of its creation record: equal for two imports of one archive."""
    origin_id: str
    """The id it was created under (itself, or an imported archive's)."""
    finished: bool = False


@dataclass(frozen=True)
class TournamentAdded:
    tournament: IndexedTournament


@dataclass(frozen=True)
class TournamentFinished:
    tournament_id: UUID


@dataclass(frozen=True)
class GameRated:
    """A finished game that counts for ratings (``replay.rated_games``): the
    ratings' read model is these rows, rated by ``tournaments.ratings.rate``."""

    rated: RatedGame
    seq: int
    """The notification id of the game's end."""


IndexChange = (
    GameAdded | GameFinished | TableAssigned | TournamentAdded | TournamentFinished | GameRated
)


class IndexMoved(Exception):
    """Another process recorded part of the same stretch of the log first:
    nothing of this batch was stored; read the tracking position again."""


# -- what the index can be asked ------------------------------------------------------


@dataclass(frozen=True)
class GameFilter:
    """What a listing asks for; every field given must hold."""

    game: str = ""
    status: str = ""
    """``running``, ``finished``, or empty for both."""
    tags: Mapping[str, str] = field(default_factory=dict)
    player: str = ""
    """A seat name."""
    event: str = ""
    """The ``Event`` tag (a tournament's name, until tournaments fill ``tournament_id``)."""
    round: str = ""
    """The ``Round`` tag."""
    tournament_id: str = ""
    parent_game_id: UUID | None = None

    def tag_pairs(self) -> list[tuple[str, str]]:
        """Every tag condition, ``event`` and ``round`` included (they are tags).

        >>> GameFilter(tags={"Table": "4"}, event="Open", round="2").tag_pairs()
        [('Event', 'Open'), ('Round', '2'), ('Table', '4')]
        """
        pairs = [("Event", self.event)] if self.event else []
        pairs += [("Round", self.round)] if self.round else []
        return pairs + sorted(self.tags.items())

    def problem(self) -> str | None:
        if self.status and self.status not in STATUSES:
            return f"status is 'running' or 'finished', not {quoted(self.status)}"
        if len(self.tag_pairs()) > MAX_TAG_FILTERS:
            return f"at most {MAX_TAG_FILTERS} tag conditions"
        # Nothing stored is longer, so a longer condition matches nothing;
        # refusing it keeps a query's text as small as what it can find.
        texts = [self.game, self.player, self.tournament_id]
        texts += [text for pair in self.tag_pairs() for text in pair]
        if any(len(text) > MAX_TAG_VALUE for text in texts):
            return f"a filter's text is at most {MAX_TAG_VALUE} characters"
        return None


@dataclass(frozen=True)
class TournamentFilter:
    """What a listing of tournaments asks for; every field given must hold.

    >>> TournamentFilter(name="club", status="running", date="2026-11").problem() is None
    True
    >>> TournamentFilter(date="30.11.2026").problem()
    "a date is YYYY, YYYY-MM or YYYY-MM-DD, not '30.11.2026'"
    """

    name: str = ""
    """Part of the name, any case."""
    status: str = ""
    """``running``, ``finished``, or empty for both."""
    date: str = ""
    """``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``: the start of its dates or of
    the day it was created."""

    def problem(self) -> str | None:
        if self.status and self.status not in STATUSES:
            return f"status is 'running' or 'finished', not {quoted(self.status)}"
        if len(self.name) > MAX_TAG_VALUE:
            return f"a filter's text is at most {MAX_TAG_VALUE} characters"
        if self.date and not DATE_PREFIX.fullmatch(self.date):
            return f"a date is YYYY, YYYY-MM or YYYY-MM-DD, not {quoted(self.date)}"
        return None


class GameIndexView(TrackingRecorder, ABC):
    """The index's storage, beside the events of ``upstream``."""

    upstream: str
    """The name of the application whose log the index follows."""

    # -- following the log ---------------------------------------------------------

    @abstractmethod
    def settled_position(self) -> int:
        """A notification id at or below which the log will never change: every
        transaction that could still add a notification with a smaller id has
        ended. On PostgreSQL this is not simply the largest id committed, since
        transactions may commit out of id order (see ``postgres``)."""

    @abstractmethod
    def record(
        self, changes: Sequence[IndexChange], tracking: Tracking, previous: int | None = None
    ) -> None:
        """Apply ``changes`` and record ``tracking``, in one transaction. With
        ``previous``, first check that the index was at exactly that position
        (raising ``IndexMoved`` otherwise), so that two processes applying the
        same stretch of the log never both apply it."""

    @abstractmethod
    def beside(self) -> GameIndexView:
        """A new, empty index beside this one, in the same database, with a
        tracking position of its own: a rebuild fills it from the log."""

    @abstractmethod
    def take_over(self, rebuilt: GameIndexView) -> None:
        """Replace this index's games and tracking position by ``rebuilt``'s
        (made by ``beside``), in one transaction."""

    @abstractmethod
    def drop(self) -> None:
        """Remove an index made by ``beside`` (its tables and tracking position)."""

    def position(self) -> int:
        """The notification id up to which the index is complete."""
        return self.max_tracking_id(self.upstream) or 0

    # -- answering ---------------------------------------------------------------------

    @abstractmethod
    def games(
        self, filters: GameFilter, limit: int, before_seq: int | None = None
    ) -> list[IndexedGame]:
        """The newest ``limit`` games that ``filters`` lets through, created
        before ``before_seq`` when given; newest first."""

    @abstractmethod
    def get(self, game_id: UUID) -> IndexedGame | None: ...

    @abstractmethod
    def tree_of(self, game_id: UUID) -> list[IndexedGame]:
        """Every game of the tree of branches ``game_id`` belongs to (its root:
        the farthest ancestor the index knows), in creation order."""

    @abstractmethod
    def ids_with_prefix(self, hex_prefix: str, limit: int) -> list[UUID]:
        """Game ids whose 32 hex digits start with ``hex_prefix`` (lower case)."""

    @abstractmethod
    def count_with_prefix(self, hex_prefix: str) -> int: ...

    @abstractmethod
    def ids_with_creation_hash(self, creation_hash: str) -> list[UUID]: ...

    @abstractmethod
    def last_positions(self, game_ids: Sequence[UUID]) -> dict[UUID, int]:
        """Each game's last stored position, read from the events' own key
        (one index lookup per game), so that no move has to touch the index."""

    @abstractmethod
    def running_with_tag(self, key: str, limit: int, after_seq: int = 0) -> list[tuple[UUID, int]]:
        """(game id, seq) of the running games that carry the tag ``key``
        (whatever its value), oldest first, created after ``after_seq``: the
        clocks to look at."""

    @abstractmethod
    def rated_games(self, wanted: RatingFilter) -> list[RatedGame]:
        """The finished games that count for ratings and that ``wanted`` admits,
        in the order they ended."""

    @abstractmethod
    def count(self) -> int:
        """How many games the index holds."""

    @abstractmethod
    def everything(self) -> list[IndexedGame]:
        """The whole index, in creation order: for checks and maintenance only."""

    # -- tournaments -------------------------------------------------------------------

    @abstractmethod
    def tournaments(
        self, filters: TournamentFilter, limit: int, before_seq: int | None = None
    ) -> list[IndexedTournament]:
        """The newest ``limit`` tournaments ``filters`` lets through, created
        before ``before_seq`` when given; newest first."""

    @abstractmethod
    def tournament_ids_with_prefix(self, hex_prefix: str, limit: int) -> list[UUID]:
        """Tournament ids whose 32 hex digits start with ``hex_prefix`` (lower case)."""

    @abstractmethod
    def count_tournaments_with_prefix(self, hex_prefix: str) -> int: ...

    @abstractmethod
    def tournament_ids_with_creation_hash(self, creation_hash: str) -> list[UUID]:
        """Tournaments whose creation record has this hash, oldest first."""
