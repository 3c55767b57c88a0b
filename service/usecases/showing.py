"""Records as one caller may see them, each with its line of notation.

Every answer that carries records (a move's, a take-back's, a listing of
events, a live stream's) passes through the game's redaction for the caller,
and words each record in the game's notation from the state before it. A
move's notation reads the position before it, so the states a line needs are
read from the store (a snapshot makes that cheap), or, for the records of a
move just played, folded from the state the command started from.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from gamelog.games.protocol import Viewer
from gamelog.replay.notation import notated, record_line_or_kind
from gamelog.replay.record import Record
from gamelog.replay.redact import redact_record
from gamelog.service.model.game import Game
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases.answers import Played, Shown


def shown(
    store: GameStore, game_id: UUID, game: Game, records: list[Record], viewer: Viewer
) -> list[Shown]:
    """``records`` (consecutive, full) cut for ``viewer``, with their notation."""
    if not records:
        return []
    first = records[0]["position"]
    before = store.game(game_id, first - 1).state if first > 0 else None
    earlier = {
        r["to_position"]: store.game(game_id, r["to_position"]).state
        for r in records
        if r["kind"] == "takeback" and r["to_position"] < first
    }
    return [
        Shown(record, line)
        for record, line in notated(game.rules, records, viewer, game.is_finished, before, earlier)
    ]


def played(
    game: Game, before: Any, records: list[Record], seat: str, caller: str | None = None
) -> Played:
    """The answer to a stored move: its records cut for the caller (the
    mover, or the arbiter who played the seat's move), with notation, worded
    from ``before`` (the state the move was played in)."""
    rules = game.rules
    lines = []
    state = before
    viewer = caller or seat
    for index, record in enumerate(records):
        cut = redact_record(rules, record, viewer, game.is_finished)
        # The move is stored: a line that cannot be worded must not deny it.
        lines.append(Shown(cut, record_line_or_kind(rules, state, cut)))
        # Only a move's line reads the state before it (a move by rule
        # later in the answer); the end's and a time-out's lines do not.
        if any(later["kind"] == "move" for later in records[index + 1 :]):
            for event in record.get("events", ()):
                state = rules.evolve(state, event)
    return Played(
        game.position,
        records,
        seat=seat,
        finished=game.is_finished,
        game=game.record_created["game"],
        shown=lines,
    )
