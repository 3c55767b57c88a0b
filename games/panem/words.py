"""The words a player reads for panem's components: cards, places, phases.

Notation, the text board and the picture all name things the same way:

>>> from gamelog.games.panem.catalog import shipped_catalog
>>> catalog = shipped_catalog("panem/house-1")
>>> card_name(catalog, "medicine-3-01"), kind_name("food-2")
('medicine 3', 'food 2')
>>> cards_text(catalog, ["medicine-3-01", "food-2-03"])
'medicine 3 and food 2'
>>> advantage_name(catalog, "katniss_bow")
"Katniss' bow"
"""

from __future__ import annotations

from collections.abc import Iterable

from gamelog.games.panem.catalog import (
    BAKERY,
    CAPITOL_STOREHOUSE,
    EVERDEEN_HOUSE,
    FOREST,
    HOB,
    JUSTICE_BUILDING,
    Catalog,
)
from gamelog.games.panem.state import (
    ACT,
    DISCARD,
    EXCHANGE,
    FOREST_KEEP,
    HAND_LIMIT,
    HOUSE_KEEP,
    MOVE,
    MOVEMENT,
    NEUTRAL,
    OVER,
    SETUP,
    TRADING,
    TRIBUTE,
)
from gamelog.games.wording import and_list

LOCATION_NAMES = {
    FOREST: "forest",
    EVERDEEN_HOUSE: "Everdeen house",
    HOB: "Hob",
    BAKERY: "bakery",
    CAPITOL_STOREHOUSE: "Capitol storehouse",
    JUSTICE_BUILDING: "Justice building",
}

PHASE_NAMES = {
    SETUP: "set-up",
    MOVEMENT: "figures move",
    TRADING: "trading",
    TRIBUTE: "tribute",
    HAND_LIMIT: "hand limit",
    OVER: "game over",
}

STEP_NAMES = {
    MOVE: "moves the figure",
    ACT: "acts",
    FOREST_KEEP: "chooses a forest card to keep",
    HOUSE_KEEP: "chooses a drawn card to keep",
    EXCHANGE: "may exchange",
}


def kind_name(kind: str) -> str:
    """``food-2`` -> ``food 2`` (good and survival points)."""
    good, _, value = kind.rpartition("-")
    return f"{good} {value}"


def card_name(catalog: Catalog, card_id: str) -> str:
    card = catalog.cards[card_id]
    return f"{card.good} {card.value}"


def cards_text(catalog: Catalog, card_ids: Iterable[str]) -> str:
    return and_list(card_name(catalog, card) for card in card_ids)


def advantage_name(catalog: Catalog, advantage: str | None) -> str:
    return "none" if advantage is None else catalog.advantages[advantage].name


def location_name(location: str) -> str:
    """``the forest``, ``the Hob``."""
    return f"the {LOCATION_NAMES.get(location, location)}"


def space_number(space: str) -> str:
    return space.rpartition("-")[2]


def space_name(catalog: Catalog, covered: Iterable[str], space: str) -> str:
    """``the forest (space 2)``; only the location where it has a single open space."""
    location = catalog.location_of(space)
    hidden = set(covered)
    open_here = [s for s in catalog.spaces if s.location == location and s.id not in hidden]
    if len(open_here) <= 1:
        return location_name(location)
    return f"{location_name(location)} (space {space_number(space)})"


def pile_name(catalog: Catalog, covered: Iterable[str], pile: str) -> str:
    """The Hob stack of a space, or the discard pile at the Capitol storehouse."""
    if pile == DISCARD:
        return "the discard pile at the Capitol storehouse"
    return f"the stack at {space_name(catalog, covered, pile)}"


def owner_name(owner: str) -> str:
    """A lot's owner: a seat, or the neutral colour of a two-player game."""
    return "a neutral" if owner == NEUTRAL else f"{owner}'s"
