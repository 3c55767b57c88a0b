"""What a ``Game`` with a time control asks of its clocks.

A game with a time control (``replay.clock``) keeps every seat's clock from
the records' own times (``game_fold`` moves them on). A seat out of time
gets a ``timeout`` record (``Game.flag``): under ``lose`` the game ends with
that seat last; under ``play-by-rule`` the game stores that seat's later
moves itself, each the first of its legal moves.

The clocks themselves and the rule of who moves by rule are the records'
(``replay.clock``, which the audit asks too); here is only what the
aggregate's commands ask of them, so that ``Game``'s commands say what
they ask, not how a clock answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gamelog.games.protocol import Move, lazy_rng_for
from gamelog.replay.clock import Clocks, millis
from gamelog.service.model.deciding import Decided, decide

if TYPE_CHECKING:
    from gamelog.service.model.game import Game

__all__ = ["MAX_MOVES_BY_RULE", "lost_on_time", "moves_by_rule", "out_of_time"]

MAX_MOVES_BY_RULE = 10_000
"""Moves the service makes by rule in one go (for seats out of time)."""


def lost_on_time(clock: Clocks | None) -> tuple[str, ...]:
    """Seats whose time ran out in a game they lose that way (``lose``)."""
    if clock is None or clock.control.on_timeout != "lose":
        return ()
    return clock.out_of_time


def out_of_time(clock: Clocks | None, seat: str, now: str) -> bool:
    """Whether ``seat`` may no longer move at ``now``: flagged already, or
    its running time is spent."""
    return clock is not None and (
        seat in clock.out_of_time
        or (seat in clock.running and clock.remaining(seat, millis(now)) <= 0)
    )


def moves_by_rule(game: Game) -> Iterator[tuple[str, int, Move, Decided]]:
    """The moves the service makes for seats out of time under
    ``play-by-rule``, each the first of the seat's legal moves, decided: the
    seat, the ply, the move and what the rules decided. Each is asked of the
    game as it stands, so the caller stores one before it takes the next."""
    for _ in range(MAX_MOVES_BY_RULE):
        seat = game.seat_by_rule()
        if seat is None:
            return
        moves = game.rules.legal_moves(game.state, seat)
        if not moves:
            return
        ply = game.ply + 1
        rng = lazy_rng_for(game.seed, ply)
        yield seat, ply, moves[0], decide(game.rules, game.state, seat, moves[0], rng)
