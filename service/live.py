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

import contextlib
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from uuid import UUID

from gamelog.games.protocol import Viewer
from gamelog.service.app import GameLog
from gamelog.service.fanout import STALL_SECONDS, Fanout, Subscription
from gamelog.service.follow_limits import Admission, FollowLimits
from gamelog.service.notifications import StoredListener, connection_settings, install_trigger

READ_THREADS = 4


class LiveFollow:
    def __init__(
        self,
        app: GameLog,
        limits: FollowLimits | None = None,
        stall_seconds: float = STALL_SECONDS,
        read_threads: int = READ_THREADS,
    ) -> None:
        self.app = app
        self.limits = limits or FollowLimits()
        self.admission = Admission(self.limits)
        self.executor = ThreadPoolExecutor(read_threads, thread_name_prefix="follow-read")
        self.fanout = Fanout(app, self.executor, stall_seconds)
        self.listener: StoredListener | None = None

    async def start(self) -> None:
        """Begin on the running event loop."""
        self.fanout.start()
        self.app.on_saved(self.fanout.saved_threadsafe)
        settings = connection_settings(self.app)
        if settings is not None:
            await self.fanout.in_executor(install_trigger, settings)
            self.listener = StoredListener(settings, self.fanout.stored, self.fanout.catch_up)
            self.listener.start()

    async def viewer(self, game_id: UUID, token: str | None) -> Viewer:
        viewer: Viewer = await self.fanout.in_executor(self.app.viewer, game_id, token)
        return viewer

    @contextlib.asynccontextmanager
    async def follow(
        self, game_id: UUID, token: str | None, from_position: int
    ) -> AsyncIterator[Subscription]:
        viewer = await self.viewer(game_id, token)
        with self.admission.admit(game_id, viewer):
            async with self.fanout.subscribe(game_id, viewer, from_position) as subscription:
                yield subscription

    async def stop(self) -> None:
        """End every stream (each may resume elsewhere) and stop listening."""
        self.fanout.close()
        if self.listener is not None:
            await self.listener.stop()

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
