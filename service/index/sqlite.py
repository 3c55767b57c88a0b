"""The game index in SQLite: in the events' own database, or in memory.

What SQLite adds to the SQL both databases share (``sql``): the writer's
lock, which is SQLite's own write lock taken as the transaction begins, and
how far the log is settled. An in-memory store (``eventsourcing.popo``)
keeps its index in an in-memory SQLite database beside its events. The
PostgreSQL twin is ``postgres``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder
from eventsourcing.sqlite import (
    SQLiteCursor,
    SQLiteDatastore,
    SQLiteTrackingRecorder,
    SQLiteTransaction,
)

from gamelog.service.index.sql import SQLGameIndex
from gamelog.service.index.tables import TABLES, TRACKING_TABLE


class _ImmediateTransaction(SQLiteTransaction):
    """eventsourcing's SQLite transaction, begun IMMEDIATE: it takes the
    database's write lock at once, so what it reads first (the tracking
    position) cannot change before it writes."""

    def __enter__(self) -> SQLiteCursor:
        cursor = self.connection.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        return cursor


class SQLiteGameIndexView(SQLGameIndex, SQLiteTrackingRecorder):
    """The index in the SQLite file that holds the events.

    SQLite runs one write transaction at a time, and a notification's id is
    taken inside it, so ids commit in order: the log is settled up to the
    largest id committed."""

    def __init__(
        self, datastore: SQLiteDatastore, upstream: str, events_table: str = "stored_events"
    ) -> None:
        self.upstream = upstream
        self.names = {
            "index": "gamelog_index",
            "tags": "gamelog_index_tags",
            "seats": "gamelog_index_seats",
            "tournaments": "gamelog_index_tournaments",
            "rated": "gamelog_index_rated",
            "tracking": TRACKING_TABLE,
            "events": events_table,
            "key": "TEXT",
        }
        super().__init__(datastore)
        # The library's statements, on a tracking table of the index's own (the
        # library names it "tracking", one per database file).
        self.insert_tracking_statement = (
            f"INSERT INTO {TRACKING_TABLE} "
            "VALUES (:application_name, :notification_id) "
            "ON CONFLICT (application_name) DO UPDATE "
            "SET notification_id = :notification_id "
            f"WHERE {TRACKING_TABLE}.notification_id < :notification_id "
            "RETURNING notification_id"
        )
        self.select_max_tracking_id_statement = (
            f"SELECT MAX(notification_id) FROM {TRACKING_TABLE} WHERE application_name=?"
        )

    def construct_create_table_statements(self) -> list[str]:
        tracking = (
            f"CREATE TABLE IF NOT EXISTS {TRACKING_TABLE} ("
            "application_name TEXT, notification_id INTEGER, "
            "PRIMARY KEY (application_name)) WITHOUT ROWID"
        )
        return [tracking, *(self._sql(statement) for statement in TABLES)]

    def _rows(self, text: str, params: Sequence[Any] = ()) -> list[Any]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._sql(text), list(params))
            return list(cursor.fetchall())

    @contextmanager
    def _writing(self) -> Iterator[SQLiteCursor]:
        with (
            self.datastore.get_connection(commit=True) as connection,
            _ImmediateTransaction(connection, commit=True) as cursor,
        ):
            yield cursor

    def _last_version_sql(self) -> str:
        return "SELECT MAX(e.originator_version) FROM {events} e WHERE e.originator_id = g.game_id"

    def settled_position(self) -> int:
        return int(self._rows("SELECT MAX(rowid) AS n FROM {events}")[0]["n"] or 0)


class MemoryGameIndexView(SQLiteGameIndexView):
    """The index of an in-memory store (``eventsourcing.popo``): an in-memory
    SQLite database beside the events, which live in Python objects."""

    def __init__(self, events: ApplicationRecorder, upstream: str) -> None:
        self.events = events
        name = f"file:gamelog-index-{uuid.uuid4().hex}?mode=memory&cache=shared"
        super().__init__(SQLiteDatastore(name), upstream)

    def settled_position(self) -> int:
        return self.events.max_notification_id() or 0  # one lock orders the ids

    def last_positions(self, game_ids: Sequence[UUID]) -> dict[UUID, int]:
        positions: dict[UUID, int] = {}
        for game_id in game_ids:
            last = self.events.select_events(game_id, desc=True, limit=1)
            if last:
                positions[game_id] = last[0].originator_version - 1
        return positions

    def close(self) -> None:
        self.datastore.close()


__all__ = ["MemoryGameIndexView", "SQLiteGameIndexView"]
