"""The event store: loading games and tournaments, and saving what commands did.

``GameStore`` is the eventsourcing ``Application`` at the heart of the
service: its recorder, mapper, repository, aggregate cache and snapshots are
the library's own, configured from the environment (``settings``). The use
cases (``gamelog.service.usecases``) hold it and ask it for

- **aggregates to work on**: ``game``, ``tournament`` (and their
  credentials), each a working copy that a command may change freely,
  since a refused command must leave nothing behind (``copies``);
- **records**: ``records`` (the plain, full records a game stored);
- **commits**: ``commit`` stores everything a command triggered in one
  transaction, a lone game through the group commit (``group_commit``), and
  tells the listeners (``on_saved``) once it is durable; ``commit_async`` is
  the same for a coroutine, and ``committed`` what follows it.

A store's refusal of a write becomes the service's refusal here
(``store_refusals.refusal_of``): a lost race for a position, a full disk, a
store that is away. A record the rules cannot fold becomes ``DATA_LOSS`` for
that game only (``data_loss``).

    store = GameStore(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    game = store.game(game_id)          # a working copy, at its last position
    game.play("ann", {"card": 42}, at_position=game.position)
    store.commit(game)                  # durable when this returns
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import InterfaceError, OperationalError, PersistenceError
from eventsourcing.utils import Environment, EnvType

from gamelog.replay.record import Record
from gamelog.service.model.chain_signatures import ChainSignatures
from gamelog.service.model.credentials import Credentials
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import DataLoss, GamelogError, NotFound
from gamelog.service.model.snapshots import GameSnapshot
from gamelog.service.model.tournament import Tournament
from gamelog.service.model.tournament_credentials import TournamentCredentials
from gamelog.service.model.unreadable import UnreadableRecord
from gamelog.service.storage import settings
from gamelog.service.storage.bounded_cache import BoundedCache
from gamelog.service.storage.copies import event_record, working_copy
from gamelog.service.storage.group_commit import GroupCommit
from gamelog.service.storage.locks import Locks
from gamelog.service.storage.sqlite_recorder import TOPIC as SQLITE_RECORDER_TOPIC
from gamelog.service.storage.store_refusals import refusal_of, unreadable_game
from gamelog.service.storage.topics import register_moved_modules
from gamelog.service.storage.transcoder import TOPIC as TRANSCODER_TOPIC

log = logging.getLogger(__name__)

SaveListener = Callable[[UUID, int], None]
"""Called with a game's id and its last stored position, in the saving thread,
right after the transaction committed."""


class GameStore(Application[UUID]):
    """Loading, saving and the caches: what every use case needs."""

    # The store's tables and environment variables are named after this.
    name = "gamelog"
    snapshot_class = GameSnapshot
    snapshotting_intervals = {Game: settings.SNAPSHOT_INTERVAL}  # noqa: RUF012 (the library's API)
    env = {  # noqa: RUF012
        "PERSISTENCE_MODULE": "eventsourcing.popo",
        "AGGREGATE_CACHE_MAXSIZE": str(settings.AGGREGATE_CACHE_SIZE),
        "AGGREGATE_CACHE_FASTFORWARD": "y",
        "COMPRESSOR_TOPIC": "",
        # eventsourcing's JSON transcoder, writing the same bytes faster (see there).
        "TRANSCODER_TOPIC": TRANSCODER_TOPIC,
    }

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        register_moved_modules()
        super().__init__(env)
        self.locks = Locks()
        self.group_commit = GroupCommit(
            self._save_together,
            gather_seconds=settings.GATHER_SECONDS,
            gather_limit_seconds=settings.GATHER_LIMIT_SECONDS,
            recent_seconds=settings.GATHER_RECENT_SECONDS,
            key=lambda game: game.id,
            is_last=lambda game: game.is_finished,
            # A store that went away fails every game of the transaction.
            alone_after=lambda error: not isinstance(error, OperationalError | InterfaceError),
        )
        self._listeners: list[SaveListener] = []
        self._credentials = BoundedCache[Credentials](settings.CREDENTIALS_CACHE_SIZE)
        self._tournament_credentials = BoundedCache[TournamentCredentials](
            settings.CREDENTIALS_CACHE_SIZE
        )
        self._checked_restorations = BoundedCache[bool](settings.CREDENTIALS_CACHE_SIZE)

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        """The library's settings, with SQLite's events stored one statement
        a transaction (``sqlite_recorder``) unless another recorder is named."""
        environment = super().construct_env(name, env)
        if environment.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite" and not environment.get(
            "APPLICATION_RECORDER_TOPIC"
        ):
            environment["APPLICATION_RECORDER_TOPIC"] = SQLITE_RECORDER_TOPIC
        return environment

    def close(self) -> None:
        self.group_commit.close()
        # The PostgreSQL and SQLite recorders each hold one connection for writing.
        close_writer = getattr(self.recorder, "close_writer", None)
        if close_writer is not None:
            close_writer()
        super().close()

    # -- games ------------------------------------------------------------------------

    def game(self, game_id: UUID, position: int | None = None, checked: bool = True) -> Game:
        """A working copy of a game at its last position, or the game as it
        stood after ``position``. ``checked``: the states its take-backs
        restored from the store's cache are checked against the records first
        (only the audit, which reports such damage, reads them unchecked)."""
        try:
            if position is None:
                # Taken under the game's lock so that it is never taken
                # halfway through a catch-up from the store.
                with self.locks.game(game_id):
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
            if position is not None and self.exists(game_id):
                raise NotFound(
                    "no-such-position", f"game {game_id} has no position {position}"
                ) from None
            raise NotFound("no-such-game", f"no game {game_id}") from None
        except UnreadableRecord as unreadable:
            raise self.data_loss(game_id, unreadable.position, unreadable.error) from None
        except (GamelogError, PersistenceError):
            raise
        except Exception as error:  # the stored bytes themselves cannot be decoded
            raise self.data_loss(game_id, self._undecodable_position(game_id), error) from None
        if not isinstance(game, Game):
            raise NotFound("no-such-game", f"no game {game_id}")
        if checked:
            self._check_restorations(game)
        return game

    def restorations_checked(self, game: Game) -> bool:
        """Whether every take-back's cached state in ``game`` was checked
        already (no store read)."""
        return all(
            (game.id, position) in self._checked_restorations for position, _ in game.restorations
        )

    def _check_restorations(self, game: Game) -> None:
        """A take-back's state comes from the store's cache beside its record
        (so that a load never folds the older states): check it against the
        records once per process before serving the game, so that an edited
        cache answers DATA_LOSS instead of a state the rules never reached."""
        for position, to_position in game.restorations:
            if (game.id, position) in self._checked_restorations:
                continue
            restored = self.game(game.id, position, checked=False).state
            if restored != self.game(game.id, to_position).state:
                raise self.data_loss(
                    game.id,
                    position,
                    ValueError(f"the take-back's cached state is not position {to_position}'s"),
                )
            self._checked_restorations.put((game.id, position), True)

    def cached(self, aggregate_id: UUID) -> Aggregate | None:
        """The game or tournament this process holds in memory, as it is
        (not a copy: the caller copies before changing it), without reading
        the store; None when it holds none."""
        cache = self.repository.cache
        if cache is None:
            return None
        with contextlib.suppress(KeyError):
            aggregate: Any = cache.get(aggregate_id)
            return aggregate if isinstance(aggregate, Aggregate) else None
        return None

    def game_at(self, game_id: UUID, at_position: int) -> Game:
        """The game to play at ``at_position``: the cached copy when it is at
        that position (no store read), else the game read from the store. A
        cached copy is never ahead of the store, and if another process stored
        this position meanwhile, the save fails on the store's unique key."""
        cached = self.cached(game_id)
        if isinstance(cached, Game) and cached.position == at_position:
            self._check_restorations(cached)
            return working_copy(cached)
        return self.game(game_id)

    def peek_game(self, game_id: UUID) -> Game:
        """A working copy of a game, read without its lock (for a tournament
        command, which never takes a game's lock)."""
        try:
            cached: Any = self.repository.get(game_id, deepcopy_from_cache=False)
        except AggregateNotFoundError:
            raise NotFound("no-such-game", f"no game {game_id}") from None
        if not isinstance(cached, Game):
            raise NotFound("no-such-game", f"no game {game_id}")
        self._check_restorations(cached)
        return working_copy(cached)

    def exists(self, game_id: UUID) -> bool:
        return bool(list(self.events.get(game_id, limit=1)))

    def creation(self, game_id: UUID) -> Game.Created | None:
        """A game's creation event alone (no fold); None if it cannot be read."""
        try:
            first = list(self.events.get(game_id, limit=1))
        except Exception:  # damaged or away: ``game`` says which
            return None
        return first[0] if first and isinstance(first[0], Game.Created) else None

    def last_position(self, aggregate_id: UUID) -> int:
        """The position of an aggregate's last stored event, read from the
        store (-1: nothing stored)."""
        last = self.recorder.select_events(aggregate_id, desc=True, limit=1)
        return int(last[0].originator_version) - 1 if last else -1

    def has_moves(self, game_id: UUID) -> bool:
        """Whether anything was stored after a game's creation."""
        return bool(list(self.events.get(game_id, gt=1, limit=1)))

    def records(
        self, game_id: UUID, from_position: int = 0, to_position: int | None = None
    ) -> list[Record]:
        """A game's full stored records from ``from_position`` to
        ``to_position`` (inclusive): unredacted, so callers redact."""
        gt = from_position if from_position > 0 else None
        lte = None if to_position is None else to_position + 1
        try:
            stored = list(self.events.get(game_id, gt=gt, lte=lte))
        except PersistenceError:
            raise
        except Exception as error:  # the stored bytes themselves cannot be decoded
            raise self.data_loss(game_id, self._undecodable_position(game_id), error) from None
        if not stored and from_position == 0:
            raise NotFound("no-such-game", f"no game {game_id}")
        return [event_record(event) for event in stored]

    def credentials(self, game_id: UUID) -> Credentials:
        """A game's token hashes. They never change once issued, so every
        process may keep them."""
        known = self._credentials.get(game_id)
        if known is not None:
            return known
        try:
            credentials: Any = self.repository.get(
                Credentials.id_for(game_id), deepcopy_from_cache=False
            )
        except AggregateNotFoundError:
            raise NotFound("no-such-game", f"no game {game_id}") from None
        assert isinstance(credentials, Credentials)
        self._credentials.put(game_id, credentials)
        return credentials

    def known_credentials(self, game_id: UUID) -> Credentials | None:
        """A game's token hashes if this process holds them (no store read)."""
        return self._credentials.get(game_id)

    @staticmethod
    def data_loss(game_id: UUID, position: int | None, error: BaseException) -> DataLoss:
        """The refusal for a stored game that cannot be read (and a log line)."""
        return unreadable_game(game_id, position, error)

    def _undecodable_position(self, game_id: UUID) -> int | None:
        """The first position whose stored event cannot even be decoded."""
        for stored in self.recorder.select_events(game_id):
            try:
                self.mapper.to_domain_event(stored)
            except Exception:
                return int(stored.originator_version) - 1
        return None

    # -- tournaments ------------------------------------------------------------------

    def tournament(self, tournament_id: UUID) -> Tournament:
        """A working copy of a tournament."""
        try:
            with self.locks.tournament(tournament_id):
                cached: Any = self.repository.get(tournament_id, deepcopy_from_cache=False)
                tournament: Any = working_copy(cached)
        except AggregateNotFoundError:
            raise NotFound("no-such-tournament", f"no tournament {tournament_id}") from None
        if not isinstance(tournament, Tournament):
            raise NotFound("no-such-tournament", f"no tournament {tournament_id}")
        return tournament

    def tournament_credentials(self, tournament_id: UUID) -> TournamentCredentials:
        """A tournament's token hashes as stored now (players are registered
        as the tournament goes on, on any process), kept for
        ``known_tournament_credentials``."""
        try:
            credentials: Any = self.repository.get(TournamentCredentials.id_for(tournament_id))
        except AggregateNotFoundError:
            raise NotFound("no-such-tournament", f"no tournament {tournament_id}") from None
        assert isinstance(credentials, TournamentCredentials)
        self._tournament_credentials.put(tournament_id, credentials)
        return credentials

    def known_tournament_credentials(self, tournament_id: UUID) -> TournamentCredentials | None:
        """A tournament's token hashes as this process last read them (no
        store read): a player registered since may be missing."""
        return self._tournament_credentials.get(tournament_id)

    def chain_signatures(self, subject: str, chain_id: UUID) -> ChainSignatures | None:
        """The signatures kept for a game's or a tournament's chain (None: none yet)."""
        try:
            kept: Any = self.repository.get(ChainSignatures.id_for(subject, chain_id))
        except AggregateNotFoundError:
            return None
        assert isinstance(kept, ChainSignatures)
        return kept

    def tournament_records(self, tournament_id: UUID) -> list[Record]:
        """A tournament's stored records, in order."""
        return [event_record(event) for event in self.events.get(tournament_id)]

    # -- saving -----------------------------------------------------------------------

    def on_saved(self, listener: SaveListener) -> None:
        """Call ``listener`` after every save of a game by this process."""
        self._listeners.append(listener)

    def commit(self, *aggregates: Aggregate) -> None:
        """Store everything ``aggregates`` triggered, in one transaction: a
        lone aggregate through the group commit, so that moves of different
        games share commits. Returns once it is durable; a refusal stores
        nothing."""
        try:
            if len(aggregates) == 1:
                self.group_commit.save(aggregates[0])
            else:
                self._save_together(*aggregates)
        except PersistenceError as error:
            raise refusal_of(error) from None
        self.committed(*aggregates)

    def commit_async(self, game: Game) -> asyncio.Future[None]:
        """``commit`` of one game from a coroutine: the future is resolved on
        the running loop once the game is durable, or fails with the store's
        error. Call ``committed`` once it is resolved."""
        return self.group_commit.save_async(game)

    def committed(self, *aggregates: Aggregate) -> None:
        """What follows every committed save, on the thread or loop that saved:
        tournaments are remembered, the listeners hear of every game."""
        for aggregate in aggregates:
            if isinstance(aggregate, Tournament):
                self.remember(aggregate)
            elif isinstance(aggregate, Game):
                for listener in self._listeners:
                    # The save is committed: a listener's failure must not
                    # turn it into a failed (and then retried) command.
                    try:
                        listener(aggregate.id, aggregate.position)
                    except Exception:
                        log.exception("a save listener failed for game %s", aggregate.id)

    def remember(self, aggregate: Aggregate) -> None:
        """Keep a committed aggregate as this process's current copy."""
        cache = self.repository.cache
        if cache is not None:
            cache.put(aggregate.id, aggregate)

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
            if not isinstance(game, Game) or version % settings.SNAPSHOT_INTERVAL:
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
