"""Case c: the state at a random position of a long freeform game.

A 10,000-move freeform game is stored in a SQLite file through the
application. A new ``GameLog`` instance (so its aggregate cache is cold) then
asks ``state_at(game_id, position)`` for random positions: eventsourcing loads
the nearest snapshot (one every 64 events) and replays the few events after
it. The baseline is a full replay of the same game: read the records from the
start to the same position from the same store and fold them.
"""

from __future__ import annotations

import random
import time
from typing import Any
from uuid import UUID

from bench.common import CaseResult, Row, Settings, median, percentile
from gamelog.service.storage.settings import store_env

GOAL_MS = 5.0


def record_long_game(path: str, moves: int) -> UUID:
    """Store one freeform game of ``moves`` moves, the seats taking turns."""
    from gamelog.service.usecases.application import GameLog

    app = GameLog(env=store_env(db=path))
    try:
        created = app.games.create_game("freeform", ["white", "black"])
        seats = ["white", "black"]
        for ply in range(moves):
            seat = seats[ply % 2]
            app.games.play(created.game_id, created.tokens[seat], {"ply": ply + 1}, at_position=ply)
        return created.game_id
    finally:
        app.close()


def case_c(settings: Settings) -> CaseResult:
    from gamelog.games import get_rules
    from gamelog.replay.fold import state_at
    from gamelog.service.usecases.application import GameLog

    result = CaseResult(
        "c",
        "state at a random position, 10,000-move game",
        "full replay: read records 0..N from the store and fold them",
    )
    moves = settings.pick(10_000, 300)
    samples = settings.pick(200, 20)
    path = str(settings.workdir / "c.sqlite")
    t0 = time.perf_counter()
    game_id = record_long_game(path, moves)
    recorded = time.perf_counter() - t0
    rng = random.Random(7)
    positions = [rng.randint(1, moves) for _ in range(samples)]
    rules = get_rules("freeform")

    app = GameLog(env=store_env(db=path))  # a new instance: nothing cached
    snap: list[float] = []
    full: list[float] = []
    fold_only: list[float] = []
    try:
        for position in positions:
            t = time.perf_counter()
            game: Any = app.queries.state_at(game_id, position)
            snap.append(time.perf_counter() - t)
            assert game.position == position

            t = time.perf_counter()
            records = app.store.records(game_id, 0, position)
            t_read = time.perf_counter()
            state = state_at(rules, records, position)
            full.append(time.perf_counter() - t)
            fold_only.append(time.perf_counter() - t_read)
            assert state == game.state
    finally:
        app.close()
    snap_ms, full_ms = median(snap) * 1000, median(full) * 1000
    result.rows.append(
        Row(
            label=f"median of {samples} positions",
            value=snap_ms,
            baseline=full_ms,
            unit="ms",
            ratio=full_ms / snap_ms,
            ratio_meaning="full replay time / snapshot time (speed-up, higher is better)",
            goal=f"< {GOAL_MS} ms",
            met=snap_ms < GOAL_MS,
            context={
                "p99_ms": percentile(snap, 99) * 1000,
                "baseline_p99_ms": percentile(full, 99) * 1000,
                "fold_only_median_ms": median(fold_only) * 1000,
                "moves": moves,
                "record_seconds": recorded,
            },
        )
    )
    result.notes.append(
        f"{moves}-move freeform game stored through GameLog.play on SQLite in {recorded:.1f} s; "
        "state_at on a fresh GameLog (cold cache); states checked equal to the replay's"
    )
    return result
