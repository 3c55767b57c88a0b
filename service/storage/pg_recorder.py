"""PostgreSQL: eventsourcing's application recorder, writing through one
warm connection and sending the insert function's events as binary
parameters.

The library stores a transaction's events with one call of its insert
function (``POSTGRES_ENABLE_DB_FUNCTIONS``), passing them as an array of a
composite type. This recorder keeps that statement, that function, its
transaction and its synchronous commit, and changes only how the call is
made, for two measured reasons (bench/README.md, "Issue 16, part 2, fourth
round"):

- **Binary parameters.** In text format psycopg escapes every field of every
  event with regular expressions, each event's state (bytea) written out as hex
  first: a tenth of a move's CPU on PostgreSQL. In binary format the same
  array goes as it is.
- **One writer connection.** The library takes a connection from its pool
  for every transaction, and the pool hands them out in turn, so each insert
  lands on a connection (and a server process) that has been idle for the
  other seven: psycopg sets up its dumpers for a fresh cursor, and the
  server's process works from cold caches. Measured alone, an insert cost
  156 µs of this process's user CPU and 120 µs of the server's that way,
  against 70 and 73 on one connection kept for writing, with one cursor.
  Writes come almost all from the group commit's one committer, so the
  writer is nearly always free; a write that finds it busy takes a pooled
  connection, as the library does.

A writer connection that fails is given back to the pool, which closes it
if it is broken (the next write takes another); one whose insert was only
refused (a position already taken) stays. The error is the library's own,
so its retry and the application's handling of a conflict work unchanged.

The recorder is chosen through eventsourcing's own setting,
``APPLICATION_RECORDER_TOPIC``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing import persistence as es
from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier
from psycopg.types.composite import register_composite

from gamelog.service.storage.recorder_errors import ErrorTable, library_error

TOPIC = "gamelog.service.storage.pg_recorder:BinaryParamsRecorder"

# psycopg's errors and the library's own, most specific first, as the
# library's ``PostgresDatastore.get_connection`` maps them.
_LIBRARY_ERRORS: ErrorTable = (
    (psycopg.InterfaceError, es.InterfaceError),
    (psycopg.OperationalError, es.OperationalError),
    (psycopg.DataError, es.DataError),
    (psycopg.IntegrityError, es.IntegrityError),
    (psycopg.InternalError, es.InternalError),
    (psycopg.ProgrammingError, es.ProgrammingError),
    (psycopg.NotSupportedError, es.NotSupportedError),
    (psycopg.DatabaseError, es.DatabaseError),
    (psycopg.Error, es.PersistenceError),
)


class BinaryParamsRecorder(PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The library's statement, its one parameter in binary format (%b),
        # rendered once.
        self.sql_insert_events_binary = SQL("SELECT * FROM {schema}.{insert_events}((%b))").format(
            schema=Identifier(self.datastore.schema),
            insert_events=Identifier(self.pg_function_name_insert_events),
        )
        self._insert_statement = self.sql_insert_events_binary.as_bytes(None)
        self._writer_lock = threading.Lock()
        self._writer: psycopg.Connection[Any] | None = None
        self._writer_cursor: psycopg.Cursor[Any] | None = None
        self._writer_since = 0.0

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        if not self.datastore.enable_db_functions:
            ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return ids
        inserted: list[int] = self._insert_through_function(stored_events)
        return inserted

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def _insert_through_function(self, stored_events: Sequence[StoredEvent]) -> list[int]:
        pg_stored_events = [
            self.construct_pg_stored_event(
                originator_id=e.originator_id,
                originator_version=e.originator_version,
                topic=e.topic,
                state=e.state,
            )
            for e in stored_events
        ]
        if self._writer_lock.acquire(blocking=False):
            try:
                with self._writing() as curs:
                    return self._insert(curs, pg_stored_events)
            finally:
                self._writer_lock.release()
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            return self._insert(curs, pg_stored_events)

    def _insert(self, curs: psycopg.Cursor[Any], pg_stored_events: list[Any]) -> list[int]:
        curs.execute(self._insert_statement, (pg_stored_events,), prepare=True)
        return [int(row[self.pg_function_name_insert_events]) for row in curs.fetchall()]

    @contextmanager
    def _writing(self) -> Iterator[psycopg.Cursor[Any]]:
        """The writer's cursor (the caller holds the writer's lock); the
        error of a failed insert is the library's, and unless the insert was
        merely refused, the writer is given up."""
        try:
            # Renewed as often as the pool renews its own connections.
            if (
                self._writer is not None
                and time.monotonic() - self._writer_since > self.datastore.pool.max_lifetime
            ):
                self._drop_writer()
            if self._writer_cursor is None:
                self._writer_cursor = self._open_writer().cursor()
                self._writer_since = time.monotonic()
            yield self._writer_cursor
        except psycopg.Error as error:
            # A refused insert (a position taken, say) leaves the autocommit
            # connection idle and good; anything else may have broken it.
            if not isinstance(error, psycopg.IntegrityError | psycopg.DataError):
                self._drop_writer()
            ours = library_error(error, _LIBRARY_ERRORS)
            if ours is None:
                raise
            raise ours from error
        except BaseException:
            self._drop_writer()
            raise

    def _open_writer(self) -> psycopg.Connection[Any]:
        datastore = self.datastore
        datastore.pool.open(True, datastore.pool_open_timeout or 30.0)
        conn = datastore.pool.getconn()
        # As the library's get_connection does: the composite types' adapters.
        for info in datastore.psycopg_type_adapters.values():
            if not conn.adapters.types.get(info.oid):
                register_composite(info, conn)
        self._writer = conn
        return conn

    def _drop_writer(self) -> None:
        conn, self._writer, self._writer_cursor = self._writer, None, None
        self._writer_since = 0.0
        if conn is not None:
            # The pool closes a broken connection, or rolls back and keeps it.
            self.datastore.pool.putconn(conn)

    def close_writer(self) -> None:
        """Give the writer connection back to the pool (before closing it)."""
        with self._writer_lock:
            self._drop_writer()

    @property
    def writer_backend_pid(self) -> int | None:
        """The server process behind the writer connection (for tests)."""
        conn = self._writer
        return None if conn is None else conn.info.backend_pid
