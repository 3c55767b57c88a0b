"""The game index in PostgreSQL, and how far the log is settled there.

gamelog writes events through eventsourcing's insert function without
``LOCK TABLE … IN EXCLUSIVE MODE`` (docs/service-decisions.md), so
transactions take notification ids from the sequence in one order and may
commit in another: id 41 can become visible after id 42. A follower that
recorded "done up to 42" would never see 41. So the index is only ever
brought up to a *settled* position: the last id the sequence had handed out,
once every transaction that was writing events when that was read has ended.
Such a transaction took its row lock on the events table before it drew its
ids and holds it until it ends, so ``pg_locks`` names every transaction that
may still hold a smaller id. The writers never wait for this: the reader
waits for them (about one commit).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from psycopg.sql import SQL

from gamelog.service.index.sql import SQLGameIndex
from gamelog.service.index.tables import TABLES, TRACKING_TABLE

log = logging.getLogger(__name__)
SETTLE_TIMEOUT = 5.0
"""How long the settled position waits for writers still at work."""


class PostgresGameIndexView(SQLGameIndex, PostgresTrackingRecorder):
    """The index in the PostgreSQL database that holds the events."""

    LOCK_KEY = 0x67616D656C6F67
    """The advisory lock that lets one transaction at a time write the index."""

    def __init__(self, datastore: PostgresDatastore, upstream: str, events_table: str) -> None:
        self.upstream = upstream
        schema = datastore.schema

        def qualified(name: str) -> str:
            return f'"{schema}"."{name}"'

        self.names = {
            "index": qualified("gamelog_index"),
            "tags": qualified("gamelog_index_tags"),
            "seats": qualified("gamelog_index_seats"),
            "tournaments": qualified("gamelog_index_tournaments"),
            "rated": qualified("gamelog_index_rated"),
            "tracking": qualified(TRACKING_TABLE),
            "events": qualified(events_table),
            "key": 'TEXT COLLATE "C"',
        }
        super().__init__(datastore, tracking_table_name=TRACKING_TABLE)
        for statement in TABLES:
            self.sql_create_statements.append(SQL(statement.format(**self.names)).format())  # type: ignore[arg-type]
        self._events_table = f"{schema}.{events_table}"
        self._sequence: str | None = None

    def _sql(self, text: str) -> str:
        return super()._sql(text).replace("?", "%s")

    def _rows(self, text: str, params: Sequence[Any] = ()) -> list[Any]:
        with self.datastore.get_connection() as connection, connection.cursor() as cursor:
            cursor.execute(self._sql(text).encode(), list(params))
            return list(cursor.fetchall())

    @contextmanager
    def _writing(self) -> Iterator[Any]:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (self.LOCK_KEY,))
            yield cursor

    def _last_version_sql(self) -> str:
        return (
            "SELECT MAX(e.originator_version) FROM {events} e"
            " WHERE e.originator_id = g.game_id::uuid"
        )

    def settled_position(self) -> int:
        with self.datastore.get_connection() as connection, connection.cursor() as cursor:
            if self._sequence is None:
                cursor.execute(
                    "SELECT pg_get_serial_sequence(%s, 'notification_id') AS s",
                    (self._events_table,),
                )
                self._sequence = str(cursor.fetchone()["s"])  # type: ignore[index]
            cursor.execute("SELECT pg_sequence_last_value(%s::regclass) AS v", (self._sequence,))
            handed_out = int(cursor.fetchone()["v"] or 0)  # type: ignore[index]
            writers = self._writers(cursor, None)
            deadline = time.monotonic() + SETTLE_TIMEOUT
            pause = 0.0005
            while writers:
                if time.monotonic() > deadline:
                    log.warning(
                        "the game index waits on %d transactions still writing events after "
                        "%.0f s; it answers from the log as far as it is settled",
                        len(writers),
                        SETTLE_TIMEOUT,
                    )
                    return self.position()
                time.sleep(pause)
                pause = min(pause * 2, 0.02)
                writers = self._writers(cursor, writers)
        return handed_out

    def _writers(self, cursor: Any, among: list[str] | None) -> list[str]:
        """The transactions (other than this one) that hold the row lock on the
        events table that inserting takes, optionally only those ``among``."""
        text = (
            "SELECT DISTINCT virtualtransaction AS v FROM pg_locks"
            " WHERE locktype = 'relation' AND relation = %s::regclass"
            " AND mode = 'RowExclusiveLock' AND granted AND pid <> pg_backend_pid()"
        )
        params: list[Any] = [self._events_table]
        if among is not None:
            text += " AND virtualtransaction = ANY(%s)"
            params.append(among)
        cursor.execute(text, params)
        return [str(row["v"]) for row in cursor.fetchall()]
