"""Ratings across events: OpenSkill's Plackett-Luce model over finished games.

A rating is a belief about a player's skill at one game type: ``mu`` (the
estimate) and ``sigma`` (how unsure it is). Every player starts at
``mu = 25``, ``sigma = 25/3``, and each finished game moves its players'
ratings by their places at the table: Plackett-Luce rates tables of any size
(2–5 players, shared places included) in one step. The number a list shows
is the *ordinal*, ``mu - 3·sigma``: a rating the player very probably has at
least, so a newcomer with one lucky win does not top the list.

``rate`` is a pure function of the games it is given: the same games give
the same ratings, whatever order they are given in (they are rated in the
order they finished: the finished record's time, then the game id). The
service's ratings read model and a recomputation from exported records both
call it, so they agree.

Player identity is the seat's name (a tournament's player id, which derives
from the registered name): "ann" in two events is one player
(docs/service-decisions.md, "Ratings").

A worked example: three players, three games of one type.

>>> games = [
...     RatedGame("g1", "panem", "2026-11-30T19:00:00+00:00", places=(("ann",), ("ben",), ("cy",))),
...     RatedGame("g2", "panem", "2026-11-30T20:00:00+00:00", places=(("ben",), ("ann", "cy"))),
...     RatedGame("g3", "panem", "2026-11-30T21:00:00+00:00", places=(("ann",), ("ben",))),
... ]
>>> [(r.player, round(r.mu, 3), round(r.sigma, 3), r.games) for r in ranked(rate(games)["panem"])]
[('ann', 28.496, 7.682, 3), ('ben', 25.67, 7.692, 3), ('cy', 20.751, 7.823, 2)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

MODEL = "openskill Plackett-Luce (mu 25, sigma 25/3; ordinal mu - 3 sigma)"
"""What the ratings are, as a listing says it."""


@dataclass(frozen=True)
class RatedGame:
    """What rating needs of one finished game whose records audit clean."""

    game_id: str
    game: str
    """The game type: ratings are kept per type."""
    finished_at: str
    """The finished record's time (ISO 8601, UTC): the order games are rated in."""
    event: str = ""
    """The game's ``Event`` tag."""
    tournament: str = ""
    """The game's ``Tournament`` tag: the id of the tournament that seated it."""
    places: tuple[tuple[str, ...], ...] = ()
    """The result's ranking: places best first, each the seats that share it."""
    creation_hash: str = ""
    """The hash of the game's creation record: two stored copies of one record
    (an archive imported twice) are one game played, rated once."""

    @property
    def order(self) -> tuple[str, str]:
        return (self.finished_at, self.game_id)


@dataclass(frozen=True)
class RatingStep:
    """A player's rating just after one game."""

    game_id: str
    finished_at: str
    mu: float
    sigma: float
    place: int
    """The player's place at that table (1 is first; shared places share it)."""
    table_size: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True)
class PlayerRating:
    player: str
    game: str
    mu: float
    sigma: float
    games: int
    history: tuple[RatingStep, ...]
    """The rating after each game, oldest first."""

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True)
class RatingFilter:
    """Which games count; every field given must hold.

    >>> RatingFilter(since="2026-12-01").admits(RatedGame("g", "panem", "2026-11-30T20:00:00Z"))
    False
    """

    game: str = ""
    event: str = ""
    """An ``Event`` tag or a tournament's id (its ``Tournament`` tag)."""
    since: str = ""
    """A date (YYYY-MM-DD): games finished on or after it."""
    until: str = ""
    """A date (YYYY-MM-DD): games finished on or before it."""

    def admits(self, game: RatedGame) -> bool:
        day = game.finished_at[:10]
        return (
            (not self.game or game.game == self.game)
            and (not self.event or self.event in (game.event, game.tournament))
            and (not self.since or day >= self.since)
            and (not self.until or day <= self.until)
        )


def ordinal(mu: float, sigma: float) -> float:
    """The rating a list shows: ``mu - 3·sigma``."""
    return mu - 3 * sigma


@cache
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rate(games: Iterable[RatedGame]) -> dict[str, dict[str, PlayerRating]]:
    """Every player's rating per game type after ``games``: game type → player → rating.

    A game with fewer than two places (a solo game, or everyone sharing
    first) teaches nothing of skill and is left out, and so is a second copy
    of a game already rated (the same ``creation_hash``)."""
    model = _model()
    found: dict[str, dict[str, PlayerRating]] = {}
    rated: set[str] = set()
    for game in sorted(games, key=lambda g: g.order):
        if len(game.places) < 2 or game.creation_hash in rated:
            continue
        if game.creation_hash:
            rated.add(game.creation_hash)
        players = found.setdefault(game.game, {})
        teams = [[_rating_of(model, players.get(seat)) for seat in place] for place in game.places]
        # Each seat its own team: openskill's ranks say which share a place.
        flat = [[rating] for place in teams for rating in place]
        ranks = [number for number, place in enumerate(game.places, 1) for _ in place]
        updated = model.rate(flat, ranks=ranks)
        size = len(ranks)
        seats = [seat for place in game.places for seat in place]
        for seat, rank, (after,) in zip(seats, ranks, updated, strict=True):
            before = players.get(seat)
            step = RatingStep(game.game_id, game.finished_at, after.mu, after.sigma, rank, size)
            players[seat] = PlayerRating(
                player=seat,
                game=game.game,
                mu=after.mu,
                sigma=after.sigma,
                games=(before.games if before else 0) + 1,
                history=(before.history if before else ()) + (step,),
            )
    return found


def _rating_of(model: Any, known: PlayerRating | None) -> Any:
    if known is None:
        return model.rating()
    return model.rating(mu=known.mu, sigma=known.sigma)


def ranked(players: Mapping[str, PlayerRating]) -> list[PlayerRating]:
    """Best first: by ordinal, then by name (a tie is named, not drawn)."""
    return sorted(players.values(), key=lambda r: (-r.ordinal, r.player))


__all__ = [
    "MODEL",
    "PlayerRating",
    "RatedGame",
    "RatingFilter",
    "RatingStep",
    "ordinal",
    "ranked",
    "rate",
]
