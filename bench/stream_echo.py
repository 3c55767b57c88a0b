"""grpcio's own streaming echo: the least a gRPC Python server can do per
message of a bidirectional stream.

Case a's peer rows (``bench.peers``) run it beside the play stream: a
server that answers each message of a ``stream -> stream`` call with the
same bytes, on ``grpc.aio`` as ``gamelog serve`` is, with no proto and no
application (the bytes pass through unparsed). Its server CPU per message is
the floor under any stream message a gamelog server answers, so
``1000 ms / that CPU`` is the ceiling that gRPC Python's per-message cost
sets for one server process.

    python -m bench.stream_echo        # prints "serving on 127.0.0.1:PORT"

The client side (one stream, ping-pong) is ``EchoStream``, run by the bench
client processes (``bench.stream_load``). A message's first byte says how
many times it is answered.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from typing import Any

METHOD = "/bench.StreamEcho/Echo"


async def _echo(requests: AsyncIterator[bytes], context: Any) -> AsyncIterator[bytes]:
    """Each message answered with itself, as many times as its first byte
    says (1: an echo; 2: a stream move's shape, one request and two
    messages back: the ack carrying the record, and the record on the
    other seat's stream)."""
    async for message in requests:
        for _ in range(message[0] if message else 1):
            yield message


async def serve() -> None:
    import grpc

    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    handler = grpc.method_handlers_generic_handler(
        "bench.StreamEcho", {"Echo": grpc.stream_stream_rpc_method_handler(_echo)}
    )
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(f"serving on 127.0.0.1:{port}", flush=True)
    await server.wait_for_termination()


if __name__ == "__main__":
    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        sys.exit(0)
