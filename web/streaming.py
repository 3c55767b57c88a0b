"""Live games: a server-sent event stream fed by a Play stream (``page_streams``).

The page opens one stream for the game it shows (``text/event-stream``, read
with ``fetch`` so the token travels in a header, never in the URL). Each
stored record arrives as a ``record`` event in the caller's notation; the
stream ends with ``end`` when the game is finished, or ``error`` when the
service refuses. A comment line every few seconds keeps it open through
idle stretches and lets the front end notice a page that went away, which
cancels the gRPC stream behind it.

>>> sse("record", {"position": 3, "notation": "ann plays 31"}, 3)
'event: record\\nid: 3\\ndata: {"position": 3, "notation": "ann plays 31"}\\n\\n'
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.responses import StreamingResponse
from starlette.types import Message, Receive, Scope, Send

from gamelog.web.gateway import Gateway, GatewayError

log = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 10.0
MAX_STREAMS = 1000
"""Live streams one front end holds at once (``gamelog web --max-streams``).
Each is a gRPC stream to the service as well: without a bound, one client
opening streams held the service's spectator places and the front end's
memory for as long as it liked."""
STALL_SECONDS = 30.0
"""How long one write to a page may wait (``--follow-stall``): a client that
stops reading but keeps its connection open is dropped then, and its place
freed. The page resumes a broken stream by itself."""
QUEUE = 16
"""Records read ahead of a page (the service keeps the rest)."""
_DONE = object()


class StreamSlots:
    """A count of the live streams open, with a ceiling.

    >>> slots = StreamSlots(1)
    >>> slots.take()
    >>> try:
    ...     slots.take()
    ... except GatewayError as error:
    ...     print(error.reason, error.http_status)
    too-many-streams 429
    >>> slots.give_back(); slots.take()
    """

    def __init__(self, most: int) -> None:
        self.most = most
        self.open = 0

    def take(self) -> None:
        if self.open >= self.most:
            raise GatewayError(
                "RESOURCE_EXHAUSTED",
                "too-many-streams",
                f"this front end holds {self.most} live streams already; try again later",
            )
        self.open += 1

    def give_back(self) -> None:
        self.open -= 1


class SlowReader(Exception):
    """A page took longer than the stall limit to take one write."""


class LiveResponse(StreamingResponse):
    """A stream that holds one of the front end's places while it runs, and
    ends when a write to the page waits longer than ``stall`` seconds."""

    def __init__(
        self, content: AsyncIterator[str], slots: StreamSlots, stall: float, **kwargs: Any
    ) -> None:
        super().__init__(content, **kwargs)
        self.slots = slots
        self.stall = stall

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_in_time(message: Message) -> None:
            try:
                await asyncio.wait_for(send(message), self.stall)
            except TimeoutError:
                raise SlowReader from None

        try:
            await super().__call__(scope, receive, send_in_time)
        except SlowReader:
            pass  # the response stays incomplete: the server closes the connection
        finally:
            self.slots.give_back()
            if hasattr(self.body_iterator, "aclose"):
                await self.body_iterator.aclose()


def sse(event: str, data: Any, event_id: int | None = None) -> str:
    """One server-sent event; the data is one line of JSON."""
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append(f"data: {json.dumps(data, ensure_ascii=False)}")
    return "\n".join(lines) + "\n\n"


async def follow_events(
    gateway: Gateway,
    game_id: str,
    token: str | None,
    from_position: int,
    keepalive: float = KEEPALIVE_SECONDS,
) -> AsyncIterator[str]:
    """The stream's text: records as they are stored, with keep-alive comments."""
    queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=QUEUE)

    async def pump() -> None:
        # No ``finally`` that puts: cancelled while the queue is full (a page
        # that went away, or stopped reading), it would wait there for ever,
        # and so would the stream's own ``finally`` that awaits it.
        try:
            async for entry in gateway.follow(game_id, token, from_position):
                await queue.put(entry)
        except GatewayError as error:
            await queue.put(error)
            return
        except Exception:
            # Anything else would leave the page waiting on keep-alives for
            # ever, its stream's place held: it is told, and the stream ends.
            log.exception("following game %s failed", game_id)
            await queue.put(GatewayError("INTERNAL", "follow-failed", "the live stream failed"))
            return
        await queue.put(_DONE)

    task = asyncio.create_task(pump())
    try:
        yield ": following\n\n"
        while True:
            try:
                item = await asyncio.wait_for(queue.get(), keepalive)
            except TimeoutError:
                yield ": still here\n\n"
                continue
            if item is _DONE:
                yield sse("end", {})
                return
            if isinstance(item, GatewayError):
                yield sse("error", item.to_json())
                return
            yield sse("record", item, item["position"])
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
