"""Creation options: the component set and the explicit deal."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games.panem.catalog import (
    DEFAULT_SET,
    SHIPPED_SETS,
    Catalog,
    parse_components,
    shipped_catalog,
)
from gamelog.games.panem.state import NEUTRAL
from gamelog.games.protocol import InvalidOptions, Options, check_table

DEAL_KEYS = (
    "start_advantages",
    "start_cards",
    "hob",
    "bakery",
    "discard",
    "later_advantages",
    "draws",
    "tribute_lot",
)

KNOWN_OPTIONS = frozenset({"component_set", "components", "deal"})


def catalog_for(options: Mapping[str, Any]) -> Catalog:
    if "components" in options:
        return parse_components(options["components"])
    return shipped_catalog(str(options.get("component_set", DEFAULT_SET)))


def covered_spaces(catalog: Catalog, players: int) -> list[str]:
    return [s.id for s in catalog.spaces if s.min_players > players]


def normalize(options: Mapping[str, Any], seats: Sequence[str]) -> Options:
    check_table("panem", options, KNOWN_OPTIONS, seats, (2, 4))
    result: Options = {}
    if "components" in options:
        catalog = parse_components(options["components"])
        result["component_set"] = catalog.name
        result["components"] = copy.deepcopy(options["components"])
    else:
        name = options.get("component_set", DEFAULT_SET)
        if not isinstance(name, str) or name not in SHIPPED_SETS:
            raise InvalidOptions("unknown-component-set", f"no component set {name!r}")
        catalog = shipped_catalog(name)
        result["component_set"] = name
    if options.get("deal") is not None:
        result["deal"] = _checked_deal(options["deal"], catalog, list(seats))
    return result


def _fail(message: str) -> InvalidOptions:
    return InvalidOptions("bad-deal", message)


def _id_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(f"{what} must be a list of card ids")
    if len(set(value)) != len(value):
        raise _fail(f"{what} names a card twice")
    return list(value)


def _checked_deal(deal: Any, catalog: Catalog, seats: list[str]) -> dict[str, Any]:
    if not isinstance(deal, Mapping):
        raise _fail("deal must be a JSON object")
    unknown = set(deal) - set(DEAL_KEYS)
    if unknown:
        raise _fail(f"unknown deal keys {sorted(unknown)}; known: {list(DEAL_KEYS)}")
    players = len(seats)
    covered = set(covered_spaces(catalog, players))
    starts = {c.id for c in catalog.cards.values() if c.start}
    others = {c.id for c in catalog.cards.values() if not c.start}
    used: set[str] = set()
    out: dict[str, Any] = {}

    def claim(cards: list[str], pool: set[str], what: str) -> None:
        for card in cards:
            if card not in pool:
                raise _fail(f"{what}: {card!r} is not a card that can be dealt there")
            if card in used:
                raise _fail(f"{what}: {card!r} is dealt twice")
            used.add(card)

    if "start_advantages" in deal:
        raw = deal["start_advantages"]
        start_advs = {a.id for a in catalog.advantages.values() if a.start}
        if not isinstance(raw, Mapping) or set(raw) != set(seats):
            raise _fail("start_advantages maps every seat to a start advantage")
        values = list(raw.values())
        # Checked one by one: set() of a list holding a list would raise TypeError.
        known = all(isinstance(v, str) and v in start_advs for v in values)
        if not known or len(set(values)) != len(values):
            raise _fail(f"start_advantages: each seat gets a different one of {sorted(start_advs)}")
        out["start_advantages"] = {seat: raw[seat] for seat in seats}
    if "start_cards" in deal:
        raw = deal["start_cards"]
        counts = catalog.start_cards_by_seat[str(players)]
        if not isinstance(raw, Mapping) or set(raw) != set(seats):
            raise _fail("start_cards maps every seat to its start cards")
        out["start_cards"] = {}
        for seat, count in zip(seats, counts):
            cards = _id_list(raw[seat], f"start_cards[{seat}]")
            if len(cards) != count:
                raise _fail(f"start_cards[{seat}]: seat {seat} gets {count} start cards")
            claim(cards, starts, f"start_cards[{seat}]")
            out["start_cards"][seat] = cards
    for key, location, per_space in (
        ("hob", "hob", catalog.setup_hob_cards),
        ("bakery", "bakery", catalog.setup_bakery_cards),
    ):
        if key not in deal:
            continue
        raw = deal[key]
        spaces = [s.id for s in catalog.spaces if s.location == location and s.id not in covered]
        if not isinstance(raw, Mapping) or set(raw) != set(spaces):
            raise _fail(f"{key} maps each open {location} space {spaces} to its cards")
        out[key] = {}
        for space in spaces:
            cards = _id_list(raw[space], f"{key}[{space}]")
            if len(cards) != per_space:
                raise _fail(f"{key}[{space}] holds {per_space} cards")
            claim(cards, others, f"{key}[{space}]")
            out[key][space] = cards
    if "discard" in deal:
        if not isinstance(deal["discard"], str):
            raise _fail("discard is one card id")
        claim([deal["discard"]], others, "discard")
        out["discard"] = deal["discard"]
    if "later_advantages" in deal:
        later = {a.id for a in catalog.advantages.values() if not a.start}
        order = deal["later_advantages"]
        known = isinstance(order, list) and all(isinstance(a, str) and a in later for a in order)
        if not known or len(set(order)) != len(order):
            raise _fail(f"later_advantages is an order of distinct ids among {sorted(later)}")
        out["later_advantages"] = list(order)
    if "draws" in deal:
        draws = _id_list(deal["draws"], "draws")
        for card in draws:
            if card not in others or card in used:
                raise _fail(f"draws: {card!r} is not in the draw pile after the set-up")
        out["draws"] = draws
    if "tribute_lot" in deal:
        owners = [*seats, NEUTRAL] if players == 2 else seats
        if deal["tribute_lot"] not in owners:
            raise _fail(f"tribute_lot is one of {owners}")
        out["tribute_lot"] = deal["tribute_lot"]
    return out
