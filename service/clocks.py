"""Keeping time: a seat whose time has run out is recorded so when it is noticed.

The service has no timer of its own: it looks at the clocks whenever a move
arrives for a game and whenever a game's state is read, and stores a
``timeout`` record (and what follows it: the end, or moves by rule) for every
seat whose time has run out by then. The record's time is when it was
noticed; the audit checks from the records that the seat's time had indeed
run out by then. Games without a time control pay one attribute check.
"""

from __future__ import annotations

from uuid import UUID

from gamelog.replay.clock import millis
from gamelog.service.game import Game, record_time
from gamelog.service.table_results import TableResults


class ClockKeeping(TableResults):
    """Recording time-outs as they are noticed."""

    def enforce_clock(self, game_id: UUID, game: Game | None = None) -> bool:
        """Record every seat of ``game_id`` whose time has run out. True if
        anything was stored (the game's position moved on)."""
        if game is not None and not _expired(game):
            return False
        with self._lock(game_id):
            current = self._game(game_id)
            if not current.flag():
                return False
            self._save_game(game_id, current)
            self._remember(game_id, current)
        return True


def _expired(game: Game) -> bool:
    clock = game.clock
    return clock is not None and not game.is_over and bool(clock.expired(millis(record_time())))
