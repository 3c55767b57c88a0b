"""The per-process fan-out: every game's new records read once, redacted once
per kind of viewer, and shared by all that game's followers.

One ``Fanout`` runs on the server's event loop. It keeps a ``GameFeed``
(``game_feed.py``) for each game someone follows in this process: the
game's stored records (read
from the store in an executor thread: once when the first follower comes,
then only what is new), and, per kind of viewer (each seat, the arbiter,
spectators), those records as that viewer may see them, made the first time
any follower of that kind needs one. A follower is a ``Subscription``: a cursor
into that shared list, and nothing else, so ten thousand followers of a game
cost ten thousand cursors, not ten thousand copies or store reads.

A feed reads the store when told that something was stored: by a save in this
process (``saved_threadsafe``, from the saving thread), by a notification from
another process (``stored``), or, after the notifications may have been
missed, by ``catch_up`` (every feed reads whatever is new). Nobody polls.

What a follower receives is always what ``ListEvents`` would answer that
viewer at that moment: redacted while the game runs and, once it is finished,
the finished game's record (``redact_record`` with ``finished``), whichever
positions are still to come for it.

A follower that takes longer than ``stall_seconds`` over one record (its
client stopped reading, so the transport's buffers filled and the write
waits) is dropped: its task is cancelled, and ``Subscription.dropped`` says
why, with ``position`` the first record it has not been handed, from which
it can resume. The others never wait for it: nobody waits for anybody, each
follower moves its own cursor.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor
from typing import Any, Protocol
from uuid import UUID

from gamelog.games.protocol import GameType, Viewer
from gamelog.replay.record import Record
from gamelog.service.live.game_feed import Entry, GameFeed
from gamelog.service.model.refusals import GamelogError

log = logging.getLogger(__name__)

STALL_SECONDS = 10.0

FOLLOWER_TOO_SLOW = "follower-too-slow"
SERVER_STOPPING = "server-stopping"


class RecordSource(Protocol):
    """The store, as the fan-out reads it (``usecases.following.Following``)."""

    def records_after(self, game_id: UUID, from_position: int) -> list[Record]: ...

    def rules_of(self, game_id: UUID) -> GameType[Any]: ...


class BeyondTheEnd(GamelogError):
    """A follow from past the game's last position: there is nothing there to
    wait for (a running game's next position is fine)."""

    status = "OUT_OF_RANGE"


class FollowInterrupted(GamelogError):
    """A stream ended before the game did; ``from_position`` resumes it."""

    def __init__(self, code: str, message: str, status: str, from_position: int) -> None:
        super().__init__(code, message)
        self.status = status
        self.from_position = from_position
        self.metadata = {"from_position": str(from_position)}


class Subscription:
    """One follower: the next position it will be handed, and nothing else.

    Iterate it for ``Entry``s; it stops after the game's ``finished`` record."""

    __slots__ = ("cancelled", "dropped", "feed", "position", "taken_at", "task", "viewer")

    def __init__(self, feed: GameFeed, viewer: Viewer, position: int) -> None:
        self.feed = feed
        self.viewer = viewer
        self.position = position
        self.task = asyncio.current_task()
        self.taken_at: float | None = None
        """When the consumer took its last record, while it still has not come
        back for the next: how long it is taking to send it."""
        self.dropped: FollowInterrupted | None = None
        self.cancelled = False

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Entry:
        self.taken_at = None
        feed = self.feed
        if self.dropped is not None:
            raise self.dropped
        if self.position > feed.head and feed.finished:
            raise StopAsyncIteration
        while self.position > feed.head:
            await feed.changed.wait()
            if self.dropped is not None:
                raise self.dropped
        entry = feed.entry(self.position, self.viewer)
        self.position += 1
        self.taken_at = feed.fanout.clock()
        return entry

    async def held_back(self, until: Awaitable[None]) -> None:
        """Wait for ``until`` before sending the entry just taken: a wait of
        the follower's own (its stream's ack will carry the entry), not a
        follower stuck sending, so the stall clock starts only after it."""
        self.taken_at = None
        await until
        self.taken_at = self.feed.fanout.clock()

    async def stored_through(self, position: int) -> bool:
        """Wait until the feed holds ``position`` (False: this follower was
        dropped first). The feed is told to look, in case word of the store
        has not reached it."""
        feed = self.feed
        while feed.head < position and self.dropped is None:
            feed.poke(position)
            await feed.changed.wait()
        return self.dropped is None

    def offer(self, records: list[Record]) -> None:
        """Records just committed in this game by this process (``GameFeed.offer``)."""
        self.feed.offer(records)

    def take(self, first: int, last: int) -> list[Entry]:
        """The entries from ``first`` to ``last`` (held by the feed), handed
        out of turn: iterating goes on after ``last``, past what was taken."""
        entries = [self.feed.entry(p, self.viewer) for p in range(first, last + 1)]
        self.position = max(self.position, last + 1)
        return entries

    def drop(self, code: str, message: str, status: str, cancel: bool = True) -> None:
        """End this follower, saying why and where to resume: at once, by
        cancelling its task (a follower stuck sending), or, with ``cancel``
        False, when it next asks for a record (its feed must be woken).
        Cancelling a task that is inside gRPC's own write can cost the
        stream its status, so a stop that can wait does."""
        if self.task is None:
            return
        if self.dropped is None:
            self.dropped = FollowInterrupted(code, message, status, self.position)
        if cancel and not self.cancelled:
            # Dropped already (the server is stopping) and now stuck sending:
            # it ends with the first reason, now.
            self.cancelled = True
            self.task.cancel()


class Fanout:
    """Every followed game of this process, read once and shared.

    Runs on one event loop; only ``saved_threadsafe`` may be called from
    other threads."""

    def __init__(
        self,
        source: RecordSource,
        executor: Executor | None = None,
        stall_seconds: float = STALL_SECONDS,
    ) -> None:
        self.source = source
        self.executor = executor
        self.stall_seconds = stall_seconds
        self.feeds: dict[UUID, GameFeed] = {}
        self.subscriptions: set[Subscription] = set()
        self.closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin on the running loop (watching for stalled followers)."""
        self._loop = asyncio.get_running_loop()
        self._sweeper = self._loop.create_task(self._sweep())

    def clock(self) -> float:
        assert self._loop is not None
        return self._loop.time()

    async def in_executor(self, function: Callable[..., Any], *args: Any) -> Any:
        assert self._loop is not None
        return await self._loop.run_in_executor(self.executor, function, *args)

    # -- told that something was stored --------------------------------------------

    def saved_threadsafe(self, game_id: UUID, position: int) -> None:
        """A save in this process (from the saving thread, or the loop's)."""
        loop = self._loop
        feed = self.feeds.get(game_id)
        # A feed that holds the position already (its committer offered the
        # records) needs no word: reading its length from another thread is
        # safe, and a stale answer only sends the word anyway.
        if loop is not None and feed is not None and feed.head < position and not loop.is_closed():
            loop.call_soon_threadsafe(self.stored, game_id, position)

    def committed(self, game_id: UUID, records: list[Record], state: Any) -> None:
        """A move decided on the loop is durable (``PlayOnLoop.on_committed``):
        its game's feed, if any, holds its records at once."""
        feed = self.feeds.get(game_id)
        if feed is not None:
            feed.offer(records, state)

    def stored(self, game_id: UUID, position: int | None = None) -> None:
        """Records of ``game_id`` up to ``position`` are stored (on the loop)."""
        feed = self.feeds.get(game_id)
        if feed is not None:
            feed.poke(position)

    def catch_up(self) -> None:
        """Word of some stores may have been lost: every feed reads what is new."""
        for feed in self.feeds.values():
            feed.poke()

    # -- following -----------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def subscribe(
        self, game_id: UUID, viewer: Viewer, from_position: int
    ) -> AsyncIterator[Subscription]:
        """A follower of ``game_id`` from ``from_position``, seeing what
        ``viewer`` may see; refused (BeyondTheEnd) past the game's end."""
        if self.closed:
            raise FollowInterrupted(
                SERVER_STOPPING, "this server is stopping; follow elsewhere", "UNAVAILABLE", 0
            )
        feed = self.feeds.get(game_id)
        if feed is None:
            feed = self.feeds[game_id] = GameFeed(self, game_id)
        feed.join(viewer)
        subscription: Subscription | None = None
        try:
            await asyncio.shield(feed.loaded)
            if not feed.check_start(from_position):
                # This process may have missed a store: look again first.
                feed.poke()
                await feed.settled()
                if not feed.check_start(from_position):
                    raise _beyond_the_end(feed, from_position)
            if self.closed:  # closed while this follower was being set up
                raise FollowInterrupted(
                    SERVER_STOPPING,
                    f"this server is stopping; resume from position {from_position}",
                    "UNAVAILABLE",
                    from_position,
                )
            subscription = Subscription(feed, viewer, from_position)
            self.subscriptions.add(subscription)
            yield subscription
        finally:
            if subscription is not None:
                self.subscriptions.discard(subscription)
            feed.leave(viewer)
            if not feed.followers and self.feeds.get(game_id) is feed:
                del self.feeds[game_id]

    async def _sweep(self) -> None:
        """Drop followers that have been sending one record for too long."""
        period = max(0.05, self.stall_seconds / 4)
        # After ``close`` too: a follower stuck sending must still be ended.
        while not (self.closed and not self.subscriptions):
            await asyncio.sleep(period)
            too_old = self.clock() - self.stall_seconds
            stalled = [
                s for s in self.subscriptions if s.taken_at is not None and s.taken_at < too_old
            ]
            for subscription in stalled:
                subscription.drop(
                    FOLLOWER_TOO_SLOW,
                    f"this stream fell behind: one record took over {self.stall_seconds:g} s "
                    f"to send; resume from position {subscription.position}",
                    "RESOURCE_EXHAUSTED",
                )

    def close(self) -> None:
        """End every follower (the server is stopping); each may resume elsewhere."""
        self.closed = True
        # Each follower ends when it next asks for a record (one sending
        # now finishes that first): the server's grace period waits for it.
        for subscription in list(self.subscriptions):
            subscription.drop(
                SERVER_STOPPING,
                f"this server is stopping; resume from position {subscription.position}",
                "UNAVAILABLE",
                cancel=False,
            )
        for feed in self.feeds.values():
            feed.wake()


def _beyond_the_end(feed: GameFeed, position: int) -> BeyondTheEnd:
    if feed.finished:
        return BeyondTheEnd(
            "beyond-the-end",
            f"game {feed.game_id} finished at position {feed.head}; "
            f"there is nothing to follow from position {position}",
        )
    return BeyondTheEnd(
        "beyond-the-end",
        f"game {feed.game_id} is at position {feed.head}; "
        f"follow from position {feed.head + 1} at most, not {position}",
    )
