"""Feeding the game index from the log: catching up, following, rebuilding.

``IndexFollower`` plays the part of eventsourcing's ``ProjectionRunner``: it
reads the application's notifications after the index's tracking position,
decodes them with the application's mapper and hands them to the
``GameIndexProjection`` with their ``Tracking``. It differs in two ways, both
for the same reason: the runner follows the log by notification id through a
subscription, which SQLite's recorder does not offer, and which on PostgreSQL
without the table lock could pass over a notification that commits after a
later one (docs/service-decisions.md). So the follower

- reads only up to the view's *settled* position, beyond which nothing can
  still appear with a smaller id, and
- stores each stretch it read with a compare-and-set on the tracking position
  (``previous``), so that several processes catching up one shared index at
  once never apply an event twice: the one that finds the index moved on
  reads again from there.

A rebuild (``gamelog reindex``) builds a second index beside the one in use,
from the whole log, and swaps it in with one transaction (``view.take_over``).

Every read of the index calls ``catch_up`` first, so a game is listed by every
process once its creation has committed; a background thread keeps the index
close behind the log meanwhile, so that catching up on a read costs little.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import Notification, Tracking

from gamelog.service.index.projection import GameIndexProjection
from gamelog.service.index.sqlite import MemoryGameIndexView
from gamelog.service.index.view import GameIndexView, IndexMoved

log = logging.getLogger(__name__)
BATCH = 500
"""Notifications read, and index changes stored, per transaction."""


class IndexFollower:
    """Brings one application's game index up to its log."""

    def __init__(
        self,
        app: Application[UUID],
        projection: GameIndexProjection,
        poll_seconds: float = 1.0,
    ) -> None:
        self.app = app
        self.projection = projection
        # The ratings' part of the index audits each game as it ends (projection.py).
        projection.records_of = getattr(app, "records", None)
        self.poll_seconds = poll_seconds
        self._lock = threading.Lock()
        # When the last catch-up that succeeded began, and where it left the index.
        self._covered_since = float("-inf")
        self._reached = 0
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def view(self) -> GameIndexView:
        return self.projection.view

    def current(self) -> GameIndexView:
        """The index, brought up to the log first: every game whose creation
        committed before this call is in it."""
        self.catch_up()
        return self.view

    def catch_up(self) -> int:
        """Apply every settled event not yet in the index; the position reached.

        Calls that wait while another catch-up runs share the next one: a
        catch-up that began after a call did covers everything committed before
        that call, so the call need not run one of its own."""
        asked = time.monotonic()
        with self._lock:
            if self._covered_since > asked:
                return self._reached
            began = time.monotonic()
            done = self._follow_into(self.projection)
            self._covered_since, self._reached = began, done
            return done

    def _follow_into(self, projection: GameIndexProjection) -> int:
        """Apply every settled event not yet in ``projection``'s view; the
        position reached."""
        view = projection.view
        settled = view.settled_position()
        while True:
            done = view.position()
            if done >= settled:
                return done
            batch = self.app.recorder.select_notifications(
                done,
                BATCH,
                stop=settled,
                topics=projection.topics,
                inclusive_of_start=False,
            )
            up_to = batch[-1].id if len(batch) == BATCH else settled
            events = [
                (event, Tracking(view.upstream, notification.id))
                for notification in batch
                if (event := self._decoded(notification)) is not None
            ]
            try:
                projection.process_events(events, Tracking(view.upstream, up_to), previous=done)
            except IndexMoved:
                continue  # another process stored (part of) this stretch first

    def _decoded(self, notification: Notification) -> Any:
        try:
            return self.app.mapper.to_domain_event(notification)
        except Exception as error:  # bytes that are no event: the game is damaged
            log.error(
                "game %s left out of the index: its stored event %s cannot be decoded (%r)",
                notification.originator_id,
                notification.originator_version,
                error,
            )
            return None

    def rebuild(self) -> int:
        """Build the index again from the whole log, beside the index in use,
        and put it in place in one transaction: servers reading the index
        meanwhile (this process's and others') see the old one, whole, until
        the new one is, never an index half built."""
        with self._lock:
            rebuilt = self.view.beside()
            try:
                fresh = type(self.projection)(rebuilt)
                fresh.records_of = self.projection.records_of
                self._follow_into(fresh)
                self.view.take_over(rebuilt)
            finally:
                rebuilt.drop()
            self._covered_since = float("-inf")
        return self.catch_up()

    # -- following in the background -------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._follow, name="game-index", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop following; an in-memory index lets go of its own database."""
        self.stop()
        if isinstance(self.view, MemoryGameIndexView):
            self.view.close()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None

    def _follow(self) -> None:
        while not self._stopping.wait(self.poll_seconds):
            try:
                self.catch_up()
            except Exception:  # the store may be away for a while: try again later
                log.warning("the game index could not catch up with the log", exc_info=True)
