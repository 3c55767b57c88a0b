"""Playing whole games through the application, for tests and benchmarks."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from gamelog.games.protocol import ARBITER
from gamelog.service.app import CreatedGame, GameLog
from gamelog.service.errors import Conflict


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
    created = app.create_game(
        game, seats, options, undo_policy=undo_policy, seed=seed.to_bytes(8, "big")
    )
    played = PlayedGame(created)
    game_state = app.state_at(created.game_id)
    played.states.append(game_state.state)
    while not game_state.is_finished and len(played.moves) < max_moves:
        actors = [s for s in game_state.rules.to_act(game_state.state) if s != ARBITER]
        if not actors:
            break
        seat = chooser.choice(actors)
        legal = game_state.rules.legal_moves(game_state.state, seat)
        move = chooser.choice(legal)
        try:
            result = app.play(created.game_id, played.token(seat), move, game_state.position)
        except Conflict:
            game_state = app.state_at(created.game_id)
            continue
        played.moves.append((seat, move))
        game_state = app.state_at(created.game_id)
        # One state per stored position: a move, and the end when it came.
        for _ in result.records:
            played.states.append(game_state.state)
    return played
