"""Component sets: the resources, the locations and the boat deck.

The rulebook page we have names five resources and two of the eight
locations, and no boat card. The shipped set ``pyramidion/page-7``
(``data/page-7.json``) holds exactly that; a club that owns the game may give
its own set at creation (``options.components``, same shape), with each
location's production and the whole boat deck::

    {"name": "our-club", "resources": ["camel", "food", "statue", ...],
     "locations": [{"id": "gizeh", "name": "Gizeh", "produces": ["camel"]}, ...],
     "boats": [{"card": "B01", "requirements": {"stone": 2}, "points": 3}, ...]}

``produces`` may be null (the arbiter declares it when first needed) and
``boats`` may be null (the arbiter declares each boat as it is turned up);
with a deck the game deals the boats itself. A set must hold the statue (the
wildcard of phase 7) and Gizeh (where phase 6 takes the player order from).

>>> page7 = shipped_components("pyramidion/page-7")
>>> page7.resources
('camel', 'food', 'statue', 'stone', 'worker')
>>> [location.id for location in page7.locations][:3]
['gizeh', 'cairo', 'location-3']
>>> page7.boats is None
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamelog.games.components import load_json
from gamelog.games.protocol import InvalidOptions, is_int
from gamelog.games.pyramidion.resources import WILDCARD, checked_counts

DEFAULT_SET = "pyramidion/page-7"
SHIPPED_SETS = {DEFAULT_SET: "page-7.json"}
GIZEH = "gizeh"
SUPPLY = "supply"
"""Where resources come from and go back to (page 7: "allgemeiner Vorrat");
no location may be called so."""
MAX_NAME = 40


@dataclass(frozen=True)
class LocationCard:
    id: str
    name: str | None
    produces: tuple[str, ...] | None
    """Page 7: shown "in der Ecke rechts oben auf dem Orts-Plättchen"."""


@dataclass(frozen=True)
class BoatCard:
    card: str
    requirements: Mapping[str, int]
    points: int


@dataclass(frozen=True)
class Components:
    name: str
    resources: tuple[str, ...]
    locations: tuple[LocationCard, ...]
    boats: tuple[BoatCard, ...] | None
    """The boat deck, or None: the arbiter declares boats as they turn up."""

    def boat(self, card: str) -> BoatCard:
        for boat in self.boats or ():
            if boat.card == card:
                return boat
        raise KeyError(card)

    @property
    def location_ids(self) -> tuple[str, ...]:
        return tuple(location.id for location in self.locations)


def fit_name(value: Any, what: str) -> str:
    """A short, printable, one-line name from outside."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise ValueError(f"{what} is a name of 1 to {MAX_NAME} characters")
    if not value.isprintable():
        raise ValueError(f"{what} may not hold line breaks or control characters")
    return value


def _fail(message: str) -> InvalidOptions:
    return InvalidOptions("bad-components", message)


def parse_components(raw: Any) -> Components:
    """A component set from JSON, checked; InvalidOptions says what is wrong."""
    if not isinstance(raw, Mapping):
        raise _fail("components must be a JSON object")
    unknown = set(raw) - {"name", "about", "resources", "locations", "boats"}
    if unknown:
        raise _fail(f"components take no key {sorted(unknown)}")
    try:
        name = fit_name(raw.get("name"), "components.name")
        if "#" in name:
            raise ValueError("components.name may not hold '#'")
    except ValueError as error:
        raise _fail(str(error)) from None
    resources = _resources(raw.get("resources"))
    locations = _locations(raw.get("locations"), resources)
    boats = _boats(raw.get("boats"), resources)
    return Components(name, resources, locations, boats)


def _resources(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(r, str) for r in raw):
        raise _fail("components.resources is a list of resource names")
    for name in raw:
        if not name or len(name) > MAX_NAME or not name.replace("-", "").isalnum():
            raise _fail(f"resource {name!r}: letters, digits and '-', at most {MAX_NAME}")
    if len(set(raw)) != len(raw) or WILDCARD not in raw or len(raw) < 2:
        raise _fail(f"components.resources names distinct resources, {WILDCARD!r} among them")
    return tuple(sorted(raw))


def _locations(raw: Any, resources: tuple[str, ...]) -> tuple[LocationCard, ...]:
    if not isinstance(raw, list) or len(raw) < 3:
        raise _fail("components.locations lists at least three locations")
    found: list[LocationCard] = []
    for entry in raw:
        if not isinstance(entry, Mapping) or set(entry) - {"id", "name", "produces"}:
            raise _fail('each location is {"id": ..., "name": ..., "produces": [...] or null}')
        ident = entry.get("id")
        if (
            not isinstance(ident, str)
            or not ident
            or len(ident) > MAX_NAME
            or not ident.replace("-", "").isalnum()
            or ident == SUPPLY
        ):
            raise _fail(f"location id {ident!r}: letters, digits and '-', not {SUPPLY!r}")
        name = entry.get("name")
        if name is not None:
            try:
                name = fit_name(name, f"the name of {ident}")
            except ValueError as error:
                raise _fail(str(error)) from None
        found.append(LocationCard(ident, name, _produces(entry.get("produces"), resources, ident)))
    ids = [location.id for location in found]
    if len(set(ids)) != len(ids) or GIZEH not in ids:
        raise _fail(f"location ids are distinct and {GIZEH!r} is one of them")
    return tuple(found)


def _produces(raw: Any, resources: tuple[str, ...], where: str) -> tuple[str, ...] | None:
    if raw is None:
        return None
    known = isinstance(raw, list) and all(isinstance(r, str) and r in resources for r in raw)
    if not known or not raw or len(set(raw)) != len(raw):
        raise _fail(f"{where} produces a list of distinct known resources, or null")
    return tuple(sorted(raw))


def _boats(raw: Any, resources: tuple[str, ...]) -> tuple[BoatCard, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or not raw:
        raise _fail("components.boats is the list of boat cards, or null")
    boats: list[BoatCard] = []
    for entry in raw:
        if not isinstance(entry, Mapping) or set(entry) != {"card", "requirements", "points"}:
            raise _fail('each boat is {"card": id, "requirements": {...}, "points": n}')
        card = entry["card"]
        if not isinstance(card, str) or not card or len(card) > MAX_NAME or "#" in card:
            raise _fail(f"boat card id {card!r}: 1 to {MAX_NAME} characters, no '#'")
        if not card.replace("-", "").isalnum():
            raise _fail(f"boat card id {card!r}: letters, digits and '-'")
        requirements = checked_counts(
            entry["requirements"], resources, f"boat {card}", InvalidOptions
        )
        points = entry["points"]
        if not is_int(points) or points < 0:
            raise _fail(f"boat {card}: points is a whole number, 0 or more")
        boats.append(BoatCard(card, requirements, points))
    cards = [boat.card for boat in boats]
    if len(set(cards)) != len(cards):
        raise _fail("boat card ids are distinct")
    return tuple(boats)


@functools.cache
def shipped_components(name: str) -> Components:
    return parse_components(load_json("gamelog.games.pyramidion", SHIPPED_SETS[name]))
