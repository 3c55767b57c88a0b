"""Group commit: concurrent saves share one store transaction.

Every accepted move must be durable before it is acknowledged, so each save
ends in a commit (an fsync on SQLite, a commit round trip on PostgreSQL).
When several clients play at once, their saves queue up behind that commit
anyway; group commit stores everything that queued meanwhile in the
*next* single transaction, so the cost of a commit is shared by all the moves
in it, and nobody's move waits longer than one commit it did not join.

The first caller that finds no commit running leads: it takes every queued
aggregate (its own among them), stores them with one ``save_together`` call
and wakes their callers. Nothing is acknowledged early: a caller returns only
after the transaction holding its events committed. If a transaction of several
games fails (one of them lost a race for a position, say), the leader saves
each alone, so every caller gets the outcome of its own game and no other;
unless the failure says the store itself is away (``alone_after``), which
each alone would only meet again, one after another.

A coroutine on an event loop hands its aggregate in with ``save_async``
and awaits the commit without holding a thread: if no thread leads, a
committer thread of the group commit's own does, and each loop is woken once
per transaction for all its waiters in it.

The committer may **gather** before it leads, as PostgreSQL's own
``commit_delay`` does for its WAL flush: where other games were saved
moments ago (within ``recent_seconds``) and are not queued, their next moves
are likely on their way, so it waits for them to queue, and leads as soon as
they all have. It waits as long as they keep coming: while each
``gather_seconds`` brings another of them, up to ``gather_limit_seconds`` in
all; one pause of ``gather_seconds`` with nobody new ends it. Under load that
shares one commit among moves that would each have paid for their own; a
lone game (one player, or moves far apart) never waits, since no other game
was saved moments ago. Nothing is acknowledged earlier or later than its
commit.

    >>> saved = []
    >>> commits = GroupCommit(lambda *games: saved.append(games))
    >>> commits.save("game-1")
    >>> saved
    [('game-1',)]
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any


class _Waiting:
    __slots__ = ("aggregate", "done", "error", "future")

    def __init__(self, aggregate: Any, future: asyncio.Future[None] | None = None) -> None:
        self.aggregate = aggregate
        self.done = False
        self.error: BaseException | None = None
        self.future = future
        """Set for a coroutine's save: resolved on its loop once done."""


class GroupCommit:
    """Saves aggregates handed in by many threads, several per transaction.

    ``save_together(*aggregates)`` stores them in one transaction; if it
    raises, it must leave them as they were, so that each can be saved alone.
    """

    def __init__(
        self,
        save_together: Callable[..., Any],
        max_batch: int = 64,
        gather_seconds: float = 0.0,
        gather_limit_seconds: float | None = None,
        recent_seconds: float = 0.02,
        key: Callable[[Any], Hashable] = id,
        is_last: Callable[[Any], bool] = lambda aggregate: False,
        alone_after: Callable[[Exception], bool] = lambda error: True,
    ) -> None:
        self._save_together = save_together
        self._alone_after = alone_after
        """Whether a shared transaction's failure may be one game's own, so
        that each is saved alone (not if the store went away: all fail)."""
        self._max_batch = max_batch
        self._gather_seconds = gather_seconds
        self._gather_limit_seconds = (
            gather_seconds if gather_limit_seconds is None else gather_limit_seconds
        )
        """The longest a commit gathers in all (by default one pause)."""
        self._recent_seconds = recent_seconds
        self._key = key
        """Which game an aggregate is (gathering waits for other games); by
        default the object itself, so a caller that hands in a fresh copy of
        its game for each save names the game instead."""
        self._is_last = is_last
        """Whether a save is its game's last (a finished game): not waited for again."""
        self._recent: dict[Hashable, float] = {}
        """Games handed in from coroutines lately, with when (gathering only)."""
        self._gathering_for = 0
        """While the committer gathers: the queue length it waits for."""
        lock = threading.Lock()
        self._condition = threading.Condition(lock)
        # The committer thread waits on a condition of its own (same lock),
        # so waking it never wakes the threads waiting for their saves.
        self._committer_wake = threading.Condition(lock)
        self._queue: list[_Waiting] = []
        self._leading = False
        self.transactions = 0
        """How many transactions were committed (for tests and benchmarks)."""
        self._committer: threading.Thread | None = None
        self._closed = False

    def save(self, aggregate: Any) -> None:
        """Store ``aggregate``'s pending events; return once they are committed,
        or raise what storing them alone raised."""
        waiting = _Waiting(aggregate)
        with self._condition:
            self._queue.append(waiting)
            self._wake_if_gathered()
        while True:
            with self._condition:
                while self._leading and not waiting.done:
                    self._condition.wait()
                if waiting.done:
                    break
                batch = self._lead()
            self._commit_and_step_down(batch)
        if waiting.error is not None:
            raise waiting.error

    def save_async(self, aggregate: Any) -> asyncio.Future[None]:
        """Hand ``aggregate`` in from a coroutine: the future is resolved on
        the running loop once its events are committed, or fails with what
        storing them alone raised. The save goes on if the future's awaiter
        is cancelled (it was handed in; only the answer is lost)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._condition:
            self._queue.append(_Waiting(aggregate, future))
            if self._gather_seconds:
                game = self._key(aggregate)
                if self._is_last(aggregate):
                    self._recent.pop(game, None)
                else:
                    self._recent[game] = time.monotonic()
            if not self._leading:
                self._call_committer()
            else:
                self._wake_if_gathered()
        return future

    def close(self) -> None:
        """Let the committer thread go once the queue is empty."""
        with self._condition:
            self._closed = True
            self._committer_wake.notify()
            committer = self._committer
        if committer is not None:
            committer.join(30)

    def _call_committer(self) -> None:
        """Have the committer thread lead (the caller holds the condition):
        a coroutine cannot wait for a transaction in a thread of its own."""
        if self._committer is None:
            self._committer = threading.Thread(
                target=self._lead_forever, name="group-commit", daemon=True
            )
            self._committer.start()
        self._committer_wake.notify()

    def _lead_forever(self) -> None:
        """The committer thread: lead a transaction whenever saves are queued
        and no thread leads (a leader wakes it when it steps down)."""
        try:
            while True:
                with self._condition:
                    while (self._leading or not self._queue) and not self._closed:
                        self._committer_wake.wait()
                    if self._leading or not self._queue:
                        # Closed, and nothing left to store: a coroutine's save
                        # handed in after this starts a committer of its own.
                        self._committer = None
                        return
                    self._gather()
                    batch = self._lead()
                self._commit_and_step_down(batch)
        except BaseException:
            # An interrupted transaction (its callers were told) must not
            # leave the queue to a committer that is gone.
            with self._condition:
                if self._committer is threading.current_thread():
                    self._committer = None
                    if self._queue and not self._leading:
                        self._call_committer()
            raise

    def _gather(self) -> None:
        """Wait (holding the lead meanwhile) for the games saved moments ago
        to queue too, while each pause of ``gather_seconds`` brings one more,
        up to ``gather_limit_seconds`` (the caller holds the condition)."""
        if not self._gather_seconds:
            return
        now = time.monotonic()
        horizon = now - self._recent_seconds
        self._recent = {game: at for game, at in self._recent.items() if at > horizon}
        queued = {self._key(w.aggregate) for w in self._queue}
        expected = len(self._queue) + sum(1 for game in self._recent if game not in queued)
        target = min(expected, self._max_batch)
        if target <= len(self._queue):
            return
        self._leading = True  # no thread takes the queue while it gathers
        self._gathering_for = target
        # The other games' next moves queue one by one (the loop decides
        # them in turn), so a pause with nobody new, not the time since the
        # first, says the rest are not close.
        limit = now + self._gather_limit_seconds
        try:
            while len(self._queue) < target and not self._closed:
                queued_before = len(self._queue)
                pause = min(self._gather_seconds, limit - time.monotonic())
                if pause <= 0:
                    break
                self._committer_wake.wait(pause)
                if len(self._queue) == queued_before:
                    break
        finally:
            self._gathering_for = 0
            self._leading = False

    def _wake_if_gathered(self) -> None:
        """Wake a gathering committer once the queue holds what it waits
        for (the caller holds the condition)."""
        if self._gathering_for and len(self._queue) >= self._gathering_for:
            self._committer_wake.notify()

    def _lead(self) -> list[_Waiting]:
        """Become the leader of one transaction (the caller holds the
        condition): the oldest queued first, so that a leader whose own save
        did not fit leads the next one too."""
        self._leading = True
        batch, self._queue = self._queue[: self._max_batch], self._queue[self._max_batch :]
        return batch

    def _commit_and_step_down(self, batch: list[_Waiting]) -> None:
        try:
            self._commit(batch)
        finally:
            self._step_down()

    def _step_down(self) -> None:
        with self._condition:
            self._leading = False
            self._condition.notify_all()
            # Coroutines left in the queue have no thread to lead for them.
            if self._queue and (
                self._committer is not None or any(w.future is not None for w in self._queue)
            ):
                self._call_committer()

    def _commit(self, batch: list[_Waiting]) -> None:
        try:
            self._save_together(*(w.aggregate for w in batch))
            self.transactions += 1
        except Exception as error:
            if len(batch) == 1 or not self._alone_after(error):
                for waiting in batch:
                    waiting.error = error
            else:
                for waiting in batch:
                    try:
                        self._save_together(waiting.aggregate)
                        self.transactions += 1
                    except Exception as own_error:
                        waiting.error = own_error
        except BaseException:
            # Interrupted (not refused): whether anything was stored is not
            # known, so nobody in the batch may be told it was.
            for waiting in batch:
                if waiting.error is None:
                    waiting.error = RuntimeError("the save was interrupted")
            raise
        finally:
            for waiting in batch:
                waiting.done = True
            _resolve([w for w in batch if w.future is not None])


def _resolve(waiting: list[_Waiting]) -> None:
    """Wake each loop once for all its savers in a transaction."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Waiting]] = {}
    for each in waiting:
        assert each.future is not None
        by_loop.setdefault(each.future.get_loop(), []).append(each)
    for loop, group in by_loop.items():
        # A closed loop has nobody left to answer.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_settle, group)


def _settle(group: list[_Waiting]) -> None:
    for each in group:
        future = each.future
        assert future is not None
        if future.done():
            continue
        if each.error is not None:
            future.set_exception(each.error)
        else:
            future.set_result(None)
