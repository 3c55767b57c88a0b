"""Tournaments run in this process: created, registered, paired, their tables played at random.

``club_night`` is the seven-player event (``SEVEN``) most tournament tests run.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from gamelog.replay.tournament_record import fold_tournament
from gamelog.service.usecases.application import GameLog
from gamelog.tournaments.standings import Standing, standings

from support.random_play import InProcessGame, play_random


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
            play_random(InProcessGame(self.app, game_id, self.tokens), chooser, stop_after)
        return games

    def records(self) -> list[dict[str, Any]]:
        return self.app.tournament_queries.tournament_records(self.tournament_id)


SEVEN = ["Ann Smith", "Ben Jones", "Cy Young", "Dee Dee", "Eve Online", "Fay Wray", "Gus Grissom"]


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


def standings_from_records(records: list[dict[str, Any]], seed: bytes) -> tuple[Standing, ...]:
    """The standings computed from a tournament's records alone (and its seed)."""
    state = fold_tournament(records)
    return standings(state.players, state.core_rounds(), state.settings, seed)


def names(count: int) -> list[str]:
    return [f"Player {n:03}" for n in range(1, count + 1)]


def club_night(app: GameLog, rounds: int = 3, **settings: Any) -> Running:
    settings.setdefault("seed", b"club-night-2026-seed")
    return start(
        app,
        "three-too-many",
        rounds,
        (3, 4),
        SEVEN,
        site="Oslo",
        dates="2026-11-30",
        name="Club night",
        **settings,
    )
