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
    or ``host=a,b,c port=p,q,r dbname=gamelog target_session_attrs=read-write``
    (a cluster: the pool keeps the node that takes writes); see
    ``storage/postgres.py``."""
    # Imported here: only a PostgreSQL store needs psycopg.
    from gamelog.service.storage.postgres import postgres_settings

    return postgres_settings(dsn)
