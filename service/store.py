"""The store underneath every use case: loading games, saving them, who is asking.

``GameStore`` is the eventsourcing ``Application`` the use cases build on. It
loads a ``Game`` aggregate (from the cache, a snapshot, or the store), tells a
token's seat, serializes the commands on one game within this process, and saves
through group commit so that every acknowledged move is durable. The use cases
themselves live in one module per concept: ``commands`` (create, play, take back,
fork), ``queries`` (positions, legal moves, records, diff, audit), ``listing``
(stored games, trees), ``following`` (live streams) and ``record_files``
(export, import); ``app.GameLog`` puts them together.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import (
    IntegrityError,
    InterfaceError,
    OperationalError,
    PersistenceError,
)
from eventsourcing.utils import Environment, EnvType

from gamelog.games.protocol import ARBITER, Viewer
from gamelog.replay.notation import notated
from gamelog.replay.record import Record
from gamelog.service.credentials import Credentials
from gamelog.service.errors import (
    Conflict,
    DataLoss,
    GamelogError,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    StorageFull,
    Unauthenticated,
    Unavailable,
)
from gamelog.service.game import (
    DUPLICATE_TAG,
    Game,
    GameSnapshot,
    UnreadableRecord,
    tournament_of,
)
from gamelog.service.group_commit import GroupCommit
from gamelog.service.outcomes import Shown
from gamelog.service.recorder_errors import CommitInDoubt
from gamelog.service.sqlite_recorder import TOPIC as SQLITE_RECORDER_TOPIC
from gamelog.service.tournament import Tournament
from gamelog.service.tournament_credentials import DIRECTOR, TournamentCredentials
from gamelog.service.transcoder import TOPIC as TRANSCODER_TOPIC

log = logging.getLogger(__name__)
AggregateT = TypeVar("AggregateT", bound=Aggregate)
_Fact = TypeVar("_Fact")
SNAPSHOT_INTERVAL = 64
LOCK_STRIPES = 257
CREDENTIALS_CACHE_SIZE = 100_000
GATHER_SECONDS = 0.001
"""How long a commit may wait for the next move of games saved moments ago
(``GroupCommit``): the pause after which it stops waiting for them. Under
load a move waits several milliseconds for the cores anyway; one more lets
a commit carry the next moves too. Measured best of 0.5, 1 and 2 ms
(bench/README.md, "tenth round")."""
GATHER_LIMIT_SECONDS = 0.004
"""The longest a commit gathers while those moves keep coming one by one:
four pauses. Measured alike with eight, and a fifth fewer commits a move
than one pause in all (bench/README.md, "eleventh round")."""


class GameStore(Application[UUID]):
    """Loading, saving and authenticating: what every use case needs."""

    name = "gamelog"
    snapshot_class = GameSnapshot
    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}  # noqa: RUF012 (the library's API)
    env = {  # noqa: RUF012
        "PERSISTENCE_MODULE": "eventsourcing.popo",
        "AGGREGATE_CACHE_MAXSIZE": "2000",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
        "COMPRESSOR_TOPIC": "",
        # eventsourcing's JSON transcoder, writing the same bytes faster (see there).
        "TRANSCODER_TOPIC": TRANSCODER_TOPIC,
    }

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        self._locks = tuple(threading.RLock() for _ in range(LOCK_STRIPES))
        # Tournaments have locks of their own: a command on a game may take its
        # tournament's lock (a table's result flows in), and no tournament
        # command ever takes a game's, so the two kinds never wait in a circle.
        self._tournament_locks = tuple(threading.RLock() for _ in range(LOCK_STRIPES))
        self._locks_guard = threading.Lock()
        self._credentials_cache: dict[UUID, Credentials] = {}
        self._tournament_access: dict[UUID, TournamentCredentials] = {}
        self._commits = GroupCommit(
            self._save_together,
            gather_seconds=GATHER_SECONDS,
            gather_limit_seconds=GATHER_LIMIT_SECONDS,
            key=lambda game: game.id,
            is_last=lambda game: game.is_finished,
            # A store that went away fails every game of the transaction.
            alone_after=lambda error: not isinstance(error, OperationalError | InterfaceError),
        )
        # Games whose move, decided on the event loop, waits for its commit:
        # the loop holds their lock meanwhile (see Commands.play_async).
        self._playing_on_loop: set[UUID] = set()

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        """The library's settings, with SQLite's events stored one statement
        a transaction (``sqlite_recorder``) unless another recorder is named."""
        settings = super().construct_env(name, env)
        if settings.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite" and not settings.get(
            "APPLICATION_RECORDER_TOPIC"
        ):
            settings["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER_TOPIC
        return settings

    def close(self) -> None:
        self._commits.close()
        # The PostgreSQL and SQLite recorders each hold one connection for writing.
        close_writer = getattr(self.recorder, "close_writer", None)
        if close_writer is not None:
            close_writer()
        super().close()

    # -- helpers ----------------------------------------------------------------------

    def _lock(self, game_id: UUID) -> threading.RLock:
        """The lock that serializes, within this process, every load and every
        write of one game (one of a fixed set of stripes, so memory stays
        bounded however many games there are). Across processes the store's
        unique key on (game, position) decides."""
        return self._locks[game_id.int % len(self._locks)]

    def _game(self, game_id: UUID, position: int | None = None) -> Game:
        try:
            if position is None:
                # A working copy of the cached game, taken under the game's
                # lock so that it is never taken halfway through a catch-up.
                with self._lock(game_id):
                    cached: Any = self.repository.get(game_id, deepcopy_from_cache=False)
                    game: Any = working_copy(cached)
            else:
                game = self.repository.get(game_id, version=position + 1)
                if game.position != position:
                    raise NotFound(
                        "no-such-position",
                        f"game {game_id} has no position {position}; it ends at {game.position}",
                    )
        except AggregateNotFoundError:
            if position is not None and self._exists(game_id):
                raise NotFound(
                    "no-such-position", f"game {game_id} has no position {position}"
                ) from None
            raise NotFound("no-such-game", f"no game {game_id}") from None
        except UnreadableRecord as unreadable:
            raise self._data_loss(game_id, unreadable.position, unreadable.error) from None
        except (GamelogError, PersistenceError):
            raise
        except Exception as error:  # the stored bytes themselves cannot be decoded
            raise self._data_loss(game_id, self._undecodable_position(game_id), error) from None
        if not isinstance(game, Game):
            raise NotFound("no-such-game", f"no game {game_id}")
        return game

    @staticmethod
    def _data_loss(game_id: UUID, position: int | None, error: BaseException) -> DataLoss:
        log.error("stored game %s is unreadable at %s: %r", game_id, position, error)
        where = f"position {position}" if position is not None else "an unknown position"
        return DataLoss(
            "unreadable-game",
            f"game {game_id} cannot be read from the store at {where}; "
            "its stored record is damaged (other games are not affected)",
        )

    def _undecodable_position(self, game_id: UUID) -> int | None:
        """The first position whose stored event cannot even be decoded."""
        for stored in self.recorder.select_events(game_id):
            try:
                self.mapper.to_domain_event(stored)
            except Exception:
                return int(stored.originator_version) - 1
        return None

    def _exists(self, game_id: UUID) -> bool:
        return bool(list(self.events.get(game_id, limit=1)))

    def _credentials(self, game_id: UUID) -> Credentials:
        # Credentials never change once issued, so every process may keep them.
        cached = self._credentials_cache.get(game_id)
        if cached is not None:
            return cached
        try:
            credentials: Any = self.repository.get(
                Credentials.id_for(game_id), deepcopy_from_cache=False
            )
        except AggregateNotFoundError:
            raise NotFound("no-such-game", f"no game {game_id}") from None
        assert isinstance(credentials, Credentials)
        with self._locks_guard:
            if len(self._credentials_cache) >= CREDENTIALS_CACHE_SIZE:
                self._credentials_cache.pop(next(iter(self._credentials_cache)))
            self._credentials_cache[game_id] = credentials
        return credentials

    def viewer(self, game_id: UUID, token: str | None) -> Viewer:
        """The seat (or ARBITER) ``token`` stands for in ``game_id``; None
        for no token. A token that is not one of the game's own is tried, for
        a tournament's table, against that tournament's (the one here that
        created it, ``Game.tournament_id``): its director is the arbiter, a
        player holds the seat that player sits in. Nothing else, and nothing
        across tournaments; a game no tournament seated pays nothing for this."""
        try:
            viewer = self._credentials(game_id).viewer_for(token)
        except Unauthenticated:
            tournament_id = self._game_tournament(game_id)
            if tournament_id is None:
                raise
            return self._tournament_viewer(tournament_id, game_id, token)
        if viewer is None:
            self._check_spectator(game_id)
        return viewer

    def _check_spectator(self, game_id: UUID) -> None:
        """Refuse a spectator a running table of a duplicate round (tag
        ``Duplicate``, its forks too): the round's tables of one size share
        one deal, so a card one table plays openly names a card the same
        seat holds at the others. Its seats and the director read it; every
        table is public once the round is over (its end stored). A fork is
        public only then too, though it may finish before: its creation
        holds the table's deal."""
        if self._is_duplicate(game_id) and not self._round_over(game_id):
            raise PermissionDenied(
                "duplicate-table",
                "a table of a duplicate round shows nothing to spectators until the round "
                "is over: the round's other tables play the same deal",
            )

    def _round_over(self, game_id: UUID) -> bool:
        """Whether the table a duplicate game is, or was forked from, is
        finished: a table's end is held until its round is over."""
        game = self._game(game_id)
        # Parents are created before their forks, so the chain ends.
        while parent := game.record_created.get("parent"):
            game = self._game(UUID(parent["game_id"]))
        return game.is_finished

    def _is_duplicate(self, game_id: UUID) -> bool:
        """Whether the game carries the ``Duplicate`` tag."""
        return self._fixed_at_creation(
            game_id,
            lambda game: game.end_held,
            lambda created: DUPLICATE_TAG in (created.record.get("metadata") or {}),
        )

    def _game_tournament(self, game_id: UUID) -> UUID | None:
        """The tournament here whose table a game may be (``Game.tournament_id``)."""
        return self._fixed_at_creation(
            game_id,
            lambda game: game.tournament_id,
            # An event stored before the id was kept lacks it.
            lambda created: tournament_of(created.record, getattr(created, "tournament_id", None)),
        )

    def _fixed_at_creation(
        self,
        game_id: UUID,
        of_game: Callable[[Game], _Fact],
        of_creation: Callable[[Any], _Fact],
    ) -> _Fact:
        """A fact about a game that its creation fixes: from the cached game,
        else from the creation event alone, so that a caller with a wrong
        token or no token never makes the server fold the whole game."""
        cache = self.repository.cache
        if cache is not None:
            with contextlib.suppress(KeyError):
                cached: Any = cache.get(game_id)
                if isinstance(cached, Game):
                    return of_game(cached)
        try:
            first = list(self.events.get(game_id, limit=1))
        except Exception:  # damaged or away: ``_game`` says which
            first = []
        if first and isinstance(first[0], Game.Created):
            return of_creation(first[0])
        return of_game(self._game(game_id))

    def _tournament_viewer(self, tournament_id: UUID, game_id: UUID, token: str | None) -> Viewer:
        refused = Unauthenticated("bad-token", "this token belongs to no seat of this game")
        try:
            holder = self._tournament_holder(tournament_id, token)
            tournament = self._tournament_owning(tournament_id, game_id)
        except (NotFound, Unauthenticated):
            raise refused from None
        # The tag alone grants nothing: the tournament must have seated this game.
        if tournament is None:
            raise refused
        if holder == DIRECTOR:
            return ARBITER
        seat = tournament.seat_of(holder, game_id)
        if seat is None:
            raise refused
        return seat

    def _tournament_holder(self, tournament_id: UUID, token: str | None) -> str:
        """Who ``token`` is in a tournament: kept credentials first, read
        again when they do not know it (a player registered since, elsewhere)."""
        cached = self._tournament_access.get(tournament_id)
        if cached is not None:
            with contextlib.suppress(Unauthenticated):
                return cached.holder_of(token)
        credentials = self._tournament_credentials(tournament_id)
        with self._locks_guard:
            if len(self._tournament_access) >= CREDENTIALS_CACHE_SIZE:
                self._tournament_access.pop(next(iter(self._tournament_access)))
            self._tournament_access[tournament_id] = credentials
        return credentials.holder_of(token)

    def _tournament_owning(self, tournament_id: UUID, game_id: UUID) -> Tournament | None:
        """The tournament, if it created ``game_id``: the cached copy when it
        knows the game (no store read), else read again."""
        cache = self.repository.cache
        if cache is not None:
            with contextlib.suppress(KeyError):
                cached: Any = cache.get(tournament_id)
                if isinstance(cached, Tournament) and cached.owns(game_id):
                    return cached
        tournament = self._tournament(tournament_id)
        return tournament if tournament.owns(game_id) else None

    def viewer_or_spectator(self, game_id: UUID, token: str | None) -> Viewer:
        """What ``token`` may see of ``game_id``: its seat or the arbiter when
        the token is one of that game's, a spectator otherwise. Rights never
        carry over from one game to another (not to its forks either)."""
        try:
            return self.viewer(game_id, token)
        except Unauthenticated:
            self._check_spectator(game_id)
            return None

    def _seat_of(self, game_id: UUID, token: str | None) -> str:
        # No token is no spectator here: refused as such, whatever the game.
        viewer = (
            self.viewer(game_id, token) if token else self._credentials(game_id).viewer_for(None)
        )
        if viewer is None:
            raise Unauthenticated("token-required", "this needs a seat's or the arbiter's token")
        return viewer

    # -- tournaments --------------------------------------------------------------

    def _tournament_lock(self, tournament_id: UUID) -> threading.RLock:
        return self._tournament_locks[tournament_id.int % len(self._tournament_locks)]

    def _tournament(self, tournament_id: UUID) -> Tournament:
        """A working copy of a tournament (shallow: it never changes its
        containers in place)."""
        try:
            with self._tournament_lock(tournament_id):
                cached: Any = self.repository.get(tournament_id, deepcopy_from_cache=False)
                tournament: Any = working_copy(cached)
        except AggregateNotFoundError:
            raise NotFound("no-such-tournament", f"no tournament {tournament_id}") from None
        if not isinstance(tournament, Tournament):
            raise NotFound("no-such-tournament", f"no tournament {tournament_id}")
        return tournament

    def _tournament_credentials(self, tournament_id: UUID) -> TournamentCredentials:
        try:
            credentials: Any = self.repository.get(TournamentCredentials.id_for(tournament_id))
        except AggregateNotFoundError:
            raise NotFound("no-such-tournament", f"no tournament {tournament_id}") from None
        assert isinstance(credentials, TournamentCredentials)
        return credentials

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """eventsourcing's ``Application.save``, less its per-object
        ``isinstance`` checks against runtime-checkable ``typing.Protocol``
        classes (each walks the protocol's attributes: a fifth of a move's
        bookkeeping). Aggregates are told apart from bare events once, by
        class; anything else takes the library's own path. The events still
        go through the library's mapper, recorder and snapshot hooks."""
        if not all(isinstance(obj, Aggregate) for obj in objs):
            return super().save(*objs, **kwargs)
        processing_event: ProcessingEvent[UUID] = ProcessingEvent()
        for aggregate in objs:
            processing_event.events.extend(aggregate.collect_events())
            processing_event.aggregates[aggregate.id] = aggregate
        processing_event.saved_kwargs.update(kwargs)
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        self.notify(processing_event.events)  # the library's deprecated hook, kept
        return recordings

    def _save_together(self, *aggregates: Aggregate) -> None:
        """Save in one transaction; if that fails, the aggregates keep their
        pending events, so group commit can save each alone."""
        pending = [list(aggregate.pending_events) for aggregate in aggregates]
        try:
            self.save(*aggregates)
        except Exception:
            for aggregate, events in zip(aggregates, pending, strict=True):
                aggregate._pending_events = events
            raise

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Take the snapshots that fell due in a save, from the games in hand.

        The library would read each game back from the store and fold up to
        SNAPSHOT_INTERVAL events again, while this save still leads its group
        commit, to get the state the game just saved already holds: its
        events were folded as the store gives them back (``as_stored``). Only
        a snapshot due before the last event of a save (a move and the end it
        caused, an import) is left to the library. (This overrides a private
        hook of eventsourcing 9.5, which pyproject.toml pins.)"""
        assert self.snapshots is not None  # snapshotting_intervals turns them on
        for event in processing_event.events:
            version = event.originator_version
            game = processing_event.aggregates.get(event.originator_id)
            if not isinstance(game, Game) or version % SNAPSHOT_INTERVAL:
                continue
            # The events are committed: a failed snapshot must not turn the
            # save into a failure (a retry would meet its own move as a
            # conflict). Snapshots are a cache; the next one will do.
            try:
                if game.version == version:
                    self.snapshots.put([GameSnapshot.take(game)])
                else:
                    self.take_snapshot(event.originator_id, version=version)
            except Exception:
                log.exception("snapshot of game %s at version %s failed", game.id, version)

    def _save(self, *aggregates: Aggregate) -> None:
        try:
            if len(aggregates) == 1:
                self._commits.save(aggregates[0])
            else:
                self.save(*aggregates)
        except PersistenceError as error:
            raise _refusal_of(error) from None
        self._saved(aggregates)

    def _saved(self, aggregates: tuple[Aggregate, ...]) -> None:
        """What follows every committed save (on the thread or loop that saved)."""
        for aggregate in aggregates:
            if isinstance(aggregate, Tournament):
                self._remember(aggregate.id, aggregate)

    def _current_game(self, game_id: UUID, at_position: int) -> Game:
        """The game to play at ``at_position``: the cached copy when it is at that
        position (no store read), else the game read from the store. A cached copy
        is never ahead of the store, and if another process stored this position
        meanwhile, the save fails on the store's unique key."""
        cache = self.repository.cache
        if cache is not None:
            with contextlib.suppress(KeyError):
                cached: Any = cache.get(game_id)
                if isinstance(cached, Game) and cached.position == at_position:
                    return working_copy(cached)
        return self._game(game_id)

    def _remember(self, aggregate_id: UUID, aggregate: Aggregate) -> None:
        cache = self.repository.cache
        if cache is not None:
            cache.put(aggregate_id, aggregate)

    # -- reading ----------------------------------------------------------------------

    def shown(
        self, game_id: UUID, game: Game, records: list[Record], viewer: Viewer
    ) -> list[Shown]:
        """``records`` (consecutive, full) cut for ``viewer``, with their notation."""
        if not records:
            return []
        first = records[0]["position"]
        before = self._game(game_id, first - 1).state if first > 0 else None
        earlier = {
            r["to_position"]: self._game(game_id, r["to_position"]).state
            for r in records
            if r["kind"] == "takeback" and r["to_position"] < first
        }
        return [
            Shown(record, line)
            for record, line in notated(
                game.rules, records, viewer, game.is_finished, before, earlier
            )
        ]

    def records(
        self, game_id: UUID, from_position: int = 0, to_position: int | None = None
    ) -> list[Record]:
        """The full stored records (unredacted: callers redact)."""
        gt = from_position if from_position > 0 else None
        lte = None if to_position is None else to_position + 1
        try:
            stored = list(self.events.get(game_id, gt=gt, lte=lte))
        except PersistenceError:
            raise
        except Exception as error:  # the stored bytes themselves cannot be decoded
            raise self._data_loss(game_id, self._undecodable_position(game_id), error) from None
        if not stored and from_position == 0:
            raise NotFound("no-such-game", f"no game {game_id}")
        return [event_record(event) for event in stored]


def _refusal_of(error: PersistenceError) -> GamelogError:
    """A store's refusal of a write, as the caller is told it."""
    if isinstance(error, IntegrityError):
        return Conflict(
            "position-taken", "another move was stored at this position first; reload and retry"
        )
    log.error("the store refused a write: %r", error)
    if isinstance(error, CommitInDoubt):
        return Unavailable(
            "commit-in-doubt",
            "the store went away while this was being committed, so it may or may not "
            "be stored; retry it with the same request id: it is stored once",
            {"retry": "same-request-id"},
        )
    if isinstance(error, OperationalError) and "full" in str(error).lower():
        return StorageFull("storage-full", "the store has no room left; nothing was stored")
    return Unavailable(
        "storage-unavailable", "the store cannot be written just now; nothing was stored"
    )


def working_copy(cached: AggregateT) -> AggregateT:
    """A cached game (or tournament) to run one command on. Shallow is
    enough: it replaces its containers and never changes them in place (see
    Game), so a refused command cannot spoil the cache."""
    # What copy.copy does for a plain object, without its reduce protocol.
    aggregate: AggregateT = object.__new__(type(cached))
    aggregate.__dict__.update(cached.__dict__)
    aggregate._pending_events = []
    return aggregate


def event_record(event: Any) -> Record:
    """The plain record a stored aggregate event carries, with its timestamp."""
    record = dict(event.record)
    record["timestamp"] = event.timestamp.isoformat()
    return record


def parse_game_id(text: str) -> UUID:
    try:
        return UUID(text)
    except (ValueError, AttributeError, TypeError):
        raise InvalidArgument("bad-game-id", f"{text!r} is not a game id") from None
