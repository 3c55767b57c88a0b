"""The application alone: ``three-too-many`` moves through ``GameLog.play`` in
this process, one thread, no gRPC and no client.

This is what a move costs the server before any transport: the rules' decide
and evolve, the hash chain, and one store transaction (with its fsync or
commit round trip). Cases a and b report it beside their gRPC figures, because
it bounds them: a server process, which runs its Python under one GIL, can
serve moves at most at 1 / (its transport CPU per call + this CPU per move).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

GAME = "three-too-many"
SEATS = ("p1", "p2")


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
    ``env`` names, timing only the ``GameLog.play`` calls."""
    from gamelog.service.app import GameLog

    rng = random.Random(seed)
    app = GameLog(env=dict(env))
    wall = cpu = 0.0
    played = 0
    try:
        while played < moves:
            created = app.create_game(GAME, list(SEATS))
            finished = False
            while not finished and played < moves:
                for seat in SEATS:
                    _, position, legal = app.legal_moves(created.game_id, created.tokens[seat])
                    if legal:
                        break
                move = rng.choice(legal)
                wall0, cpu0 = time.perf_counter(), time.process_time()
                outcome = app.play(created.game_id, created.tokens[seat], move, position)
                wall += time.perf_counter() - wall0
                cpu += time.process_time() - cpu0
                played += 1
                finished = outcome.finished
    finally:
        app.close()
    return AppAlone(played, wall, cpu)
