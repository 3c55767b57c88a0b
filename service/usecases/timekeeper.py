"""Keeping time: a seat whose time has run out is recorded so when it is noticed.

The service looks at a game's clocks whenever a move arrives for it and
whenever its state is read, and stores a ``timeout`` record (and what follows
it: the end, or moves by rule) for every seat whose time has run out by then.
So that a flag also falls in a game nobody touches (a spectator following it
sees it fall, a tournament's round can end), the server sweeps every running
game with a time control once a second (``Timekeeper.fall_flags``). The
record's time is when it was noticed; the audit checks from the records that
the seat's time had indeed run out by then. Games without a time control pay
one attribute check.

Several processes on one PostgreSQL database each sweep; the game's position
check lets one of them store a time-out and the others find nothing to do.
"""

from __future__ import annotations

import logging
from types import MappingProxyType
from uuid import UUID

from gamelog.replay.clock import TIME_CONTROL_TAG, millis
from gamelog.service.index.follower import IndexFollower
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import GamelogError
from gamelog.service.model.server_clock import record_time
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases.table_results import TableResults

log = logging.getLogger(__name__)

SWEEP_PAGE = 500
"""Games read from the index at a time by a sweep."""


class Timekeeper:
    """Recording time-outs as they are noticed, and sweeping for them."""

    def __init__(self, store: GameStore, table_results: TableResults, index: IndexFollower) -> None:
        self.store = store
        self.table_results = table_results
        self.index = index
        self._swept_up_to = 0
        """Every timed game created at or before this notification id is
        finished: a finished game never runs again, so sweeps start after it."""
        self._flag_times: MappingProxyType[UUID, tuple[int, int | None]] = MappingProxyType({})
        """Each running timed game's next flag (``Clocks.next_flag_ms``) as
        of its last position, by game: a sweep reads a game again only once that
        time has come or another record was stored. So a sweep costs an index
        read per game, not a game read, however many games the cache holds."""

    def enforce_clock(self, game_id: UUID, game: Game | None = None) -> bool:
        """Record every seat of ``game_id`` whose time has run out. True if
        anything was stored (the game's position moved on). With ``game``
        (a copy just read), nothing is locked or read unless it is out of time."""
        if game is not None and not _expired(game, millis(record_time())):
            return False
        with self.store.locks.game(game_id):
            current = self.store.game(game_id)
            if not current.flag():
                return False
            saved = self.table_results.save_game(game_id, current)
            self.store.remember(saved)
        return True

    def fall_flags(self) -> int:
        """Record the time-outs due in every running game with a time
        control; how many games got one. A game that cannot be read, or whose
        time-out another process stored first, is left to the next sweep."""
        index = self.index.current()
        # Taken before the scan: a game indexed after it has a larger id.
        indexed_up_to = index.position()
        oldest_running: int | None = None
        fallen = 0
        after = self._swept_up_to
        now_ms = millis(record_time())
        known = self._flag_times
        flags: dict[UUID, tuple[int, int | None]] = {}
        while True:
            page = index.running_with_tag(TIME_CONTROL_TAG, SWEEP_PAGE, after)
            positions = index.last_positions([game_id for game_id, _ in page])
            for game_id, seq in page:
                if oldest_running is None:
                    oldest_running = seq
                position = positions.get(game_id, -1)
                flag = known.get(game_id)
                if (
                    flag is not None
                    and flag[0] == position
                    and (flag[1] is None or flag[1] > now_ms)
                ):
                    flags[game_id] = flag  # nothing stored since, and not yet time
                    continue
                try:
                    # A cached game at its stored last position is current: no store read.
                    game = self.store.game_at(game_id, position)
                    if _expired(game, now_ms):
                        fallen += self.enforce_clock(game_id)
                    else:
                        flags[game_id] = (game.position, _next_flag(game))
                except GamelogError as error:  # damaged, or stored meanwhile elsewhere
                    log.debug("clock of %s not kept this time: %s", game_id, error)
            if len(page) < SWEEP_PAGE:
                break
            after = page[-1][1]
        self._swept_up_to = indexed_up_to if oldest_running is None else oldest_running - 1
        self._flag_times = MappingProxyType(flags)
        return fallen


def _next_flag(game: Game) -> int | None:
    clock = game.clock
    return None if clock is None or game.is_over else clock.next_flag_ms()


def _expired(game: Game, now_ms: int) -> bool:
    clock = game.clock
    return clock is not None and not game.is_over and bool(clock.expired(now_ms))
