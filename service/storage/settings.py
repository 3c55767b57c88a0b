"""How the event store is set up: which database, and the store's tuning.

``store_env`` turns the CLI's choice (a SQLite file, a PostgreSQL DSN, memory)
into eventsourcing's own persistence settings, which ``GameStore`` reads as
any eventsourcing application does. The constants below are the store's
tuning, each with the reason for its value (the measurements are in
bench/README.md).

>>> store_env(memory=True)
{'PERSISTENCE_MODULE': 'eventsourcing.popo'}
>>> store_env(db="club.sqlite")["PERSISTENCE_MODULE"]
'eventsourcing.sqlite'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

SNAPSHOT_INTERVAL = 64
"""A game is snapshotted every this many stored events, so that a state at
any position folds fewer than this many records (bench case c)."""

AGGREGATE_CACHE_SIZE = 2000
"""Games and tournaments kept in memory: those being played are loaded once."""

CREDENTIALS_CACHE_SIZE = 100_000
"""Games whose token hashes are kept in memory (they never change once issued)."""

GATHER_SECONDS = 0.001
"""How long a commit may wait for the next move of games saved moments ago
(``GroupCommit``): the pause after which it stops waiting for them. Under
load a move waits several milliseconds for the cores anyway; one more lets
a commit carry the next moves too."""

GATHER_LIMIT_SECONDS = 0.004
"""The longest a commit gathers while those moves keep coming one by one."""

GATHER_RECENT_SECONDS = 0.02
"""A game saved within this long is one whose next move a commit waits for."""


def store_env(
    db: str | None = None, postgres: str | None = None, memory: bool = False
) -> dict[str, str]:
    """eventsourcing's persistence settings for the chosen store.

    With nothing chosen, the PERSISTENCE_MODULE and related variables already in
    the environment win (eventsourcing's own configuration); otherwise SQLite.
    """
    if memory:
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if postgres:
        return postgres_env(postgres)
    if db is None and os.environ.get("PERSISTENCE_MODULE"):
        return {}
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(Path(db or "gamelog.sqlite").resolve()),
        "SQLITE_LOCK_TIMEOUT": "30",
    }


def postgres_env(dsn: str) -> dict[str, str]:
    """Settings from a DSN such as ``postgresql://user@127.0.0.1:5432/gamelog``
    or ``host=127.0.0.1 dbname=gamelog user=postgres``."""
    # Imported here: only a PostgreSQL store needs psycopg.
    from psycopg.conninfo import conninfo_to_dict

    from gamelog.service.storage.pg_recorder import TOPIC as PG_RECORDER_TOPIC

    parts: dict[str, Any] = conninfo_to_dict(dsn)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": str(parts.get("dbname", "postgres")),
        "POSTGRES_HOST": str(parts.get("host", "127.0.0.1")),
        "POSTGRES_PORT": str(parts.get("port", "5432")),
        "POSTGRES_USER": str(parts.get("user", "postgres")),
        "POSTGRES_PASSWORD": str(parts.get("password", "")),
        "POSTGRES_POOL_SIZE": "8",
        "POSTGRES_MAX_OVERFLOW": "8",
        "POSTGRES_LOCK_TIMEOUT": "5",
        "POSTGRES_CONNECT_TIMEOUT": "10",
        # One round trip per transaction (eventsourcing's insert function)
        # instead of a pipeline that also takes LOCK TABLE ... IN EXCLUSIVE
        # MODE: that lock keeps the notification log gap-free for followers
        # of the log, which gamelog does not have (docs/service-decisions.md).
        "POSTGRES_ENABLE_DB_FUNCTIONS": "y",
        # The same insert function, its events sent as binary parameters.
        "APPLICATION_RECORDER_TOPIC": PG_RECORDER_TOPIC,
    }
