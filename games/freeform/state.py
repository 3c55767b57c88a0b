"""A position of a freeform game: counts and the last move, never the list
of moves (the log is the record)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gamelog.games.protocol import JSON, Result


@dataclass(frozen=True)
class FreeformState:
    seats: tuple[str, ...]
    moves: int = 0
    moves_by_seat: tuple[int, ...] = ()
    last_move: Mapping[str, JSON] | None = None
    last_seat: str | None = None
    result: Result | None = None
