"""Where a move's CPU goes: cProfile of ``GameLog.play``, top ten by own time.

    .venv/bin/python -m bench.profile_moves              # 3,000 moves, SQLite
    .venv/bin/python -m bench.profile_moves --moves 500 --top 20
    .venv/bin/python -m bench.profile_moves --postgres "host=127.0.0.1 dbname=test user=postgres"

Random legal ``three-too-many`` moves (the same play-outs as the bounds rows
of cases a and b, ``bench.inprocess``) go through ``GameLog.play`` in this
process, one thread, on a fresh store in a temporary directory. Only the
``play`` calls run under the profiler; choosing moves and creating games do
not. Functions are timed in CPU time (a commit waiting for its fsync costs
little). It prints the CPU per move measured without the profiler first (a
profiler inflates every call it sees, so its own totals are not the figure
to quote), then the profile's top functions by their own time (``tottime``).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import pstats
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from bench.inprocess import play_alone
from bench.load import GAME, SEATS


def profile_play(env: Mapping[str, str], moves: int, seed: int = 7) -> cProfile.Profile:
    """Play ``moves`` random legal moves with only ``GameLog.play`` profiled."""
    from gamelog.games import get_rules
    from gamelog.games.playout import play_out
    from gamelog.service.usecases.application import GameLog

    rules = get_rules(GAME)
    app = GameLog(env=dict(env))
    # CPU time, not wall time: the commit's fsync is waiting, not work, and
    # would otherwise head the list.
    profile = cProfile.Profile(time.process_time)
    played = 0
    try:
        for game_seed in itertools.count(seed):
            line = play_out(rules, SEATS, game_seed, max_moves=moves - played)
            created = app.games.create_game(GAME, list(SEATS), seed=line.seed)
            for position, (seat, move, _) in enumerate(line.moves):
                profile.enable()
                app.games.play(created.game_id, created.tokens[seat], move, position)
                profile.disable()
            played += len(line.moves)
            if played >= moves:
                break
    finally:
        app.close()
    return profile


def top(profile: cProfile.Profile, count: int) -> str:
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("tottime").print_stats(count)
    return out.getvalue()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_moves", description=__doc__)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--postgres", default="", help="a DSN: profile on PostgreSQL instead")
    args = parser.parse_args(argv)
    from gamelog.service.storage.settings import postgres_env, store_env

    with tempfile.TemporaryDirectory(prefix="gamelog-profile-") as tmp:

        def env(name: str) -> dict[str, str]:
            if args.postgres:
                return postgres_env(args.postgres)
            return store_env(db=str(Path(tmp) / f"{name}.sqlite"))

        alone = play_alone(env("plain"), args.moves)
        print(
            f"{alone.moves} moves without the profiler: {alone.rate:,.0f} moves/s, "
            f"{alone.cpu_ms_per_move:.3f} ms CPU per move"
        )
        started = time.process_time()
        profile = profile_play(env("profiled"), args.moves)
        print(f"profiled run: {time.process_time() - started:.1f} s CPU")
        print(top(profile, args.top))


if __name__ == "__main__":
    main()
