"""Features: forests, rivers, meadows and river systems spanning many tiles.

A feature is a set of zone nodes ``(x, y, zone)`` joined across touching tile
sides. Forests, rivers and meadows join only zones of their own type; a river
system joins rivers and lakes, a river reaching the lake it flows into on its
tile. A feature is complete when none of its segments faces an empty place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gamelog.games.carcassonne_hg.board import Board, facing_segment, oriented_at, step
from gamelog.games.carcassonne_hg.tiles import Tileset, ZoneDef

Node = tuple[int, int, int]

KIND_TYPES: dict[str, tuple[str, ...]] = {
    "forest": ("forest",),
    "river": ("river",),
    "meadow": ("meadow",),
    "system": ("river", "lake"),
}
"""The zone types each kind of feature joins."""


@dataclass(frozen=True)
class Feature:
    kind: str
    nodes: frozenset[Node]
    open_edges: int

    @property
    def complete(self) -> bool:
        return self.open_edges == 0

    @property
    def tiles(self) -> frozenset[tuple[int, int]]:
        return frozenset((x, y) for x, y, _ in self.nodes)

    @property
    def key(self) -> Node:
        """A stable name: the smallest node (by y, x, zone)."""
        return min(self.nodes, key=lambda n: (n[1], n[0], n[2]))


def zone_of(tileset: Tileset, board: Board, node: Node) -> ZoneDef:
    return oriented_at(tileset, board, (node[0], node[1])).tile.zone(node[2])


def feature_at(tileset: Tileset, board: Board, node: Node, kind: str) -> Feature:
    types = KIND_TYPES[kind]
    seen = {node}
    todo = [node]
    open_edges = 0
    while todo:
        x, y, zone_index = todo.pop()
        here = oriented_at(tileset, board, (x, y))
        zone = here.tile.zone(zone_index)
        links: list[Node] = []
        for segment in here.zone_segments[zone_index]:
            near_pos = step((x, y), segment // 3)
            near = board.get(near_pos)
            if near is None:
                open_edges += 1
                continue
            near_zone = oriented_at(tileset, board, near_pos).segment_zone[facing_segment(segment)]
            links.append((near_pos[0], near_pos[1], near_zone))
        if kind == "system":
            if zone.type == "river" and zone.lake is not None:
                links.append((x, y, zone.lake))
            if zone.type == "lake":
                links.extend(
                    (x, y, z.index)
                    for z in here.tile.zones
                    if z.type == "river" and z.lake == zone_index
                )
        for link in links:
            if link not in seen and zone_of(tileset, board, link).type in types:
                seen.add(link)
                todo.append(link)
    return Feature(kind, frozenset(seen), open_edges)


def _distinct_features(
    tileset: Tileset, board: Board, places: Iterable[tuple[int, int]], kind: str
) -> list[Feature]:
    """The features of ``kind`` reaching the tiles at ``places``, each found once."""
    found: list[Feature] = []
    covered: set[Node] = set()
    for x, y in places:
        for zone in oriented_at(tileset, board, (x, y)).tile.zones:
            node = (x, y, zone.index)
            if zone.type in KIND_TYPES[kind] and node not in covered:
                feature = feature_at(tileset, board, node, kind)
                covered |= feature.nodes
                found.append(feature)
    return found


def features_on_tile(
    tileset: Tileset, board: Board, pos: tuple[int, int], kind: str
) -> list[Feature]:
    """The distinct features of ``kind`` that the tile at ``pos`` belongs to."""
    return _distinct_features(tileset, board, [pos], kind)


def all_features(tileset: Tileset, board: Board, kind: str) -> list[Feature]:
    """Every feature of ``kind`` on the map, ordered by key."""
    found = _distinct_features(tileset, board, sorted(board, key=lambda p: (p[1], p[0])), kind)
    return sorted(found, key=lambda f: (f.key[1], f.key[0], f.key[2]))
