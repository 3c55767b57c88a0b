"""The table as one standalone SVG: the map, and a panel beside it.

The map shows every laid tile with its id, the pieces in their players'
colours, grid coordinates along all four edges, and (while a tile waits to be
laid) the free places where it fits, with the turns that fit there. The tile
just laid, while its player may place a figure, is framed red and shows its
zone numbers, the names a ``deploy`` move uses.

The panel shows the tile in hand (drawn tiles are shown to everybody, as the
rulebook has the player show it: "viser hun brikka til medspillerne"), or the
tile just laid with the figures its player may place; the score table with
each player's supply; the piles' sizes; and a legend of the symbols. On a
large map the panel is scaled up with it, so it stays legible when the whole
picture is shrunk to a window.

Nothing hidden is drawn: the piles appear only as counts.

>>> from gamelog.games.carcassonne_hg import RULES
>>> seats = ("ann", "ben")
>>> options = RULES.normalize_options({"deal": {"order": [46]}}, seats)
>>> state = RULES.start(seats, options)
>>> from gamelog.games.protocol import rng_for
>>> for event in RULES.setup(options, seats, rng_for(b"s", 0)):
...     state = RULES.evolve(state, event)
>>> picture = RULES.render_svg(state, None)
>>> '<g class="tile-in-hand" data-tile="46"' in picture
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from gamelog.games.carcassonne_hg.board import Pos, placements
from gamelog.games.carcassonne_hg.geometry import compass_word
from gamelog.games.carcassonne_hg.naming import SEAT_COLOUR_NAMES, degrees, status_line
from gamelog.games.carcassonne_hg.tile_art import (
    ANIMAL_INK,
    FIRE,
    FOREST,
    GOLD,
    MEADOW,
    SHRINE,
    SPRING,
    TILE,
    WATER,
    ZONE_FILL,
    ZONE_INK,
    mushroom,
    piece_point,
    piece_svg,
    text,
    tile_svg,
    zone_labels,
)
from gamelog.games.carcassonne_hg.tiles import oriented
from gamelog.games.protocol import Move
from gamelog.games.wording import and_list, counted

if TYPE_CHECKING:
    from gamelog.games.carcassonne_hg.state import HGState

SEAT_COLOURS = ("#d62828", "#1d4ed8", "#f2c200", "#2e9e44", "#222222")
LIGHT_SEAT_COLOURS = frozenset({"#f2c200"})
BACKGROUND = "#f4efe3"
INK = "#222222"
MUTED = "#555555"
LAID_FRAME = "#e63946"
BONUS_FRAME = "#e0a800"
FITS = "#7a5c1e"
MARGIN = 44
"""Room around the map for the coordinates."""
PANEL_WIDTH = 470
PANEL_GAP = 24
LEGIBLE_MAP = 900
"""Map height (in tile units of 100) up to which the panel keeps its size."""
MAX_FITS_LISTED = 12


def seat_colour(state: HGState, seat: str) -> str:
    return SEAT_COLOURS[state.seats.index(seat) % len(SEAT_COLOURS)]


def letter_ink(colour: str) -> str:
    return INK if colour in LIGHT_SEAT_COLOURS else "white"


def render_svg(state: HGState, deployments: Sequence[Move]) -> str:
    """``deployments``: the figures the seat to act may place now (the rules'
    own list, so the picture never judges a move itself)."""
    fits = _fits(state)
    bounds = _bounds(state, fits)
    x0, y0, x1, y1 = bounds
    map_w = (x1 - x0 + 1) * TILE + 2 * MARGIN
    map_h = (y1 - y0 + 1) * TILE + 2 * MARGIN
    scale = max(1.0, map_h / LEGIBLE_MAP, map_w / (2 * LEGIBLE_MAP))
    panel, panel_h = _panel(state, deployments, fits)
    width = map_w + PANEL_GAP + PANEL_WIDTH * scale
    height = max(map_h, panel_h * scale)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="{BACKGROUND}"/>',
        '<g class="map">',
        *_coordinates(bounds, scale),
        *_tiles(state, bounds),
        *_fit_marks(fits, bounds),
        "</g>",
        f'<g class="panel" transform="translate({map_w + PANEL_GAP:.0f},0) scale({scale:.3f})">',
        *panel,
        "</g>",
        "</svg>",
    ]
    return "\n".join(out)


# ----------------------------------------------------------------------- map


def _fits(state: HGState) -> dict[Pos, list[int]]:
    """Free places where the tile in hand fits, with the turns that fit."""
    found: dict[Pos, list[int]] = {}
    if state.tile is None or state.phase.value != "place":
        return found
    for pos, rotation in placements(state.tileset, state.board, state.tile):
        found.setdefault(pos, []).append(rotation)
    return found


def _bounds(state: HGState, fits: dict[Pos, list[int]]) -> tuple[int, int, int, int]:
    places = [*state.board, *fits] or [(0, 0)]
    xs = [p[0] for p in places]
    ys = [p[1] for p in places]
    return min(xs), min(ys), max(xs), max(ys)


def _origin(pos: Pos, bounds: tuple[int, int, int, int]) -> tuple[int, int]:
    return MARGIN + (pos[0] - bounds[0]) * TILE, MARGIN + (pos[1] - bounds[1]) * TILE


def _coordinates(bounds: tuple[int, int, int, int], scale: float) -> list[str]:
    """x above and below each column, y left and right of each row."""
    x0, y0, x1, y1 = bounds
    size = min(16 * scale, 40)
    bottom = MARGIN + (y1 - y0 + 1) * TILE
    right = MARGIN + (x1 - x0 + 1) * TILE
    out = ['<g class="coordinates" fill="#6b5b3e">']
    for x in range(x0, x1 + 1):
        cx = MARGIN + (x - x0) * TILE + TILE / 2
        for cy in (MARGIN / 2, bottom + MARGIN / 2):
            out.append(
                f'<text class="coordinate" data-x="{x}" x="{cx:.0f}" y="{cy + size / 3:.1f}" '
                f'font-size="{size:.0f}" font-weight="bold" text-anchor="middle">x {x}</text>'
            )
    for y in range(y0, y1 + 1):
        cy = MARGIN + (y - y0) * TILE + TILE / 2
        for cx in (MARGIN / 2, right + MARGIN / 2):
            out.append(
                f'<text class="coordinate" data-y="{y}" x="{cx:.0f}" y="{cy + size / 3:.1f}" '
                f'font-size="{size:.0f}" font-weight="bold" text-anchor="middle" '
                f'transform="rotate(-90 {cx:.0f} {cy:.0f})">y {y}</text>'
            )
    out.append("</g>")
    return out


def _tiles(state: HGState, bounds: tuple[int, int, int, int]) -> list[str]:
    out: list[str] = []
    laid_now = state.placed_at if state.phase.value == "deploy" else None
    for pos, placed in sorted(state.board.items(), key=lambda item: (item[0][1], item[0][0])):
        here = oriented(state.tileset, placed.tile, placed.rotation)
        ox, oy = _origin(pos, bounds)
        kind = here.tile.kind
        out.append(
            f'<g class="tile" data-tile="{placed.tile}" data-x="{pos[0]}" data-y="{pos[1]}" '
            f'data-rotation="{placed.rotation}" data-kind="{kind}" '
            f'transform="translate({ox},{oy})">'
        )
        out.extend(tile_svg(here))
        label = f"#{placed.tile}" + {"start": " start", "bonus": " bonus"}.get(kind, "")
        out.append(text((4, 95), label, INK, 8, anchor_at="start", halo=True))
        out.append(text((96, 95), f"{pos[0]},{pos[1]}", MUTED, 8, anchor_at="end", halo=True))
        out.append(
            f'<rect width="{TILE}" height="{TILE}" fill="none" stroke="#555" stroke-width="1"/>'
        )
        if kind == "bonus":
            out.append(
                f'<rect x="1.5" y="1.5" width="{TILE - 3}" height="{TILE - 3}" fill="none" '
                f'stroke="{BONUS_FRAME}" stroke-width="3" stroke-dasharray="8 4"/>'
            )
        for figure in state.followers:
            if (figure.x, figure.y) == pos:
                colour = seat_colour(state, figure.seat)
                point = piece_point(here, here.tile.zone(figure.zone))
                out.append(
                    f'<g class="figure" data-seat="{escape(figure.seat)}" '
                    f'data-piece="{figure.piece}" data-zone="{figure.zone}">'
                    + piece_svg(figure.piece, point, colour, letter_ink(colour))
                    + "</g>"
                )
        if pos == laid_now:
            out.append(
                f'<rect class="just-laid" x="2" y="2" width="{TILE - 4}" height="{TILE - 4}" '
                f'fill="none" stroke="{LAID_FRAME}" stroke-width="4"/>'
            )
            out.extend(zone_labels(here))
        out.append("</g>")
    return out


def _fit_marks(fits: dict[Pos, list[int]], bounds: tuple[int, int, int, int]) -> list[str]:
    out: list[str] = []
    for pos, rotations in sorted(fits.items(), key=lambda item: (item[0][1], item[0][0])):
        ox, oy = _origin(pos, bounds)
        turns = " ".join(degrees(r) for r in rotations)
        out.append(
            f'<g class="fits" data-x="{pos[0]}" data-y="{pos[1]}" '
            f'data-rotations="{" ".join(str(r) for r in rotations)}">'
            f'<rect x="{ox + 4}" y="{oy + 4}" width="{TILE - 8}" height="{TILE - 8}" rx="6" '
            f'fill="#fffaf0" fill-opacity="0.6" stroke="{FITS}" stroke-width="2" '
            f'stroke-dasharray="7 5"/>'
            + text((ox + 50, oy + 38), f"{pos[0]},{pos[1]}", FITS, 15)
            + text((ox + 50, oy + 62), turns, FITS, 11, bold=False)
            + "</g>"
        )
    return out


# --------------------------------------------------------------------- panel


class _Panel:
    """Lines and drawings stacked downwards in the panel's own units."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.y = 0.0

    def line(self, words: str, size: float = 15, *, bold: bool = False, colour: str = INK) -> None:
        self.y += size * 1.45
        weight = ' font-weight="bold"' if bold else ""
        self.out.append(
            f'<text x="0" y="{self.y:.1f}" font-size="{size:g}" fill="{colour}"{weight}>'
            f"{escape(words)}</text>"
        )

    def gap(self, height: float = 10) -> None:
        self.y += height


def _panel(
    state: HGState, deployments: Sequence[Move], fits: dict[Pos, list[int]]
) -> tuple[list[str], float]:
    panel = _Panel()
    panel.gap(14)
    panel.line("Carcassonne: Hunters and Gatherers", 20, bold=True)
    panel.line(status_line(state), 16)
    panel.gap(6)
    if state.phase.value == "place" and state.tile is not None:
        _tile_in_hand(panel, state, fits)
    elif state.phase.value == "deploy" and state.placed_at is not None:
        _tile_just_laid(panel, state, deployments)
    panel.gap(8)
    _score_table(panel, state)
    panel.gap(6)
    panel.line(
        f"land tiles left: {len(state.land_pile)}  ·  bonus tiles left: {len(state.bonus_pile)}",
        14,
    )
    if state.set_aside:
        panel.line(f"set aside (fit nowhere): {and_list(state.set_aside)}", 13, colour=MUTED)
    panel.gap(10)
    _legend(panel)
    return panel.out, panel.y + 16


def _big_tile(panel: _Panel, state: HGState, tile: int, rotation: int, label: str) -> None:
    """A tile drawn large with its zone numbers and the compass around it."""
    here = oriented(state.tileset, tile, rotation)
    size = 1.7
    left, top = 26.0, panel.y + 22
    panel.out.append(
        f'<g class="tile-in-hand" data-tile="{tile}" data-rotation="{rotation}" '
        f'transform="translate({left:.0f},{top:.1f}) scale({size})">'
    )
    panel.out.extend(tile_svg(here))
    panel.out.append(
        f'<rect width="{TILE}" height="{TILE}" fill="none" stroke="{INK}" stroke-width="1.2"/>'
    )
    panel.out.extend(zone_labels(here))
    panel.out.append("</g>")
    span = TILE * size
    for word, (x, y) in (
        ("N", (left + span / 2, top - 8)),
        ("S", (left + span / 2, top + span + 18)),
        ("W", (left - 14, top + span / 2 + 5)),
        ("E", (left + span + 14, top + span / 2 + 5)),
    ):
        panel.out.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="14" fill="{MUTED}" '
            f'text-anchor="middle" font-weight="bold">{word}</text>'
        )
    panel.out.append(
        f'<text x="{left + span + 34:.1f}" y="{top + 16:.1f}" font-size="15" '
        f'font-weight="bold">{escape(label)}</text>'
    )
    zones = [
        f"{z.index} {z.type} {compass_word(here, z.index)}"
        for z in sorted(here.tile.zones, key=lambda z: z.index)
    ]
    for n, words in enumerate(zones):
        z = sorted(here.tile.zones, key=lambda z: z.index)[n]
        y = top + 40 + n * 19
        x = left + span + 34
        panel.out.append(
            f'<circle cx="{x + 7:.1f}" cy="{y - 5:.1f}" r="7" fill="{ZONE_FILL[z.type]}" '
            f'stroke="{LAID_FRAME}" stroke-width="1.5"/>'
            f'<text x="{x + 7:.1f}" y="{y - 1:.1f}" font-size="9" text-anchor="middle" '
            f'font-weight="bold" fill="{ZONE_INK[z.type]}">{z.index}</text>'
            f'<text x="{x + 20:.1f}" y="{y:.1f}" font-size="13">'
            f"{escape(words.split(' ', 1)[1])}</text>"
        )
    panel.y = max(top + span + 28, top + 40 + len(zones) * 19)


def _tile_in_hand(panel: _Panel, state: HGState, fits: dict[Pos, list[int]]) -> None:
    assert state.tile is not None
    kind = "bonus tile" if state.tile_is_bonus else "tile"
    panel.line(f"{kind} in hand, as drawn (not turned)", 15, bold=True)
    _big_tile(panel, state, state.tile, 0, f"{kind} {state.tile}")
    panel.line("turn it 90°, 180° or 270° clockwise; it fits at", 13)
    listed = sorted(fits.items(), key=lambda item: (item[0][1], item[0][0]))
    words = [f"({x},{y}) {' or '.join(degrees(r) for r in turns)}" for (x, y), turns in listed]
    shown = words[:MAX_FITS_LISTED]
    for start in range(0, len(shown), 3):
        panel.line(";  ".join(shown[start : start + 3]), 13, colour=FITS)
    if len(words) > len(shown):
        panel.line(f"and {counted(len(words) - len(shown), 'more place')} (marked on the map)", 13)


def _tile_just_laid(panel: _Panel, state: HGState, deployments: Sequence[Move]) -> None:
    assert state.placed_at is not None
    placed = state.board[state.placed_at]
    x, y = state.placed_at
    panel.line(
        f"tile {placed.tile} just laid at ({x},{y}), turned {degrees(placed.rotation)}",
        15,
        bold=True,
    )
    _big_tile(panel, state, placed.tile, placed.rotation, "zones")
    here = oriented(state.tileset, placed.tile, placed.rotation)
    options = []
    for move in deployments:
        deploy = move.get("deploy")
        if isinstance(deploy, dict):
            zone = here.tile.zone(deploy["zone"])
            options.append(f"{deploy['piece']} on zone {zone.index} ({zone.type})")
    panel.line(f"{state.current_seat} may place:", 13)
    for start in range(0, len(options), 2):
        panel.line(",  ".join(options[start : start + 2]), 13, colour=FITS)
    panel.line("or no figure", 13, colour=FITS)


def _score_table(panel: _Panel, state: HGState) -> None:
    panel.line("players", 16, bold=True)
    places: dict[str, int] = {}
    if state.ranking is not None:
        number = 1
        for tied in state.ranking:
            for seat in tied:
                places[seat] = number
            number += len(tied)
    panel.gap(4)
    panel.out.append(
        f'<text x="34" y="{panel.y + 12:.1f}" font-size="12" fill="{MUTED}">player</text>'
        f'<text x="230" y="{panel.y + 12:.1f}" font-size="12" fill="{MUTED}" '
        f'text-anchor="end">points</text>'
        f'<text x="250" y="{panel.y + 12:.1f}" font-size="12" fill="{MUTED}">'
        "tribe members and huts at home</text>"
    )
    panel.y += 16
    acting = state.current_seat if state.phase.value in ("place", "deploy") else None
    order = list(range(len(state.seats)))
    if places:
        order.sort(key=lambda i: places[state.seats[i]])
    for i in order:
        seat = state.seats[i]
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        top = panel.y + 4
        mid = top + 14
        name = seat + ("  ◀ to play" if seat == acting else "")
        if seat in places:
            name = f"{places[seat]}. {seat}"
        row = [
            f'<g class="seat" data-seat="{escape(seat)}" data-score="{state.scores[i]}" '
            f'data-colour="{SEAT_COLOUR_NAMES[i % len(SEAT_COLOUR_NAMES)]}">',
            f'<circle cx="14" cy="{mid:.1f}" r="10" fill="{colour}" stroke="{INK}" '
            'stroke-width="0.8"/>',
            _seat_name(name, mid, seat == acting),
            f'<text x="230" y="{mid + 6:.1f}" font-size="18" font-weight="bold" '
            f'text-anchor="end">{state.scores[i]}</text>',
        ]
        for n in range(state.members[i]):
            row.append(
                f'<circle cx="{258 + 16 * n}" cy="{mid:.1f}" r="7" fill="{colour}" '
                f'stroke="{INK}" stroke-width="0.8"/>'
            )
        for n in range(state.huts[i]):
            row.append(piece_svg("hut", (354 + 22 * n, mid + 1), colour, letter_ink(colour)))
        row.append("</g>")
        panel.out.extend(row)
        panel.y += 30


def _seat_name(name: str, mid: float, acting: bool) -> str:
    weight = ' font-weight="bold"' if acting else ""
    return f'<text x="34" y="{mid + 5:.1f}" font-size="16"{weight}>{escape(name)}</text>'


def _legend(panel: _Panel) -> None:
    panel.line("legend", 16, bold=True)
    items: list[tuple[str, str]] = [
        (f'<rect x="-9" y="-9" width="18" height="18" fill="{FOREST}"/>', "forest"),
        (f'<rect x="-9" y="-9" width="18" height="18" fill="{MEADOW}" stroke="#999"/>', "meadow"),
        (f'<rect x="-9" y="-4" width="18" height="8" fill="{WATER}"/>', "river"),
        (f'<circle r="9" fill="{WATER}"/>', "lake (with its fish)"),
        (f'<circle r="6" fill="{SPRING}" stroke="{WATER}" stroke-width="2.5"/>', "spring"),
        (f'<circle r="5" fill="{GOLD}" stroke="black"/>', "gold nugget"),
        (mushroom((0, -3)), "mushroom site"),
        (text((0, 0), "2D", ANIMAL_INK, 11), "deer D, mammoth M, aurochs A, sabre-toothed tiger T"),
        (text((0, 0), "FIRE", FIRE, 8), "fire: no tigers in that meadow"),
        (text((0, 0), "SHRINE", SHRINE, 6), "shrine: a hunter here takes the whole meadow"),
        (text((0, 0), "1f", WATER, 11), "fish on a river"),
        (piece_svg("gatherer", (0, 0), "#777", "white"), "gatherer (G) / fisher (F), standing"),
        (piece_svg("hunter", (0, 0), "#777", "white"), "hunter, lying on a meadow"),
        (piece_svg("hut", (0, 0), "#777", "white"), "hut on a river system"),
        (
            f'<rect x="-9" y="-9" width="18" height="18" fill="none" stroke="{BONUS_FRAME}" '
            'stroke-width="2.5" stroke-dasharray="5 3"/>',
            "bonus tile",
        ),
        (
            f'<rect x="-9" y="-9" width="18" height="18" fill="none" stroke="{LAID_FRAME}" '
            'stroke-width="3"/>',
            "tile just laid, with its zone numbers",
        ),
        (
            f'<rect x="-9" y="-9" width="18" height="18" fill="none" stroke="{FITS}" '
            'stroke-width="2" stroke-dasharray="4 3"/>',
            "free place where the tile in hand fits",
        ),
    ]
    for symbol, words in items:
        panel.y += 22
        panel.out.append(
            f'<g transform="translate(16,{panel.y - 5:.1f})">{symbol}</g>'
            f'<text x="36" y="{panel.y:.1f}" font-size="13">{escape(words)}</text>'
        )
    panel.line("tile label: #id, and its x,y in the corner", 12, colour=MUTED)
