"""One line per stored move: the seat and its move in words, or the result.

>>> move_words({"text": "1. e4", "clock": [5, 0]})
'text: 1. e4; clock: [5, 0]'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from gamelog.games.freeform.state import FreeformState
from gamelog.games.protocol import JSON, Event, Move
from gamelog.games.wording import standings_line


def notate(
    state: FreeformState,
    seat: str | None,
    move: Move | None,
    events: Sequence[Event],
) -> str:
    if seat is None:
        return f"freeform game for {', '.join(state.seats)}"
    for event in events:
        if event["type"] == "ResultEntered":
            result = {"scores": event["scores"], "ranking": event["ranking"]}
            return f"the arbiter enters the result: {standings_line(result)}"
        if event["type"] == "MoveRecorded":
            return f"{seat}: {move_words(event['move'])}"
    return f"{seat} moves"


def move_words(move: Mapping[str, JSON]) -> str:
    """A freeform move as words: ``text: 1. e4``, several fields joined by ``;``."""
    parts = []
    for key, value in move.items():
        shown = value if isinstance(value, str) else compact(value)
        parts.append(f"{key}: {shown}")
    return "; ".join(parts).replace("\n", " ")


def compact(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
