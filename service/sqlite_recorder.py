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

A save of more than ``MAX_ROWS`` events (a long game imported) takes the
library's path: SQLite builds older than 3.32 allow 999 parameters, four a
row. The recorder is chosen through eventsourcing's own setting,
``APPLICATION_RECORDER_TOPIC``; ``GameStore`` sets it for SQLite unless the
environment names another.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing import persistence as es
from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder

from gamelog.service.recorder_errors import ErrorTable, library_error

TOPIC = "gamelog.service.sqlite_recorder:OneStatementRecorder"
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
        with self.datastore.get_connection(commit=True) as connection:
            cursor = connection.cursor()
            try:
                cursor.execute(self._statement(rows), parameters)
            except sqlite3.Error as error:
                ours = library_error(error, _LIBRARY_ERRORS)
                if ours is None:
                    raise
                raise ours from error
            last = cursor.lastrowid
        assert last is not None
        return list(range(last - rows + 1, last + 1))

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
