"""Group commit: concurrent saves share one store transaction.

Every accepted move must be durable before it is acknowledged, so each save
ends in a commit (an fsync on SQLite, a round trip and a table lock on
PostgreSQL). When several clients play at once, their saves queue up behind
that commit anyway; group commit stores everything that queued meanwhile in the
*next* single transaction, so the cost of a commit is shared by all the moves
in it, and nobody's move waits longer than one commit it did not join.

The first caller that finds no commit running leads: it takes every queued
aggregate (its own among them), stores them with one ``save_together`` call
and wakes their callers. Durability is unchanged: a caller returns only after
the transaction holding its events committed. If a transaction of several
games fails (one of them lost a race for a position, say), the leader saves
each alone, so every caller gets the outcome of its own game and no other.

    >>> saved = []
    >>> commits = GroupCommit(lambda *games: saved.append(games))
    >>> commits.save("game-1")
    >>> saved
    [('game-1',)]
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


class _Waiting:
    __slots__ = ("aggregate", "done", "error")

    def __init__(self, aggregate: Any) -> None:
        self.aggregate = aggregate
        self.done = False
        self.error: BaseException | None = None


class GroupCommit:
    """Saves aggregates handed in by many threads, several per transaction.

    ``save_together(*aggregates)`` stores them in one transaction; if it
    raises, it must leave them as they were, so that each can be saved alone.
    """

    def __init__(self, save_together: Callable[..., Any], max_batch: int = 64) -> None:
        self._save_together = save_together
        self._max_batch = max_batch
        self._condition = threading.Condition()
        self._queue: list[_Waiting] = []
        self._leading = False
        self.transactions = 0
        """How many transactions were committed (for tests and benchmarks)."""

    def save(self, aggregate: Any) -> None:
        """Store ``aggregate``'s pending events; return once they are committed,
        or raise what storing them alone raised."""
        waiting = _Waiting(aggregate)
        with self._condition:
            self._queue.append(waiting)
        while True:
            with self._condition:
                while self._leading and not waiting.done:
                    self._condition.wait()
                if waiting.done:
                    break
                # Lead one transaction: the oldest queued first, so that a
                # leader whose own save did not fit leads the next one too.
                self._leading = True
                batch, self._queue = self._queue[: self._max_batch], self._queue[self._max_batch :]
            try:
                self._commit(batch)
            finally:
                with self._condition:
                    self._leading = False
                    self._condition.notify_all()
        if waiting.error is not None:
            raise waiting.error

    def _commit(self, batch: list[_Waiting]) -> None:
        try:
            self._save_together(*(w.aggregate for w in batch))
            self.transactions += 1
        except Exception as error:
            if len(batch) == 1:
                batch[0].error = error
            else:
                for waiting in batch:
                    try:
                        self._save_together(waiting.aggregate)
                        self.transactions += 1
                    except Exception as own_error:
                        waiting.error = own_error
        finally:
            for waiting in batch:
                waiting.done = True
