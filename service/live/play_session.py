"""One play stream: the games it joined, their records, and the answers to
its requests, in an order a client can rely on.

A transport (the gRPC ``Play``) reads its client's requests, hands them to
a ``PlaySession`` as ``Join``, ``Move`` and ``TakeBackAsk``, and sends what
the session gives its ``send``: an ``Acked`` or a ``RefusedRequest`` for each
request, and a ``Recorded`` for every record of every joined game:

    session = PlaySession(app, live, executor, send)
    await session.run(requests)      # ends once the requests end and all are answered

- **A join** follows the game through the live fan-out (``LiveFollow``), as
  ``FollowGame`` does: the same admission, the same records redacted once per
  kind of viewer, the same resume from any position. Its ack says the game's
  last stored position and comes after the records up to it.
- **A move** is ``PlayOnLoop.play`` with the joined token, as ``PlayMove``:
  decided on the loop where it can, committed in the group commit with the
  other streams' moves, its request id its idempotency key.
- **A take-back** is ``GameCommands.take_back`` in the thread pool, as
  ``TakeBack``.

Ordering. Requests in one game run one after another, in the order they
came; requests in different games run side by side (so one stream's moves in
several games share a group commit). A move's ack carries the records it
stored that the stream has not sent yet (taken from the game's feed, ahead
of the game's pump, which then skips them), so a client that reads the ack
has its board up to date, and a move costs its seat one message, not two.
One writer at a time sends, so answers and records never interleave inside
a message.

A refused request is answered with the refusal and the stream goes on. What
ends the stream is a game whose records cannot be sent (the fan-out dropped
it: too slow, or the server is stopping): ``run`` raises that
``FollowInterrupted``, naming the game and the position to resume from.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterable, Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from gamelog.replay.record import Record
from gamelog.service.live.fanout import FollowInterrupted, Subscription
from gamelog.service.live.follow import LiveFollow
from gamelog.service.live.game_feed import Entry
from gamelog.service.model.refusals import GamelogError, Refused
from gamelog.service.usecases.application import GameLog

MAX_GAMES = 256
"""Games one stream may have joined at once (a front end's tables, a bot's
games); finished games make room for new ones."""
MAX_PENDING = 64
"""Requests one stream may have in hand; past that the session reads no
more until one is answered (the client's writes wait in the transport)."""


@dataclass(frozen=True, slots=True)
class Join:
    request_id: str
    game_id: UUID
    token: str | None
    from_position: int


@dataclass(frozen=True, slots=True)
class Move:
    request_id: str
    game_id: UUID
    move: Any
    at_position: int
    seat: str = ""


@dataclass(frozen=True, slots=True)
class TakeBackAsk:
    request_id: str
    game_id: UUID
    action: str
    to_position: int
    at_position: int


Request = Join | Move | TakeBackAsk


@dataclass(frozen=True, slots=True)
class Acked:
    request_id: str
    game_id: str
    position: int
    replayed: bool = False
    taken_back: bool = False
    records: tuple[Entry, ...] = ()
    """The request's records not yet sent as ``Recorded``: sent with it."""


@dataclass(frozen=True, slots=True)
class RefusedRequest:
    """A request that stored nothing; ``error`` is what the unary call would
    have raised (the transport makes it a refusal as it makes a status)."""

    request_id: str
    game_id: str
    error: Exception


@dataclass(frozen=True, slots=True)
class Recorded:
    game_id: str
    entry: Entry


Answer = Acked | RefusedRequest | Recorded


Send = Callable[[Answer], Awaitable[None]]


class NotJoined(Refused):
    """A move or take-back in a game this stream has not joined."""


class TooManyGames(GamelogError):
    status = "RESOURCE_EXHAUSTED"


class Followed:
    """One joined game: its token, and how far its records have been sent."""

    def __init__(self, token: str | None) -> None:
        self.token = token
        self.lock = asyncio.Lock()
        """Held by the request of this game being handled: one at a time, in order."""
        self.joined = False
        self.sent = -1
        """The last position whose record was sent."""
        self.ended = False
        """The game's records all sent (it finished), or the stream is failing."""
        self.finished = False
        """The game's last record, ``finished``, was sent."""
        self.held = False
        """A request of this game is in hand, whose ack will carry its records."""
        self.changed = asyncio.Event()
        self.pump: asyncio.Task[None] | None = None
        self.subscription: Subscription | None = None

    def hold(self) -> None:
        """A move or take-back of this game is in hand: its records go with
        its ack, so the pump holds them back until it is answered."""
        self.held = True

    def release(self) -> None:
        """The request is answered: the pump may send what came meanwhile."""
        self.held = False
        self.changed.set()
        self.changed.clear()

    async def unheld(self) -> None:
        """Wait until no request of this game is in hand (or the stream ends)."""
        while self.held and not self.ended:
            await self.changed.wait()

    def advanced(self, position: int) -> None:
        self.sent = position
        self.changed.set()
        self.changed.clear()

    def end(self) -> None:
        self.ended = True
        self.changed.set()
        self.changed.clear()

    async def sent_through(self, position: int) -> None:
        while self.sent < position and not self.ended:
            await self.changed.wait()


class PlaySession:
    def __init__(
        self,
        app: GameLog,
        live: LiveFollow,
        executor: Executor | None,
        send: Send,
        max_games: int = MAX_GAMES,
        max_pending: int = MAX_PENDING,
    ) -> None:
        self.app = app
        self.live = live
        self.executor = executor
        self._send_answer = send
        self.max_games = max_games
        self._pending = asyncio.Semaphore(max_pending)
        self._games: dict[UUID, Followed] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._writing = asyncio.Lock()
        self._failure: BaseException | None = None
        self._failed = asyncio.Event()

    async def run(self, requests: AsyncIterable[Request | RefusedRequest]) -> None:
        """Handle ``requests`` until they end and all are answered; raise what
        ended the stream early (a ``FollowInterrupted``, the transport's error)."""
        reader = asyncio.create_task(self._read(requests))
        failed = asyncio.create_task(self._failed.wait())
        try:
            await asyncio.wait((reader, failed), return_when=asyncio.FIRST_COMPLETED)
            if self._failure is not None:
                raise self._failure
            reader.result()
        finally:
            reader.cancel()
            failed.cancel()
            children = [*self._tasks, *(f.pump for f in self._games.values() if f.pump)]
            for task in children:
                task.cancel()
            await asyncio.gather(reader, failed, *children, return_exceptions=True)

    async def _read(self, requests: AsyncIterable[Request | RefusedRequest]) -> None:
        async for request in requests:
            if isinstance(request, RefusedRequest):  # unreadable: refused at the edge
                await self._send(request)
                continue
            await self._pending.acquire()
            task = asyncio.create_task(self._handle(request))
            self._tasks.add(task)
            task.add_done_callback(self._done)
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._pending.release()
        if not task.cancelled() and task.exception() is not None:
            self._fail(task.exception())

    def _fail(self, error: BaseException | None) -> None:
        if self._failure is None and error is not None:
            self._failure = error
            for followed in self._games.values():
                followed.end()
            self._failed.set()

    async def _send(self, answer: Answer) -> None:
        async with self._writing:
            await self._send_answer(answer)

    # -- one request ---------------------------------------------------------------

    async def _handle(self, request: Request) -> None:
        """Answer one request. Runs as a task; the tasks start in the order the
        requests came, and take their game's lock (first come, first served)
        before their first wait, so one game's requests keep their order.
        Only the use case's refusal is a refusal: once a move is stored, a
        failure to send its ack ends the stream (a retry with its request id
        is answered as the first time)."""
        game_id = str(request.game_id)
        try:
            followed = self._followed_for(request)
        except Exception as error:
            await self._send(RefusedRequest(request.request_id, game_id, error))
            return
        async with followed.lock:
            if isinstance(request, Join):
                try:
                    acked = await self._join(request, followed)
                except Exception as error:
                    await self._send(RefusedRequest(request.request_id, game_id, error))
                    return
                await self._send(acked)
                return
            # The game's records wait while this request is in hand: its ack
            # carries them, in one message (see ``_ack_with_records``).
            followed.hold()
            try:
                try:
                    if not followed.joined:  # its join was refused
                        raise _not_joined(request.game_id)
                    if isinstance(request, Move):
                        acked, committed = await self._move(request, followed)
                    else:
                        acked, committed = await self._take_back(request, followed)
                except Exception as error:
                    await self._send(RefusedRequest(request.request_id, game_id, error))
                    return
                await self._ack_with_records(followed, acked, committed)
            finally:
                followed.release()

    def _followed_for(self, request: Request) -> Followed:
        followed = self._games.get(request.game_id)
        if not isinstance(request, Join):
            if followed is None:
                raise _not_joined(request.game_id)
            return followed
        if followed is not None:
            raise Refused(
                "already-joined",
                f"this stream has joined game {request.game_id} already; "
                "open another stream to follow it from another position or with another token",
            )
        if len(self._games) >= self.max_games:
            self._forget_finished()
        if len(self._games) >= self.max_games:
            raise TooManyGames(
                "too-many-games",
                f"a stream may join at most {self.max_games} games; open another",
            )
        followed = self._games[request.game_id] = Followed(request.token)
        return followed

    def _forget_finished(self) -> None:
        """Make room: a finished game's requests are answered as PlayMove
        answers them there, but a stream that played many games need not
        keep them all."""
        for game_id, followed in list(self._games.items()):
            if followed.finished and not followed.lock.locked():
                del self._games[game_id]

    async def _join(self, request: Join, followed: Followed) -> Acked:
        started: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        followed.pump = asyncio.create_task(
            self._pump(request.game_id, followed, request.from_position, started)
        )
        try:
            head = await started
        except BaseException:
            if self._games.get(request.game_id) is followed:
                del self._games[request.game_id]
            raise
        followed.joined = True
        await followed.sent_through(head)
        return Acked(request.request_id, str(request.game_id), head)

    async def _move(self, request: Move, followed: Followed) -> tuple[Acked, list[Record]]:
        played = await self.app.play_on_loop.play(
            request.game_id,
            followed.token,
            request.move,
            request.at_position,
            request.request_id,
            self.executor,
            request.seat,
            shown=False,  # each seat's stream gets the records from the fan-out
        )
        acked = Acked(
            request.request_id, str(request.game_id), played.position, replayed=played.replayed
        )
        return acked, [] if played.replayed else played.records

    async def _take_back(
        self, request: TakeBackAsk, followed: Followed
    ) -> tuple[Acked, list[Record]]:
        outcome = await asyncio.get_running_loop().run_in_executor(
            self.executor,
            self.app.games.take_back,
            request.game_id,
            followed.token,
            request.action,
            request.to_position,
            request.at_position,
        )
        acked = Acked(
            request.request_id,
            str(request.game_id),
            outcome.position,
            taken_back=outcome.taken_back,
        )
        return acked, outcome.records

    async def _ack_with_records(
        self, followed: Followed, acked: Acked, committed: list[Record]
    ) -> None:
        """Send ``acked`` with the records up to its position that this
        stream has not sent yet, in one message: one write where a record
        and its ack would take two. A move decided on the loop is in
        the game's feed already (``Fanout.committed``); records ``committed``
        in a thread (a take-back, a move that needed the pool) are offered
        here, so no store read is needed for them either. They are taken from
        the feed redacted and notated as the pump would have them, ahead of
        the pump, which skips what an ack carried."""
        subscription = followed.subscription
        position = acked.position
        if subscription is not None:
            subscription.offer(committed)
        if subscription is None or not await subscription.stored_through(position):
            await self._send(acked)  # the stream is ending: its status says where to resume
            return
        async with self._writing:
            first = followed.sent + 1
            records = tuple(subscription.take(first, position)) if first <= position else ()
            if records:
                acked = dataclasses.replace(acked, records=records)
                followed.advanced(position)
            await self._send_answer(acked)

    # -- one game's records ------------------------------------------------------

    async def _pump(
        self, game_id: UUID, followed: Followed, from_position: int, started: asyncio.Future[int]
    ) -> None:
        """Send the game's records as they are stored, from ``from_position``."""
        subscription: Subscription | None = None
        try:
            async with self.live.follow(game_id, followed.token, from_position) as subscription:
                followed.sent = from_position - 1
                followed.subscription = subscription
                if started.done():  # the join was given up meanwhile
                    return
                started.set_result(subscription.feed.head)
                async for entry in subscription:
                    if followed.held:
                        await subscription.held_back(followed.unheld())
                    async with self._writing:
                        if entry.position <= followed.sent:
                            continue  # an ack carried it
                        await self._send_answer(Recorded(str(game_id), entry))
                        followed.advanced(entry.position)
            followed.finished = True
            followed.end()
        except asyncio.CancelledError:
            # The fan-out cancels a follower stuck sending; anything else that
            # cancels (the stream ending) goes on.
            if subscription is None or subscription.dropped is None:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            self._fail(_naming_game(subscription.dropped, game_id))
        except Exception as error:
            if not started.done():  # the join is refused; the stream goes on
                started.set_exception(error)
                return
            if isinstance(error, FollowInterrupted):
                error = _naming_game(error, game_id)
            self._fail(error)


def _not_joined(game_id: UUID) -> NotJoined:
    return NotJoined("not-joined", f"this stream has not joined game {game_id}; join it first")


def _naming_game(interrupted: FollowInterrupted, game_id: UUID) -> FollowInterrupted:
    """The stream's end, saying which of its games to resume from where."""
    named = FollowInterrupted(
        interrupted.code,
        f"game {game_id}: {interrupted.message}",
        interrupted.status,
        interrupted.from_position,
    )
    named.metadata = {**interrupted.metadata, "game_id": str(game_id)}
    return named
