"""The service's refusals, each with a machine-readable reason.

The gRPC adapter maps each class to one status code (see docs/design.md):
a refused call writes nothing.
"""

from __future__ import annotations

from gamelog.games.protocol import Refusal

UNREADABLE = (KeyError, TypeError, ValueError, AttributeError, IndexError)
"""What rules raise when they choke on malformed input instead of refusing it:
still a refusal for the caller (and a bug report for us)."""


class GamelogError(Refusal):
    """A refusal by the service; ``status`` is the gRPC status it maps to.

    ``metadata`` is what a client needs to go on without parsing the message
    (the current position on ``stale-position``, who is to act on
    ``not-your-turn``); it travels in ``google.rpc.ErrorInfo.metadata``."""

    status = "UNKNOWN"

    def __init__(self, code: str, message: str, metadata: dict[str, str] | None = None) -> None:
        super().__init__(code, message)
        self.metadata = dict(metadata or {})


class InvalidArgument(GamelogError):
    """Malformed input: bad JSON, unknown options, a negative position."""

    status = "INVALID_ARGUMENT"


class Refused(GamelogError):
    """Well-formed, but the rules or the game's situation do not allow it."""

    status = "FAILED_PRECONDITION"


class Conflict(GamelogError):
    """Played at a stale position: someone else moved first."""

    status = "ABORTED"


class PermissionDenied(GamelogError):
    """A valid token, but not one that may do this."""

    status = "PERMISSION_DENIED"


class Unauthenticated(GamelogError):
    """No token, or one that belongs to no seat of this game."""

    status = "UNAUTHENTICATED"


class NotFound(GamelogError):
    status = "NOT_FOUND"


class DataLoss(GamelogError):
    """A stored game cannot be read (corrupted or malformed in the store).
    Only calls about that game fail; listings and exports skip it."""

    status = "DATA_LOSS"


class StorageFull(GamelogError):
    """The store has no room left: nothing was stored."""

    status = "RESOURCE_EXHAUSTED"


class Unavailable(GamelogError):
    """The store cannot be reached just now; retry later. Nothing was stored,
    unless the reason is ``commit-in-doubt``: then it may have been, and a
    retry with the same request id is stored once."""

    status = "UNAVAILABLE"
