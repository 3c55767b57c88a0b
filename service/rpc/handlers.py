"""How each method of a servicer is served: its request decoded, its refusal answered.

``serve(server, servicer, service)`` registers every method the contract
(``service``, the proto's service descriptor) names, in the shape the
contract gives it, instead of the generated ``add_..._to_server``:

- **the request is decoded here**: bytes that are no such message (garbage,
  a field of the wrong wire type) are a malformed request,
  ``INVALID_ARGUMENT``, not an internal error;
- **a refusal becomes the call's status** (``status.status_for``), whatever
  the method: a plain call (run in the server's thread pool), a coroutine
  (on the event loop), or a stream written with ``context.write`` (in
  answer to one request, or to a stream of them: ``Play``).

So no method maps a refusal by hand, and a new method gets both by being in
the contract.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from google.protobuf.message import DecodeError, Message
from google.protobuf.message_factory import GetMessageClass

from gamelog.service.model.refusals import InvalidArgument
from gamelog.service.rpc.status import refusal, status_for

MAX_STREAM_MESSAGE_BYTES = 256 * 1024
"""One message of a client's stream: a move and its fields with room to
spare (a single call's request may be a whole record file)."""
ABORT_WAIT_SECONDS = 5.0
"""How long a stream's final status may wait for a client that stopped reading."""


def serve(server: grpc.aio.Server, servicer: object, service: ServiceDescriptor) -> None:
    """Register every method of ``service`` that ``servicer`` implements."""
    handlers = {
        method.name: _handler(getattr(servicer, method.name), method) for method in service.methods
    }
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(service.full_name, handlers),)
    )
    # Registered by name too, as the generated code does (grpc finds them faster).
    server.add_registered_method_handlers(service.full_name, handlers)  # type: ignore[attr-defined]


def _handler(
    behaviour: Callable[..., Any], method: MethodDescriptor
) -> grpc.RpcMethodHandler[Any, Any]:
    request_class = GetMessageClass(method.input_type)
    response_class = GetMessageClass(method.output_type)
    most = MAX_STREAM_MESSAGE_BYTES if method.client_streaming else None
    decode = _decoder(request_class, most)
    encode = response_class.SerializeToString
    if method.client_streaming and method.server_streaming:
        # Each message decoded as it comes: an undecodable one reaches the
        # method as an ``Undecodable`` (its ``refusal``), for the method to
        # refuse on its own without ending the stream.
        return grpc.stream_stream_rpc_method_handler(
            _streaming(behaviour, method.name), decode, encode
        )
    if method.client_streaming:
        raise TypeError(f"{method.name}: a client stream with one answer is not served")
    if method.server_streaming:
        return grpc.unary_stream_rpc_method_handler(
            _streaming(behaviour, method.name), decode, encode
        )
    wrap = _coroutine if inspect.iscoroutinefunction(behaviour) else _plain
    return grpc.unary_unary_rpc_method_handler(wrap(behaviour, method.name), decode, encode)


class Undecodable:
    """A request whose bytes are no message of its type."""

    def __init__(self, type_name: str, error: DecodeError) -> None:
        self.refusal = InvalidArgument(
            "bad-request", f"the request is no {type_name}: {str(error)[:200]}"
        )


def _decoder(request_class: type[Message], most: int | None = None) -> Callable[[bytes], Any]:
    type_name = request_class.DESCRIPTOR.full_name

    def decode(data: bytes) -> Any:
        if most is not None and len(data) > most:
            return Undecodable(
                type_name, DecodeError(f"{len(data)} bytes; one message is at most {most}")
            )
        try:
            return request_class.FromString(data)
        except DecodeError as error:
            # Answered by the call itself: a deserializer that raises makes
            # grpc answer UNKNOWN, which tells a client nothing.
            return Undecodable(type_name, error)

    return decode


def _checked(request: Any) -> Any:
    if isinstance(request, Undecodable):
        raise request.refusal
    return request


def _plain(call: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A synchronous call (``grpc.aio`` runs it in its thread pool)."""

    def answering(request: Any, context: grpc.ServicerContext) -> Any:
        try:
            return call(_checked(request), context)
        except Exception as error:
            status = status_for(refusal(error, name))
            # The context grpc.aio gives a synchronous handler has no
            # ``abort_with_status``, and its ``abort`` returns instead of
            # raising: the call then ends with the status set here.
            context.set_trailing_metadata(status.trailing_metadata)
            context.abort(status.code, status.details)

    return answering


def _coroutine(call: Callable[..., Any], name: str) -> Callable[..., Any]:
    async def answering(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        try:
            return await call(_checked(request), context)
        except grpc.aio.BaseError:
            raise  # the call already ended (aborted, or the client went away)
        except Exception as error:
            status = status_for(refusal(error, name))
            await context.abort(status.code, status.details, status.trailing_metadata)

    return answering


def _streaming(call: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A stream written with ``context.write``: the status goes out after the
    messages already written; if the client is not reading them, it waits in
    the transport until the client does (or goes away), and the stream's task
    ends now all the same."""

    async def answering(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        try:
            await call(_checked(request), context)
        except grpc.aio.BaseError:
            raise  # the transport's own (the client went away): it ends the call
        except Exception as error:
            status = status_for(refusal(error, name))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    context.abort(status.code, status.details, status.trailing_metadata),
                    ABORT_WAIT_SECONDS,
                )

    return answering
