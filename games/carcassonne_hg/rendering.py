"""Pictures of the map: plain text for the terminal, SVG for files.

Nothing hidden is drawn: only the laid tiles, the drawn tile's id, the pieces,
the scores and the piles' sizes.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from gamelog.games.carcassonne_hg.board import Pos
from gamelog.games.carcassonne_hg.tiles import Oriented, ZoneDef, oriented, tile_by_id

if TYPE_CHECKING:
    from gamelog.games.carcassonne_hg.state import HGState

SEAT_COLOURS = ("#d62828", "#1d4ed8", "#f2c200", "#2e9e44", "#222222")
PIECE_LETTER = {"gatherer": "G", "fisher": "F", "hunter": "H", "hut": "h"}
TYPE_CHAR = {"forest": "#", "meadow": ".", "river": "~"}

# ------------------------------------------------------------------- text


def _tile_block(here: Oriented, pieces: list[str]) -> list[str]:
    seg = [TYPE_CHAR[here.tile.zone(z).type] for z in here.segment_zone]
    lakes = [z for z in here.tile.zones if z.type == "lake"]
    middle = "".join(pieces)[:3].ljust(3, " ") if pieces else ("(o)" if lakes else "   ")
    top = seg[0] + seg[0] + seg[1] + seg[2] + seg[2]
    mid = seg[10] + middle + seg[4]
    bottom = seg[8] + seg[8] + seg[7] + seg[6] + seg[6]
    return [top, mid, bottom]


def render_text(state: HGState) -> str:
    lines: list[str] = []
    if state.board:
        xs = [p[0] for p in state.board]
        ys = [p[1] for p in state.board]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        lines.append("     " + "".join(f"{x:^6}" for x in range(x0, x1 + 1)))
        pieces: dict[Pos, list[str]] = {}
        for f in state.followers:
            number = state.seats.index(f.seat) + 1
            pieces.setdefault((f.x, f.y), []).append(f"{PIECE_LETTER[f.piece]}{number}")
        for y in range(y0, y1 + 1):
            rows = ["", "", ""]
            for x in range(x0, x1 + 1):
                placed = state.board.get((x, y))
                if placed is None:
                    block = ["     "] * 3
                else:
                    here = oriented(state.tileset, placed.tile, placed.rotation)
                    block = _tile_block(here, pieces.get((x, y), []))
                marker = "*" if (x, y) == state.placed_at else " "
                for i in range(3):
                    rows[i] += block[i] + (marker if i == 1 else " ")
            lines.append(f"{'':5}{rows[0]}")
            lines.append(f"{y:>4} {rows[1]}")
            lines.append(f"{'':5}{rows[2]}")
    lines.append("legend: # forest  . meadow  ~ river  (o) lake  G/F/H gatherer/fisher/hunter,")
    lines.append("        h hut, followed by the seat number; * marks the tile just laid")
    for i, seat in enumerate(state.seats):
        turn = (
            "  <- to play" if state.phase.value in ("place", "deploy") and i == state.turn else ""
        )
        lines.append(
            f"{i + 1} {seat}: {state.scores[i]} points, {state.members[i]} tribe members, "
            f"{state.huts[i]} huts{turn}"
        )
    lines.append(
        f"land tiles left: {len(state.land_pile)}, bonus tiles left: {len(state.bonus_pile)}"
    )
    if state.tile is not None:
        kind = "bonus tile" if state.tile_is_bonus else "tile"
        lines.append(
            f"{state.current_seat} drew {kind} {state.tile}: {_describe(state, state.tile)}"
        )
    if state.ranking is not None:
        places = "; ".join(
            f"{n}. {', '.join(place)}" for n, place in enumerate(state.ranking, start=1)
        )
        lines.append(f"game over: {places}")
    return "\n".join(lines)


def _describe(state: HGState, tile: int) -> str:
    """The drawn tile's sides as printed on it, before any turn: ``N:meadow E:forest ...``."""
    return " ".join(f"{s}:{t}" for s, t in zip("NESW", tile_by_id(state.tileset, tile).sides))


# -------------------------------------------------------------------- SVG

TILE = 100
FOREST = "#2f6b2f"
MEADOW = "#b8d98b"
WATER = "#3b82c4"
SPRING = "#bfe3ff"
LAKE_CLEARANCE = 27.0
DARK_TEXT_ON = frozenset({"#f2c200"})
SYMBOLS = (
    "dark green: forest; light green: meadow; blue: river, lake (n fish); pale ring: spring",
    "yellow dot: gold nugget; red cap: mushrooms; nf: fish on a river",
    "meadow animals: D deer, M mammoth, A aurochs, T sabre-toothed tiger; FIRE, SHRINE",
    "pieces in the player's colour: G gatherer, F fisher, H hunter (lying), house: hut",
    "dashed gold frame: bonus tile; red frame: the tile just laid",
)
_CORNERS = ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0))


def _segment_ends(segment: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two border points of a world segment, clockwise."""
    side, k = divmod(segment, 3)
    start, end = _CORNERS[side], _CORNERS[(side + 1) % 4]

    def at(t: float) -> tuple[float, float]:
        return (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)

    cuts = (0.0, 0.4, 0.6, 1.0)
    return at(cuts[k]), at(cuts[k + 1])


def _mid(segment: int) -> tuple[float, float]:
    a, b = _segment_ends(segment)
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _toward_centre(p: tuple[float, float], share: float) -> tuple[float, float]:
    return (p[0] + (50 - p[0]) * share, p[1] + (50 - p[1]) * share)


def _anchor(
    here: Oriented, zone: ZoneDef, lakes: dict[int, tuple[float, float]]
) -> tuple[float, float]:
    if zone.type == "lake":
        return lakes[zone.index]
    segments = here.zone_segments[zone.index]
    xs = [_mid(s)[0] for s in segments]
    ys = [_mid(s)[1] for s in segments]
    point = (sum(xs) / len(xs), sum(ys) / len(ys))
    share = 0.55 if zone.type == "river" else 0.4
    if len(segments) >= 9:
        share = 0.0
    return _clear_of_lakes(_toward_centre(point, share), lakes)


def _clear_of_lakes(
    p: tuple[float, float], lakes: dict[int, tuple[float, float]]
) -> tuple[float, float]:
    """Move a label or piece off the lakes drawn on the tile, towards the border."""
    for centre in lakes.values():
        dx, dy = p[0] - centre[0], p[1] - centre[1]
        distance = (dx * dx + dy * dy) ** 0.5
        if distance < LAKE_CLEARANCE:
            if distance < 1:
                dx, dy, distance = 0.0, 1.0, 1.0
            scale = LAKE_CLEARANCE / distance
            p = (centre[0] + dx * scale, centre[1] + dy * scale)
    return (min(max(p[0], 12.0), 88.0), min(max(p[1], 10.0), 88.0))


def _lake_positions(here: Oriented) -> dict[int, tuple[float, float]]:
    lakes = [z for z in here.tile.zones if z.type == "lake"]
    positions: dict[int, tuple[float, float]] = {}
    for lake in lakes:
        if len(lakes) == 1:
            positions[lake.index] = (50.0, 50.0)
            continue
        feeders = [
            _mid(s)
            for z in here.tile.zones
            if z.type == "river" and z.lake == lake.index
            for s in here.zone_segments[z.index]
        ]
        point = (
            sum(p[0] for p in feeders) / len(feeders),
            sum(p[1] for p in feeders) / len(feeders),
        )
        positions[lake.index] = _toward_centre(point, 0.45)
    return positions


def _fmt(p: tuple[float, float]) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def _tile_svg(here: Oriented, label: str) -> list[str]:
    out = [f'<rect width="{TILE}" height="{TILE}" fill="{MEADOW}"/>']
    lakes = _lake_positions(here)
    for zone in here.tile.zones:
        if zone.type != "forest":
            continue
        segments = here.zone_segments[zone.index]
        sides = {s // 3 for s in segments}
        depth = 0.4 if len(sides) == 1 else 1.0
        for s in segments:
            a, b = _segment_ends(s)
            quad = [a, b, _toward_centre(b, depth), _toward_centre(a, depth)]
            points = " ".join(_fmt(p) for p in quad)
            out.append(f'<polygon points="{points}" fill="{FOREST}" stroke="{FOREST}"/>')
    for zone in here.tile.zones:
        if zone.type != "river":
            continue
        segments = here.zone_segments[zone.index]
        start = _mid(segments[0])
        spring: tuple[float, float] | None = None
        if len(segments) == 2:
            path = f"M{_fmt(start)} Q50,50 {_fmt(_mid(segments[1]))}"
        elif zone.lake is not None:
            path = f"M{_fmt(start)} L{_fmt(lakes[zone.lake])}"
        else:
            spring = _toward_centre(start, 0.4)
            path = f"M{_fmt(start)} L{_fmt(spring)}"
        out.append(f'<path d="{path}" stroke="{WATER}" stroke-width="12" fill="none"/>')
        if spring is not None:
            out.append(
                f'<circle cx="{spring[0]:.1f}" cy="{spring[1]:.1f}" r="8" fill="{SPRING}" '
                f'stroke="{WATER}" stroke-width="3"/>'
            )
        if zone.fish:
            p = _anchor(here, zone, lakes)
            out.append(_text(p, f"{zone.fish}f", "white", 10))
    for zone in here.tile.zones:
        if zone.type == "lake":
            p = lakes[zone.index]
            out.append(f'<circle cx="{p[0]:.1f}" cy="{p[1]:.1f}" r="17" fill="{WATER}"/>')
            if zone.fish:
                out.append(_text((p[0], p[1] - 6), f"{zone.fish} fish", "white", 10))
    for zone in here.tile.zones:
        p = _anchor(here, zone, lakes)
        if zone.type == "forest" and (zone.gold_nugget or zone.mushrooms):
            if zone.gold_nugget:
                out.append(
                    f'<circle cx="{p[0]:.1f}" cy="{p[1]:.1f}" r="5" fill="#ffd23f" stroke="black"/>'
                )
            if zone.mushrooms:
                out.append(_mushroom((p[0] + (10 if zone.gold_nugget else 0), p[1])))
        if zone.type == "meadow":
            words = [
                f"{n}{letter}"
                for n, letter in (
                    (zone.deer, "D"),
                    (zone.mammoth, "M"),
                    (zone.aurochs, "A"),
                    (zone.tiger, "T"),
                )
                if n
            ]
            if words:
                out.append(_text(p, " ".join(words), "#5a3a10", 10))
            if zone.power:
                colour = "#d9480f" if zone.power == "fire" else "#6a1b9a"
                out.append(_text((p[0], p[1] - 12), zone.power.upper(), colour, 10))
    out.append(_text((4, 95), label, "#222222", 8, anchor="start", halo=True))
    out.append(f'<rect width="{TILE}" height="{TILE}" fill="none" stroke="#555" stroke-width="1"/>')
    return out


def _text(
    p: tuple[float, float],
    words: str,
    colour: str,
    size: int,
    *,
    anchor: str = "middle",
    halo: bool = False,
) -> str:
    outline = ' stroke="white" stroke-width="2.5" paint-order="stroke"' if halo else ""
    return (
        f'<text x="{p[0]:.1f}" y="{p[1] + size / 3:.1f}" font-size="{size}" fill="{colour}" '
        f'text-anchor="{anchor}" font-family="sans-serif" font-weight="bold"{outline}>'
        f"{escape(words)}</text>"
    )


def _mushroom(p: tuple[float, float]) -> str:
    x, y = p
    return (
        f'<rect x="{x - 2:.1f}" y="{y:.1f}" width="4" height="6" fill="#f1e3c8"/>'
        f'<path d="M{x - 7:.1f},{y + 1:.1f} A7,6 0 0 1 {x + 7:.1f},{y + 1:.1f} Z" '
        'fill="#c0392b" stroke="white" stroke-width="1"/>'
    )


def _has_label(zone: ZoneDef) -> bool:
    if zone.type == "meadow":
        return bool(zone.deer or zone.mammoth or zone.aurochs or zone.tiger or zone.power)
    if zone.type == "forest":
        return zone.gold_nugget or zone.mushrooms
    return zone.type == "river" and zone.fish > 0


def _piece_svg(piece: str, p: tuple[float, float], colour: str) -> str:
    x, y = p
    if piece == "hut":
        points = f"{x - 9:.1f},{y + 8:.1f} {x - 9:.1f},{y - 2:.1f} {x:.1f},{y - 11:.1f} "
        points += f"{x + 9:.1f},{y - 2:.1f} {x + 9:.1f},{y + 8:.1f}"
        return (
            f'<polygon points="{points}" fill="{colour}" stroke="white" stroke-width="2"/>'
            f'<polygon points="{points}" fill="none" stroke="#222" stroke-width="0.6"/>'
        )
    if piece == "hunter":
        shape = (
            f'<rect x="{x - 12:.1f}" y="{y - 6:.1f}" width="24" height="12" rx="5" '
            f'fill="{colour}" stroke="white" stroke-width="2"/>'
        )
    else:
        shape = (
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="{colour}" '
            'stroke="white" stroke-width="2"/>'
        )
    letter = "#222222" if colour in DARK_TEXT_ON else "white"
    return shape + _text(p, PIECE_LETTER[piece], letter, 10)


def render_svg(state: HGState) -> str:
    if state.board:
        xs = [p[0] for p in state.board]
        ys = [p[1] for p in state.board]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    else:
        x0 = x1 = y0 = y1 = 0
    width = (x1 - x0 + 1) * TILE
    legend_top = (y1 - y0 + 1) * TILE + 10
    height = legend_top + 22 * (len(state.seats) + 1) + 20 * len(SYMBOLS)
    width = max(width, 560)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="#f4efe3"/>',
    ]
    for (x, y), placed in sorted(state.board.items()):
        here = oriented(state.tileset, placed.tile, placed.rotation)
        ox, oy = (x - x0) * TILE, (y - y0) * TILE
        out.append(f'<g transform="translate({ox},{oy})">')
        kind = here.tile.kind
        label = f"#{placed.tile}" + {"start": " start", "bonus": " bonus"}.get(kind, "")
        out.extend(_tile_svg(here, label))
        if kind == "bonus":
            out.append(
                f'<rect x="1.5" y="1.5" width="{TILE - 3}" height="{TILE - 3}" fill="none" '
                'stroke="#e0a800" stroke-width="3" stroke-dasharray="8 4"/>'
            )
        for f in state.followers:
            if (f.x, f.y) == (x, y):
                zone = here.tile.zone(f.zone)
                p = _anchor(here, zone, _lake_positions(here))
                if zone.type == "lake":
                    p = (p[0], p[1] + 7)
                elif _has_label(zone):
                    p = (p[0], p[1] + 15 if p[1] < 78 else p[1] - 15)
                colour = SEAT_COLOURS[state.seats.index(f.seat) % len(SEAT_COLOURS)]
                out.append(_piece_svg(f.piece, p, colour))
        if (x, y) == state.placed_at:
            out.append(
                f'<rect x="2" y="2" width="{TILE - 4}" height="{TILE - 4}" fill="none" '
                'stroke="#e63946" stroke-width="4"/>'
            )
        out.append("</g>")
    for i, seat in enumerate(state.seats):
        y = legend_top + 22 * i + 11
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        out.append(f'<circle cx="14" cy="{y}" r="8" fill="{colour}"/>')
        line = (
            f"{seat}: {state.scores[i]} points, {state.members[i]} tribe members, "
            f"{state.huts[i]} huts"
        )
        out.append(
            f'<text x="28" y="{y + 4}" font-size="13" '
            f'font-family="sans-serif">{escape(line)}</text>'
        )
    status = f"land tiles left {len(state.land_pile)}, bonus tiles left {len(state.bonus_pile)}"
    if state.tile is not None:
        status += f"; {state.current_seat} holds tile {state.tile}"
    y = legend_top + 22 * len(state.seats) + 11
    out.append(
        f'<text x="8" y="{y + 4}" font-size="12" font-family="sans-serif">{escape(status)}</text>'
    )
    for i, line in enumerate(SYMBOLS):
        out.append(
            f'<text x="8" y="{y + 24 + 20 * i}" font-size="11" fill="#444" '
            f'font-family="sans-serif">{escape(line)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)
