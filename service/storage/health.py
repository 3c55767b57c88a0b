"""Health that follows the store: NOT_SERVING while no primary can be reached.

A server on PostgreSQL can take moves only while it reaches a primary. On a
cluster (deploy/patroni/) the primary may go away and another take its
place; a load balancer or ``grpc_health_probe`` should then hear
NOT_SERVING, and SERVING again once the new primary answers.

``StoreWatch`` looks every ``PROBE_SECONDS`` through a connection of its own,
made with the pool's settings (on a cluster ``target_session_attrs``, so it
finds the primary wherever it now is): ``SELECT pg_is_in_recovery()``. A
probe that fails, takes longer than ``PROBE_TIMEOUT_SECONDS`` or reaches a
standby reports the store away; the next probe that reaches a primary
reports it back. Its own connection, not the pool's: under load every pooled
connection may be busy, and health must not say NOT_SERVING for that.

When the store comes back, the watch has the pool check its idle
connections (``ConnectionPool.check``): those to the old primary are closed
and new ones made at once, rather than each failing one caller's read first,
and a pool whose attempts to reconnect gave up grows again for the callers
waiting. SQLite and memory stores have nothing to watch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg

log = logging.getLogger(__name__)

PROBE_SECONDS = 1.0
PROBE_TIMEOUT_SECONDS = 3.0


class StoreWatch:
    """Probes the primary; ``report(up)`` on every change (first: down to up)."""

    def __init__(
        self,
        connect_kwargs: dict[str, Any],
        pool: Any,
        report: Callable[[bool], Awaitable[None]],
        probe_seconds: float = PROBE_SECONDS,
    ) -> None:
        self.connect_kwargs = connect_kwargs
        self.pool = pool
        self.report = report
        self.probe_seconds = probe_seconds
        self.up = True
        """What was last reported (the server starts SERVING: its store just opened)."""
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._close()

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.probe_seconds)
            up = await self.probe()
            if up == self.up:
                continue
            self.up = up
            if up:
                log.info("the store's primary answers again")
                # Connections to the old primary go, new ones come.
                try:
                    await asyncio.get_running_loop().run_in_executor(None, self.pool.check)
                except Exception:  # the pool mends itself on use all the same
                    log.exception("checking the pool's connections failed")
            else:
                log.warning("no primary of the store can be reached: health is NOT_SERVING")
            await self.report(up)

    async def probe(self) -> bool:
        """Whether a primary answers now."""
        try:
            return await asyncio.wait_for(self._ask(), PROBE_TIMEOUT_SECONDS)
        except (psycopg.Error, OSError, TimeoutError) as error:
            log.debug("store probe failed: %s", error)
            await self._close()
            return False

    async def _ask(self) -> bool:
        if self._conn is None or self._conn.closed:
            self._conn = await psycopg.AsyncConnection.connect(
                **self.connect_kwargs, autocommit=True, application_name="gamelog-health"
            )
        cursor = await self._conn.execute("SELECT pg_is_in_recovery()")
        row = await cursor.fetchone()
        in_recovery = bool(row and row[0])
        if in_recovery:
            # A standby (a DSN without target_session_attrs): look again from scratch.
            await self._close()
        return not in_recovery

    async def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(psycopg.Error, OSError):
                await conn.close()


def store_watch(store: Any, report: Callable[[bool], Awaitable[None]]) -> StoreWatch | None:
    """A watch of ``store``'s PostgreSQL, or None for a store with nothing to watch."""
    datastore = getattr(store.recorder, "datastore", None)
    pool = getattr(datastore, "pool", None)
    kwargs = getattr(pool, "kwargs", None)
    if not isinstance(kwargs, dict) or "dbname" not in kwargs:
        return None
    # The pool's rows are dicts; the probe's are plain.
    connect_kwargs = {k: v for k, v in kwargs.items() if k != "row_factory"}
    return StoreWatch(connect_kwargs, pool, report)
