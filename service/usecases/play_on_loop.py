"""A move decided on the server's event loop, holding no thread while it commits.

``PlayMove`` is a coroutine. When this process holds everything a move needs
(the game's credentials, and the game itself, in the aggregate cache, at
exactly the position the move names, with its lock free), the move is decided
right there on the loop, and only its commit is awaited, in the group commit,
holding no thread: the thread pool's hop cost more than the move. Anything
else goes to ``GameCommands.play`` in the thread pool, with the same checks
and the same answers: a first sight of the game, a clock, a held end, a
tournament's table, a retried request id, a game busy in another thread, a
token the game does not know (it may be a tournament's).

Nothing is acknowledged before its commit: the game goes back into the cache,
and its lock is released, only once the commit is done.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any
from uuid import UUID

from eventsourcing.persistence import PersistenceError

from gamelog.games.protocol import RulesError
from gamelog.replay.record import Record
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import Conflict, Refused, Unauthenticated
from gamelog.service.model.server_clock import record_time
from gamelog.service.storage.copies import event_record, working_copy
from gamelog.service.storage.store import GameStore
from gamelog.service.storage.store_refusals import refusal_of
from gamelog.service.usecases.answers import Played
from gamelog.service.usecases.commands import GameCommands
from gamelog.service.usecases.showing import played
from gamelog.service.usecases.signing import Signing

MoveListener = Callable[[UUID, list[Record], Any], None]
"""Told, on the loop, of a move decided there once it is durable: the game,
the records it stored, and the game's state after them."""


class PlayOnLoop:
    """``GameCommands.play`` for a coroutine on an event loop."""

    def __init__(self, store: GameStore, commands: GameCommands, signing: Signing) -> None:
        self.store = store
        self.commands = commands
        self.signing = signing
        self._committing: set[UUID] = set()
        """Games whose move, decided on the loop, waits for its commit: the
        loop holds their lock meanwhile."""
        self._listeners: list[MoveListener] = []

    def on_committed(self, listener: MoveListener) -> None:
        """Call ``listener`` after every move this decided and committed: the
        live fan-out holds the records at once (no store read, no hop from
        another thread), before the store's own listeners hear of the save."""
        self._listeners.append(listener)

    async def play(
        self,
        game_id: UUID,
        token: str | None,
        move: Any,
        at_position: int,
        request_id: str = "",
        executor: Executor | None = None,
        as_seat: str = "",
        shown: bool = True,
    ) -> Played:
        """Validate and store one move played at ``at_position``; the work
        that may wait for anything but the commit runs in ``executor``
        (``as_seat``: the arbiter plays that seat's move, always there).
        Without ``shown``, a move decided here is answered without its
        records cut and worded for the mover (a play stream's fan-out does
        that for every seat)."""
        loop = asyncio.get_running_loop()
        decided = (
            None
            if as_seat
            else self._decide_in_memory(game_id, token, move, at_position, request_id)
        )
        if decided is None:
            call = functools.partial(
                self.commands.play, game_id, token, move, at_position, request_id, as_seat
            )
            return await loop.run_in_executor(executor, call)
        game, seat, before, records = decided
        lock = self.store.locks.game(game_id)
        try:
            committed = self.store.commit_async(game)
        except BaseException:
            lock.release()  # nothing was handed in: nothing will release it later
            raise
        self._committing.add(game_id)

        def settled(saved: asyncio.Future[None]) -> None:
            # On the loop, whether or not the caller still waits: the cache
            # learns the game only once it is stored, then the game is free.
            try:
                self._committing.discard(game_id)
                if not saved.cancelled() and saved.exception() is None:
                    for listener in self._listeners:
                        listener(game_id, records, game.state)
                    self.store.committed(game)
                    self.store.remember(game)
            finally:
                lock.release()

        committed.add_done_callback(settled)
        try:
            await asyncio.shield(committed)
        except PersistenceError as error:
            refusal = refusal_of(error)
            if not isinstance(refusal, Conflict):
                raise refusal from None
            call = functools.partial(self.commands.after_lost_race, game_id, request_id, seat, move)
            return await loop.run_in_executor(executor, call)
        if game.is_finished:
            # The end is stored: its signature is written before the answer,
            # off the loop, as every end's is.
            await loop.run_in_executor(executor, self.signing.games_ended, [game])
        if not shown:
            return Played(game.position, records, seat=seat, finished=game.is_finished)
        return played(game, before, records, seat)

    def _decide_in_memory(
        self, game_id: UUID, token: str | None, move: Any, at_position: int, request_id: str
    ) -> tuple[Game, str, Any, list[Record]] | None:
        """The move decided from what this process holds, without waiting
        for anything: the game (with its pending records), the seat, the
        state before; None where ``GameCommands.play`` must do it. On return
        the game's lock is held by this thread (the loop's), and only then."""
        credentials = self.store.known_credentials(game_id)
        if credentials is None or not isinstance(move, dict) or game_id in self._committing:
            return None
        try:
            seat = credentials.viewer_for(token)
        except Unauthenticated:
            return None  # maybe a tournament's token: ``play`` asks the tournament
        if seat is None:
            return None
        lock = self.store.locks.game(game_id)
        # The loop thread must never wait; and the lock is reentrant, so
        # another coroutine's move of this game is kept out above, by id.
        # Taken before the cache is read: a thread's move of this game, or a
        # catch-up from the store, cannot change the game between the checks
        # and the copy.
        if not lock.acquire(blocking=False):
            return None
        try:
            cached = self.store.cached(game_id)
            if (
                not isinstance(cached, Game)
                or cached.position != at_position
                or cached.clock is not None
                or cached.end_held
                or cached.tournament_id is not None
                or (request_id and request_id in cached.request_ids)
                or not self.store.restorations_checked(cached)
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
