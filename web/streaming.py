"""Live games: a server-sent event stream fed by FollowGame.

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
from collections.abc import AsyncIterator
from typing import Any

from gamelog.web.gateway import Gateway, GatewayError

KEEPALIVE_SECONDS = 10.0
_DONE = object()


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
    queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=256)

    async def pump() -> None:
        try:
            async for entry in gateway.follow(game_id, token, from_position):
                await queue.put(entry)
        except GatewayError as error:
            await queue.put(error)
        finally:
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
