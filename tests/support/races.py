"""Two clients racing for one position of a fresh game, on one server or two."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from gamelog.cli.client import ApiError
from gamelog.cli.process import ServerProcess


def race_for_the_first_move(servers: Sequence[ServerProcess]) -> list[str]:
    """A fresh game; two clients (one per server given, or both on one) play
    different first moves for the same seat at the same moment. Each one's
    outcome: "won" or the status code name."""
    with servers[0].client() as setup:
        created = setup.create("three-too-many", ["ann", "ben"])
        moves = setup.legal_moves(created.game_id, created.seat_tokens["ann"])
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def racer(server: ServerProcess, move: Any) -> None:
        with server.client() as mine:
            barrier.wait()
            try:
                mine.play(created.game_id, move, 0, created.seat_tokens["ann"])
                outcomes.append("won")
            except ApiError as error:
                outcomes.append(error.code)

    pair = [servers[0], servers[-1]]
    threads = [threading.Thread(target=racer, args=args) for args in zip(pair, moves[:2])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with servers[-1].client() as check:
        assert len(check.records(created.game_id)) == 2, "exactly one move was stored"
    return sorted(outcomes)
