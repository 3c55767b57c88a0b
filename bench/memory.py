"""Case e: server memory with many games in progress.

A fresh ``gamelog serve --db <tmp sqlite>`` process; its RSS (VmRSS from
/proc/<pid>/status) is read idle (after one Echo, so gRPC is warmed up), then
again after 1,000 ``three-too-many`` games were created over gRPC and a few
moves played in each (they stay in progress, so the server keeps them warm in
its aggregate cache).
"""

from __future__ import annotations

import time

from bench.common import CaseResult, Row, Settings, rss_kib
from bench.load import ECHO_PAYLOAD, SEATS, follow, prepare_game
from gamelog.cli.process import start_server_process

GOAL_MB = 300.0
MOVES_EACH = 4


def case_e(settings: Settings) -> CaseResult:
    from gamelog.cli.client import Client

    result = CaseResult(
        "e",
        "server RSS, 1,000 games in progress",
        "RSS of the same server idle",
    )
    count = settings.pick(1000, 40)
    server = start_server_process(settings.workdir, "--db", str(settings.workdir / "e.sqlite"))
    try:
        with Client(server.address) as client:
            client.echo(ECHO_PAYLOAD)
            time.sleep(0.2)
            idle = rss_kib(server.pid)
            t0 = time.perf_counter()
            for _ in range(count):
                game, _ = prepare_game(client)
                for _ in range(MOVES_EACH):
                    seat = SEATS[game.turn]
                    move = {"card": game.hands[seat][0]}
                    token = game.tokens[seat]
                    follow(game, client.play(game.game_id, move, game.position, token))
            loading = time.perf_counter() - t0
            time.sleep(0.2)
            loaded = rss_kib(server.pid)
    finally:
        server.stop()
    loaded_mb, idle_mb = loaded / 1024, idle / 1024
    result.rows.append(
        Row(
            label=f"{count} games, {MOVES_EACH} moves each",
            value=loaded_mb,
            baseline=idle_mb,
            unit="MB",
            ratio=loaded_mb / idle_mb,
            ratio_meaning="RSS loaded / RSS idle (lower is better)",
            goal=f"< {GOAL_MB:.0f} MB",
            met=loaded_mb < GOAL_MB,
            context={
                "per_game_kb": (loaded - idle) / count,
                "load_seconds": loading,
                "games": count,
            },
        )
    )
    result.notes.append(
        f"games created and played over gRPC by one client in {loading:.1f} s; "
        "RSS from /proc/<pid>/status VmRSS; MB = MiB"
    )
    return result
