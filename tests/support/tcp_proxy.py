"""A TCP proxy in front of PostgreSQL that loses what a failover loses, on cue.

Tests point a server at the proxy's port and then

- ``cut_next_answer()``: the next answer PostgreSQL sends on a connection
  that has carried gamelog's insert is thrown away and both ends closed: the
  insert committed, and its writer never hears so (a commit in doubt);
- ``refuse()`` / ``accept()``: every connection is closed and new ones are
  refused, as while no primary answers; then let through again.

Plain bytes (``sslmode=disable``), one thread running an asyncio loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass, field

INSERT_MARKER = b"es_insert_events"
"""In the statement gamelog's writer prepares on each new connection."""


@dataclass(eq=False)
class _Link:
    client: asyncio.StreamWriter
    server: asyncio.StreamWriter
    carries_inserts: bool = False


@dataclass
class TcpProxy:
    upstream_port: int
    port: int = 0
    cuts: int = 0
    """How many answers were thrown away."""
    _links: set[_Link] = field(default_factory=set)
    _cut_armed: bool = False
    _refuse_after_cut: bool = False
    _refusing: bool = False

    def start(self) -> TcpProxy:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(10)
        return self

    async def _listen(self) -> asyncio.AbstractServer:
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        return server

    def stop(self) -> None:
        async def close() -> None:
            self._server.close()
            for link in list(self._links):
                self._close(link)

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def cut_next_answer(self, then_refuse: bool = False) -> None:
        """Lose the next answer to an insert's connection (and with
        ``then_refuse``, refuse everything from that moment on)."""
        self._refuse_after_cut = then_refuse
        self._cut_armed = True

    def refuse(self) -> None:
        self._refusing = True

        def close_all() -> None:
            for link in list(self._links):
                self._close(link)

        self._loop.call_soon_threadsafe(close_all)

    def accept(self) -> None:
        self._refusing = False

    def _close(self, link: _Link) -> None:
        self._links.discard(link)
        for end in (link.client, link.server):
            with contextlib.suppress(Exception):
                end.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._refusing:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            writer.close()
            return
        link = _Link(writer, up_writer)
        self._links.add(link)
        await asyncio.gather(
            self._pump(reader, up_writer, link, to_server=True),
            self._pump(up_reader, writer, link, to_server=False),
            return_exceptions=True,
        )
        self._close(link)

    async def _pump(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        link: _Link,
        to_server: bool,
    ) -> None:
        while link in self._links:
            data = await reader.read(65536)
            if not data:
                break
            if to_server and INSERT_MARKER in data:
                link.carries_inserts = True
            if not to_server and link.carries_inserts and self._cut_armed:
                self._cut_armed = False
                self.cuts += 1
                if self._refuse_after_cut:
                    self.refuse()
                break  # the answer is lost with the connection
            writer.write(data)
            await writer.drain()
        self._close(link)
