"""The store's failures as the service's refusals, told the same way by every caller.

A store fails in two ways that a caller must hear of in the service's own
words (``model.refusals``), never as a driver's exception:

- **a write it refuses** (``refusal_of``): a lost race for a position is a
  conflict to reload and retry; a commit in doubt is to be retried with the
  same request id; a full disk stores nothing; a store that is away is
  unavailable.
- **a game it cannot read** (``unreadable_game``): a damaged stored record is
  ``DATA_LOSS`` for that game only, with a log line saying where.

>>> from eventsourcing.persistence import IntegrityError, OperationalError
>>> refusal_of(IntegrityError("duplicate key")).code
'position-taken'
>>> refusal_of(OperationalError("database or disk is full")).code
'storage-full'
"""

from __future__ import annotations

import logging
from uuid import UUID

from eventsourcing.persistence import IntegrityError, OperationalError, PersistenceError

from gamelog.service.model.refusals import (
    Conflict,
    DataLoss,
    GamelogError,
    StorageFull,
    Unavailable,
)
from gamelog.service.storage.recorder_errors import CommitInDoubt

log = logging.getLogger(__name__)


def refusal_of(error: PersistenceError) -> GamelogError:
    """A store's refusal of a write, as the caller is told it."""
    if isinstance(error, IntegrityError):
        return Conflict(
            "position-taken", "another move was stored at this position first; reload and retry"
        )
    log.error("the store refused a write: %r", error)
    if isinstance(error, CommitInDoubt):
        return Unavailable(
            "commit-in-doubt",
            "the store went away while this was being committed, so it may or may not "
            "be stored; retry it with the same request id: it is stored once",
            {"retry": "same-request-id"},
        )
    if isinstance(error, OperationalError) and "full" in str(error).lower():
        return StorageFull("storage-full", "the store has no room left; nothing was stored")
    return Unavailable(
        "storage-unavailable", "the store cannot be written just now; nothing was stored"
    )


def unreadable_game(game_id: UUID, position: int | None, error: BaseException) -> DataLoss:
    """The refusal for a stored game that cannot be read (and a log line)."""
    log.error("stored game %s is unreadable at %s: %r", game_id, position, error)
    where = f"position {position}" if position is not None else "an unknown position"
    return DataLoss(
        "unreadable-game",
        f"game {game_id} cannot be read from the store at {where}; "
        "its stored record is damaged (other games are not affected)",
    )
