"""A process's copies of values that never change once stored, kept within bounds.

A game's token hashes never change once issued, nor does the outcome of
checking a take-back's cached state: every process may keep them rather
than read the store again. ``BoundedCache`` keeps up to ``size`` keys, and
the oldest key makes room for a new one, so that a long-running server's
memory does not grow with every game it ever served.

>>> cache = BoundedCache[str](2)
>>> cache.put("a", "1"); cache.put("b", "2"); cache.put("c", "3")
>>> sorted(cache)
['b', 'c']
"""

from __future__ import annotations

import threading
from typing import Any, TypeVar

Value = TypeVar("Value")


class BoundedCache(dict[Any, Value]):
    """Values that never change once stored, kept for up to ``size`` keys
    (the oldest key makes room)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self._size = size
        self._guard = threading.Lock()

    def put(self, key: Any, value: Value) -> None:
        with self._guard:
            if len(self) >= self._size:
                self.pop(next(iter(self)))
            self[key] = value
