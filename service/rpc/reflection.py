"""Server reflection for stock gRPC tools: both protocol versions, methods findable.

``grpcurl``, Postman and other clients learn the API from the server itself.
grpcio-reflection (1.x) serves only ``grpc.reflection.v1alpha``; current tools
ask for ``grpc.reflection.v1`` first (grpc/grpc#38576 tracks v1 for Python).
The two versions are the same protocol under two package names, so the one
servicer answers both: its handler is registered under the v1 name as well,
with the same (wire-compatible) messages.

The library also cannot find the file of a *method*: it asks the descriptor
pool for ``gamelog.v1.GameLog.PlayMove``, which the pool does not index, and
``grpcurl describe gamelog.v1.GameLog.PlayMove`` answered "Symbol not found".
Here a symbol the pool does not know is looked up once more as a method of
its enclosing service.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import grpc
from google.protobuf import descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2
from grpc_reflection.v1alpha._async import ReflectionServicer as AsyncReflectionServicer
from grpc_reflection.v1alpha.reflection import SERVICE_NAME as V1ALPHA
from grpc_reflection.v1alpha.reflection import ReflectionServicer

V1 = "grpc.reflection.v1.ServerReflection"
METHOD = "ServerReflectionInfo"


class _MethodsFound:
    """Finds a method's file through its service (overrides a hook of
    grpcio-reflection's ``BaseReflectionServicer``, whose version pyproject pins
    from below; the tests ask for a method's file through reflection)."""

    _pool: Any

    def _file_containing_symbol(self, request: Any, fully_qualified_name: str) -> Any:
        name = fully_qualified_name
        service, _, method = name.rpartition(".")
        try:
            self._pool.FindFileContainingSymbol(name)
        except KeyError:
            try:
                if method in self._pool.FindServiceByName(service).methods_by_name:
                    name = service
            except KeyError:
                pass
        return super()._file_containing_symbol(request, name)  # type: ignore[misc]


class GamelogReflection(_MethodsFound, ReflectionServicer):
    """For a synchronous server."""


class AsyncGamelogReflection(_MethodsFound, AsyncReflectionServicer):  # type: ignore[misc]
    """For a ``grpc.aio`` server."""


def enable_reflection(service_names: Iterable[str], server: Any) -> None:
    """Serve reflection under both protocol names on ``server`` (sync or aio)."""
    names = (*service_names, V1ALPHA, V1)
    pool = descriptor_pool.Default()
    servicer: Any = (
        AsyncGamelogReflection(names, pool=pool)
        if isinstance(server, grpc.aio.Server)
        else GamelogReflection(names, pool=pool)
    )
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        [grpc.method_handlers_generic_handler(name, {METHOD: handler}) for name in (V1ALPHA, V1)]
    )
