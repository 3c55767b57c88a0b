"""The table as text for the terminal: the map, the players, the tile in hand.

Each tile is a 5 × 3 block of its border (``#`` forest, ``.`` meadow, ``~``
river) with its pieces in the middle (``G1``: a gatherer of player 1); the
column and row numbers are the x and y a ``place`` move names. A legend under
the map explains every sign.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gamelog.games.carcassonne_hg.board import Pos, placements
from gamelog.games.carcassonne_hg.geometry import compass_word
from gamelog.games.carcassonne_hg.naming import SEAT_COLOUR_NAMES, degrees, status_line
from gamelog.games.carcassonne_hg.state import HUTS, TRIBE_MEMBERS
from gamelog.games.carcassonne_hg.tiles import Oriented, oriented
from gamelog.games.protocol import Move
from gamelog.games.wording import and_list, standings_line

if TYPE_CHECKING:
    from gamelog.games.carcassonne_hg.state import HGState

PIECE_LETTER = {"gatherer": "G", "fisher": "F", "hunter": "H", "hut": "h"}
TYPE_CHAR = {"forest": "#", "meadow": ".", "river": "~"}
LEGEND = (
    "legend: # forest  . meadow  ~ river  (o) lake;  G gatherer, F fisher, H hunter, h hut,",
    "        followed by the player number;  * marks the tile just laid",
)


def _tile_block(here: Oriented, pieces: list[str]) -> list[str]:
    seg = [TYPE_CHAR[here.tile.zone(z).type] for z in here.segment_zone]
    lakes = [z for z in here.tile.zones if z.type == "lake"]
    middle = "".join(pieces)[:3].ljust(3, " ") if pieces else ("(o)" if lakes else "   ")
    top = seg[0] + seg[0] + seg[1] + seg[2] + seg[2]
    mid = seg[10] + middle + seg[4]
    bottom = seg[8] + seg[8] + seg[7] + seg[6] + seg[6]
    return [top, mid, bottom]


def _map_lines(state: HGState) -> list[str]:
    xs = [p[0] for p in state.board]
    ys = [p[1] for p in state.board]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    lines = ["  y \\ x " + "".join(f"{x:^6}" for x in range(x0, x1 + 1)).rstrip()]
    pieces: dict[Pos, list[str]] = {}
    for f in state.followers:
        number = state.seats.index(f.seat) + 1
        pieces.setdefault((f.x, f.y), []).append(f"{PIECE_LETTER[f.piece]}{number}")
    laid_now = state.placed_at if state.phase.value == "deploy" else None
    for y in range(y0, y1 + 1):
        rows = ["", "", ""]
        for x in range(x0, x1 + 1):
            placed = state.board.get((x, y))
            if placed is None:
                block = ["     "] * 3
            else:
                here = oriented(state.tileset, placed.tile, placed.rotation)
                block = _tile_block(here, pieces.get((x, y), []))
            marker = "*" if (x, y) == laid_now else " "
            for i in range(3):
                rows[i] += block[i] + (marker if i == 1 else " ")
        lines.append(f"{'':8}{rows[0]}".rstrip())
        lines.append(f"{y:>6}  {rows[1]}".rstrip())
        lines.append(f"{'':8}{rows[2]}".rstrip())
    return lines


def zone_list(here: Oriented) -> str:
    """``0 meadow north, 1 river west-east, ...``: the zones a move names."""
    zones = sorted(here.tile.zones, key=lambda z: z.index)
    return ", ".join(f"{z.index} {z.type} {compass_word(here, z.index)}" for z in zones)


def render_text(state: HGState, deployments: Sequence[Move]) -> str:
    lines = [f"Carcassonne: Hunters and Gatherers  {status_line(state)}"]
    if state.board:
        lines.extend(_map_lines(state))
    lines.extend(LEGEND)
    acting = state.current_seat if state.phase.value in ("place", "deploy") else None
    for i, seat in enumerate(state.seats):
        colour = SEAT_COLOUR_NAMES[i % len(SEAT_COLOUR_NAMES)]
        turn = "  <- to play" if seat == acting else ""
        lines.append(
            f"player {i + 1} {seat} ({colour}): {state.scores[i]} points; at home "
            f"{state.members[i]} of {TRIBE_MEMBERS} tribe members, "
            f"{state.huts[i]} of {HUTS} huts{turn}"
        )
    lines.append(
        f"land tiles left: {len(state.land_pile)}, bonus tiles left: {len(state.bonus_pile)}"
    )
    if state.set_aside:
        lines.append(f"set aside (fit nowhere): {and_list(state.set_aside)}")
    lines.extend(_what_to_do(state, deployments))
    if state.ranking is not None:
        result = {"scores": dict(zip(state.seats, state.scores)), "ranking": state.ranking}
        lines.append(f"result: {standings_line(result)}")
    return "\n".join(lines)


def _what_to_do(state: HGState, deployments: Sequence[Move]) -> list[str]:
    if state.phase.value == "place" and state.tile is not None:
        kind = "bonus tile" if state.tile_is_bonus else "tile"
        here = oriented(state.tileset, state.tile, 0)
        sides = ", ".join(
            f"{word} {side}" for word, side in zip(("north", "east", "south", "west"), here.sides)
        )
        fits: dict[Pos, list[int]] = {}
        for pos, rotation in placements(state.tileset, state.board, state.tile):
            fits.setdefault(pos, []).append(rotation)
        places = "; ".join(
            f"({x},{y}) turned {' or '.join(degrees(r) for r in turns)}"
            for (x, y), turns in sorted(fits.items(), key=lambda item: (item[0][1], item[0][0]))
        )
        return [
            f"{state.current_seat} holds {kind} {state.tile}; as drawn (not turned): {sides}",
            f"  zones: {zone_list(here)}",
            f"  fits at: {places}",
        ]
    if state.phase.value == "deploy" and state.placed_at is not None:
        placed = state.board[state.placed_at]
        here = oriented(state.tileset, placed.tile, placed.rotation)
        x, y = state.placed_at
        options = [
            f"{move['deploy']['piece']} on zone {move['deploy']['zone']}"
            for move in deployments
            if isinstance(move.get("deploy"), dict)
        ]
        return [
            f"{state.current_seat} laid tile {placed.tile} at ({x},{y}), turned "
            f"{degrees(placed.rotation)}; zones: {zone_list(here)}",
            f"  may place: {', '.join([*options, 'no figure'])}",
        ]
    return []
