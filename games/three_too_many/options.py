"""Creation options: component set, start seat, and an explicit deal.

>>> normalize({}, ("ann", "ben"))
{'component_set': 'three-too-many/house-1', 'start_seat': 'ann'}

An explicit deal names the three display cards, each seat's eight hand
cards and the other twelve cards of each seat's draw pile, in the order they
are drawn (the first six at the first refill). Every card at most once; no
start card (0, 30, 60); cards not named go to the box.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gamelog.games.protocol import JSON, InvalidOptions, Options, check_table, is_int
from gamelog.games.three_too_many.cards import (
    NUMBER_CARDS,
    components_from_json,
    shipped_set_name,
)

DEFAULT_COMPONENT_SET = "three-too-many/house-1"
MIN_PLAYERS = 2
MAX_PLAYERS = 4
DISPLAY_CARDS = 3
PILE_SIZE = 20
HAND_SIZE = 8
REFILL = 6
REFILL_AT = 2
"""A player refills (six cards) when their hand is down to two."""
KNOWN_OPTIONS = frozenset({"component_set", "components", "start_seat", "deal"})


def normalize(options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
    check_table("three-too-many", options, KNOWN_OPTIONS, seats, (MIN_PLAYERS, MAX_PLAYERS))
    normalized: Options = {}
    if "components" in options:
        components = components_from_json(options["components"])
        normalized["component_set"] = components.name
        normalized["components"] = components.to_json()
    else:
        name = options.get("component_set", DEFAULT_COMPONENT_SET)
        normalized["component_set"] = shipped_set_name(name)
    start_seat = options.get("start_seat", seats[0])
    if start_seat not in seats:
        raise InvalidOptions("bad-start-seat", f"start_seat {start_seat!r} is not a seat")
    normalized["start_seat"] = start_seat
    if "deal" in options:
        normalized["deal"] = normalize_deal(options["deal"], seats)
    return normalized


def normalize_deal(deal: JSON, seats: Sequence[str]) -> dict[str, JSON]:
    """Check an explicit deal (see the module docstring) and return it as lists."""

    def bad(message: str) -> InvalidOptions:
        return InvalidOptions("bad-deal", message)

    if not isinstance(deal, dict) or set(deal) != {"display", "hands", "piles"}:
        raise bad('a deal is {"display": [...], "hands": {seat: [...]}, "piles": {seat: [...]}}')

    def cards(value: JSON, count: int, what: str) -> list[int]:
        if not isinstance(value, list) or len(value) != count:
            raise bad(f"{what} needs exactly {count} cards")
        for card in value:
            if not is_int(card) or card not in NUMBER_CARDS:
                raise bad(f"{what}: {card!r} is not a number card (1..89, not 30 or 60)")
        return list(value)

    display = cards(deal["display"], DISPLAY_CARDS, "display")
    used = list(display)
    hands: dict[str, list[int]] = {}
    piles: dict[str, list[int]] = {}
    for part, size, into in (
        ("hands", HAND_SIZE, hands),
        ("piles", PILE_SIZE - HAND_SIZE, piles),
    ):
        given = deal[part]
        if not isinstance(given, dict) or set(given) != set(seats):
            raise bad(f"{part} must name every seat, and only the seats")
        for seat in seats:
            into[seat] = cards(given[seat], size, f"{part}[{seat}]")
            used.extend(into[seat])
    if len(set(used)) != len(used):
        twice = sorted({c for c in used if used.count(c) > 1})
        raise bad(f"cards dealt more than once: {twice}")
    return {"display": display, "hands": hands, "piles": piles}
