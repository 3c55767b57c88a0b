"""The commands: creating a game, playing a move, taking moves back, forking.

Each command authenticates the caller, takes the game's lock, lets the ``Game``
aggregate decide, and saves what it triggered in one transaction: a refused
command writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
import uuid
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import Any
from uuid import UUID

from eventsourcing.persistence import PersistenceError

from gamelog.games import get_rules
from gamelog.games.protocol import ARBITER, JSON, InvalidOptions, Rules, RulesError, rng_for
from gamelog.replay.checks import seat_names_problem, tags_problem
from gamelog.replay.clock import time_control_problem
from gamelog.replay.fold import line_events
from gamelog.replay.notation import record_line_or_kind
from gamelog.replay.record import (
    RECORD_FORMAT,
    Record,
    as_stored,
    new_seed_nonce,
    seed_commitment,
)
from gamelog.replay.redact import redact_record
from gamelog.service.clocks import ClockKeeping
from gamelog.service.credentials import Credentials
from gamelog.service.errors import (
    UNREADABLE,
    Conflict,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    Refused,
    Unauthenticated,
)
from gamelog.service.game import DUPLICATE_TAG, UNDO_POLICIES, Game, record_time
from gamelog.service.outcomes import CreatedGame, Played, Shown, TakeBackOutcome
from gamelog.service.store import _refusal_of, event_record, working_copy


def _refuse_duplicate_tag(metadata: Mapping[str, JSON] | None) -> None:
    """Only a tournament tags a game ``Duplicate`` (its round's tables; their
    forks inherit it): the tag withholds a running game from spectators."""
    if DUPLICATE_TAG in (metadata or {}):
        raise InvalidArgument(
            "bad-metadata", f"tag {DUPLICATE_TAG} is set by tournaments (duplicate rounds)"
        )


class Commands(ClockKeeping):
    """The use cases that store something."""

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
        _refuse_duplicate_tag(metadata)
        game_aggregate, credentials, created = self._prepare_game(
            game, seats, options, undo_policy, metadata, seed
        )
        self._save(game_aggregate, credentials)
        return created

    def _prepare_game(
        self,
        game: str,
        seats: Sequence[str],
        options: Mapping[str, JSON] | None = None,
        undo_policy: str = "none",
        metadata: Mapping[str, JSON] | None = None,
        seed: bytes | None = None,
        tournament_id: UUID | None = None,
    ) -> tuple[Game, Credentials, CreatedGame]:
        """A new game and its credentials, checked and dealt, not yet saved
        (a tournament saves its tables with the round that seats them;
        ``tournament_id``: that tournament's id here)."""
        rules = self._rules(game)
        seats = self._checked_seats(rules, seats)
        if undo_policy not in UNDO_POLICIES:
            raise InvalidArgument("bad-undo-policy", f"undo policy must be one of {UNDO_POLICIES}")
        metadata = self._checked_metadata(metadata)
        self._check_clock(rules, metadata)
        seed = seed if seed is not None else secrets.token_bytes(32)
        seed_nonce = new_seed_nonce()
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
            "format": RECORD_FORMAT,
            "time": record_time(),
            "game": rules.name,
            "rules_version": rules.rules_version,
            "seats": list(seats),
            "options": normalized,
            "undo_policy": undo_policy,
            "metadata": metadata,
            "commitment": seed_commitment(seed, seed_nonce),
            "parent": None,
            "base_ply": 0,
            "events": deal,
        }
        return self._new_game(record, seed, seed_nonce, tournament_id)

    def _store_new_game(self, record: Record, seed: bytes, seed_nonce: bytes) -> CreatedGame:
        game, credentials, created = self._new_game(record, seed, seed_nonce)
        self._save(game, credentials)
        return created

    @staticmethod
    def _new_game(
        record: Record, seed: bytes, seed_nonce: bytes, tournament_id: UUID | None = None
    ) -> tuple[Game, Credentials, CreatedGame]:
        game_id = uuid.uuid4()
        game = Game.create(game_id, record, seed, seed_nonce, tournament_id)
        credentials, seat_tokens, arbiter_token = Credentials.issue(game_id, record["seats"])
        created = CreatedGame(
            game_id, seat_tokens, arbiter_token, record["commitment"], game.record_created
        )
        return game, credentials, created

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
        problem = seat_names_problem(seats)
        if problem:
            raise InvalidArgument(*problem)
        return seats

    @staticmethod
    def _check_clock(rules: Rules[Any], metadata: Mapping[str, JSON]) -> None:
        problem = time_control_problem(metadata)
        if problem:
            raise InvalidArgument("bad-time-control", problem)
        if "TimeControl" in metadata and rules.name == "freeform":
            raise InvalidArgument(
                "bad-time-control", "freeform has no turns, so no clock can be fair in it"
            )

    def _checked_metadata(self, metadata: Mapping[str, JSON] | None) -> dict[str, JSON]:
        metadata = dict(metadata or {})
        problem = tags_problem(metadata)
        if problem:
            raise InvalidArgument("bad-metadata", problem)
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
            now = record_time()
            if game.flag(now):
                # Time ran out before this move came: that is stored, the move is not.
                self._save_game(game_id, game)
                self._remember(game_id, game)
                self._refuse_after_timeout(game, seat, at_position)
            before = game.state
            try:
                game.play(seat, move, at_position, request_id, now)
            except RulesError as error:
                raise Refused(error.code, error.message) from None
            records = [event_record(event) for event in game.pending_events]
            try:
                self._save_game(game_id, game)
            except Conflict:
                # Another process may have stored this very request already.
                return self._stored_elsewhere(game_id, request_id, seat, move)
            self._remember(game_id, game)
        return self._played(game, before, records, seat)

    async def play_async(
        self,
        game_id: UUID,
        token: str | None,
        move: Any,
        at_position: int,
        request_id: str = "",
        executor: Executor | None = None,
    ) -> Played:
        """``play`` from a coroutine on an event loop.

        When this process holds what the move needs (the game's credentials,
        the game itself at ``at_position``, its lock free), the move is
        decided on the loop and only its commit is waited for, in the group
        commit, holding no thread. Everything else (a first sight of the
        game, a clock, a tournament's table, a retried request, a game busy
        in another thread) takes ``play`` in ``executor``: the same checks
        and answers either way."""
        loop = asyncio.get_running_loop()
        decided = self._decide_in_memory(game_id, token, move, at_position, request_id)
        if decided is None:
            call = functools.partial(self.play, game_id, token, move, at_position, request_id)
            return await loop.run_in_executor(executor, call)
        game, seat, before, records = decided
        lock = self._lock(game_id)
        try:
            committed = self._commits.save_async(game)
        except BaseException:
            lock.release()  # nothing was handed in: nothing will release it later
            raise
        self._playing_on_loop.add(game_id)

        def settled(saved: asyncio.Future[None]) -> None:
            # On the loop, whether or not the caller still waits: the cache
            # learns the game only once it is stored, then the game is free.
            try:
                self._playing_on_loop.discard(game_id)
                if not saved.cancelled() and saved.exception() is None:
                    self._saved((game,))
                    self._remember(game_id, game)
            finally:
                lock.release()

        committed.add_done_callback(settled)
        try:
            await asyncio.shield(committed)
        except PersistenceError as error:
            refusal = _refusal_of(error)
            if not isinstance(refusal, Conflict):
                raise refusal from None
            call = functools.partial(self._stored_elsewhere, game_id, request_id, seat, move)
            return await loop.run_in_executor(executor, call)
        return self._played(game, before, records, seat)

    def _decide_in_memory(
        self, game_id: UUID, token: str | None, move: Any, at_position: int, request_id: str
    ) -> tuple[Game, str, Any, list[Record]] | None:
        """The move decided from what this process holds, without waiting
        for anything: the game (with its pending records), the seat, the
        state before; None where ``play`` must do it. On return the game's
        lock is held by this thread (the loop's), and only then."""
        credentials = self._credentials_cache.get(game_id)
        if credentials is None or not isinstance(move, dict) or game_id in self._playing_on_loop:
            return None
        try:
            seat = credentials.viewer_for(token)
        except Unauthenticated:
            return None  # maybe a tournament's token: ``play`` asks the tournament
        if seat is None:
            return None
        lock = self._lock(game_id)
        # The loop thread must never wait; and the lock is reentrant, so
        # another coroutine's move of this game is kept out above, by id.
        # Taken before the cache is read: a thread's move of this game, or a
        # catch-up from the store, cannot change the game between the checks
        # and the copy.
        if not lock.acquire(blocking=False):
            return None
        try:
            cached: Any = None
            if self.repository.cache is not None:
                with contextlib.suppress(KeyError):
                    cached = self.repository.cache.get(game_id)
            if (
                not isinstance(cached, Game)
                or cached.position != at_position
                or cached.clock is not None
                or cached.end_held
                or cached.tournament_id is not None
                or (request_id and request_id in cached.request_ids)
            ):
                lock.release()
                return None
            game = working_copy(cached)
            before = game.state
            try:
                game.play(seat, move, at_position, request_id, record_time())
            except RulesError as error:
                raise Refused(error.code, error.message) from None
            records = [event_record(event) for event in game.pending_events]
        except BaseException:
            lock.release()
            raise
        return game, seat, before, records

    def _stored_elsewhere(self, game_id: UUID, request_id: str, seat: str, move: Any) -> Played:
        """After a lost race for a position: the answer to this very request
        if another process stored it already, else the conflict."""
        with self._lock(game_id):
            fresh = self._game(game_id)
            if request_id and request_id in fresh.request_ids:
                return self._replayed(game_id, fresh, request_id, seat, move)
        raise Conflict(
            "position-taken", "another move was stored at this position first; reload and retry"
        )

    @staticmethod
    def _played(game: Game, before: Any, records: list[Record], seat: str) -> Played:
        """The answer to a stored move: its records cut for the mover, with notation."""
        rules = game.rules
        shown = []
        state = before
        for index, record in enumerate(records):
            cut = redact_record(rules, record, seat, game.is_finished)
            # The move is stored: a line that cannot be worded must not deny it.
            shown.append(Shown(cut, record_line_or_kind(rules, state, cut)))
            # Only a move's line reads the state before it (a move by rule
            # later in the answer); the end's and a time-out's lines do not.
            if any(later["kind"] == "move" for later in records[index + 1 :]):
                for event in record.get("events", ()):
                    state = rules.evolve(state, event)
        return Played(
            game.position,
            records,
            seat=seat,
            finished=game.is_finished,
            game=game.record_created["game"],
            shown=shown,
        )

    @staticmethod
    def _refuse_after_timeout(game: Game, seat: str, at_position: int) -> None:
        if game.is_over:
            raise Refused("game-over", "the game is over: time ran out")
        if game.clock is not None and seat in game.clock.out_of_time:
            raise Refused("out-of-time", f"{seat}'s time has run out")
        game._expect_for_move(seat, at_position)
        raise Conflict(
            "stale-position",
            f"time ran out for a seat; the game is at position {game.position}",
            {"position": str(game.position)},
        )

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
        records = [first, *following]
        return Played(
            position + len(following),
            records,
            replayed=True,
            seat=seat,
            finished=bool(following) or game.is_finished,
            game=game.record_created["game"],
            shown=self.shown(game_id, game, records, seat),
        )

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
                self._take_back_now(game, game_id, to_position, ARBITER, [])
            elif action == "request":
                if policy == "none":
                    raise Refused("undo-not-allowed", "this game allows no take-backs")
                if policy == "arbiter":
                    raise PermissionDenied("arbiter-only", "only the arbiter may take moves back")
                if policy == "free":
                    game._expect(at_position)
                    self._take_back_now(game, game_id, to_position, viewer, [])
                else:
                    game.request_undo(viewer, to_position, at_position)
                    if game.pending_undo_complete():  # a one-seat game: nobody to ask
                        self._take_back_now(game, game_id, to_position, viewer, [])
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
                    )
            records = [event_record(event) for event in game.pending_events]
            self._save(game)
            self._remember(game_id, game)
        taken_back = any(r["kind"] == "takeback" for r in records)
        return TakeBackOutcome(
            game.position,
            taken_back,
            records,
            seat=viewer,
            game=game.record_created["game"],
            shown=self.shown(game_id, game, records, viewer),
        )

    def _take_back_now(
        self,
        game: Game,
        game_id: UUID,
        to_position: int,
        by: str,
        approved_by: list[str],
    ) -> None:
        game.check_takeback_target(to_position, by_arbiter=by == ARBITER)
        restored = self._game(game_id, to_position).state
        game.take_back(to_position, by, approved_by, restored)

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
        _refuse_duplicate_tag(metadata)
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
        seed_nonce = new_seed_nonce()
        policy = undo_policy or created["undo_policy"]
        if policy not in UNDO_POLICIES:
            raise InvalidArgument("bad-undo-policy", f"undo policy must be one of {UNDO_POLICIES}")
        record = {
            "position": 0,
            "kind": "created",
            "prev_hash": "",
            "format": RECORD_FORMAT,
            "time": record_time(),
            "game": created["game"],
            "rules_version": created["rules_version"],
            "seats": created["seats"],
            "options": created["options"],
            "undo_policy": policy,
            # A fork keeps its parent's tags, Duplicate among them, but cannot add it.
            "metadata": {**created["metadata"], **self._checked_metadata(metadata)},
            "commitment": seed_commitment(seed, seed_nonce),
            "parent": {
                "game_id": str(game_id),
                "position": at_position,
                "hash": records[at_position]["hash"],
            },
            "base_ply": ply,
            "events": events,
        }
        return self._store_new_game(record, seed, seed_nonce)
