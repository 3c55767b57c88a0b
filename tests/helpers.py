"""Playing whole games through the application, for tests and benchmarks."""

from __future__ import annotations

import json
import random
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from gamelog.cli.client import ApiError, Client
from gamelog.cli.process import GAMELOG, ServerProcess
from gamelog.games.protocol import ARBITER
from gamelog.service.model.refusals import Conflict
from gamelog.service.usecases.answers import CreatedGame
from gamelog.service.usecases.application import GameLog


def gamelog_json(server: ServerProcess, *args: str) -> Any:
    """Run a ``gamelog`` command against ``server``; its --json output."""
    result = subprocess.run(
        [*GAMELOG, *args, "--server", server.address, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@dataclass
class PlayedGame:
    created: CreatedGame
    states: list[Any] = field(default_factory=list)
    """The live state after each position, as the aggregate held it while playing."""
    moves: list[tuple[str, Any]] = field(default_factory=list)

    @property
    def game_id(self) -> UUID:
        return self.created.game_id

    def token(self, seat: str) -> str:
        return self.created.arbiter_token if seat == ARBITER else self.created.tokens[seat]


def play_random_game(
    app: GameLog,
    game: str,
    players: int,
    seed: int,
    max_moves: int = 5000,
    undo_policy: str = "none",
    options: dict[str, Any] | None = None,
) -> PlayedGame:
    """Create a game and play random legal moves, seat by seat, to its end."""
    chooser = random.Random(seed)
    seats = [f"p{i + 1}" for i in range(players)]
    created = app.games.create_game(
        game, seats, options, undo_policy=undo_policy, seed=seed.to_bytes(8, "big")
    )
    played = PlayedGame(created)
    game_state = app.queries.state_at(created.game_id)
    played.states.append(game_state.state)
    while not game_state.is_finished and len(played.moves) < max_moves:
        to_act = game_state.rules.to_act(game_state.state)
        # Seats first; the arbiter when it alone can go on (pyramidion's display).
        actors = [s for s in to_act if s != ARBITER] or [s for s in to_act if s == ARBITER]
        if not actors:
            break
        seat = chooser.choice(actors)
        legal = game_state.rules.legal_moves(game_state.state, seat)
        move = chooser.choice(legal)
        try:
            result = app.games.play(created.game_id, played.token(seat), move, game_state.position)
        except Conflict:
            game_state = app.queries.state_at(created.game_id)
            continue
        played.moves.append((seat, move))
        game_state = app.queries.state_at(created.game_id)
        # One state per stored position: a move, and the end when it came.
        for _ in result.records:
            played.states.append(game_state.state)
    return played


# -- through a real server ------------------------------------------------------------


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


class Follower:
    """A spectator following a game from position 0 in a thread of its own."""

    def __init__(self, server: ServerProcess, game_id: str, timeout: float = 120) -> None:
        self.records: list[dict[str, Any]] = []
        self._started = threading.Event()

        def follow() -> None:
            with server.client() as watcher:
                for record in watcher.follow(game_id, None, 0, timeout=timeout):
                    self.records.append(record)
                    self._started.set()

        self._thread = threading.Thread(target=follow)
        self._thread.start()
        assert self._started.wait(10), "the stream delivers the creation at once"

    def wait_for_the_end(self, timeout: float = 60) -> None:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the stream ends when the game ends"


def play_to_the_end(client: Client, created: Any, chooser: random.Random) -> Any:
    """Random legal moves, each by the seat to act with its own token; the final state."""
    game_id = created.game_id
    while not (state := client.state(game_id)).finished:
        token = created.seat_tokens[state.to_act[0]]
        client.play(
            game_id, chooser.choice(client.legal_moves(game_id, token)), state.last_position, token
        )
    return state
