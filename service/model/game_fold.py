"""A stored record folded into a ``Game``: the aggregate's evolve.

``Game``'s commands decide which record to store; every stored event then
comes here through its ``apply``, alike for a record just decided, one
loaded from the store and one imported. So this is the one place that says
what a record does to a game: to its state (the rules' fold), its line of
play (take-backs and their steps), the trailing run of simultaneous parts,
the request ids it has seen, its hash chain and its clocks.

The split follows decide and evolve (docs/design.md, "Games are deciders"):
the game's commands may be read without the fold, and the fold without the
refusals. These are functions that take the game, called by ``Game.fold``
alone, rather than a base class of it: the folded attributes stay the
aggregate's own, where its snapshots keep them (``snapshots``).

Containers are replaced, never changed in place: a loaded game is a shallow
copy of the cached one, which must stay as it was.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from gamelog.games.protocol import ARBITER, Rules
from gamelog.replay.clock import timed_seats
from gamelog.replay.record import Record
from gamelog.service.model.deciding import fold_move

if TYPE_CHECKING:
    from gamelog.service.model.game import Game

__all__ = ["fold_record"]


def fold_record(game: Game, record: Record, restored_state: Any = None) -> None:
    """Apply one stored record; ``restored_state``: a take-back's cached state, decoded."""
    kind = record["kind"]
    if kind == "move":
        _apply_move(game, record)
    elif kind == "takeback":
        _apply_takeback(game, record, restored_state)
    elif kind == "finished":
        _apply_finish(game, record)
    elif kind == "timeout":
        _apply_timeout(game, record)
    else:
        _apply_undo_step(game, record)


def _all_concurrent(rules: Rules[Any], events: list[dict[str, Any]]) -> bool:
    return bool(events) and all(rules.concurrent(event) for event in events)


def _apply_move(game: Game, record: Record) -> None:
    rules = game.rules
    game.state = fold_move(rules, game.state, record["events"])
    shows_hidden = any(rules.shows_hidden(event) for event in record["events"])
    game.line = game.line.after_move(record["position"], shows_hidden)
    if _all_concurrent(rules, record["events"]):
        game.concurrent_last = {**game.concurrent_last, record["seat"]: record["position"]}
    else:
        _end_concurrent_run(game, record)
    if record.get("request_id"):
        game.request_ids = {**game.request_ids, record["request_id"]: record["position"]}
    game.last_hash = record["hash"]
    by_itself = record.get("by_rule") or record.get("by_arbiter") or record["seat"] == ARBITER
    _tick(game, record, mover=None if by_itself else record["seat"])


def _end_concurrent_run(game: Game, record: Record) -> None:
    game.concurrent_from = record["position"] + 1
    game.concurrent_last = {}


def _apply_undo_step(game: Game, record: Record) -> None:
    _end_concurrent_run(game, record)
    kind = record["kind"]
    if kind == "undo-request":
        game.line = game.line.after_request(record["seat"], record["to_position"])
    else:
        game.line = game.line.after_answer(record["seat"], kind == "undo-approve")
    game.last_hash = record["hash"]
    _tick(game, record)


def _apply_takeback(game: Game, record: Record, restored_state: Any) -> None:
    _end_concurrent_run(game, record)
    game.line = game.line.after_takeback(record["to_position"])
    game.state = restored_state
    game.restorations = (*game.restorations, (record["position"], record["to_position"]))
    game.last_hash = record["hash"]
    _tick(game, record)


def _apply_finish(game: Game, record: Record) -> None:
    _end_concurrent_run(game, record)
    game.result = record["result"]
    game.line = game.line.after_finish()
    game.last_hash = record["hash"]
    _tick(game, record)


def _apply_timeout(game: Game, record: Record) -> None:
    _end_concurrent_run(game, record)
    game.last_hash = record["hash"]
    _tick(game, record, timed_out=record["seats"])


def _tick(
    game: Game, record: Record, mover: str | None = None, timed_out: list[str] | None = None
) -> None:
    """The clocks after ``record`` (a game with a time control only)."""
    if game.clock is None:
        return
    clock = game.clock.after(
        record["time"], mover, timed_seats(game.rules, game.state), timed_out or ()
    )
    if game.is_over:
        clock = dataclasses.replace(clock, running=())
    game.clock = clock
