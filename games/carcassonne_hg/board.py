"""The map: where tiles lie, which places are free, which placements fit.

Coordinates are integer ``(x, y)`` with x growing east and y growing south; the
start tile lies at ``(0, 0)``. Side ``s`` of a tile at ``p`` touches side
``(s + 2) % 4`` of the tile at ``step(p, s)``; there segment ``k`` faces segment
``2 - k``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from gamelog.games.carcassonne_hg.tiles import Oriented, Tileset, oriented

Pos = tuple[int, int]
_STEPS: tuple[Pos, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


@dataclass(frozen=True)
class Placement:
    """A tile lying on the map, who laid it (None for the start tile)."""

    tile: int
    rotation: int
    seat: str | None = None
    bonus: bool = False


Board = Mapping[Pos, Placement]


def step(pos: Pos, side: int) -> Pos:
    dx, dy = _STEPS[side]
    return (pos[0] + dx, pos[1] + dy)


def facing_segment(segment: int) -> int:
    """The neighbour's segment touching world segment ``segment``."""
    side, k = divmod(segment, 3)
    return ((side + 2) % 4) * 3 + (2 - k)


def oriented_at(tileset: Tileset, board: Board, pos: Pos) -> Oriented:
    placed = board[pos]
    return oriented(tileset, placed.tile, placed.rotation)


def frontier(board: Board) -> list[Pos]:
    """Free places touching at least one tile by a side, in a fixed order."""
    free: set[Pos] = set()
    for pos in board:
        for side in range(4):
            near = step(pos, side)
            if near not in board:
                free.add(near)
    return sorted(free, key=lambda p: (p[1], p[0]))


def fits(tileset: Tileset, board: Board, tile: int, pos: Pos, rotation: int) -> bool:
    """Every side touching a tile matches it, and at least one side touches."""
    if pos in board:
        return False
    sides = oriented(tileset, tile, rotation).sides
    touching = False
    for side in range(4):
        near = board.get(step(pos, side))
        if near is None:
            continue
        touching = True
        if oriented(tileset, near.tile, near.rotation).sides[(side + 2) % 4] != sides[side]:
            return False
    return touching


def placements(tileset: Tileset, board: Board, tile: int) -> Iterator[tuple[Pos, int]]:
    """Every fitting (place, rotation) for ``tile``, only on the frontier."""
    for pos in frontier(board):
        for rotation in range(4):
            if fits(tileset, board, tile, pos, rotation):
                yield pos, rotation


def fits_somewhere(tileset: Tileset, board: Board, tile: int) -> bool:
    return next(placements(tileset, board, tile), None) is not None
