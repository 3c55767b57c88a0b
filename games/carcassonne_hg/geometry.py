"""Where things lie on a drawn tile: segment ends, lakes, zone anchors, compass words.

A tile is drawn as a 100 × 100 square, north up, with ``(0, 0)`` its
north-west corner. A zone's *anchor* is where its piece, its label or its
animals go; its *compass word* tells a reader where on the (turned) tile
the zone lies, so ``hunter on the south-west meadow`` can be found:

>>> from gamelog.games.carcassonne_hg.tiles import oriented, shipped_tileset
>>> tiles = shipped_tileset("carcassonne-hg/house-2002")
>>> here = oriented(tiles, 5, 0)  # rivers east, south and west into a lake
>>> [(z.index, z.type, compass_word(here, z.index)) for z in here.tile.zones][:3]
[(0, 'meadow', 'north'), (1, 'river', 'east'), (2, 'meadow', 'south-east')]
>>> compass_word(oriented(tiles, 5, 1), 0)  # turned 90° clockwise
'east'
"""

from __future__ import annotations

import math

from gamelog.games.carcassonne_hg.tiles import Oriented, ZoneDef

Point = tuple[float, float]
SIZE = 100.0
LAKE_CLEARANCE = 27.0
_CORNERS: tuple[Point, ...] = ((0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE))
_SIDE_WORDS = ("north", "east", "south", "west")
_READING_ORDER = (0, 2, 3, 1)
"""Sides in the order compass words name them: north and south before west and east."""
_COMPASS = (
    "east",
    "north-east",
    "north",
    "north-west",
    "west",
    "south-west",
    "south",
    "south-east",
)


def segment_ends(segment: int) -> tuple[Point, Point]:
    """The two border points of a world segment, clockwise."""
    side, k = divmod(segment, 3)
    start, end = _CORNERS[side], _CORNERS[(side + 1) % 4]

    def at(t: float) -> Point:
        return (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)

    cuts = (0.0, 0.4, 0.6, 1.0)
    return at(cuts[k]), at(cuts[k + 1])


def segment_middle(segment: int) -> Point:
    a, b = segment_ends(segment)
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def toward_centre(p: Point, share: float) -> Point:
    return (p[0] + (50 - p[0]) * share, p[1] + (50 - p[1]) * share)


def lake_positions(here: Oriented) -> dict[int, Point]:
    """Where each lake of the tile is drawn: the middle for a tile's only
    lake, else near the rivers that feed it."""
    lakes = [z for z in here.tile.zones if z.type == "lake"]
    positions: dict[int, Point] = {}
    for lake in lakes:
        if len(lakes) == 1:
            positions[lake.index] = (50.0, 50.0)
            continue
        feeders = [
            segment_middle(s)
            for z in here.tile.zones
            if z.type == "river" and z.lake == lake.index
            for s in here.zone_segments[z.index]
        ]
        point = (
            sum(p[0] for p in feeders) / len(feeders),
            sum(p[1] for p in feeders) / len(feeders),
        )
        positions[lake.index] = toward_centre(point, 0.45)
    return positions


def _centroid(here: Oriented, zone: ZoneDef, lakes: dict[int, Point]) -> Point:
    if zone.type == "lake":
        return lakes[zone.index]
    middles = [segment_middle(s) for s in here.zone_segments[zone.index]]
    return (sum(p[0] for p in middles) / len(middles), sum(p[1] for p in middles) / len(middles))


def anchor(here: Oriented, zone: ZoneDef, lakes: dict[int, Point]) -> Point:
    """Where a zone's piece or label goes: inside the zone, off the lakes."""
    if zone.type == "lake":
        return lakes[zone.index]
    point = _centroid(here, zone, lakes)
    share = 0.55 if zone.type == "river" else 0.4
    if len(here.zone_segments[zone.index]) >= 9:
        share = 0.0
    return clear_of_lakes(toward_centre(point, share), lakes)


def clear_of_lakes(p: Point, lakes: dict[int, Point]) -> Point:
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


def compass_word(here: Oriented, zone_index: int) -> str:
    """Where on the turned tile a zone lies: ``north``, ``south-west``, ``middle``;
    a river by the sides it runs to (``west-east``, ``north``)."""
    zone = here.tile.zone(zone_index)
    if zone.type == "river":
        # A river is found by the sides it runs to: "west-east", "north".
        sides = sorted({s // 3 for s in here.zone_segments[zone_index]}, key=_READING_ORDER.index)
        return "-".join(_SIDE_WORDS[s] for s in sides)
    x, y = _centroid(here, zone, lake_positions(here))
    dx, dy = x - 50, 50 - y
    if math.hypot(dx, dy) < 12:
        return "middle"
    sector = round(math.degrees(math.atan2(dy, dx)) / 45) % 8
    return _COMPASS[sector]
