"""Refusals as gRPC statuses, in one place.

A use case refuses with a ``GamelogError`` (``model.refusals``) whose
``status`` names a gRPC code and whose ``code`` is the machine-readable
reason. Here it becomes the call's status: that code, the refusal's message,
and a ``google.rpc.ErrorInfo`` detail (domain ``gamelog``) with the reason
and the refusal's metadata (how to go on: the position on
``stale-position``, who is to act on ``not-your-turn``). Anything else that
escapes a call is a bug: it is logged and answered INTERNAL, and nothing was
stored.

``answering_refusals`` applies that to every method of a servicer when the
class is made, by the shape the contract gives each method (the service's
descriptor): a plain call, a coroutine, or a stream written with
``context.write``.

>>> from gamelog.service.model.refusals import Conflict
>>> status = status_for(Conflict("stale-position", "the game is at 3", {"position": "3"}))
>>> status.code.name, status.details
('ABORTED', 'the game is at 3')
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import grpc
from google.protobuf import any_pb2
from google.protobuf.descriptor import ServiceDescriptor
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from gamelog.service.model.refusals import GamelogError, InvalidArgument

log = logging.getLogger(__name__)

ABORT_WAIT_SECONDS = 5.0
"""How long a stream's final status may wait for a client that stopped reading."""

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


def status_for(error: GamelogError) -> grpc.Status:
    """The status a refusal ends its call with."""
    rpc_code = _CODES.get(error.status, code_pb2.INTERNAL)
    metadata = getattr(error, "metadata", None) or {}
    info = error_details_pb2.ErrorInfo(reason=error.code, domain="gamelog", metadata=metadata)
    detail = any_pb2.Any()
    detail.Pack(info)
    return rpc_status.to_status(
        status_pb2.Status(code=rpc_code, message=error.message, details=[detail])
    )


def refusal(error: Exception, call: str) -> GamelogError:
    """What the client is told of ``error``, raised while serving ``call``."""
    if isinstance(error, RecursionError):
        return InvalidArgument("too-deep", "input nests too deep")
    if not isinstance(error, GamelogError):
        log.error("internal error in %s", call, exc_info=error)
        return GamelogError("internal", "internal error; nothing was stored")
    return error


Servicer = TypeVar("Servicer", bound=type)


def answering_refusals(service: ServiceDescriptor) -> Callable[[Servicer], Servicer]:
    """A class decorator: every method of ``service`` that the class defines
    answers a refusal with its status."""

    def decorate(servicer: Servicer) -> Servicer:
        for method in service.methods:
            call = getattr(servicer, method.name, None)
            if call is None:
                continue
            if method.server_streaming:
                wrapped = _streaming(call)
            elif inspect.iscoroutinefunction(call):
                wrapped = _coroutine(call)
            else:
                wrapped = _plain(call)
            setattr(servicer, method.name, wrapped)
        return servicer

    return decorate


def _plain(call: Callable[..., Any]) -> Callable[..., Any]:
    """A synchronous call (``grpc.aio`` runs it in its thread pool)."""

    @functools.wraps(call)
    def answering(self: Any, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            return call(self, request, context)
        except Exception as error:
            status = status_for(refusal(error, call.__name__))
            # The context grpc.aio gives a synchronous handler has no
            # ``abort_with_status``, and its ``abort`` returns instead of
            # raising: the call then ends with the status set here.
            context.set_trailing_metadata(status.trailing_metadata)
            context.abort(status.code, status.details)

    return answering


def _coroutine(call: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(call)
    async def answering(
        self: Any, request: Any, context: grpc.aio.ServicerContext[Any, Any]
    ) -> Any:
        try:
            return await call(self, request, context)
        except grpc.aio.BaseError:
            raise  # the call already ended (aborted, or the client went away)
        except Exception as error:
            status = status_for(refusal(error, call.__name__))
            await context.abort(status.code, status.details, status.trailing_metadata)

    return answering


def _streaming(call: Callable[..., Any]) -> Callable[..., Any]:
    """A stream written with ``context.write``: the status goes out after the
    messages already written; if the client is not reading them, it waits in
    the transport until the client does (or goes away), and the stream's task
    ends now all the same."""

    @functools.wraps(call)
    async def answering(
        self: Any, request: Any, context: grpc.aio.ServicerContext[Any, Any]
    ) -> None:
        try:
            await call(self, request, context)
        except grpc.aio.BaseError:
            raise  # the transport's own (the client went away): it ends the call
        except Exception as error:
            status = status_for(refusal(error, call.__name__))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    context.abort(status.code, status.details, status.trailing_metadata),
                    ABORT_WAIT_SECONDS,
                )

    return answering
