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

A writer connection that fails is closed (the next write opens another);
one whose insert was only refused (a position already taken) stays. The
writer is opened as the pool opens its connections, with the same settings
(on a cluster, ``target_session_attrs``: the primary), but by the recorder
itself, so that a write looks for the new primary on its own schedule, not
the pool's (which backs off to seconds between attempts).

**Through a failover** (docs/operations.md). A write whose connection fails
is tried again, every ``RETRY_PAUSE_SECONDS``, for up to
``WRITE_RETRY_SECONDS`` (15 s): about as long as Patroni takes to promote a
standby after the primary's machine is lost, so a move caught in a failover is
committed on the new primary rather than refused. A connection that failed
after the insert was sent leaves its commit **in doubt**: the primary may
have committed it (and its synchronous standby, now the primary, have it) or
not. The retry settles that: if it finds its own keys taken, it reads back
what is stored there, and events identical to its own, byte for byte, are
its own earlier commit (every event holds its time and hash, so no other
write stores the same bytes): the write succeeded. Anything else stored there
is another writer's, and the retry is refused as a conflict. A write that
could not reach a primary in time fails with ``CommitInDoubt`` if an attempt
may have committed (the caller is told to retry with the same request id,
which is stored once), else with the library's ``OperationalError`` (nothing
was stored). Errors are the library's own, so the application's handling of
a conflict holds for them.

The recorder is chosen through eventsourcing's own setting,
``APPLICATION_RECORDER_TOPIC``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing import persistence as es
from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg.sql import SQL, Identifier
from psycopg.types.composite import register_composite

from gamelog.service.storage.recorder_errors import CommitInDoubt, ErrorTable, library_error

log = logging.getLogger(__name__)
TOPIC = "gamelog.service.storage.pg_recorder:BinaryParamsRecorder"
WRITE_RETRY_SECONDS = 15.0
"""How long a write keeps trying to reach a primary, unless the setting
``POSTGRES_WRITE_RETRY_SECONDS`` says otherwise: Patroni's promotion after a
lost primary node (a lapsed leader key, ttl 10 s, and the promotion itself:
deploy/patroni/patroni.yml)."""
RETRY_PAUSE_SECONDS = 0.2

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
        self.write_retry_seconds = WRITE_RETRY_SECONDS

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        if not self.datastore.enable_db_functions:
            ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return ids
        inserted: list[int] = self._insert_through_function(stored_events)
        return inserted

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
        attempts = _Attempts(time.monotonic() + self.write_retry_seconds)
        while True:
            try:
                try:
                    return self._insert_once(pg_stored_events, attempts)
                except IntegrityError:
                    if not attempts.in_doubt:
                        raise
                    # The read may fail too: then the write is tried again.
                    ids = self._ids_if_stored(stored_events)
                    if ids is None:
                        raise
                    log.info("a commit in doubt was found stored: %s events", len(ids))
                    return ids  # an earlier attempt committed
            except (InterfaceError, OperationalError) as error:
                attempts.failed()
                if time.monotonic() + RETRY_PAUSE_SECONDS > attempts.deadline:
                    if attempts.in_doubt:
                        raise CommitInDoubt(str(error)) from error
                    raise
                time.sleep(RETRY_PAUSE_SECONDS)

    def _insert_once(self, pg_stored_events: list[Any], attempts: _Attempts) -> list[int]:
        if self._writer_lock.acquire(blocking=False):
            try:
                with self._writing() as curs:
                    return self._insert(curs, pg_stored_events, attempts)
            finally:
                self._writer_lock.release()
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            return self._insert(curs, pg_stored_events, attempts)

    def _insert(
        self, curs: psycopg.Cursor[Any], pg_stored_events: list[Any], attempts: _Attempts
    ) -> list[int]:
        attempts.sent = True  # a connection lost from here on leaves the commit in doubt
        curs.execute(self._insert_statement, (pg_stored_events,), prepare=True)
        return [int(row[self.pg_function_name_insert_events]) for row in curs.fetchall()]

    def _ids_if_stored(self, stored_events: Sequence[StoredEvent]) -> list[int] | None:
        """The notification ids of ``stored_events`` if the store holds
        exactly these events at their keys, else None."""
        statement = SQL(
            "SELECT originator_id, originator_version, topic, state, notification_id "
            "FROM {schema}.{table} "
            "WHERE (originator_id, originator_version) IN "
            "(SELECT * FROM unnest(%s::{id_type}[], %s::bigint[]))"
        ).format(
            schema=Identifier(self.datastore.schema),
            table=Identifier(self.events_table_name),
            id_type=SQL(self.datastore.originator_id_type),
        )
        ids = [e.originator_id for e in stored_events]
        versions = [e.originator_version for e in stored_events]
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement, (ids, versions))
            rows = {(r["originator_id"], r["originator_version"]): r for r in curs.fetchall()}
        found = []
        for event in stored_events:
            row = rows.get((event.originator_id, event.originator_version))
            if row is None or row["topic"] != event.topic or bytes(row["state"]) != event.state:
                return None
            found.append(int(row["notification_id"]))
        return found

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
        """A connection made as the pool makes its own (its settings, its
        set-up, the composite types' adapters), but not taken from it."""
        datastore = self.datastore
        kwargs = datastore.pool.kwargs
        assert isinstance(kwargs, dict)
        conn: psycopg.Connection[Any] = psycopg.Connection.connect(**kwargs)
        try:
            datastore.after_connect_func()(conn)
            for info in datastore.psycopg_type_adapters.values():
                register_composite(info, conn)
        except BaseException:
            conn.close()
            raise
        self._writer = conn
        return conn

    def _drop_writer(self) -> None:
        conn, self._writer, self._writer_cursor = self._writer, None, None
        self._writer_since = 0.0
        if conn is not None:
            conn.close()

    def close_writer(self) -> None:
        """Close the writer connection (before the store closes)."""
        with self._writer_lock:
            self._drop_writer()

    @property
    def writer_backend_pid(self) -> int | None:
        """The server process behind the writer connection (for tests)."""
        conn = self._writer
        return None if conn is None else conn.info.backend_pid


class _Attempts:
    """One write's attempts: until when it may try, and whether one of them
    may have committed (it failed after its insert was sent)."""

    __slots__ = ("deadline", "in_doubt", "sent")

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.sent = False
        self.in_doubt = False

    def failed(self) -> None:
        """The attempt lost its connection (before or after sending)."""
        self.in_doubt = self.in_doubt or self.sent
        self.sent = False
