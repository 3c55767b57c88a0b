"""One computation for the same question asked at once.

The tournament views read up to ``MAX_GAMES`` games of the listing for every
request, and anyone may ask for them. Requests for the same view that arrive
while one is being computed wait for that one's answer instead of starting
their own: however many arrive at once, the service reads the store once.
Nothing is kept after the answer: the next request computes afresh, so an
answer began at most one computation before the request that gets it.

    >>> import asyncio
    >>> calls = []
    >>> async def slow_count() -> int:
    ...     calls.append(1)
    ...     await asyncio.sleep(0.01)
    ...     return len(calls)
    >>> async def main() -> list[int]:
    ...     shared = SharedCalls()
    ...     return list(await asyncio.gather(*(shared.call("k", slow_count) for _ in range(5))))
    >>> asyncio.run(main()), len(calls)
    ([1, 1, 1, 1, 1], 1)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any


class SharedCalls:
    """Calls in flight, by what they answer."""

    def __init__(self) -> None:
        self._running: dict[Hashable, asyncio.Future[Any]] = {}

    async def call(self, key: Hashable, compute: Callable[[], Awaitable[Any]]) -> Any:
        """``compute()``'s answer, shared with every caller of ``key`` meanwhile.
        A caller that goes away does not cancel it for the others."""
        running = self._running.get(key)
        if running is None:
            running = asyncio.ensure_future(compute())
            self._running[key] = running
            running.add_done_callback(lambda done: self._finished(key, done))
        return await asyncio.shield(running)

    def _finished(self, key: Hashable, done: asyncio.Future[Any]) -> None:
        self._running.pop(key, None)
        # Every caller may have gone away: the failure is theirs, not a
        # "never retrieved" error in the log.
        if not done.cancelled():
            done.exception()
