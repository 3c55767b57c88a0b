"""Case f: listings and trees on a store of 100,000 games, beside 1,000.

Two SQLite stores are built through the application (``GameLog.create_game``
from many threads, so group commit shares the commits; one tree of forks made
with ``GameLog.fork``): a small one of 1,000 games and a big one of 100,000,
alike in everything but size. Each game has the tag ``Event=E0`` … ``E9``, so
a listing filtered by one tag finds 50 games in either store. A ``gamelog
serve --db`` process serves each store; one client times, alternating between
the two servers call by call:

- ``ListGames(limit=50)``: the newest 50 games;
- ``ListGames(limit=50, tags={Event: E3})``: the newest 50 with that tag;
- ``GetTree`` of the tree of forks (the same shape in both stores).

The ratio is the big store's p50 over the small store's: 1 means a call costs
the size of its answer, not of the store.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from bench.common import CaseResult, Row, Settings, median, percentile
from gamelog.cli.process import start_server_process
from gamelog.service.storage.settings import store_env

GOAL_RATIO = 1.5
GOAL_P50_MS = 20.0
THREADS = 32
TREE_FORKS = 20
TAG = {"Event": "E3"}


def build_store(path: str, games: int) -> tuple[str, float]:
    """Store ``games`` freeform games (one of them the root of a tree of
    forks) through the application; the tree's root id and the seconds taken."""
    from gamelog.service.usecases.application import GameLog

    t0 = time.perf_counter()
    app = GameLog(env=store_env(db=path))
    try:
        root = app.games.create_game("freeform", ["ann", "ben"], metadata={"Event": "E0"})
        parents = [root]
        for i in range(TREE_FORKS):  # forks, and forks of forks
            parent = parents[i // 3]
            parents.append(app.games.fork(parent.game_id, parent.arbiter_token, 0))
        left = games - len(parents)
        counter = iter(range(left))
        lock = threading.Lock()

        def create() -> None:
            while True:
                with lock:
                    i = next(counter, None)
                if i is None:
                    return
                app.games.create_game("freeform", ["ann", "ben"], metadata={"Event": f"E{i % 10}"})

        threads = [threading.Thread(target=create) for _ in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        app.listing.list_games(1)  # the index caught up with the log
        return str(root.game_id), time.perf_counter() - t0
    finally:
        app.close()


def case_f(settings: Settings) -> CaseResult:
    from gamelog.cli.client import Client

    result = CaseResult(
        "f",
        "listings and trees, 100,000 stored games",
        "the same calls on a store of 1,000 games",
    )
    big_count = settings.pick(100_000, 600)
    small_count = settings.pick(1_000, 60)
    calls = settings.pick(400, 20)
    folder = settings.workdir
    small_root, small_seconds = build_store(str(folder / "small.sqlite"), small_count)
    big_root, big_seconds = build_store(str(folder / "big.sqlite"), big_count)
    small_server = start_server_process(folder, "--db", str(folder / "small.sqlite"))
    big_server = start_server_process(folder, "--db", str(folder / "big.sqlite"))
    try:
        with Client(small_server.address) as small, Client(big_server.address) as big:
            kinds: dict[str, tuple[Callable[[Client, str], Any], int]] = {
                "ListGames(limit=50)": (lambda c, root: c.games(50), 50),
                "ListGames(limit=50), filtered by tag": (lambda c, root: c.games(50, tags=TAG), 50),
                f"GetTree ({TREE_FORKS + 1} games)": (lambda c, root: c.tree(root), TREE_FORKS + 1),
            }
            for label, (call, size) in kinds.items():
                for client, root in ((small, small_root), (big, big_root)):
                    answer = call(client, root)  # warm up; and the answer has the size it should
                    got = len(answer.nodes) if hasattr(answer, "nodes") else len(answer)
                    assert got == size or settings.quick, (label, got, size)
                times: dict[str, list[float]] = {"small": [], "big": []}
                for _ in range(calls):
                    for name, client, root in (
                        ("small", small, small_root),
                        ("big", big, big_root),
                    ):
                        t0 = time.perf_counter()
                        call(client, root)
                        times[name].append((time.perf_counter() - t0) * 1000)
                p50, base_p50 = median(times["big"]), median(times["small"])
                ratio = p50 / base_p50
                result.rows.append(
                    Row(
                        label=label,
                        value=p50,
                        baseline=base_p50,
                        unit="ms",
                        ratio=ratio,
                        ratio_meaning="p50 on 100,000 games / p50 on 1,000 games",
                        goal=f"< {GOAL_RATIO} and p50 < {GOAL_P50_MS:.0f} ms",
                        met=ratio < GOAL_RATIO and p50 < GOAL_P50_MS,
                        context={
                            "p50_ms": p50,
                            "p99_ms": percentile(times["big"], 99),
                            "baseline_p50_ms": base_p50,
                            "baseline_p99_ms": percentile(times["small"], 99),
                            "calls": calls,
                            "games": big_count,
                            "baseline_games": small_count,
                        },
                    )
                )
    finally:
        small_server.stop()
        big_server.stop()
    result.notes.append(
        f"stores built through GameLog.create_game from {THREADS} threads: "
        f"{small_count:,} games in {small_seconds:.0f} s, {big_count:,} in {big_seconds:.0f} s; "
        "timed over gRPC, one client, the two servers alternating call by call"
    )
    return result
