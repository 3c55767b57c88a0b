"""Live follow: a game's records as they are stored, redacted per viewer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

from gamelog.replay.record import Record
from gamelog.replay.redact import redact_record
from gamelog.service.store import GameStore


class Following(GameStore):
    """Catch-up subscriptions: stored records first, then each new one."""

    def wait_for_change(self, timeout: float) -> None:
        """Block until a save in this process, or ``timeout`` seconds (for saves
        by other processes sharing the database, callers poll)."""
        with self._changed:
            self._changed.wait(timeout)

    def follow(
        self,
        game_id: UUID,
        token: str | None,
        from_position: int = 0,
        poll_seconds: float = 0.25,
        still_wanted: Any = lambda: True,
    ) -> Iterator[Record]:
        """Yield the caller's view of each record from ``from_position`` on, as
        it is stored, until the game is finished or the caller goes away."""
        viewer = self.viewer(game_id, token)
        rules = self._game(game_id).rules
        next_position = from_position
        while still_wanted():
            records = self.records(game_id, from_position=next_position)
            finished_now = bool(records) and records[-1]["kind"] == "finished"
            for record in records:
                yield redact_record(rules, record, viewer, finished_now)
                next_position = record["position"] + 1
                if record["kind"] == "finished":
                    return
            self.wait_for_change(poll_seconds)
