"""The tile set: land, start and bonus tiles with their zones, read from data.

A tile's border is cut into twelve segments, numbered clockwise from the
north-west corner (see the data file's ``schema``): ``N0 N1 N2 E0 E1 E2 S0 S1 S2
W0 W1 W2`` are 0..11 here, side ``s`` (N=0, E=1, S=2, W=3) owning segments
``3s .. 3s+2``. A rotation turns the tile clockwise by quarter turns, so local
segment ``3s+k`` lands on world segment ``3((s+r) % 4)+k``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamelog.games.components import load_json
from gamelog.games.protocol import InvalidOptions, is_int

SIDES = ("N", "E", "S", "W")
SIDE_TYPES = ("forest", "meadow", "river")
ZONE_TYPES = ("forest", "meadow", "river", "lake")
KINDS = ("start", "land", "bonus")
POWERS = ("fire", "shrine")
ANIMALS = ("deer", "mammoth", "aurochs", "tiger")
SHIPPED_SETS = {"carcassonne-hg/house-2002": "carcassonne-hg-tiles-2002-house.json"}


@dataclass(frozen=True)
class ZoneDef:
    """One zone of a tile: a forest, meadow, river or lake."""

    index: int
    type: str
    segments: tuple[int, ...]
    gold_nugget: bool = False
    mushrooms: bool = False
    deer: int = 0
    mammoth: int = 0
    aurochs: int = 0
    tiger: int = 0
    power: str | None = None
    fish: int = 0
    lake: int | None = None


@dataclass(frozen=True)
class TileDef:
    id: int
    kind: str
    sides: tuple[str, str, str, str]
    zones: tuple[ZoneDef, ...]

    def zone(self, index: int) -> ZoneDef:
        for zone in self.zones:
            if zone.index == index:
                return zone
        raise KeyError(index)


@dataclass(frozen=True)
class Tileset:
    """A whole component set; ``digest`` names its content for caches."""

    name: str
    tiles: tuple[TileDef, ...]
    digest: str

    @property
    def start_tile(self) -> int:
        return next(t.id for t in self.tiles if t.kind == "start")

    def ids(self, kind: str) -> tuple[int, ...]:
        return tuple(sorted(t.id for t in self.tiles if t.kind == kind))


def segment_number(name: str) -> int:
    if len(name) != 2 or name[0] not in SIDES or name[1] not in "012":
        raise ValueError(name)
    return SIDES.index(name[0]) * 3 + int(name[1])


def segment_name(number: int) -> str:
    return f"{SIDES[number // 3]}{number % 3}"


def _bad(message: str) -> InvalidOptions:
    return InvalidOptions("bad-components", message)


def _int(value: Any, what: str) -> int:
    if not is_int(value) or value < 0:
        raise _bad(f"{what} must be a non-negative integer")
    return value


def _parse_zone(tile_id: int, raw: Any) -> ZoneDef:
    if not isinstance(raw, Mapping):
        raise _bad(f"tile {tile_id}: a zone must be an object")
    index = _int(raw.get("zone"), f"tile {tile_id} zone index")
    kind = raw.get("type")
    if kind not in ZONE_TYPES:
        raise _bad(f"tile {tile_id} zone {index}: unknown type {kind!r}")
    names = raw.get("segments")
    if not isinstance(names, list):
        raise _bad(f"tile {tile_id} zone {index}: segments must be a list")
    try:
        segments = tuple(segment_number(n) for n in names)
    except (ValueError, TypeError):
        raise _bad(f"tile {tile_id} zone {index}: bad segment names {names!r}") from None
    where = f"tile {tile_id} zone {index}"
    if kind == "forest":
        gold, mushrooms = raw.get("gold_nugget"), raw.get("mushrooms")
        if not isinstance(gold, bool) or not isinstance(mushrooms, bool):
            raise _bad(f"{where}: gold_nugget and mushrooms must be booleans")
        return ZoneDef(index, kind, segments, gold_nugget=gold, mushrooms=mushrooms)
    if kind == "meadow":
        animals = raw.get("animals")
        if not isinstance(animals, Mapping) or set(animals) != set(ANIMALS):
            raise _bad(f"{where}: animals must give {', '.join(ANIMALS)}")
        power = raw.get("power")
        if power is not None and power not in POWERS:
            raise _bad(f"{where}: unknown meadow power {power!r}")
        deer, mammoth, aurochs, tiger = (_int(animals[a], f"{where} {a}") for a in ANIMALS)
        return ZoneDef(
            index,
            kind,
            segments,
            power=power,
            deer=deer,
            mammoth=mammoth,
            aurochs=aurochs,
            tiger=tiger,
        )
    if kind == "river":
        lake = raw.get("lake")
        if lake is not None:
            lake = _int(lake, f"{where} lake")
        return ZoneDef(
            index, kind, segments, fish=_int(raw.get("fish"), f"{where} fish"), lake=lake
        )
    if segments:
        raise _bad(f"{where}: a lake never touches the border")
    if raw.get("power") is not None:
        raise _bad(f"{where}: lakes have no power")
    return ZoneDef(index, kind, segments, fish=_int(raw.get("fish"), f"{where} fish"))


def _check_tile(tile: TileDef, raw_sides: list[Any]) -> None:
    where = f"tile {tile.id}"
    owner: dict[int, ZoneDef] = {}
    indices = [z.index for z in tile.zones]
    if len(set(indices)) != len(indices):
        raise _bad(f"{where}: zone indices repeat")
    for zone in tile.zones:
        for seg in zone.segments:
            if seg in owner:
                raise _bad(f"{where}: segment {segment_name(seg)} is in two zones")
            owner[seg] = zone
    if len(owner) != 12:
        raise _bad(f"{where}: every one of the 12 segments needs exactly one zone")
    for s, side_type in enumerate(tile.sides):
        expected = ["river" if k == 1 else "meadow" for k in range(3)]
        if side_type != "river":
            expected = [side_type] * 3
        for k in range(3):
            if owner[s * 3 + k].type != expected[k]:
                raise _bad(f"{where}: side {SIDES[s]} ({side_type}) disagrees with its zones")
        raw = raw_sides[s]
        listed = raw.get("zones") if isinstance(raw, Mapping) else None
        # A list or nothing: list() of a number raised TypeError at creation.
        own = [owner[s * 3 + k].index for k in range(3)]
        if listed is not None and (not isinstance(listed, list) or listed != own):
            raise _bad(f"{where}: side {SIDES[s]} zones must list the zones of its segments")
    lakes = {z.index for z in tile.zones if z.type == "lake"}
    fed: set[int] = set()
    for zone in tile.zones:
        if zone.type == "river":
            if zone.lake is not None and zone.lake not in lakes:
                raise _bad(f"{where} zone {zone.index}: flows into a lake the tile lacks")
            if zone.lake is not None:
                fed.add(zone.lake)
            sides = {seg // 3 for seg in zone.segments}
            if not 1 <= len(sides) <= 2 or (len(sides) == 2 and zone.lake is not None):
                raise _bad(f"{where} zone {zone.index}: a river touches one or two sides")
    if fed != lakes:
        raise _bad(f"{where}: every lake must be fed by a river of the tile")


def parse_tileset(name: str, data: Any) -> Tileset:
    """Validate a whole component set (the data file's schema) into a Tileset."""
    if not isinstance(data, Mapping) or not isinstance(data.get("tiles"), list):
        raise _bad("a component set is an object with a 'tiles' list")
    tiles: list[TileDef] = []
    for raw in data["tiles"]:
        if not isinstance(raw, Mapping):
            raise _bad("each tile must be an object")
        tile_id = _int(raw.get("id"), "tile id")
        kind = raw.get("kind")
        if kind not in KINDS:
            raise _bad(f"tile {tile_id}: kind must be one of {KINDS}")
        raw_sides = raw.get("sides")
        if not isinstance(raw_sides, list) or len(raw_sides) != 4:
            raise _bad(f"tile {tile_id}: four sides N, E, S, W are needed")
        side_types = []
        for s, side in enumerate(raw_sides):
            if not isinstance(side, Mapping) or side.get("side", SIDES[s]) != SIDES[s]:
                raise _bad(f"tile {tile_id}: sides must be listed N, E, S, W")
            if side.get("type") not in SIDE_TYPES:
                raise _bad(f"tile {tile_id}: side type must be one of {SIDE_TYPES}")
            side_types.append(str(side["type"]))
        raw_zones = raw.get("zones")
        if not isinstance(raw_zones, list):
            raise _bad(f"tile {tile_id}: zones must be a list")
        zones = tuple(_parse_zone(tile_id, z) for z in raw_zones)
        tile = TileDef(
            tile_id, kind, (side_types[0], side_types[1], side_types[2], side_types[3]), zones
        )
        _check_tile(tile, raw_sides)
        tiles.append(tile)
    ids = [t.id for t in tiles]
    if len(set(ids)) != len(ids):
        raise _bad("tile ids must be unique")
    if sum(t.kind == "start" for t in tiles) != 1:
        raise _bad("a set has exactly one start tile")
    if not any(t.kind == "land" for t in tiles):
        raise _bad("a set needs land tiles")
    canonical = json.dumps({"tiles": data["tiles"]}, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    return Tileset(name, tuple(sorted(tiles, key=lambda t: t.id)), digest)


_SHIPPED_CACHE: dict[str, Tileset] = {}


def shipped_tileset(name: str) -> Tileset:
    if name not in SHIPPED_SETS:
        known = ", ".join(sorted(SHIPPED_SETS))
        raise InvalidOptions("unknown-component-set", f"no component set {name!r}; known: {known}")
    if name not in _SHIPPED_CACHE:
        _SHIPPED_CACHE[name] = parse_tileset(name, shipped_data(name))
    return _SHIPPED_CACHE[name]


def shipped_data(name: str) -> Any:
    return load_json("gamelog.games.carcassonne_hg", SHIPPED_SETS[name])


@dataclass(frozen=True)
class TilesetRef:
    """What a game state keeps of its tile set: the shipped set's name, or the
    canonical JSON of an inline set. Snapshots stay small; ``resolve`` parses
    (once per process) the same Tileset again."""

    name: str
    inline: str | None = None


_RESOLVED: dict[tuple[str, str | None], Tileset] = {}


def resolve(ref: TilesetRef) -> Tileset:
    key = (ref.name, ref.inline)
    found = _RESOLVED.get(key)
    if found is None:
        if ref.inline is None:
            found = shipped_tileset(ref.name)
        else:
            found = parse_tileset(ref.name, json.loads(ref.inline))
        _RESOLVED[key] = found
    return found


def reference(name: str, components: Any | None) -> TilesetRef:
    if components is None:
        return TilesetRef(name)
    return TilesetRef(name, json.dumps(components, sort_keys=True, separators=(",", ":")))


@dataclass(frozen=True)
class Oriented:
    """A tile turned ``rotation`` quarter turns clockwise, in world terms."""

    tile: TileDef
    rotation: int
    sides: tuple[str, ...]
    """Side types by world side N, E, S, W."""
    segment_zone: tuple[int, ...]
    """The zone index on each of the 12 world segments."""
    zone_segments: Mapping[int, tuple[int, ...]]
    """World segments of each zone (lakes: none)."""


_TABLES: dict[str, dict[tuple[int, int], Oriented]] = {}


def oriented(tileset: Tileset, tile_id: int, rotation: int) -> Oriented:
    table = _TABLES.get(tileset.digest)
    if table is None:
        table = {}
        for tile in tileset.tiles:
            for r in range(4):
                table[(tile.id, r)] = _orient(tile, r)
        _TABLES[tileset.digest] = table
    return table[(tile_id, rotation)]


def _orient(tile: TileDef, r: int) -> Oriented:
    sides = tuple(tile.sides[(s - r) % 4] for s in range(4))
    local_zone = {seg: z.index for z in tile.zones for seg in z.segments}
    segment_zone = tuple(local_zone[(((w // 3) - r) % 4) * 3 + w % 3] for w in range(12))
    zone_segments = {
        z.index: tuple(sorted(((seg // 3 + r) % 4) * 3 + seg % 3 for seg in z.segments))
        for z in tile.zones
    }
    return Oriented(tile, r, sides, segment_zone, zone_segments)


def tile_by_id(tileset: Tileset, tile_id: int) -> TileDef:
    return oriented(tileset, tile_id, 0).tile
