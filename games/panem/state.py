"""The state of a game of panem: a frozen tree, changed only by ``evolve``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gamelog.games.panem.catalog import Catalog

PUBLIC = "#public"
"""Key of ``seen`` and ``memory`` for what everybody at the table saw."""
NEUTRAL = "#neutral"
"""Owner of the neutral lots in a two-player game."""
DISCARD = "discard"
"""Name of the discard pile (Capitol storehouse) among the piles one can look at."""

SETUP = "setup"
MOVEMENT = "movement"
TRADING = "trading"
TRIBUTE = "tribute"
HAND_LIMIT = "hand_limit"
OVER = "over"

# Steps of the movement phase for the seat whose turn it is.
MOVE = "move"
ACT = "act"
FOREST_KEEP = "forest_keep"
HOUSE_KEEP = "house_keep"
EXCHANGE = "exchange"


@dataclass(frozen=True)
class Offer:
    id: int
    proposer: str
    target: str
    give: tuple[str, ...]
    ask: tuple[str, ...]


@dataclass(frozen=True)
class PanemState:
    seats: tuple[str, ...]
    catalog: Catalog
    deal: dict[str, Any] = field(default_factory=dict)
    round: int = 0
    phase: str = SETUP
    start_player: str = ""
    covered: frozenset[str] = frozenset()
    hands: dict[str, frozenset[str]] = field(default_factory=dict)
    draw_pile: frozenset[str] = frozenset()
    draws_made: int = 0
    discard_top: str | None = None
    discard: frozenset[str] = frozenset()
    box: frozenset[str] = frozenset()
    start_pool: frozenset[str] = frozenset()
    hob: dict[str, frozenset[str]] = field(default_factory=dict)
    bakery: dict[str, frozenset[str]] = field(default_factory=dict)
    glass_ball: dict[str, int] = field(default_factory=dict)
    lots_left: dict[str, int] = field(default_factory=dict)
    advantage: dict[str, str | None] = field(default_factory=dict)
    took_advantage: frozenset[str] = frozenset()
    later_advantages: frozenset[str] = frozenset()
    beside: dict[str, str] = field(default_factory=dict)
    chips: frozenset[str] = frozenset()
    position: dict[str, str | None] = field(default_factory=dict)
    last_location: dict[str, str | None] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    turn: int = 0
    step: str = ""
    revealed: tuple[str, ...] = ()
    drawn: tuple[str, ...] = ()
    looking: str | None = None
    tribute_goods: tuple[str, ...] = ()
    sealed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    hand_limit: dict[str, int] = field(default_factory=dict)
    offers: tuple[Offer, ...] = ()
    next_offer: int = 1
    proposals_made: dict[str, int] = field(default_factory=dict)
    trading_done: frozenset[str] = frozenset()
    shows_made: dict[str, int] = field(default_factory=dict)
    shown: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    """Viewer (a seat or PUBLIC) -> holder -> the holder's cards the viewer was
    shown and knows are still in the holder's hand (see ``evolve._forget_shown``)."""
    seen: dict[str, frozenset[str]] = field(default_factory=dict)
    memory: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    lot_drawn: str | None = None

    @property
    def mover(self) -> str | None:
        if self.phase != MOVEMENT or self.turn >= len(self.order):
            return None
        return self.order[self.turn]

    def location(self, seat: str) -> str | None:
        space = self.position.get(seat)
        return None if space is None else self.catalog.location_of(space)

    def open_spaces(self, location: str | None = None) -> list[str]:
        """Spaces not covered for this player count, in board order (left first),
        all of them or those of one location."""
        return [
            s.id
            for s in self.catalog.spaces
            if s.id not in self.covered and location in (None, s.location)
        ]

    def pile(self, name: str) -> frozenset[str]:
        if name == DISCARD:
            top = frozenset() if self.discard_top is None else frozenset({self.discard_top})
            return self.discard | top
        return self.hob[name]

    def lots_placed(self, owner: str) -> int:
        return self.glass_ball.get(owner, 0)
