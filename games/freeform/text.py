"""The table as plain text for the terminal: the move count, the last move
and the result."""

from __future__ import annotations

from gamelog.games.freeform.notation import move_words
from gamelog.games.freeform.state import FreeformState
from gamelog.games.protocol import Viewer
from gamelog.games.wording import counted, standings_line


def render_text(state: FreeformState, viewer: Viewer) -> str:
    lines = [f"freeform game, {counted(state.moves, 'move')} recorded (no rule checks)"]
    if state.last_move is not None:
        lines.append(f"last move, by {state.last_seat}: {move_words(state.last_move)}")
    if state.result is not None:
        lines.append(f"result: {standings_line(state.result.to_json())}")
    return "\n".join(lines)
