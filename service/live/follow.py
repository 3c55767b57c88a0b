"""Live follow in one process: who may follow, the shared fan-out, and on
PostgreSQL the listener that hears of other processes' moves.

A transport (the gRPC ``FollowGame``, a browser's event stream) asks
``follow`` for a subscription and sends each ``Entry`` it yields:

    async with live.follow(game_id, token, from_position) as subscription:
        async for entry in subscription:
            await send(entry.json)

``follow`` checks the token (a seat's, the arbiter's, or none for a
spectator), takes a place under the ``FollowLimits`` and joins the game's feed;
leaving the block gives the place back. The store is read in a few threads of
its own (``read_threads``), never in the event loop and never in the threads
that serve moves.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from uuid import UUID

from gamelog.games.protocol import Viewer
from gamelog.service.live.fanout import STALL_SECONDS, Fanout, Subscription
from gamelog.service.live.follow_limits import Admission, FollowLimits
from gamelog.service.live.notifications import StoredListener, connection_settings, install_trigger
from gamelog.service.usecases.application import GameLog

READ_THREADS = 4
LISTEN_LINGER_SECONDS = 60.0


class LiveFollow:
    def __init__(
        self,
        app: GameLog,
        limits: FollowLimits | None = None,
        stall_seconds: float = STALL_SECONDS,
        read_threads: int = READ_THREADS,
        linger_seconds: float = LISTEN_LINGER_SECONDS,
    ) -> None:
        self.app = app
        self.limits = limits or FollowLimits()
        self.admission = Admission(self.limits)
        self.executor = ThreadPoolExecutor(read_threads, thread_name_prefix="follow-read")
        self.fanout = Fanout(app.following, self.executor, stall_seconds)
        self.listener: StoredListener | None = None
        self.linger_seconds = linger_seconds
        """How long the listener stays after the last follower left."""
        self._following = 0
        self._idle_check: asyncio.TimerHandle | None = None

    async def start(self) -> None:
        """Begin on the running event loop. The listener (PostgreSQL) is
        started by the first follower, not here: every move of every process
        reaches every listening process, and a process nobody follows on
        has nothing to do with it but pay for it (a sixth of a move's server
        CPU in bench case b)."""
        self.fanout.start()
        self.app.play_on_loop.on_committed(self.fanout.committed)
        self.app.store.on_saved(self.fanout.saved_threadsafe)
        settings = connection_settings(self.app.store)
        if settings is not None:
            await self.fanout.in_executor(install_trigger, settings)
            self.listener = StoredListener(settings, self.fanout.stored, self.fanout.catch_up)

    def _followed(self) -> None:
        self._following += 1
        if self._idle_check is not None:
            self._idle_check.cancel()
            self._idle_check = None
        # Nothing is missed while LISTEN is not yet in place: once it is,
        # every feed catches up from the store (``Fanout.catch_up``).
        if self.listener is not None and not self.listener.running:
            self.listener.start()

    def _unfollowed(self) -> None:
        self._following -= 1
        if self._following == 0 and self.listener is not None and self._idle_check is None:
            # A little later, so that a follower who comes back finds it there.
            loop = asyncio.get_running_loop()
            self._idle_check = loop.call_later(self.linger_seconds, self._stop_listening_if_idle)

    def _stop_listening_if_idle(self) -> None:
        self._idle_check = None
        if self._following == 0 and self.listener is not None:
            self.listener.cancel()

    async def viewer(self, game_id: UUID, token: str | None) -> Viewer:
        viewer: Viewer = await self.fanout.in_executor(self.app.access.viewer, game_id, token)
        return viewer

    @contextlib.asynccontextmanager
    async def follow(
        self, game_id: UUID, token: str | None, from_position: int
    ) -> AsyncIterator[Subscription]:
        viewer = await self.viewer(game_id, token)
        with self.admission.admit(game_id, viewer):
            self._followed()
            try:
                async with self.fanout.subscribe(game_id, viewer, from_position) as subscription:
                    yield subscription
            finally:
                self._unfollowed()

    async def stop(self) -> None:
        """End every stream (each may resume elsewhere) and stop listening."""
        self.fanout.close()
        if self._idle_check is not None:
            self._idle_check.cancel()
        if self.listener is not None:
            await self.listener.stop()

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
