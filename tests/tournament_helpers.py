"""Running tournaments in process, for the tournament tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from gamelog.games.protocol import ARBITER
from gamelog.replay.tournament_record import fold_tournament
from gamelog.service.model.refusals import Conflict
from gamelog.service.usecases.application import GameLog
from gamelog.tournaments.standings import Standing, standings


@dataclass
class Running:
    """A tournament in an application, with the director's and players' tokens."""

    app: GameLog
    tournament_id: UUID
    director: str
    tokens: dict[str, str] = field(default_factory=dict)

    def register(self, names: Sequence[str], first_round: int | None = None) -> list[str]:
        players = self.app.tournaments.register_players(
            self.tournament_id, self.director, [{"name": n} for n in names], first_round
        )
        self.tokens.update({p.id: p.token for p in players})
        return [p.id for p in players]

    def pair(self) -> dict[int, UUID]:
        _, games = self.app.tournaments.pair_round(self.tournament_id, self.director)
        return games

    def play_round(self, chooser: random.Random, stop_after: int | None = None) -> dict[int, UUID]:
        """Seat the next round and play every table through the players' tokens."""
        games = self.pair()
        for game_id in games.values():
            play_table(self.app, game_id, self.tokens, chooser, stop_after)
        return games

    def records(self) -> list[dict[str, Any]]:
        return self.app.tournament_queries.tournament_records(self.tournament_id)


def start(
    app: GameLog,
    game: str,
    rounds: int,
    table_size: tuple[int, int],
    names: Sequence[str] = (),
    **settings: Any,
) -> Running:
    created = app.tournaments.create_tournament(
        settings.pop("name", "Test event"), game, rounds, table_size, **settings
    )
    running = Running(app, created.tournament_id, created.director_token)
    if names:
        running.register(names)
    return running


def play_table(
    app: GameLog,
    game_id: UUID,
    tokens: dict[str, str],
    chooser: random.Random,
    stop_after: int | None = None,
) -> int:
    """Random legal moves, each by the token of the player whose seat it is,
    until the game is over (or ``stop_after`` moves)."""
    moves = 0
    while stop_after is None or moves < stop_after:
        game = app.queries.state_at(game_id)
        if game.is_over:
            break
        seats = [s for s in game.rules.to_act(game.state) if s != ARBITER]
        if not seats:
            break
        seat = chooser.choice(seats)
        legal = app.queries.legal_moves(game_id, tokens[seat]).moves
        try:
            app.games.play(game_id, tokens[seat], chooser.choice(legal), game.position)
        except Conflict:
            continue
        moves += 1
    return moves


def standings_from_records(records: list[dict[str, Any]], seed: bytes) -> tuple[Standing, ...]:
    """The standings computed from a tournament's records alone (and its seed)."""
    state = fold_tournament(records)
    return standings(state.players, state.core_rounds(), state.settings, seed)


def names(count: int) -> list[str]:
    return [f"Player {n:03}" for n in range(1, count + 1)]
