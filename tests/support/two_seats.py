"""The two-seat game most service tests play: ann and ben at 3 sind eine zu viel!

In the application, ``new_game`` creates it and ``play_cards`` plays it seat
by seat, each its lowest card; through a client, ``finished_game`` plays one
to its end at random.
"""

from __future__ import annotations

import random
from typing import Any

from gamelog.cli.client import Client
from gamelog.service.usecases.answers import CreatedGame
from gamelog.service.usecases.application import GameLog

from support.random_play import GrpcGame, play_random

SEATS = ["ann", "ben"]


def new_game(app: GameLog, undo: str = "none", seed: int = 7) -> CreatedGame:
    return app.games.create_game(
        "three-too-many", SEATS, undo_policy=undo, seed=seed.to_bytes(4, "big")
    )


def play_cards(app: GameLog, created: CreatedGame, count: int) -> None:
    """Play ``count`` moves, each seat its lowest card."""
    for _ in range(count):
        game = app.queries.state_at(created.game_id)
        seat = game.rules.to_act(game.state)[0]
        move = min(game.rules.legal_moves(game.state, seat), key=lambda m: m["card"])
        app.games.play(created.game_id, created.tokens[seat], move, game.position)


def to_act(app: GameLog, created: CreatedGame) -> str:
    game = app.queries.state_at(created.game_id)
    return str(game.rules.to_act(game.state)[0])


def finished_game(client: Client, game: str = "three-too-many", seed: int = 3) -> Any:
    created = client.create(game, SEATS, seed_hex=seed.to_bytes(4, "big").hex())
    play_random(GrpcGame.of(client, created), random.Random(seed))
    return created
