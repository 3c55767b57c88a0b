"""Drawing one tile, its zone labels and the pieces on it, as SVG fragments.

Every fragment is drawn in the tile's own 100 × 100 box (north-west corner at
the origin); the map and the panel place it with a ``transform``. Forests are
dark green wedges from their sides, meadows the light ground, rivers blue
bands, lakes blue discs with their fish, a spring a pale ring. Meadow animals
are letters (``2D 1T``: two deer, one tiger), explained by the legend.
"""

from __future__ import annotations

from html import escape

from gamelog.games.carcassonne_hg.geometry import (
    Point,
    anchor,
    lake_positions,
    segment_ends,
    segment_middle,
    toward_centre,
)
from gamelog.games.carcassonne_hg.tiles import Oriented, ZoneDef

TILE = 100
FOREST = "#2f6b2f"
MEADOW = "#b8d98b"
WATER = "#3b82c4"
SPRING = "#bfe3ff"
GOLD = "#ffd23f"
MUSHROOM = "#c0392b"
FIRE = "#d9480f"
SHRINE = "#6a1b9a"
ANIMAL_INK = "#5a3a10"
INK = "#222222"
ZONE_FILL = {"forest": FOREST, "meadow": "#f6fbe9", "river": WATER, "lake": "#1d4f86"}
ZONE_INK = {"forest": "white", "meadow": INK, "river": "white", "lake": "white"}
PIECE_LETTER = {"gatherer": "G", "fisher": "F", "hunter": "H", "hut": ""}


def fmt(p: Point) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def text(
    p: Point,
    words: str,
    colour: str,
    size: float,
    *,
    anchor_at: str = "middle",
    halo: bool = False,
    bold: bool = True,
) -> str:
    outline = ' stroke="white" stroke-width="2.5" paint-order="stroke"' if halo else ""
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{p[0]:.1f}" y="{p[1] + size / 3:.1f}" font-size="{size:g}" fill="{colour}" '
        f'text-anchor="{anchor_at}"{weight}{outline}>{escape(words)}</text>'
    )


def mushroom(p: Point) -> str:
    x, y = p
    return (
        f'<rect x="{x - 2:.1f}" y="{y:.1f}" width="4" height="6" fill="#f1e3c8"/>'
        f'<path d="M{x - 7:.1f},{y + 1:.1f} A7,6 0 0 1 {x + 7:.1f},{y + 1:.1f} Z" '
        f'fill="{MUSHROOM}" stroke="white" stroke-width="1"/>'
    )


def gold_nugget(p: Point) -> str:
    return f'<circle cx="{p[0]:.1f}" cy="{p[1]:.1f}" r="5" fill="{GOLD}" stroke="black"/>'


def animals_words(zone: ZoneDef) -> str:
    """A meadow's animals as printed on the tile: ``2D 1M 1T``."""
    counts = ((zone.deer, "D"), (zone.mammoth, "M"), (zone.aurochs, "A"), (zone.tiger, "T"))
    return " ".join(f"{n}{letter}" for n, letter in counts if n)


def has_label(zone: ZoneDef) -> bool:
    """Whether the zone's anchor already carries a symbol or words."""
    if zone.type == "meadow":
        return bool(animals_words(zone) or zone.power)
    if zone.type == "forest":
        return zone.gold_nugget or zone.mushrooms
    return zone.type == "river" and zone.fish > 0


def tile_svg(here: Oriented) -> list[str]:
    """The tile's landscape: meadow ground, forests, rivers, lakes, symbols."""
    out = [f'<rect width="{TILE}" height="{TILE}" fill="{MEADOW}"/>']
    lakes = lake_positions(here)
    for zone in here.tile.zones:
        if zone.type != "forest":
            continue
        segments = here.zone_segments[zone.index]
        depth = 0.4 if len({s // 3 for s in segments}) == 1 else 1.0
        for s in segments:
            a, b = segment_ends(s)
            quad = [a, b, toward_centre(b, depth), toward_centre(a, depth)]
            points = " ".join(fmt(p) for p in quad)
            out.append(f'<polygon points="{points}" fill="{FOREST}" stroke="{FOREST}"/>')
    for zone in here.tile.zones:
        if zone.type == "river":
            out.extend(_river(here, zone, lakes))
    for zone in here.tile.zones:
        if zone.type == "lake":
            p = lakes[zone.index]
            out.append(f'<circle cx="{p[0]:.1f}" cy="{p[1]:.1f}" r="17" fill="{WATER}"/>')
            if zone.fish:
                out.append(text((p[0], p[1] - 6), f"{zone.fish} fish", "white", 10))
    for zone in here.tile.zones:
        p = anchor(here, zone, lakes)
        if zone.type == "forest":
            if zone.gold_nugget:
                out.append(gold_nugget(p))
            if zone.mushrooms:
                out.append(mushroom((p[0] + (10 if zone.gold_nugget else 0), p[1])))
        if zone.type == "meadow":
            words = animals_words(zone)
            if words:
                out.append(text(p, words, ANIMAL_INK, 10))
            if zone.power:
                colour = FIRE if zone.power == "fire" else SHRINE
                out.append(text((p[0], p[1] - 12), zone.power.upper(), colour, 10))
    return out


def _river(here: Oriented, zone: ZoneDef, lakes: dict[int, Point]) -> list[str]:
    segments = here.zone_segments[zone.index]
    start = segment_middle(segments[0])
    spring: Point | None = None
    if len(segments) == 2:
        path = f"M{fmt(start)} Q50,50 {fmt(segment_middle(segments[1]))}"
    elif zone.lake is not None:
        path = f"M{fmt(start)} L{fmt(lakes[zone.lake])}"
    else:
        spring = toward_centre(start, 0.4)
        path = f"M{fmt(start)} L{fmt(spring)}"
    out = [f'<path d="{path}" stroke="{WATER}" stroke-width="12" fill="none"/>']
    if spring is not None:
        out.append(
            f'<circle cx="{spring[0]:.1f}" cy="{spring[1]:.1f}" r="8" fill="{SPRING}" '
            f'stroke="{WATER}" stroke-width="3"/>'
        )
    if zone.fish:
        out.append(text(anchor(here, zone, lakes), f"{zone.fish}f", "white", 10))
    return out


def piece_point(here: Oriented, zone: ZoneDef) -> Point:
    """Where a piece (or a zone label) stands on a zone: at its anchor, moved
    off the zone's own symbols or words."""
    p = anchor(here, zone, lake_positions(here))
    if zone.type == "lake":
        return (p[0], p[1] + 7)
    if has_label(zone):
        return (p[0], p[1] + 15 if p[1] < 78 else p[1] - 15)
    return p


def zone_labels(here: Oriented) -> list[str]:
    """Every zone's index in a small disc of its feature's colour, so a
    player can name the zone to place a figure on."""
    out = []
    for zone in here.tile.zones:
        x, y = piece_point(here, zone)
        segments = here.zone_segments[zone.index]
        if zone.type == "river" and len(segments) == 1 and zone.lake is None:
            # Between the border and the spring, so the spring stays in sight.
            x, y = toward_centre(segment_middle(segments[0]), 0.16)
        out.append(
            f'<g class="zone-label" data-zone="{zone.index}" data-type="{zone.type}">'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" fill="{ZONE_FILL[zone.type]}" '
            f'stroke="#e63946" stroke-width="2"/>'
            + text((x, y), str(zone.index), ZONE_INK[zone.type], 10)
            + "</g>"
        )
    return out


def piece_svg(piece: str, p: Point, colour: str, letter_ink: str) -> str:
    """A gatherer or fisher stands (a disc), a hunter lies (a bar), a hut is a house."""
    x, y = p
    if piece == "hut":
        points = f"{x - 9:.1f},{y + 8:.1f} {x - 9:.1f},{y - 2:.1f} {x:.1f},{y - 11:.1f} "
        points += f"{x + 9:.1f},{y - 2:.1f} {x + 9:.1f},{y + 8:.1f}"
        return (
            f'<polygon points="{points}" fill="{colour}" stroke="white" stroke-width="2"/>'
            f'<polygon points="{points}" fill="none" stroke="{INK}" stroke-width="0.6"/>'
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
    return shape + text(p, PIECE_LETTER[piece], letter_ink, 10)
