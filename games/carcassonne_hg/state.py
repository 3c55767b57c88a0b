"""The position: the map, the pieces, the piles, the score track."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from gamelog.games.carcassonne_hg.board import Placement, Pos
from gamelog.games.carcassonne_hg.scoring import Follower
from gamelog.games.carcassonne_hg.tiles import Tileset, TilesetRef, resolve

TRIBE_MEMBERS = 5
"""Six figures per colour, one of which marks the score track."""
HUTS = 2


class Phase(enum.Enum):
    PLACE = "place"
    """A drawn tile waits to be laid."""
    DEPLOY = "deploy"
    """The laid tile may get a tribe member or a hut."""
    BETWEEN = "between"
    """Only inside one decision: scoring and the next draw follow."""
    OVER = "over"


@dataclass(frozen=True)
class HGState:
    seats: tuple[str, ...]
    components: TilesetRef
    deal_order: tuple[int, ...] = ()
    bonus_deal_order: tuple[int, ...] = ()
    land_pile: frozenset[int] = frozenset()
    bonus_pile: frozenset[int] = frozenset()
    land_draws: int = 0
    bonus_draws: int = 0
    board: dict[Pos, Placement] = field(default_factory=dict)
    followers: tuple[Follower, ...] = ()
    members: tuple[int, ...] = ()
    huts: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    phase: Phase = Phase.BETWEEN
    turn: int = 0
    tile: int | None = None
    tile_is_bonus: bool = False
    placed_at: Pos | None = None
    set_aside: tuple[int, ...] = ()
    ranking: tuple[tuple[str, ...], ...] | None = None

    @property
    def tileset(self) -> Tileset:
        return resolve(self.components)

    @property
    def current_seat(self) -> str:
        return self.seats[self.turn]
