"""Live follow: a game's records as they are stored, redacted per viewer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

from gamelog.service.outcomes import Shown
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
    ) -> Iterator[Shown]:
        """Yield the caller's view of each record from ``from_position`` on, as
        it is stored, with its notation, until the game is finished or the
        caller goes away."""
        viewer = self.viewer(game_id, token)
        next_position = from_position
        while still_wanted():
            game = self._game(game_id)
            records = self.records(game_id, from_position=next_position)
            for shown in self.shown(game_id, game, records, viewer):
                yield shown
                next_position = shown.record["position"] + 1
                if shown.record["kind"] == "finished":
                    return
            self.wait_for_change(poll_seconds)
