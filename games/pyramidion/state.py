"""The table: who holds what, where the troops stand, which boats lie where.

A round runs through these phases (``PyramidionState.phase``):

``phases-1-to-5``
    What page 7 does not describe. Seats declare what happens (cards drawn and
    played, locations activated, resources gained, troops placed, order
    markers taken in Gizeh) until each has declared it is done; the arbiter
    may turn up boats meanwhile. When the last seat is done, phase 6 sets the
    player order (rule-checked).
``display``
    Only the arbiter acts: it turns up any boats still missing and confirms
    the display, and phase 7 begins.
``loading``
    Phase 7 (rule-checked): in player order each seat loads a boat or passes.
    When nobody can or will load any more, phase 8 counts and either ends the
    game or starts the next round.
``over``
    The boats are revealed; ``result`` holds the outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gamelog.games.protocol import Result
from gamelog.games.pyramidion.components import GIZEH, Components

PHASES_1_TO_5 = "phases-1-to-5"
DISPLAY = "display"
LOADING = "loading"
OVER = "over"

ALL_BOATS = "all-boats"
"""The variant goal: play until every boat is loaded."""
GOALS: tuple[int | str, ...] = (10, 12, 15, ALL_BOATS)


@dataclass(frozen=True)
class Boat:
    """A boat card turned up in this game. ``number`` is public (the n-th
    boat turned up) and names it in moves; ``card`` names its face, whose
    points only the arbiter sees until it is loaded (then its owner too) and
    everybody at the end."""

    number: int
    card: str
    requirements: Mapping[str, int]
    points: int


@dataclass(frozen=True)
class PyramidionState:
    seats: tuple[str, ...]
    components: Components
    goal: int | str = 10
    round: int = 1
    phase: str = PHASES_1_TO_5
    order: tuple[str, ...] = ()
    """The player order track, first to last."""
    hands: Mapping[str, int] = field(default_factory=dict)
    stocks: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    recruits: Mapping[str, int] = field(default_factory=dict)
    done: frozenset[str] = frozenset()
    """Seats that declared phases 1 to 5 finished this round."""
    markers: Mapping[str, int] = field(default_factory=dict)
    """Player-order markers taken in Gizeh this round."""
    activations: tuple[tuple[str, str], ...] = ()
    """(location, seat) in the order the sundial markers went down this round."""
    cards: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """location -> seat -> cards played there this round."""
    troops: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """location -> seat -> torturer troops stationed there."""
    troops_used: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """location -> seat -> troops that fetched a resource this round."""
    piles: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """location -> resources lying there."""
    production: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """location -> what it produces, where the set or a declaration says."""
    names: Mapping[str, str] = field(default_factory=dict)
    boats: Mapping[int, Boat] = field(default_factory=dict)
    """Every boat turned up so far, by number."""
    display: tuple[int, ...] = ()
    loaded: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    deck: tuple[str, ...] | None = None
    """Card ids not yet turned up (sorted: no future order), None when boats
    are declared by the arbiter."""
    deal: tuple[str, ...] = ()
    """The creator's explicit order of the boats turned up (``options.deal``)."""
    deck_exhausted: bool = False
    """Declared by the arbiter when boats are declared (no deck to count)."""
    loader: str | None = None
    passed: frozenset[str] = frozenset()
    """Seats that will load no more boats this round."""
    counts: Mapping[str, int] = field(default_factory=dict)
    """The secret count of the last round end."""
    troop_bonus: str | None = None
    declarations: int = 0
    result: Result | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def activated(self, location: str) -> bool:
        return any(place == location for place, _ in self.activations)

    @property
    def gizeh_activated(self) -> bool:
        return self.activated(GIZEH)

    def troops_of(self, seat: str) -> int:
        return sum(by_seat.get(seat, 0) for by_seat in self.troops.values())

    def free_troops(self, seat: str, location: str) -> int:
        """Troops of ``seat`` at ``location`` that may still fetch this round."""
        stationed = self.troops.get(location, {}).get(seat, 0)
        return stationed - self.troops_used.get(location, {}).get(seat, 0)

    def stock(self, seat: str) -> Mapping[str, int]:
        return self.stocks.get(seat, {})

    def name(self, location: str) -> str:
        return self.names.get(location) or location.replace("-", " ")

    @property
    def boats_left(self) -> bool:
        """Whether any boat may still be turned up."""
        if self.deck is not None:
            return bool(self.deck)
        return not self.deck_exhausted
