"""PostgreSQL: eventsourcing's application recorder, sending the insert
function's events as binary parameters.

The library stores a transaction's events with one call of its insert
function (``POSTGRES_ENABLE_DB_FUNCTIONS``), passing them as an array of a
composite type. In text format psycopg escapes every field of every event
with regular expressions, each event's state (bytea) written out as hex
first: a tenth of a move's CPU on PostgreSQL. In binary format the same
array goes as it is. The statement, the function, the transaction and its
synchronous commit are the library's, unchanged; this recorder is chosen
through eventsourcing's own setting, ``APPLICATION_RECORDER_TOPIC``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import retry
from psycopg.sql import SQL, Identifier

TOPIC = "gamelog.service.pg_recorder:BinaryParamsRecorder"


class BinaryParamsRecorder(PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The library's statement, its one parameter in binary format (%b).
        self.sql_insert_events_binary = SQL("SELECT * FROM {schema}.{insert_events}((%b))").format(
            schema=Identifier(self.datastore.schema),
            insert_events=Identifier(self.pg_function_name_insert_events),
        )

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        if not self.datastore.enable_db_functions:
            ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return ids
        pg_stored_events = [
            self.construct_pg_stored_event(
                originator_id=e.originator_id,
                originator_version=e.originator_version,
                topic=e.topic,
                state=e.state,
            )
            for e in stored_events
        ]
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.sql_insert_events_binary, (pg_stored_events,), prepare=True)
            return [int(r[self.pg_function_name_insert_events]) for r in curs.fetchall()]
