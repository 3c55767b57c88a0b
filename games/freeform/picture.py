"""The table as an SVG picture: a freeform game has no board, so the picture
lists the seats with their move counts, the last move and the result."""

from __future__ import annotations

from html import escape

from gamelog.games.freeform.notation import move_words
from gamelog.games.freeform.state import FreeformState
from gamelog.games.protocol import Viewer
from gamelog.games.wording import counted, standings_line


def render_svg(state: FreeformState, viewer: Viewer) -> str:
    """The seats with their move counts, the last move and the result: a
    freeform game has no board, its record is the move list."""
    rows = [f"{seat}: {counted(n, 'move')}" for seat, n in zip(state.seats, state.moves_by_seat)]
    if state.last_move is not None:
        rows.append(f"last move, by {state.last_seat}: {move_words(state.last_move)}")
    if state.result is not None:
        rows.append(f"result: {standings_line(state.result.to_json())}")
    height = 40 + 22 * len(rows)
    texts = "".join(
        f'<text x="16" y="{56 + 22 * i}">{escape(row[:120])}</text>' for i, row in enumerate(rows)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="{height}" '
        f'viewBox="0 0 640 {height}" font-family="sans-serif" font-size="15">'
        f'<rect width="640" height="{height}" fill="#faf7f0"/>'
        f'<text x="16" y="28" font-weight="bold">freeform: {counted(state.moves, "move")}'
        f"</text>{texts}</svg>"
    )
