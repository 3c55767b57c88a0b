"""Across processes on PostgreSQL: one ``LISTEN`` connection per process tells
the fan-out which games another process stored records for. A process holds
it only while someone follows a game on it (``LiveFollow``): every process's
every move is announced to every listener, which a process with no
followers would pay for and throw away.

The notification comes from the database itself: a statement trigger on the
events table calls ``pg_notify('gamelog_stored', '<game id> <last version>')``
once per game in every insert. PostgreSQL delivers a notification when, and
only if, its transaction commits, so there is no window in which a move is
stored but never announced (as there would be if the saving process sent the
``NOTIFY`` itself after its commit, and died in between); and every writer is
covered, imports and other tools too.

What can still be lost is the listening connection, and with it whatever was
announced while it was down. So after every (re)connection, once ``LISTEN`` is
in place, the listener asks the fan-out to ``catch_up``: every followed game
reads whatever is new from the store. Anything stored before that read is in
it; anything after is announced. No follower misses a record.

While no notification comes for ``IDLE_CHECK_SECONDS``, a ``SELECT 1`` makes
sure the connection is still alive, so a silently dropped connection is found
and replaced too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql

log = logging.getLogger(__name__)

CHANNEL = "gamelog_stored"
IDLE_CHECK_SECONDS = 30.0
RECONNECT_SECONDS = (0.5, 1.0, 2.0, 5.0)
_TRIGGER = "gamelog_notify_stored"


def connection_settings(app: Any) -> dict[str, Any] | None:
    """How to reach the application's PostgreSQL, or None if it stores elsewhere."""
    datastore = getattr(app.recorder, "datastore", None)
    pool = getattr(datastore, "pool", None)
    kwargs = getattr(pool, "kwargs", None)
    if datastore is None or not isinstance(kwargs, dict) or "dbname" not in kwargs:
        return None
    # Every libpq setting of the pool's (target_session_attrs among them: on a
    # cluster, LISTEN goes to the primary, as a standby refuses it).
    settings = {k: v for k, v in kwargs.items() if k != "row_factory"}
    settings["schema"] = datastore.schema
    settings["table"] = app.recorder.events_table_name
    return settings


def _connect_kwargs(settings: dict[str, Any]) -> dict[str, Any]:
    kwargs = {k: v for k, v in settings.items() if k not in ("schema", "table")}
    return {"connect_timeout": 10, **kwargs}


def install_trigger(settings: dict[str, Any]) -> None:
    """Create (once per database) the trigger that announces every insert."""
    schema, table = sql.Identifier(settings["schema"]), sql.Identifier(settings["table"])
    function = sql.SQL("{}.{}").format(schema, sql.Identifier(_TRIGGER))
    create_function = sql.SQL(
        "CREATE OR REPLACE FUNCTION {function}() RETURNS trigger "
        "LANGUAGE plpgsql AS $$ BEGIN "
        "PERFORM pg_notify({channel}, originator_id::text || ' ' || max(originator_version)) "
        "FROM stored GROUP BY originator_id; "
        "RETURN NULL; END $$"
    ).format(function=function, channel=sql.Literal(CHANNEL))
    create_trigger = sql.SQL(
        "CREATE TRIGGER {trigger} AFTER INSERT ON {schema}.{table} "
        "REFERENCING NEW TABLE AS stored FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
    ).format(trigger=sql.Identifier(_TRIGGER), schema=schema, table=table, function=function)
    qualified = f'"{settings["schema"]}"."{settings["table"]}"'
    connection = psycopg.connect(**_connect_kwargs(settings), autocommit=True)
    with connection as conn, conn.transaction():
        # Several processes may start at once.
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (_TRIGGER,))
        conn.execute(create_function)
        exists = conn.execute(
            "SELECT 1 FROM pg_trigger WHERE tgname = %s AND tgrelid = %s::regclass",
            (_TRIGGER, qualified),
        ).fetchone()
        if not exists:
            conn.execute(create_trigger)


def parse(payload: str) -> tuple[UUID, int] | None:
    """A notification's game id and last stored position, or None if it is
    not one of ours."""
    game, _, version = payload.partition(" ")
    try:
        return UUID(game), int(version) - 1
    except ValueError:
        return None


class StoredListener:
    """The one listening connection of this process.

    ``on_stored(game_id, position)`` for each notification; ``on_connected()``
    each time ``LISTEN`` is (again) in place, so the caller catches up."""

    def __init__(
        self,
        settings: dict[str, Any],
        on_stored: Callable[[UUID, int], None],
        on_connected: Callable[[], None],
    ) -> None:
        self.settings = settings
        self.on_stored = on_stored
        self.on_connected = on_connected
        self.application_name = f"gamelog-listener-{os.getpid()}"
        self.connections = 0
        """How many times ``LISTEN`` was put in place (for tests)."""
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        """Listening or about to, and not being stopped (a task told to stop
        may still be closing its connection: a new start begins another)."""
        task = self._task
        return task is not None and not task.done() and not task.cancelling()

    def start(self) -> None:
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def cancel(self) -> None:
        """Stop listening (the connection closes as the task ends)."""
        if self._task is not None:
            self._task.cancel()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        failures = 0
        while True:
            connected_before = self.connections
            try:
                await self._listen()
            except (psycopg.Error, OSError) as error:
                if self.connections > connected_before:
                    failures = 0
                delay = RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)]
                failures += 1
                log.warning("notification connection lost (%s); reconnecting in %s s", error, delay)
                await asyncio.sleep(delay)

    async def _listen(self) -> None:
        conn = await psycopg.AsyncConnection.connect(
            **_connect_kwargs(self.settings),
            autocommit=True,
            application_name=self.application_name,
        )
        async with conn:
            await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
            self.connections += 1
            if self.connections > 1:
                log.info("notification connection back; catching up from the store")
            self.on_connected()
            while True:
                async for notify in conn.notifies(timeout=IDLE_CHECK_SECONDS):
                    stored = parse(notify.payload)
                    if stored is not None:
                        self.on_stored(*stored)
                await conn.execute("SELECT 1")
