"""The application alone: ``three-too-many`` moves through ``GameLog.play`` in
this process, one thread, no gRPC and no client.

This is what a move costs the server before any transport: the rules' decide
and evolve, the hash chain, and one store transaction (with its fsync or
commit round trip). Cases a and b report it beside their gRPC figures, because
it bounds them: a server process, which runs its Python under one GIL, can
serve moves at most at 1 / (its transport CPU per call + this CPU per move).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bench.load import GAME, SEATS


@dataclass
class AppAlone:
    moves: int
    seconds: float
    """Wall time inside ``GameLog.play`` only (choosing moves is not timed)."""
    cpu_seconds: float
    """CPU time of this process inside ``GameLog.play``."""

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    @property
    def cpu_ms_per_move(self) -> float:
        return self.cpu_seconds / self.moves * 1000

    def to_json(self) -> dict[str, Any]:
        return {
            "moves": self.moves,
            "seconds": self.seconds,
            "rate": self.rate,
            "cpu_seconds": self.cpu_seconds,
            "cpu_ms_per_move": self.cpu_ms_per_move,
        }


def play_alone(env: Mapping[str, str], moves: int, seed: int = 7) -> AppAlone:
    """Play ``moves`` random legal moves of ``three-too-many`` on the store
    ``env`` names, timing only the ``GameLog.play`` calls.

    Each game is first played out on the rules alone (``play_out``), then
    created with that line's seed, so the server deals the same cards and
    every move of the line is legal there: choosing moves costs no call."""
    from gamelog.games import get_rules
    from gamelog.games.playout import play_out
    from gamelog.service.usecases.application import GameLog

    rules = get_rules(GAME)
    app = GameLog(env=dict(env))
    wall = cpu = 0.0
    played = 0
    try:
        for game_seed in itertools.count(seed):
            line = play_out(rules, SEATS, game_seed, max_moves=moves - played)
            created = app.games.create_game(GAME, list(SEATS), seed=line.seed)
            # One stored record per move: the move at index i is played at position i.
            for position, (seat, move, _) in enumerate(line.moves):
                wall0, cpu0 = time.perf_counter(), time.process_time()
                app.games.play(created.game_id, created.tokens[seat], move, position)
                wall += time.perf_counter() - wall0
                cpu += time.process_time() - cpu0
            played += len(line.moves)
            if played >= moves:
                break
    finally:
        app.close()
    return AppAlone(played, wall, cpu)
