"""Points: completed forests and rivers during play, huts and hunters at the end."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gamelog.games.carcassonne_hg.board import Board
from gamelog.games.carcassonne_hg.features import Feature, Node, zone_of
from gamelog.games.carcassonne_hg.tiles import Tileset


@dataclass(frozen=True)
class Follower:
    """A tribe member (gatherer, fisher, hunter) or a hut standing on a zone."""

    seat: str
    piece: str
    x: int
    y: int
    zone: int

    @property
    def node(self) -> Node:
        return (self.x, self.y, self.zone)

    def to_json(self) -> dict[str, str | int]:
        return {"seat": self.seat, "piece": self.piece, "x": self.x, "y": self.y, "zone": self.zone}


PIECE_FOR_KIND = {"forest": "gatherer", "river": "fisher", "meadow": "hunter", "system": "hut"}


def on_feature(followers: Iterable[Follower], feature: Feature) -> list[Follower]:
    piece = PIECE_FOR_KIND[feature.kind]
    return [f for f in followers if f.piece == piece and f.node in feature.nodes]


def majority(pieces: Sequence[Follower], seats: Sequence[str]) -> list[str]:
    """Seats with the most pieces (all of them on a tie), in seat order."""
    counts = {seat: 0 for seat in seats}
    for piece in pieces:
        counts[piece.seat] += 1
    best = max(counts.values(), default=0)
    return [seat for seat in seats if best > 0 and counts[seat] == best]


def forest_points(tileset: Tileset, board: Board, forest: Feature) -> dict[str, int | bool]:
    zones = [zone_of(tileset, board, n) for n in forest.nodes]
    mushrooms = sum(z.mushrooms for z in zones)
    tiles = len(forest.tiles)
    return {
        "size": tiles,
        "mushrooms": mushrooms,
        "gold_nugget": any(z.gold_nugget for z in zones),
        "points": 2 * tiles + 2 * mushrooms,
    }


def river_lakes(tileset: Tileset, board: Board, river: Feature) -> set[Node]:
    lakes: set[Node] = set()
    for x, y, index in river.nodes:
        lake = zone_of(tileset, board, (x, y, index)).lake
        if lake is not None:
            lakes.add((x, y, lake))
    return lakes


def river_points(tileset: Tileset, board: Board, river: Feature) -> dict[str, int]:
    fish = sum(zone_of(tileset, board, lake).fish for lake in river_lakes(tileset, board, river))
    tiles = len(river.tiles)
    return {"size": tiles, "fish": fish, "points": tiles + fish}


def system_points(tileset: Tileset, board: Board, system: Feature) -> dict[str, int]:
    fish = sum(zone_of(tileset, board, n).fish for n in system.nodes)
    return {"fish": fish, "points": fish}


def meadow_points(tileset: Tileset, board: Board, meadow: Feature) -> dict[str, int | bool]:
    zones = [zone_of(tileset, board, n) for n in meadow.nodes]
    deer = sum(z.deer for z in zones)
    mammoth = sum(z.mammoth for z in zones)
    aurochs = sum(z.aurochs for z in zones)
    tiger = sum(z.tiger for z in zones)
    fire = any(z.power == "fire" for z in zones)
    hunted = max(deer - (0 if fire else tiger), 0)
    return {
        "deer": deer,
        "mammoth": mammoth,
        "aurochs": aurochs,
        "tiger": tiger,
        "fire": fire,
        "points": 2 * (hunted + mammoth + aurochs),
    }


def meadow_scorers(
    tileset: Tileset, board: Board, hunters: Sequence[Follower], seats: Sequence[str]
) -> tuple[list[str], str | None]:
    """Who scores a meadow, and the seat of a hunter on the shrine if any."""
    for hunter in hunters:
        if zone_of(tileset, board, hunter.node).power == "shrine":
            return [hunter.seat], hunter.seat
    return majority(hunters, seats), None
