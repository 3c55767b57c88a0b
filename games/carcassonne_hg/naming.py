"""Words shared by the notation, the text board and the picture.

>>> degrees(1), where((2, -1))
('90°', '(2,-1)')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamelog.games.carcassonne_hg.board import Pos

if TYPE_CHECKING:
    from gamelog.games.carcassonne_hg.state import HGState

SEAT_COLOUR_NAMES = ("red", "blue", "yellow", "green", "black")
"""The figures' colours, by seat order (the box's five colours)."""


def degrees(rotation: int) -> str:
    """A rotation (quarter turns clockwise) in degrees."""
    return f"{90 * rotation}°"


def where(pos: Pos) -> str:
    return f"({pos[0]},{pos[1]})"


def status_line(state: HGState) -> str:
    """Who is to do what now, or that the game is over."""
    if state.phase.value == "place" and state.tile is not None:
        kind = "bonus tile" if state.tile_is_bonus else "tile"
        return f"{state.current_seat} lays {kind} {state.tile}"
    if state.phase.value == "deploy":
        return f"{state.current_seat} may place a figure on the tile just laid"
    if state.ranking is not None:
        return "game over"
    return "before the first draw"
