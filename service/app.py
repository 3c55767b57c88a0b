"""The gamelog application: the service layer over the event store.

``GameLog`` is an eventsourcing ``Application``. Its methods are the use cases
(create a game, play a move, read a position, take back, fork, audit, export);
each authenticates the caller, loads the ``Game`` aggregate, lets it decide,
and saves what it triggered in one transaction. Nothing here knows about gRPC:
the adapter in ``grpc_api`` maps calls and errors onto it.

    app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                       "SQLITE_DBNAME": "gamelog.sqlite"})
    created = app.create_game("three-too-many", ["ann", "ben"])
    app.play(created.game_id, created.tokens["ann"], {"card": 42}, at_position=0)
"""

from __future__ import annotations

import contextlib
import copy
import logging
import re
import secrets
import threading
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from gamelog.games import all_rules, get_rules
from gamelog.games.protocol import ARBITER, JSON, InvalidOptions, Rules, RulesError, Viewer, rng_for
from gamelog.replay.audit import AuditReport, audit_entries, audit_records
from gamelog.replay.export import GameEntry, RecordFileError, build_record_file, parse_record_file
from gamelog.replay.fold import fold, line_events, line_records
from gamelog.replay.record import Record, as_stored, compact_json, seed_commitment
from gamelog.replay.redact import redact_record
from gamelog.service.credentials import Credentials
from gamelog.service.errors import (
    UNREADABLE,
    Conflict,
    GamelogError,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    Refused,
    Unauthenticated,
)
from gamelog.service.game import UNDO_POLICIES, Game, GameSnapshot
from gamelog.service.group_commit import GroupCommit
from gamelog.service.outcomes import (
    CreatedGame,
    GameSummary,
    Imported,
    LineDiff,
    Played,
    PositionView,
    TakeBackOutcome,
    TreeNode,
)

log = logging.getLogger(__name__)
SEAT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
MAX_METADATA_ITEMS = 32
SNAPSHOT_INTERVAL = 64
LOCK_STRIPES = 257
CREDENTIALS_CACHE_SIZE = 100_000


class GameLog(Application[UUID]):
    """The service's use cases over the event store."""

    name = "gamelog"
    snapshot_class = GameSnapshot
    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}  # noqa: RUF012 (the library's API)
    env = {  # noqa: RUF012
        "PERSISTENCE_MODULE": "eventsourcing.popo",
        "AGGREGATE_CACHE_MAXSIZE": "2000",
        "AGGREGATE_CACHE_FASTFORWARD": "y",
        "COMPRESSOR_TOPIC": "",
    }

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        self._locks = tuple(threading.RLock() for _ in range(LOCK_STRIPES))
        self._locks_guard = threading.Lock()
        self._changed = threading.Condition()
        self._credentials_cache: dict[UUID, Credentials] = {}
        self._commits = GroupCommit(self._save_together)

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
                    game: Any = _working_copy(cached)
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
        if not isinstance(game, Game):
            raise NotFound("no-such-game", f"no game {game_id}")
        return game

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
        return self._credentials(game_id).viewer_for(token)

    def _is_arbiter(self, game_id: UUID, token: str | None) -> bool:
        try:
            return self.viewer(game_id, token) == ARBITER
        except Unauthenticated:
            return False

    def _seat_of(self, game_id: UUID, token: str | None) -> str:
        viewer = self.viewer(game_id, token)
        if viewer is None:
            raise Unauthenticated("token-required", "this needs a seat's or the arbiter's token")
        return viewer

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
        except IntegrityError:
            raise Conflict(
                "position-taken", "another move was stored at this position first; reload and retry"
            ) from None
        with self._changed:
            self._changed.notify_all()

    # -- creating ---------------------------------------------------------------------

    def create_game(
        self,
        game: str,
        seats: Sequence[str],
        options: Mapping[str, JSON] | None = None,
        undo_policy: str = "none",
        metadata: Mapping[str, JSON] | None = None,
        seed: bytes | None = None,
    ) -> CreatedGame:
        """Set up a new game: deal it, publish the seed's commitment, issue tokens."""
        rules = self._rules(game)
        seats = self._checked_seats(rules, seats)
        if undo_policy not in UNDO_POLICIES:
            raise InvalidArgument("bad-undo-policy", f"undo policy must be one of {UNDO_POLICIES}")
        metadata = self._checked_metadata(metadata)
        seed = seed if seed is not None else secrets.token_bytes(32)
        try:
            normalized = rules.normalize_options(dict(options or {}), seats)
            deal = rules.setup(normalized, seats, rng_for(seed, 0))
        except RulesError as error:
            raise InvalidArgument(error.code, error.message) from None
        except UNREADABLE as error:  # the rules choked instead of refusing
            raise InvalidArgument("bad-options", f"options cannot be read: {error!r}") from None
        normalized, deal = as_stored([normalized, deal])
        record = {
            "position": 0,
            "kind": "created",
            "prev_hash": "",
            "game": rules.name,
            "rules_version": rules.rules_version,
            "seats": list(seats),
            "options": normalized,
            "undo_policy": undo_policy,
            "metadata": metadata,
            "commitment": seed_commitment(seed),
            "parent": None,
            "base_ply": 0,
            "events": deal,
        }
        return self._store_new_game(record, seed)

    def _store_new_game(self, record: Record, seed: bytes) -> CreatedGame:
        game_id = uuid.uuid4()
        game = Game.create(game_id, record, seed)
        credentials, seat_tokens, arbiter_token = Credentials.issue(game_id, record["seats"])
        self._save(game, credentials)
        return CreatedGame(
            game_id, seat_tokens, arbiter_token, record["commitment"], game.record_created
        )

    def _rules(self, game: str) -> Rules[Any]:
        try:
            return get_rules(game)
        except InvalidOptions as error:
            raise InvalidArgument(error.code, error.message) from None

    def _checked_seats(self, rules: Rules[Any], seats: Sequence[str]) -> list[str]:
        seats = list(seats)
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise InvalidArgument(
                "bad-player-count",
                f"{rules.name} is for {rules.min_players}–{rules.max_players} players, "
                f"not {len(seats)}",
            )
        for seat in seats:
            if not isinstance(seat, str) or not SEAT_NAME.match(seat):
                raise InvalidArgument(
                    "bad-seat-name",
                    f"seat name {seat!r} must be 1–32 letters, digits, '_', '.' or '-'",
                )
        if len(set(seats)) != len(seats):
            raise InvalidArgument("duplicate-seat", "every seat needs its own name")
        return seats

    def _checked_metadata(self, metadata: Mapping[str, JSON] | None) -> dict[str, JSON]:
        metadata = dict(metadata or {})
        if len(metadata) > MAX_METADATA_ITEMS or not all(
            isinstance(k, str) and isinstance(v, str) and len(k) <= 64 and len(v) <= 1024
            for k, v in metadata.items()
        ):
            raise InvalidArgument(
                "bad-metadata",
                f"metadata is at most {MAX_METADATA_ITEMS} tag pairs of short strings",
            )
        return metadata

    # -- playing ----------------------------------------------------------------------

    def play(
        self,
        game_id: UUID,
        token: str | None,
        move: Any,
        at_position: int,
        request_id: str = "",
    ) -> Played:
        """Validate and store one move played at ``at_position``."""
        seat = self._seat_of(game_id, token)
        if not isinstance(move, dict):
            raise InvalidArgument("bad-move", "a move is a JSON object")
        with self._lock(game_id):
            game = self._current_game(game_id, at_position)
            if request_id and request_id in game.request_ids:
                return self._replayed(game_id, game, request_id, seat, move)
            try:
                game.play(seat, move, at_position, request_id)
            except RulesError as error:
                raise Refused(error.code, error.message) from None
            records = [event_record(event) for event in game.pending_events]
            try:
                self._save(game)
            except Conflict:
                # Another process may have stored this very request already.
                fresh = self._game(game_id)
                if request_id and request_id in fresh.request_ids:
                    return self._replayed(game_id, fresh, request_id, seat, move)
                raise
            self._remember(game_id, game)
        return Played(
            game.position,
            records,
            seat=seat,
            finished=game.is_finished,
            game=game.record_created["game"],
        )

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
                    return _working_copy(cached)
        return self._game(game_id)

    def _remember(self, game_id: UUID, game: Game) -> None:
        cache = self.repository.cache
        if cache is not None:
            cache.put(game_id, game)

    def _replayed(self, game_id: UUID, game: Game, request_id: str, seat: str, move: Any) -> Played:
        position = game.request_ids[request_id]
        # The move, and the end it may have caused: nothing later matters.
        records = self.records(game_id, position, position + 1)
        first = records[0]
        if first["seat"] != seat or first["move"] != move:
            raise InvalidArgument(
                "request-id-reused",
                f"request id {request_id!r} was used for a different move at position {position}",
            )
        following = [
            r for r in records[1:] if r["kind"] == "finished" and r["position"] == position + 1
        ]
        return Played(
            position + len(following),
            [first, *following],
            replayed=True,
            seat=seat,
            finished=bool(following) or game.is_finished,
            game=game.record_created["game"],
        )

    # -- reading ----------------------------------------------------------------------

    def records(
        self, game_id: UUID, from_position: int = 0, to_position: int | None = None
    ) -> list[Record]:
        """The full stored records (unredacted: callers redact)."""
        gt = from_position if from_position > 0 else None
        lte = None if to_position is None else to_position + 1
        stored = list(self.events.get(game_id, gt=gt, lte=lte))
        if not stored and from_position == 0:
            raise NotFound("no-such-game", f"no game {game_id}")
        return [event_record(event) for event in stored]

    def state_at(self, game_id: UUID, position: int | None = None) -> Game:
        """The game as it stood after ``position`` (the latest when None)."""
        if position is not None and position < 0:
            raise InvalidArgument("bad-position", "positions start at 0 (the deal)")
        return self._game(game_id, position)

    def view(
        self,
        game_id: UUID,
        token: str | None,
        position: int | None = None,
        picture: bool = False,
    ) -> PositionView:
        """What the caller may see at a position, optionally with a picture."""
        viewer = self.viewer(game_id, token)
        game = self.state_at(game_id, position)
        latest = game if position is None else self._game(game_id)
        rules = game.rules
        to_act = list(rules.to_act(game.state)) if not game.is_finished else []
        undo = game.undo_request
        return PositionView(
            game_id=game_id,
            game=rules.name,
            position=game.position,
            last_position=latest.position,
            ply=game.ply,
            viewer=viewer,
            view=rules.view(game.state, viewer),
            to_act=to_act,
            finished=game.is_finished,
            result=game.result,
            text=rules.render_text(game.state, viewer),
            pending_undo=dict(undo) if undo else None,
            svg=self._picture(rules, game.state, viewer) if picture else "",
        )

    @staticmethod
    def _picture(rules: Rules[Any], state: Any, viewer: Viewer) -> str:
        render = getattr(rules, "render_svg", None)
        if render is None:
            raise Refused("no-picture", f"{rules.name} has no picture; use the text board")
        return str(render(state, viewer))

    def legal_moves(self, game_id: UUID, token: str | None) -> tuple[str, int, list[JSON]]:
        seat = self._seat_of(game_id, token)
        game = self._game(game_id)
        if game.is_finished:
            return seat, game.position, []
        return seat, game.position, list(game.rules.legal_moves(game.state, seat))

    def visible_records(
        self, game_id: UUID, token: str | None, from_position: int = 0
    ) -> list[Record]:
        """The stored records as the caller may see them."""
        if from_position < 0:
            raise InvalidArgument("bad-position", "positions start at 0 (the deal)")
        viewer = self.viewer(game_id, token)
        game = self._game(game_id)
        records = self.records(game_id, from_position)
        return [redact_record(game.rules, r, viewer, game.is_finished) for r in records]

    def redact(self, records: list[Record], viewer: Viewer) -> list[Record]:
        if not records:
            return []
        rules = get_rules(records[0]["game"])
        finished = records[-1]["kind"] == "finished"
        return [redact_record(rules, record, viewer, finished) for record in records]

    def list_games(self, limit: int = 1000) -> list[GameSummary]:
        topics = [get_topic(Game.Created), get_topic(Game.Finished)]
        summaries: dict[UUID, GameSummary] = {}
        start = 1
        while True:
            batch = self.recorder.select_notifications(start, 500, topics=topics)
            for notification in batch:
                event = self.mapper.to_domain_event(notification)
                if isinstance(event, Game.Created):
                    record = event.record
                    summaries[event.originator_id] = GameSummary(
                        game_id=event.originator_id,
                        game=record["game"],
                        rules_version=record["rules_version"],
                        seats=list(record["seats"]),
                        finished=False,
                        created_at=event.timestamp.isoformat(),
                        parent=record.get("parent"),
                        metadata=dict(record.get("metadata", {})),
                    )
                elif isinstance(event, Game.Finished) and event.originator_id in summaries:
                    summaries[event.originator_id] = replace(
                        summaries[event.originator_id], finished=True
                    )
            if len(batch) < 500:
                break
            start = batch[-1].id + 1
        return list(summaries.values())[-limit:]

    @staticmethod
    def game_types() -> list[Rules[Any]]:
        return all_rules()

    # -- following ----------------------------------------------------------------------

    def wait_for_change(self, timeout: float) -> None:
        """Block until a save in this process, or ``timeout`` seconds (for saves
        by other processes sharing the database, callers poll)."""
        with self._changed:
            self._changed.wait(timeout)

    def follow(
        self,
        game_id: UUID,
        token: str | None,
        from_position: int = 0,
        poll_seconds: float = 0.25,
        still_wanted: Any = lambda: True,
    ) -> Iterator[Record]:
        """Yield the caller's view of each record from ``from_position`` on, as
        it is stored, until the game is finished or the caller goes away."""
        viewer = self.viewer(game_id, token)
        rules = self._game(game_id).rules
        next_position = from_position
        while still_wanted():
            records = self.records(game_id, from_position=next_position)
            finished_now = bool(records) and records[-1]["kind"] == "finished"
            for record in records:
                yield redact_record(rules, record, viewer, finished_now)
                next_position = record["position"] + 1
                if record["kind"] == "finished":
                    return
            self.wait_for_change(poll_seconds)

    # -- taking back ------------------------------------------------------------------

    def take_back(
        self, game_id: UUID, token: str | None, action: str, to_position: int, at_position: int
    ) -> TakeBackOutcome:
        """Ask for, answer, or (as arbiter) order a take-back, as the game's
        undo policy allows. Taking back appends; nothing is deleted."""
        viewer = self._seat_of(game_id, token)
        if action not in ("request", "approve", "decline"):
            raise InvalidArgument("bad-action", "action is request, approve or decline")
        with self._lock(game_id):
            game = self._game(game_id)
            policy = game.undo_policy
            if viewer == ARBITER:
                if action != "request":
                    raise InvalidArgument(
                        "bad-action", "the arbiter orders a take-back; no answers"
                    )
                game._expect(at_position)
                self._take_back_now(game, game_id, to_position, ARBITER, [], ordered=True)
            elif action == "request":
                if policy == "none":
                    raise Refused("undo-not-allowed", "this game allows no take-backs")
                if policy == "arbiter":
                    raise PermissionDenied("arbiter-only", "only the arbiter may take moves back")
                if policy == "free":
                    game._expect(at_position)
                    self._take_back_now(game, game_id, to_position, viewer, [], ordered=False)
                else:
                    game.request_undo(viewer, to_position, at_position)
                    if game.pending_undo_complete():  # a one-seat game: nobody to ask
                        self._take_back_now(game, game_id, to_position, viewer, [], ordered=False)
            else:
                if policy != "consent":
                    raise Refused("no-undo-request", "this game's policy has no requests to answer")
                request = game.undo_request
                game.answer_undo(viewer, action == "approve", at_position)
                if request is not None and game.pending_undo_complete():
                    assert game.undo_request is not None
                    self._take_back_now(
                        game,
                        game_id,
                        request["to_position"],
                        request["seat"],
                        list(game.undo_request["approved"]),
                        ordered=False,
                    )
            records = [event_record(event) for event in game.pending_events]
            self._save(game)
            self._remember(game_id, game)
        taken_back = any(r["kind"] == "takeback" for r in records)
        return TakeBackOutcome(
            game.position, taken_back, records, seat=viewer, game=game.record_created["game"]
        )

    def _take_back_now(
        self,
        game: Game,
        game_id: UUID,
        to_position: int,
        by: str,
        approved_by: list[str],
        ordered: bool,
    ) -> None:
        if to_position > game.position:
            raise Refused("bad-takeback-target", f"there is no position {to_position} yet")
        restored = self._game(game_id, to_position).state
        game.take_back(to_position, by, approved_by, restored, ordered_by_arbiter=ordered)

    # -- branching --------------------------------------------------------------------

    def fork(
        self,
        game_id: UUID,
        token: str | None,
        at_position: int,
        keep_seed: bool = False,
        metadata: Mapping[str, JSON] | None = None,
        undo_policy: str | None = None,
    ) -> CreatedGame:
        """Start a new game from the state of any position of another."""
        viewer = self.viewer(game_id, token)
        parent = self._game(game_id)
        if at_position > parent.position:
            raise NotFound("no-such-position", f"game {game_id} has no position {at_position}")
        if not parent.is_finished and viewer != ARBITER:
            raise PermissionDenied(
                "arbiter-only", "forking a game still in progress is the arbiter's action"
            )
        if keep_seed and not parent.is_finished:
            raise Refused("seed-secret", "only a finished game's seed can be kept by a fork")
        records = self.records(game_id, 0, at_position)
        created = records[0]
        rules = parent.rules
        if created["rules_version"] != rules.rules_version:
            raise Refused("old-rules", "this game was played under rules this server no longer has")
        events, ply = line_events(records, at_position)
        state = self._game(game_id, at_position).state
        if rules.result(state) is not None:
            raise Refused("nothing-to-play", f"the game is already over at position {at_position}")
        seed = parent.seed if keep_seed else secrets.token_bytes(32)
        policy = undo_policy or created["undo_policy"]
        if policy not in UNDO_POLICIES:
            raise InvalidArgument("bad-undo-policy", f"undo policy must be one of {UNDO_POLICIES}")
        record = {
            "position": 0,
            "kind": "created",
            "prev_hash": "",
            "game": created["game"],
            "rules_version": created["rules_version"],
            "seats": created["seats"],
            "options": created["options"],
            "undo_policy": policy,
            "metadata": {**created["metadata"], **self._checked_metadata(metadata)},
            "commitment": seed_commitment(seed),
            "parent": {
                "game_id": str(game_id),
                "position": at_position,
                "hash": records[at_position]["hash"],
            },
            "base_ply": ply,
            "events": events,
        }
        return self._store_new_game(record, seed)

    def tree(self, game_id: UUID) -> tuple[UUID, list[TreeNode]]:
        """Every game in the tree of branches that ``game_id`` belongs to."""
        summaries = {s.game_id: s for s in self.list_games(limit=10**9)}
        if game_id not in summaries:
            raise NotFound("no-such-game", f"no game {game_id}")

        def parent_of(gid: UUID) -> UUID | None:
            parent = summaries[gid].parent
            if not parent:
                return None
            pid = UUID(str(parent["game_id"]))
            return pid if pid in summaries else None

        root = game_id
        while (up := parent_of(root)) is not None:
            root = up
        children: dict[UUID, list[UUID]] = {}
        for gid in summaries:
            pid = parent_of(gid)
            if pid is not None:
                children.setdefault(pid, []).append(gid)
        nodes: list[TreeNode] = []
        stack = [root]
        while stack:
            gid = stack.pop(0)
            summary = summaries[gid]
            parent = summary.parent or {}
            nodes.append(
                TreeNode(
                    game_id=gid,
                    parent_game_id=parent_of(gid),
                    parent_position=int(parent.get("position", -1)) if parent else -1,
                    last_position=self._game(gid).position,
                    finished=summary.finished,
                )
            )
            stack = children.get(gid, []) + stack
        return root, nodes

    def line_of_play(
        self, game_id: UUID, position: int | None = None
    ) -> list[tuple[str, Any, list[Any]]]:
        """(seat, move, events) for each ply of the line that stands at
        ``position`` (the latest when None), from the root game's deal on."""
        records = self.records(game_id, 0, position)
        parent = records[0].get("parent")
        before = self.line_of_play(UUID(parent["game_id"]), parent["position"]) if parent else []
        own = line_records(records, len(records) - 1)
        return before + [(r["seat"], r["move"], r["events"]) for r in own]

    def diff(self, game_id: UUID, other_id: UUID, token: str | None) -> LineDiff:
        """Compare two lines of play ply by ply, to the first difference."""
        first, second = self.line_of_play(game_id), self.line_of_play(other_id)
        games = (self._game(game_id), self._game(other_id))
        if games[0].record_created["game"] != games[1].record_created["game"]:
            raise InvalidArgument("different-games", "these are records of different games")
        self.viewer(game_id, token)  # a token, when given, must be the first game's
        # Moves are shown only where the caller may see them: a finished game,
        # or one whose arbiter the caller is.
        show_moves = all(
            game.is_finished or self._is_arbiter(gid, token)
            for gid, game in zip((game_id, other_id), games)
        )
        common = 0
        for a, b in zip(first, second):
            if a != b:
                break
            common += 1
        if common == len(first) == len(second):
            return LineDiff(common, True, f"the lines are identical ({common} plies)")
        parts = [f"the lines share {common} plies"]
        for label, line in (("first", first), ("second", second)):
            if common < len(line):
                seat, move, _ = line[common]
                shown = compact_json(move) if show_moves else "(hidden until both games end)"
                parts.append(f"{label}: ply {common + 1} by {seat}: {shown}")
            else:
                parts.append(f"{label}: ends after ply {common}")
        return LineDiff(common, False, "; ".join(parts))

    # -- audit ------------------------------------------------------------------------

    def audit(self, game_id: UUID, token: str | None = None) -> AuditReport:
        """Audit a stored game with the server's copy of its seed (which the
        report never shows; seed checks stay deferred until the game ends).

        While the game runs, what was stored and what the rules give at a
        difference may hold hidden cards: only the arbiter sees them."""
        viewer = self.viewer(game_id, token)
        game = self._game(game_id)
        records = self.records(game_id)
        parent_records = None
        parent = records[0].get("parent")
        if parent:
            with contextlib.suppress(NotFound):
                parent_records = self.records(UUID(parent["game_id"]), 0, parent["position"])
        report = audit_records(records, seed=game.seed, parent_records=parent_records)
        first = report.first_difference
        if first is not None and not game.is_finished and viewer != ARBITER:
            report.first_difference = replace(first, stored=None, expected=None)
        return report

    # -- portable records -------------------------------------------------------------

    def export(self, game_id: UUID, token: str | None, redacted: bool = False) -> dict[str, Any]:
        """The record file of a game and every branch forked from it."""
        viewer = self.viewer(game_id, token)
        _, nodes = self.tree(game_id)
        subtree = self._subtree(game_id, nodes)
        games = []
        seeds: dict[str, str] = {}
        cut: list[str] = []
        for gid in subtree:
            game = self._game(gid)
            records = self.records(gid)
            if redacted:
                records = [redact_record(game.rules, r, None, game.is_finished) for r in records]
            elif not game.is_finished:
                if viewer == ARBITER:
                    seeds[str(gid)] = game.seed_hex
                else:
                    records = [redact_record(game.rules, r, viewer, False) for r in records]
                    cut.append(str(gid))
            games.append((str(gid), records))
        return build_record_file(games, redacted, secret_seeds=seeds, redacted_games=cut)

    @staticmethod
    def _subtree(game_id: UUID, nodes: list[TreeNode]) -> list[UUID]:
        wanted = [game_id]
        for node in nodes:  # nodes come parents first
            if node.parent_game_id in wanted and node.game_id not in wanted:
                wanted.append(node.game_id)
        return wanted

    def import_record_file(self, data: Any) -> Imported:
        """Re-validate every game in a record file and store each as a new game.

        Every game must audit clean (its branches against their parents in the
        file); if any does not, nothing is stored."""
        try:
            entries = parse_record_file(data)
        except RecordFileError as error:
            raise InvalidArgument("bad-record-file", str(error)) from None
        for entry, report in audit_entries(entries):
            if entry.redacted:
                raise Refused(
                    "redacted-record",
                    f"game {entry.game_id} is a redacted copy: its hidden parts are cut out, "
                    "so its moves cannot be re-validated",
                )
            if report.ok and entry.records[-1]["kind"] != "finished" and not entry.secret_seed:
                raise Refused(
                    "seed-missing",
                    f"game {entry.game_id} is still running and the file lacks its seed",
                )
            if not report.ok:
                first = report.first_difference
                where = f"position {first.position}: {first.problem}" if first else "unknown"
                raise Refused(
                    "audit-failed", f"game {entry.game_id} does not audit clean at {where}"
                )
        id_map: dict[str, UUID] = {}
        created_games: list[CreatedGame] = []
        for entry in entries:
            new_id = uuid.uuid4()
            id_map[entry.game_id] = new_id
            created_games.append(self._restore(new_id, entry, id_map))
        return Imported(created_games, id_map)

    def _restore(self, game_id: UUID, entry: GameEntry, id_map: dict[str, UUID]) -> CreatedGame:
        records = [dict(r) for r in entry.records]
        for record in records:
            record.pop("timestamp", None)
        created = records[0]
        if created.get("parent") and created["parent"]["game_id"] in id_map:
            created["parent"] = {
                **created["parent"],
                "game_id": str(id_map[created["parent"]["game_id"]]),
            }
        finished = [r for r in records if r["kind"] == "finished"]
        seed = bytes.fromhex(finished[-1]["seed"] if finished else entry.secret_seed or "")
        game = Game.create(game_id, created, seed)
        rules = game.rules
        states = dict(fold(rules, records))
        for record in records[1:]:
            game.restore(record, states.get(record.get("to_position", -1)))
        credentials, seat_tokens, arbiter_token = Credentials.issue(game_id, created["seats"])
        self._save(game, credentials)
        return CreatedGame(game_id, seat_tokens, arbiter_token, created["commitment"], created)


def _working_copy(cached: Game) -> Game:
    """A cached game to run one command on. Shallow is enough: the game
    replaces its containers and never changes them in place (see Game), so a
    refused command cannot spoil the cache."""
    game = copy.copy(cached)
    game._pending_events = []
    return game


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


__all__ = [
    "CreatedGame",
    "GameLog",
    "GameSummary",
    "GamelogError",
    "PermissionDenied",
    "Played",
    "PositionView",
    "event_record",
    "parse_game_id",
]
