"""PostgreSQL as gamelog connects to it: eventsourcing's factory, its pool
given the libpq settings the library has no setting of its own for.

eventsourcing builds its connection pool from five settings (database, host,
port, user, password). A cluster of several nodes needs more of libpq: which
of the hosts to keep (``target_session_attrs=read-write``: the one that takes
writes, so after a failover the new primary), how long to try each
(``connect_timeout``), how soon a connection to a vanished machine counts as
dead (``keepalives_*``, ``tcp_user_timeout``), TLS (``sslmode``...). They
travel as one conninfo string in ``POSTGRES_CONNECT_OPTIONS``, and every
connection of the process takes them: the pool's, the kept writer's
(``pg_recorder``), the listener's (``notifications``).

``PERSISTENCE_MODULE=gamelog.service.storage.postgres`` chooses this factory;
``postgres_settings`` makes the whole environment from a DSN. The factory
also hands ``POSTGRES_WRITE_RETRY_SECONDS`` (from the environment: an
operator's, or a test's) to the recorder: how long a write looks for a
primary through a failover.

    >>> settings = postgres_settings(
    ...     "host=a,b,c port=5432,5433,5434 user=gl dbname=games target_session_attrs=read-write"
    ... )
    >>> settings["POSTGRES_HOST"], settings["POSTGRES_PORT"]
    ('a,b,c', '5432,5433,5434')
    >>> conninfo_to_dict(settings["POSTGRES_CONNECT_OPTIONS"])["target_session_attrs"]
    'read-write'
"""

from __future__ import annotations

from typing import Any

from eventsourcing import postgres as eventsourcing_postgres
from eventsourcing.persistence import ApplicationRecorder
from eventsourcing.utils import Environment, EnvType
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from gamelog.service.storage.pg_recorder import TOPIC as PG_RECORDER_TOPIC
from gamelog.service.storage.pg_recorder import BinaryParamsRecorder

TOPIC = "gamelog.service.storage.postgres"
CONNECT_OPTIONS = "POSTGRES_CONNECT_OPTIONS"
"""The setting: a conninfo string of libpq parameters for every connection."""
WRITE_RETRY = "POSTGRES_WRITE_RETRY_SECONDS"
"""The setting: how long a write keeps looking for a primary (``pg_recorder``)."""
_OWN_SETTINGS = ("dbname", "host", "port", "user", "password")
"""What eventsourcing's own settings carry (POSTGRES_DBNAME ...)."""
CONNECTION_DEFAULTS = {
    # A primary's machine that vanishes sends no reset: without these, a
    # connection to it waits for the kernel's retransmissions (about 15
    # minutes) before it fails and the pool looks for the new primary.
    "keepalives": "1",
    "keepalives_idle": "5",
    "keepalives_interval": "2",
    "keepalives_count": "3",
    "tcp_user_timeout": "10000",
    # Each host of a multi-host DSN gets this long to answer (libpq's default
    # is to wait as long as the kernel does).
    "connect_timeout": "5",
}
"""libpq settings a DSN gets unless it names them itself."""
POOL_RECONNECT_SECONDS = 2.0
"""How long the pool tries to replace a lost connection before it gives the
place up (psycopg_pool's default: 5 minutes, its attempts ever further apart:
1, 2, 4, 8... s). A place given up is filled again at once by the next caller
who waits for a connection, or when the store comes back
(``health``): so after a failover the pool finds the new primary within
about a second, not at its next attempt several seconds later."""


def postgres_settings(dsn: str) -> dict[str, str]:
    """gamelog's store settings from a DSN such as
    ``postgresql://user@127.0.0.1:5432/gamelog`` or ``host=a,b,c port=p,q,r
    dbname=gamelog target_session_attrs=read-write``: eventsourcing's own,
    and every other libpq parameter in ``POSTGRES_CONNECT_OPTIONS``."""
    parts: dict[str, Any] = conninfo_to_dict(dsn)
    options = {**CONNECTION_DEFAULTS}
    options.update({k: str(v) for k, v in parts.items() if k not in _OWN_SETTINGS})
    return {
        "PERSISTENCE_MODULE": TOPIC,
        "POSTGRES_DBNAME": str(parts.get("dbname", "postgres")),
        "POSTGRES_HOST": str(parts.get("host", "127.0.0.1")),
        "POSTGRES_PORT": str(parts.get("port", "5432")),
        "POSTGRES_USER": str(parts.get("user", "postgres")),
        "POSTGRES_PASSWORD": str(parts.get("password", "")),
        CONNECT_OPTIONS: make_conninfo("", **options),
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


class PostgresFactory(eventsourcing_postgres.PostgresFactory):
    """eventsourcing's PostgreSQL factory; its pool connects with
    ``POSTGRES_CONNECT_OPTIONS`` too."""

    def __init__(self, env: Environment | EnvType | None):
        super().__init__(env)
        pool = self.datastore.pool
        options = conninfo_to_dict(self.env.get(CONNECT_OPTIONS) or "")
        # The pool opens on first use, after this: every connection has them.
        assert isinstance(pool.kwargs, dict)
        pool.kwargs.update(options)
        pool.reconnect_timeout = POOL_RECONNECT_SECONDS

    def application_recorder(self) -> ApplicationRecorder:
        recorder = super().application_recorder()
        retry = self.env.get(WRITE_RETRY)
        if retry and isinstance(recorder, BinaryParamsRecorder):
            recorder.write_retry_seconds = float(retry)
        return recorder
