"""Refusals as gRPC statuses, in one place.

A use case refuses with a ``GamelogError`` (``model.refusals``) whose
``status`` names a gRPC code and whose ``code`` is the machine-readable
reason. Here it becomes the call's status: that code, the refusal's message,
and a ``google.rpc.ErrorInfo`` detail (domain ``gamelog``) with the reason
and the refusal's metadata (how to go on: the position on
``stale-position``, who is to act on ``not-your-turn``). Anything else that
escapes a call is a bug: it is logged and answered INTERNAL, and nothing was
stored.

``handlers.serve`` applies this to every method of a servicer as it is
registered (nothing is mapped by hand).

>>> from gamelog.service.model.refusals import Conflict
>>> status = status_for(Conflict("stale-position", "the game is at 3", {"position": "3"}))
>>> status.code.name, status.details
('ABORTED', 'the game is at 3')
"""

from __future__ import annotations

import logging

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from gamelog.service.model.refusals import GamelogError, InvalidArgument

log = logging.getLogger(__name__)

# GamelogError.status names a google.rpc code; anything else is INTERNAL.
_CODES = {
    name: getattr(code_pb2, name)
    for name in (
        "INVALID_ARGUMENT",
        "FAILED_PRECONDITION",
        "ABORTED",
        "PERMISSION_DENIED",
        "UNAUTHENTICATED",
        "NOT_FOUND",
        "RESOURCE_EXHAUSTED",
        "DATA_LOSS",
        "OUT_OF_RANGE",
        "UNAVAILABLE",
    )
}


MAX_MESSAGE_BYTES = 1024
"""A refusal's message, in UTF-8 bytes. The status travels in the call's
trailing metadata twice (``grpc-message``, percent-encoded, and inside
``grpc-status-details-bin``), and gRPC refuses metadata past 16 KiB: a
message quoting a client's huge input whole would turn the refusal into
RESOURCE_EXHAUSTED "Stream removed"."""
MAX_METADATA_BYTES = 1024
"""All of a refusal's ``ErrorInfo.metadata`` values together, in UTF-8 bytes."""


def status_for(error: GamelogError) -> grpc.Status:
    """The status a refusal ends its call with; its message and metadata
    bounded, its reason whole (a client's code reads the reason).

    >>> from gamelog.service.model.refusals import InvalidArgument
    >>> long = status_for(InvalidArgument("bad-game-id", "x" * 100_000))
    >>> len(long.details.encode()) <= MAX_MESSAGE_BYTES
    True
    """
    detail = any_pb2.Any()
    detail.Pack(error_info(error))
    return rpc_status.to_status(
        status_pb2.Status(code=code_of(error), message=message_of(error), details=[detail])
    )


def code_of(error: GamelogError) -> int:
    """The ``google.rpc`` code a refusal is answered with."""
    code: int = _CODES.get(error.status, code_pb2.INTERNAL)
    return code


def code_name(error: GamelogError) -> str:
    """The code's name, as a status shows it (``"ABORTED"``)."""
    return str(code_pb2.Code.Name(code_of(error)))  # type: ignore[arg-type]


def message_of(error: GamelogError) -> str:
    """The refusal's message, bounded."""
    return _bounded(error.message, MAX_MESSAGE_BYTES)


def error_info(error: GamelogError) -> error_details_pb2.ErrorInfo:
    """The ``ErrorInfo`` a refusal carries: its reason whole (a client's code
    reads it), its metadata bounded."""
    metadata = _bounded_metadata(getattr(error, "metadata", None) or {})
    return error_details_pb2.ErrorInfo(reason=error.code[:128], domain="gamelog", metadata=metadata)


def _bounded(text: str, most: int) -> str:
    """``text``, cut to at most ``most`` UTF-8 bytes, with a mark where it was cut."""
    if len(text.encode("utf-8", "surrogatepass")) <= most:
        return text
    kept = text.encode("utf-8", "surrogatepass")[: most - 40].decode("utf-8", "ignore")
    return f"{kept}… (cut from {len(text)} characters)"


def _bounded_metadata(metadata: dict[str, str]) -> dict[str, str]:
    """Each value bounded so that all of them fit in ``MAX_METADATA_BYTES``."""
    if not metadata:
        return {}
    each = max(64, MAX_METADATA_BYTES // len(metadata))
    return {key[:64]: _bounded(str(value), each) for key, value in list(metadata.items())[:16]}


def refusal(error: Exception, call: str) -> GamelogError:
    """What the client is told of ``error``, raised while serving ``call``."""
    if isinstance(error, RecursionError):
        return InvalidArgument("too-deep", "input nests too deep")
    if not isinstance(error, GamelogError):
        log.error("internal error in %s", call, exc_info=error)
        return GamelogError("internal", "internal error; nothing was stored")
    return error
