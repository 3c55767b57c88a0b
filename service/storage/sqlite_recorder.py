"""SQLite: eventsourcing's application recorder, storing a transaction's
events with one statement.

The library stores a save's events in an explicit transaction: ``BEGIN``,
one ``INSERT`` per event, then ``COMMIT``. Each of those is a call into
SQLite that lets go of the GIL and must take it back afterwards, and its
connections cache one statement, so ``BEGIN`` and ``INSERT`` push each other
out and are compiled again every time. In the server, every time the group
commit's thread wants the GIL back it waits for the event loop, which is busy
deciding the next moves: a transaction of 0.4 ms of work took 1.5–2 ms
(bench/README.md, "seventh round").

This recorder writes the same rows into the same table with one multi-row
``INSERT`` on a connection in autocommit mode, the library's own setting.
SQLite runs a statement outside an explicit transaction as a transaction
of its own: all its rows are stored or none is (a position already taken
fails the whole statement with the same ``IntegrityError``), and it commits
with the same synchronous, fsync'd commit. That is one call into SQLite for
the whole transaction, commit included.

The notification ids are the rows' ``rowid``: SQLite gives the rows of one
statement consecutive ids after the largest one stored (the table has no
``AUTOINCREMENT`` and the statement holds the database's write lock), so the
last one and the count give them all.

Writes go through one connection kept for the purpose, taken in turn with
the pool's own writers under the pool's writer lock. The pool hands its
connections out one after another, so a write through the pool meets a page
cache that another connection's write has made stale, and reads its pages
again (strace: 3.4 ``pread`` calls a move through the pool, 1.1 through the
kept connection, whose commit takes a sixth less wall time). An in-memory database keeps the
library's connections, which it needs for its reader-writer interlocking.

A save of more than ``MAX_ROWS`` events (a long game imported) takes the
library's path: SQLite builds older than 3.32 allow 999 parameters, four a
row. The recorder is chosen through eventsourcing's own setting,
``APPLICATION_RECORDER_TOPIC``; ``GameStore`` sets it for SQLite unless the
environment names another.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing import persistence as es
from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteConnection

from gamelog.service.storage.recorder_errors import ErrorTable, library_error

TOPIC = "gamelog.service.storage.sqlite_recorder:OneStatementRecorder"
MAX_ROWS = 200
"""The most events stored with one statement (four parameters each)."""

# sqlite3's errors and the library's own, most specific first, as the
# library's ``SQLiteTransaction`` maps them.
_LIBRARY_ERRORS: ErrorTable = (
    (sqlite3.InterfaceError, es.InterfaceError),
    (sqlite3.DataError, es.DataError),
    (sqlite3.OperationalError, es.OperationalError),
    (sqlite3.IntegrityError, es.IntegrityError),
    (sqlite3.InternalError, es.InternalError),
    (sqlite3.ProgrammingError, es.ProgrammingError),
    (sqlite3.NotSupportedError, es.NotSupportedError),
    (sqlite3.DatabaseError, es.DatabaseError),
    (sqlite3.Error, es.PersistenceError),
)


class OneStatementRecorder(SQLiteApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._statements: dict[int, str] = {}
        self._writer: SQLiteConnection | None = None

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        rows = len(stored_events)
        if not 0 < rows <= MAX_ROWS:
            ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return ids
        parameters: list[Any] = []
        for event in stored_events:
            originator_id = event.originator_id
            parameters += (
                originator_id.hex if isinstance(originator_id, UUID) else originator_id,
                event.originator_version,
                event.topic,
                event.state,
            )
        statement = self._statement(rows)
        pool = self.datastore.pool
        # The pool's own lock for its one writer at a time: this process's
        # writes stay one after another, whichever connection makes them.
        writer_lock: threading.Lock | None = getattr(pool, "_writer_lock", None)
        if writer_lock is None or pool.is_sqlite_memory_mode:
            with self.datastore.get_connection(commit=True) as connection:
                last = _insert(connection.cursor(), statement, parameters)
        else:
            if not writer_lock.acquire(timeout=pool.pool_timeout):
                raise es.ConnectionUnavailableError("Timed out waiting for return of writer")
            try:
                last = _insert(self._writer_connection().cursor(), statement, parameters)
            except (es.IntegrityError, es.DataError):
                raise  # refused, not broken: the statement left nothing behind
            except BaseException:
                self._drop_writer()  # whatever broke, the next write starts afresh
                raise
            finally:
                writer_lock.release()
        return list(range(last - rows + 1, last + 1))

    def _writer_connection(self) -> SQLiteConnection:
        """The connection kept for writing (the caller holds the writer lock).
        The pool hands its connections out in turn, and each found its page
        cache stale, since another had written since: one kept connection
        keeps its cache, and the pool's bookkeeping is not paid per write.
        The pool makes it as it makes all of its own (WAL, lock timeout).
        It is never renewed: the library's SQLite settings give connections
        no maximum age (eventsourcing 9.5, which pyproject.toml pins)."""
        if self._writer is None:
            self._writer = self.datastore.pool._create_connection()
        return self._writer

    def close_writer(self) -> None:
        """Close the connection kept for writing (the store is closing)."""
        pool = self.datastore.pool
        writer_lock: threading.Lock | None = getattr(pool, "_writer_lock", None)
        with writer_lock or contextlib.nullcontext():
            self._drop_writer()

    def _drop_writer(self) -> None:
        """Close the kept connection (the caller holds the writer lock)."""
        writer, self._writer = self._writer, None
        if writer is not None:
            with contextlib.suppress(sqlite3.Error):
                writer.close()

    def _statement(self, rows: int) -> str:
        """The insert of ``rows`` events (made once for each count)."""
        statement = self._statements.get(rows)
        if statement is None:
            values = ", ".join(["(?, ?, ?, ?)"] * rows)
            statement = (
                f"INSERT INTO {self.events_table_name} "
                f"(originator_id, originator_version, topic, state) VALUES {values}"
            )
            self._statements[rows] = statement
        return statement


def _insert(cursor: Any, statement: str, parameters: list[Any]) -> int:
    """Run the insert; the last row's id. A driver's error becomes the library's."""
    try:
        cursor.execute(statement, parameters)
    except sqlite3.Error as error:
        ours = library_error(error, _LIBRARY_ERRORS)
        if ours is None:
            raise
        raise ours from error
    last = cursor.lastrowid
    assert last is not None
    return int(last)
