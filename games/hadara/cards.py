"""The components: epoch cards, colonies, busts, start cards, prices, and the
abilities' parameters. Track values are tuples in the order of ``TRACKS``;
``component_set`` reads and checks a whole set."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field

from gamelog.games.protocol import JSON

TRACKS: tuple[str, ...] = ("income", "military", "culture", "food")
COLOURS: tuple[str, ...] = ("yellow", "red", "blue", "green", "purple")
COLOUR_TRACK: Mapping[str, str] = {
    "yellow": "income",
    "red": "military",
    "blue": "culture",
    "green": "food",
}
SHIPPED_SETS: Mapping[str, str] = {"hadara/house-1": "hadara-house-1.json"}


@dataclass(frozen=True)
class Param:
    """What one ability param may be, and what it is when the set leaves it out.

    ``kind`` is one of ``count`` (an integer from ``low`` to ``high``; a
    divisor has ``low`` 1), ``one`` (one of ``choices``), ``some`` (a list of
    different ``choices``), ``prices`` (epoch "1".."3" -> a count, as the seal
    card's table) or ``fixed`` (``default`` itself: what the card does that the
    rules implement one way only, which a set may state but not change).
    """

    kind: str
    default: JSON = None
    low: int = 0
    high: int = 100
    choices: tuple[str, ...] = ()
    required: bool = False


def count(default: int, low: int = 0, high: int = 100) -> Param:
    return Param("count", default, low, high)


def one_of(choices: tuple[str, ...], default: str | None = None, required: bool = False) -> Param:
    return Param("one", default, choices=choices, required=required)


def some_of(choices: tuple[str, ...], default: list[str]) -> Param:
    return Param("some", default, choices=choices)


def fixed(value: JSON) -> Param:
    return Param("fixed", value)


SEAL_PRICES = Param("prices", {})
"""Epoch -> seal price for the seal card, e.g. ``{"2": 4, "3": 15}``: in
another epoch the set's price stands."""

ABILITIES: Mapping[str, Mapping[str, Param]] = {
    "sell_bonus": {"extra_coins": count(1), "stacks": fixed(True)},
    "bonus_tile_steps": {"steps": count(2), "tile_side": fixed("front"), "stacks": fixed(True)},
    "bust_step_bonus": {
        "steps_per_bust": count(2),
        "points_per_point_side_bust": count(2),
        "counts_busts_already_carved": fixed(True),
        "stacks": fixed(True),
    },
    "seal_discount": {"silver": SEAL_PRICES, "golden": SEAL_PRICES, "stacks": fixed(False)},
    "silver_seal_full_points": {
        "seals": count(1),
        "points_per_step": fixed(1),
        "stacks": fixed(True),
    },
    "set_points": {"points_per_set": count(4), "set_size": fixed(5), "stacks": fixed(True)},
    "colour_step_bonus": {
        "colour": one_of(COLOURS, required=True),
        "track": one_of(TRACKS),
        "steps_per_card": count(1),
        "counts_cards_already_owned": fixed(True),
        "stacks": fixed(True),
    },
    "feed_with_coins": {
        "coins_per_card": count(2, low=1),
        "max_coins_per_section": count(12),
        "stacks": fixed(False),
    },
    "food_surplus_coins": {
        "coins_per_food": count(3),
        "max_coins_per_section": count(12),
        "stacks": fixed(False),
    },
    "income_per_track_above_income": {
        "coins_per_track": count(2),
        "tracks": some_of(TRACKS, ["military", "culture", "food"]),
        "max_coins_per_section": count(6),
        "stacks": fixed(False),
    },
    "colony_coins": {"coins_per_colony": count(4), "stacks": fixed(True)},
    "golden_set_wildcard": {"missing_cards": fixed(1), "sets": count(1), "stacks": fixed(True)},
    "double_colony_bust": {
        "colonies_per_section": count(2, low=1, high=5),
        "busts_per_section": count(2, low=1, high=4),
        "stacks": fixed(False),
    },
    "requirement_reduction": {"colony": count(4), "bust": count(4), "stacks": fixed(True)},
    "buy_requirement": {
        "coins_per_point": count(3),
        "max_coins_per_section": count(30),
        "applies_to": some_of(("colony", "bust"), ["colony", "bust"]),
        "stacks": fixed(False),
    },
}
"""Every ability and the params it takes: the one place that says what a
param may be and what it is when left out. A set may leave a param out but
may give no other; :func:`checked_params` checks them all when the set is
parsed, so the rules read them without a second look. Every count is an
integer from 0 (steps never go back when a card comes: the feeding check
relies on it) to 100 (the shipped set's largest is 30); the coin-feeding
card's ``coins_per_card`` divides, so it is at least 1; the double card's
colonies and busts per section are at least 1 and at most the 5 colony levels
and the 4 busts. A colour-step card's ``track`` left out is the counted
colour's own (income for purple), see
:func:`gamelog.games.hadara.state.colour_step`."""

Values = tuple[int, int, int, int]


@dataclass(frozen=True)
class Card:
    id: str
    epoch: int
    colour: str
    price: int
    values: Values
    points: int
    ability: str | None = None
    params: Mapping[str, JSON] = field(default_factory=dict)
    later_games_only: bool = False

    def dealt_in(self, epoch: int, colour: str, first_game: bool) -> bool:
        """Whether the card belongs to that epoch's stack of that colour; a
        first game leaves the star-marked purple cards in the box."""
        return (
            self.epoch == epoch
            and self.colour == colour
            and not (first_game and self.later_games_only)
        )


@dataclass(frozen=True)
class Colony:
    id: str
    requirement: int
    plunder_coins: int
    front_points: int
    alliance_cost: int
    back_values: Values
    back_points: int

    def front(self) -> dict[str, JSON]:
        """What everybody sees of a colony lying coin side up."""
        return {
            "requirement": self.requirement,
            "plunder_coins": self.plunder_coins,
            "alliance_cost": self.alliance_cost,
            "front_points": self.front_points,
        }


@dataclass(frozen=True)
class Bust:
    requirement: int
    points: int
    reward_steps: int


@dataclass(frozen=True)
class StartCard:
    id: str
    initiative: int
    coins: int
    values: Values


@dataclass(frozen=True)
class EpochPrices:
    epoch: int
    sale_price: int
    silver: int
    golden: int


@dataclass(frozen=True)
class Components:
    name: str
    cards: tuple[Card, ...]
    colonies: tuple[Colony, ...]
    busts: Mapping[str, tuple[Bust, ...]]
    start_cards: tuple[StartCard, ...]
    epochs: tuple[EpochPrices, ...]
    max_silver_seals: int = 2
    max_golden_seals: int = 2
    golden_points_per_set: int = 7
    coins_per_end_point: int = 5
    never_start_player_coins: int = 1

    @functools.cached_property
    def card_by_id(self) -> dict[str, Card]:
        return {card.id: card for card in self.cards}

    @functools.cached_property
    def colony_by_id(self) -> dict[str, Colony]:
        return {colony.id: colony for colony in self.colonies}

    @functools.cached_property
    def start_by_id(self) -> dict[str, StartCard]:
        return {start.id: start for start in self.start_cards}

    @functools.cached_property
    def colony_levels(self) -> tuple[int, ...]:
        return tuple(sorted({colony.requirement for colony in self.colonies}))

    def card(self, card_id: str) -> Card:
        return self.card_by_id[card_id]

    def prices(self, epoch: int) -> EpochPrices:
        return self.epochs[epoch - 1]

    def epoch_cards(self, epoch: int, colour: str, first_game: bool) -> tuple[str, ...]:
        return tuple(
            sorted(card.id for card in self.cards if card.dealt_in(epoch, colour, first_game))
        )
