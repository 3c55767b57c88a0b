"""The component set: survival cards, advantages, locations and the round track.

A set is JSON (``data/house-1.json`` is the shipped one); ``parse_components``
validates it and builds a ``Catalog``, which the state carries so that a game
created with an inline set replays with that set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from gamelog.games.components import load_json
from gamelog.games.protocol import InvalidOptions, is_int

DEFAULT_SET = "panem/house-1"
SHIPPED_SETS = {DEFAULT_SET: "house-1.json"}

FOREST = "forest"
EVERDEEN_HOUSE = "everdeen_house"
HOB = "hob"
BAKERY = "bakery"
CAPITOL_STOREHOUSE = "capitol_storehouse"
JUSTICE_BUILDING = "justice_building"
LOCATIONS = (FOREST, EVERDEEN_HOUSE, HOB, BAKERY, CAPITOL_STOREHOUSE, JUSTICE_BUILDING)

# A tuple, not a set: ``in`` then refuses an unhashable kind instead of raising TypeError.
EFFECT_KINDS = ("forest_keep", "bakery_draw", "house_draw", "exchange", "good_values", "all_goods")


@dataclass(frozen=True)
class Card:
    id: str
    good: str
    value: int
    start: bool

    @property
    def kind(self) -> str:
        return f"{self.good}-{self.value}"


@dataclass(frozen=True)
class Advantage:
    id: str
    name: str
    start: bool
    location: str | None
    effect: dict[str, Any]
    text: str = ""


@dataclass(frozen=True)
class Space:
    id: str
    location: str
    min_players: int


@dataclass(frozen=True)
class RoundSpec:
    round: int
    bakery: int = 0
    hob: int = 0
    advantages: int = 0
    trade: bool = False
    pass_start: bool = False
    tribute: tuple[str, ...] = ()
    end: bool = False


@dataclass(frozen=True)
class Catalog:
    name: str
    goods: tuple[str, ...]
    cards: dict[str, Card]
    advantages: dict[str, Advantage]
    spaces: tuple[Space, ...]
    round_track: tuple[RoundSpec, ...]
    start_cards_by_seat: dict[str, tuple[int, ...]]
    setup_hob_cards: int
    setup_bakery_cards: int
    lots_per_player: int
    neutral_lots_two_players: int
    hand_limit: int

    @cached_property
    def kinds(self) -> frozenset[str]:
        """The card kinds the set has ("food-3"): what a trade may ask for."""
        return frozenset(card.kind for card in self.cards.values())

    def space(self, space_id: str) -> Space:
        for space in self.spaces:
            if space.id == space_id:
                return space
        raise KeyError(space_id)

    def location_of(self, space_id: str) -> str:
        return self.space(space_id).location

    def round_spec(self, number: int) -> RoundSpec:
        return self.round_track[number - 1]


def _fail(message: str) -> InvalidOptions:
    return InvalidOptions("bad-components", message)


MAX_NUMBER = 1000
"""The largest number a set may give (the shipped set's largest is 11): a set
is untrusted input, and a number of thousands of digits is none."""
MAX_LOTS = 100
"""Lots are counted out one by one into the glass ball at the end, so their
numbers are bounded lower (10**50 neutral lots never finished the game)."""

MAX_GOODS = 20
"""The shipped set has 4: trading's legal moves pair each hand card with every
other good for every other seat (2,000 goods listed 60,000 moves)."""


def _int(value: Any, what: str, minimum: int = 0, maximum: int = MAX_NUMBER) -> int:
    if not is_int(value) or not minimum <= value <= maximum:
        raise _fail(f"{what} must be an integer from {minimum} to {maximum}")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(f"{what} must be a non-empty string")
    return value


def parse_components(data: Any) -> Catalog:
    """Validate a component set given as JSON and build its catalog."""
    if not isinstance(data, Mapping):
        raise _fail("components must be a JSON object")
    name = _str(data.get("name", "inline"), "name")
    goods_raw = data.get("goods")
    if not isinstance(goods_raw, list) or not goods_raw:
        raise _fail("goods must be a non-empty list")
    goods = tuple(_str(g, "a good") for g in goods_raw)
    if len(set(goods)) != len(goods):
        raise _fail("goods must be distinct")
    if len(goods) > MAX_GOODS:
        raise _fail(f"goods names at most {MAX_GOODS} goods")

    cards: dict[str, Card] = {}
    raw_cards = data.get("survival_cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise _fail("survival_cards must be a non-empty list")
    for raw in raw_cards:
        if not isinstance(raw, Mapping):
            raise _fail("each survival card is an object")
        card_id = _str(raw.get("id"), "a card id")
        if card_id in cards or card_id.startswith("#"):
            raise _fail(f"card id {card_id!r} is repeated or starts with '#'")
        good = _str(raw.get("good"), "a card's good")
        if good not in goods:
            raise _fail(f"card {card_id}: unknown good {good!r}")
        start = raw.get("start", False)
        if not isinstance(start, bool):
            raise _fail(f"card {card_id}: start must be true or false")
        cards[card_id] = Card(card_id, good, _int(raw.get("value"), "a card value", 1), start)
    kinds = {f"{g}-{v}" for g in goods for v in {c.value for c in cards.values()}}
    if kinds & set(cards):
        raise _fail("a card id may not look like a card kind (good-value)")

    advantages: dict[str, Advantage] = {}
    raw_advantages = data.get("advantages")
    if not isinstance(raw_advantages, list):
        raise _fail("advantages must be a list")
    for raw in raw_advantages:
        if not isinstance(raw, Mapping):
            raise _fail("each advantage is an object")
        adv_id = _str(raw.get("id"), "an advantage id")
        if adv_id in advantages or adv_id in cards:
            raise _fail(f"advantage id {adv_id!r} is not unique")
        start = raw.get("start", False)
        location = raw.get("location")
        if not isinstance(start, bool):
            raise _fail(f"advantage {adv_id}: start must be true or false")
        if start and location is not None:
            raise _fail(f"start advantage {adv_id} lies beside no location")
        if not start and location not in LOCATIONS:
            raise _fail(f"advantage {adv_id}: location must be one of {LOCATIONS}")
        effect = raw.get("effect")
        if not isinstance(effect, Mapping) or effect.get("kind") not in EFFECT_KINDS:
            raise _fail(f"advantage {adv_id}: effect.kind must be one of {sorted(EFFECT_KINDS)}")
        _check_effect(adv_id, dict(effect), goods)
        text = raw.get("text", "")
        advantages[adv_id] = Advantage(
            adv_id,
            _str(raw.get("name", adv_id), "a name"),
            start,
            location,
            dict(effect),
            text if isinstance(text, str) else "",
        )
    later = [a for a in advantages.values() if not a.start]
    if len({a.location for a in later}) != len(later):
        raise _fail("two later advantages lie beside the same location")

    spaces: list[Space] = []
    raw_locations = data.get("locations")
    if not isinstance(raw_locations, list):
        raise _fail("locations must be a list")
    seen_locations: set[str] = set()
    for raw in raw_locations:
        if not isinstance(raw, Mapping) or raw.get("id") not in LOCATIONS:
            raise _fail(f"each location is an object with an id among {LOCATIONS}")
        location = str(raw["id"])
        if location in seen_locations:
            raise _fail(f"location {location} is repeated")
        seen_locations.add(location)
        raw_spaces = raw.get("spaces")
        if not isinstance(raw_spaces, list) or not raw_spaces:
            raise _fail(f"location {location} needs at least one space")
        for space in raw_spaces:
            if not isinstance(space, Mapping):
                raise _fail("each space is an object")
            space_id = _str(space.get("id"), "a space id")
            if space_id in cards or any(s.id == space_id for s in spaces):
                raise _fail(f"space id {space_id!r} is not unique")
            spaces.append(Space(space_id, location, _int(space.get("min_players"), "min_players")))
    if seen_locations != set(LOCATIONS):
        raise _fail(f"the board needs exactly the locations {LOCATIONS}")

    track: list[RoundSpec] = []
    raw_track = data.get("round_track")
    if not isinstance(raw_track, list) or not raw_track:
        raise _fail("round_track must be a non-empty list")
    for index, raw in enumerate(raw_track, start=1):
        if not isinstance(raw, Mapping) or raw.get("round") != index:
            raise _fail(f"round_track entry {index} must say round {index}")
        tribute = raw.get("tribute", [])
        if not isinstance(tribute, list) or not all(g in goods for g in tribute):
            raise _fail(f"round {index}: tribute must list goods")
        if len(set(tribute)) != len(tribute):
            raise _fail(f"round {index}: a good is asked twice")
        end = bool(raw.get("end", False))
        if end != (index == len(raw_track)):
            raise _fail("exactly the last round of the track is the end round")
        track.append(
            RoundSpec(
                round=index,
                bakery=_int(raw.get("bakery", 0), "bakery"),
                hob=_int(raw.get("hob", 0), "hob"),
                advantages=_int(raw.get("advantages", 0), "advantages"),
                trade=bool(raw.get("trade", False)),
                pass_start=bool(raw.get("pass_start", False)),
                tribute=tuple(tribute),
                end=end,
            )
        )
    if sum(r.advantages for r in track) > len(later):
        raise _fail("the round track reveals more advantages than there are")

    raw_start = data.get("start_cards_by_seat")
    if not isinstance(raw_start, Mapping):
        raise _fail("start_cards_by_seat must map player counts to lists")
    start_by_seat: dict[str, tuple[int, ...]] = {}
    start_pool = sum(1 for c in cards.values() if c.start)
    for count in ("2", "3", "4"):
        row = raw_start.get(count)
        if not isinstance(row, list) or len(row) != int(count):
            raise _fail(f"start_cards_by_seat[{count}] must list {count} numbers")
        start_by_seat[count] = tuple(_int(n, "a start card count") for n in row)
        if sum(start_by_seat[count]) > start_pool:
            raise _fail(f"not enough start cards for {count} players")
    starts = [a for a in advantages.values() if a.start]
    if len(starts) < 4:
        raise _fail("there must be at least 4 start advantages")
    setup = data.get("setup", {})
    if not isinstance(setup, Mapping):
        raise _fail("setup must be an object")
    hob_cards = _int(setup.get("hob_cards", 2), "setup.hob_cards")
    bakery_cards = _int(setup.get("bakery_cards", 1), "setup.bakery_cards")
    # The set-up stocks every open Hob and bakery space and then turns up the
    # first discard from the draw pile, with no discard pile to renew it from.
    dealt = sum(
        hob_cards if s.location == HOB else bakery_cards
        for s in spaces
        if s.location in (HOB, BAKERY) and s.min_players <= 4
    )
    pile = sum(1 for c in cards.values() if not c.start)
    if dealt + 1 > pile:
        raise _fail(
            f"setup.hob_cards and setup.bakery_cards: the set-up deals {dealt} cards and "
            f"the first discard from a draw pile of {pile} (the cards that are no start cards)"
        )
    return Catalog(
        name=name,
        goods=goods,
        cards=cards,
        advantages=advantages,
        spaces=tuple(spaces),
        round_track=tuple(track),
        start_cards_by_seat=start_by_seat,
        setup_hob_cards=hob_cards,
        setup_bakery_cards=bakery_cards,
        lots_per_player=_int(data.get("lots_per_player", 11), "lots_per_player", 1, MAX_LOTS),
        neutral_lots_two_players=_int(
            data.get("neutral_lots_two_players", 6), "neutral_lots_two_players", 0, MAX_LOTS
        ),
        hand_limit=_int(data.get("hand_limit", 6), "hand_limit"),
    )


def _check_effect(adv_id: str, effect: dict[str, Any], goods: tuple[str, ...]) -> None:
    kind = effect["kind"]
    if kind == "forest_keep":
        keep = effect.get("goods")
        if not isinstance(keep, list) or not all(g in goods for g in keep):
            raise _fail(f"advantage {adv_id}: goods must list goods")
    elif kind == "bakery_draw":
        _int(effect.get("count"), f"advantage {adv_id}: count", 1)
    elif kind == "house_draw":
        _int(effect.get("draw"), f"advantage {adv_id}: draw", 1)
        if _int(effect.get("keep"), f"advantage {adv_id}: keep", 1) != 1:
            raise _fail(f"advantage {adv_id}: keep must be 1")
    elif kind == "exchange":
        places = effect.get("locations")
        if not isinstance(places, list) or not all(p in (HOB, CAPITOL_STOREHOUSE) for p in places):
            raise _fail(f"advantage {adv_id}: exchange works at the Hob or Capitol storehouse")
        _int(effect.get("count"), f"advantage {adv_id}: count", 1)
    elif kind == "good_values":
        values = effect.get("values")
        if effect.get("good") not in goods or not isinstance(values, Mapping):
            raise _fail(f"advantage {adv_id}: needs a good and values")
        for face, points in values.items():
            if not str(face).isdigit():
                raise _fail(f"advantage {adv_id}: value keys are card values")
            _int(points, f"advantage {adv_id}: points")
    elif kind == "all_goods":
        _int(effect.get("points"), f"advantage {adv_id}: points")


@lru_cache(maxsize=8)
def shipped_catalog(name: str) -> Catalog:
    if name not in SHIPPED_SETS:
        raise InvalidOptions("unknown-component-set", f"no component set {name!r}")
    return parse_components(load_json("gamelog.games.panem", SHIPPED_SETS[name]))
