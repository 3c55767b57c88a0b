"""The server's clock: when a record is stored.

A record's time is part of what its hash covers, so a time, once stored,
cannot be edited; clocks (``replay.clock``) and the audit read it back.
``now`` is the one place the service reads the wall clock, and the one
place tests replace it.

>>> record_time().endswith("Z") and len(record_time()) == len("2026-12-03T20:08:31.123Z")
True
"""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    """The server's clock, in UTC."""
    return datetime.now(UTC)


def record_time() -> str:
    """When a record is stored, by the server's clock: ISO 8601 UTC with
    milliseconds."""
    return now().isoformat(timespec="milliseconds").replace("+00:00", "Z")
