"""Reading a component set: a JSON file in ``data/`` (``hadara/house-1``
ships) or a whole set given inline by the creator. :func:`parse_components`
checks either (a set is untrusted input) and builds the frozen records of
``cards``."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Mapping
from typing import Any

from gamelog.games.components import load_json
from gamelog.games.hadara.cards import (
    ABILITIES,
    COLOURS,
    SHIPPED_SETS,
    TRACKS,
    Bust,
    Card,
    Colony,
    Components,
    EpochPrices,
    Param,
    StartCard,
    Values,
)
from gamelog.games.protocol import JSON, InvalidOptions, is_int


def _fail(message: str) -> InvalidOptions:
    return InvalidOptions("bad-components", message)


MAX_NUMBER = 1000
"""The largest number a component may carry (the shipped set's largest is 30):
a set is untrusted input, and a number of thousands of digits is none."""


def _int(
    data: Mapping[str, Any], key: str, where: str, minimum: int = 0, maximum: int = MAX_NUMBER
) -> int:
    value = data.get(key)
    if not is_int(value) or not minimum <= value <= maximum:
        raise _fail(f"{where}: {key} must be an integer from {minimum} to {maximum}")
    return value


def _values(data: Any, where: str) -> Values:
    if not isinstance(data, Mapping) or set(data) != set(TRACKS):
        raise _fail(f"{where}: values need exactly the tracks {list(TRACKS)}")
    a, b, c, d = (_int(data, track, where) for track in TRACKS)
    return (a, b, c, d)


def _id(data: Mapping[str, Any], where: str) -> str:
    value = data.get("id")
    if not isinstance(value, str) or not value or "#" in value:
        raise _fail(f"{where}: every component needs a string id")
    return value


def _param(spec: Param, value: Any, what: str) -> JSON:
    """``value`` if it is what ``spec`` allows, else the error saying what is."""
    if spec.kind == "count":
        if not is_int(value) or not spec.low <= value <= spec.high:
            raise _fail(f"{what} must be an integer from {spec.low} to {spec.high}")
        return value
    if spec.kind == "one":
        if not isinstance(value, str) or value not in spec.choices:
            raise _fail(f"{what} must be one of {list(spec.choices)}")
        return value
    if spec.kind == "some":
        if (
            not isinstance(value, list)
            or not all(isinstance(v, str) and v in spec.choices for v in value)
            or len(set(value)) != len(value)
        ):
            raise _fail(f"{what} must be a list of different ones of {list(spec.choices)}")
        return list(value)
    if spec.kind == "prices":
        if (
            not isinstance(value, Mapping)
            or not set(value) <= {"1", "2", "3"}
            or not all(is_int(v) and spec.low <= v <= spec.high for v in value.values())
        ):
            raise _fail(
                f'{what} must map epochs "1", "2", "3" to prices from {spec.low} to {spec.high}'
            )
        return dict(value)
    if type(value) is not type(spec.default) or value != spec.default:
        raise _fail(f"{what} can only be {json.dumps(spec.default)}: the rules know no other")
    return value


OLD_PARAM_NAMES: Mapping[str, Mapping[str, str]] = {
    "double_colony_bust": {
        "colony_per_section": "colonies_per_section",
        "bust_per_section": "busts_per_section",
    },
}
"""Names the rules read before the params were declared: a stored game's
inline set that used them was played with them, so it must read the same."""


def checked_params(ability: str, raw: Any, where: str) -> dict[str, JSON]:
    """The params of a card with ``ability`` as the rules read them: each one
    checked against :data:`ABILITIES`, the ones left out at their defaults.

    >>> checked_params("sell_bonus", {}, "card X")
    {'extra_coins': 1, 'stacks': True}
    >>> try:
    ...     checked_params("feed_with_coins", {"coins_per_card": 0}, "card X")
    ... except InvalidOptions as error:
    ...     print(error)
    bad-components: card X: feed_with_coins param 'coins_per_card' must be an integer from 1 to 100
    """
    specs = ABILITIES[ability]
    if not isinstance(raw, Mapping):
        raise _fail(f"{where}: ability params must be an object")
    renamed = OLD_PARAM_NAMES.get(ability, {})
    if renamed:
        raw = {renamed.get(name, name): value for name, value in raw.items()}
    unknown = sorted(str(name) for name in raw if name not in specs)
    if unknown:
        raise _fail(f"{where}: {ability} takes no param {unknown[0]!r}; it takes {list(specs)}")
    params: dict[str, JSON] = {}
    for name, spec in specs.items():
        if name in raw:
            params[name] = _param(spec, raw[name], f"{where}: {ability} param {name!r}")
        elif spec.required:
            raise _fail(f"{where}: {ability} needs the param {name!r}")
        elif spec.default is not None:
            params[name] = copy.deepcopy(spec.default)
    return params


def _card(raw: Any, index: int) -> Card:
    where = f"cards[{index}]"
    if not isinstance(raw, Mapping):
        raise _fail(f"{where} must be an object")
    colour = raw.get("colour")
    if colour not in COLOURS:
        raise _fail(f"{where}: colour must be one of {list(COLOURS)}")
    epoch = _int(raw, "epoch", where, 1)
    if epoch > 3:
        raise _fail(f"{where}: epoch must be 1, 2 or 3")
    card_id = _id(raw, where)
    ability = raw.get("ability")
    ability_id: str | None = None
    params: dict[str, JSON] = {}
    if ability is not None:
        if not isinstance(ability, Mapping) or ability.get("id") not in ABILITIES:
            raise _fail(f"card {card_id}: unknown ability; known: {sorted(ABILITIES)}")
        if not set(ability) <= {"id", "params", "text"} or not isinstance(
            ability.get("text", ""), str
        ):
            raise _fail(f"card {card_id}: an ability has an id, params and a text (a string)")
        ability_id = str(ability["id"])
        params = checked_params(ability_id, ability.get("params", {}), f"card {card_id}")
    later_games_only = raw.get("later_games_only", False)
    if not isinstance(later_games_only, bool):
        raise _fail(f"card {card_id}: later_games_only is true or false")
    return Card(
        id=card_id,
        epoch=epoch,
        colour=str(colour),
        price=_int(raw, "price", where),
        values=_values(raw.get("values"), where),
        points=_int(raw, "points", where),
        ability=ability_id,
        params=params,
        later_games_only=later_games_only,
    )


def _colony(raw: Any, index: int) -> Colony:
    where = f"colonies[{index}]"
    if not isinstance(raw, Mapping):
        raise _fail(f"{where} must be an object")
    colony = Colony(
        id=_id(raw, where),
        requirement=_int(raw, "requirement", where, 1),
        plunder_coins=_int(raw, "plunder_coins", where),
        front_points=_int(raw, "front_points", where),
        alliance_cost=_int(raw, "alliance_cost", where),
        back_values=_values(raw.get("back_values"), where),
        back_points=_int(raw, "back_points", where),
    )
    if colony.back_points < colony.front_points:
        raise _fail(f"{where}: back points are never lower than front points")
    return colony


def _bust(raw: Any, where: str) -> Bust:
    if not isinstance(raw, Mapping):
        raise _fail(f"{where} must be an object")
    return Bust(
        requirement=_int(raw, "requirement", where),
        points=_int(raw, "points", where),
        reward_steps=_int(raw, "reward_steps", where),
    )


def _start(raw: Any, index: int) -> StartCard:
    where = f"start_cards[{index}]"
    if not isinstance(raw, Mapping):
        raise _fail(f"{where} must be an object")
    return StartCard(
        id=_id(raw, where),
        initiative=_int(raw, "initiative", where, 1),
        coins=_int(raw, "coins", where),
        values=_values(raw.get("values"), where),
    )


def _epoch(raw: Any, index: int) -> EpochPrices:
    where = f"epochs[{index}]"
    if not isinstance(raw, Mapping) or not isinstance(raw.get("seal_prices"), Mapping):
        raise _fail(f"{where} needs epoch, sale_price and seal_prices")
    epoch = _int(raw, "epoch", where, 1)
    if epoch != index + 1:
        raise _fail("epochs must be listed as 1, 2, 3")
    return EpochPrices(
        epoch=epoch,
        sale_price=_int(raw, "sale_price", where),
        silver=_int(raw["seal_prices"], "silver", where),
        golden=_int(raw["seal_prices"], "golden", where),
    )


def parse_components(data: Any, max_players: int = 5) -> Components:
    """Validate a whole set (the shape of ``data/hadara-house-1.json``)."""
    if not isinstance(data, Mapping):
        raise _fail("a component set is a JSON object")
    for key in ("cards", "colonies", "busts", "start_cards", "epochs"):
        if key not in data:
            raise _fail(f"the component set lacks {key!r}")
    if not isinstance(data["cards"], list) or not isinstance(data["colonies"], list):
        raise _fail("cards and colonies are lists")
    if not isinstance(data["start_cards"], list) or not isinstance(data["epochs"], list):
        raise _fail("start_cards and epochs are lists")
    cards = tuple(_card(raw, i) for i, raw in enumerate(data["cards"]))
    colonies = tuple(_colony(raw, i) for i, raw in enumerate(data["colonies"]))
    starts = tuple(_start(raw, i) for i, raw in enumerate(data["start_cards"]))
    epochs = tuple(_epoch(raw, i) for i, raw in enumerate(data["epochs"]))
    raw_busts = data["busts"]
    if not isinstance(raw_busts, Mapping) or set(raw_busts) != {"A", "B"}:
        raise _fail("busts are given for board sides A and B")
    busts: dict[str, tuple[Bust, ...]] = {}
    for side in ("A", "B"):
        if not isinstance(raw_busts[side], list) or len(raw_busts[side]) != 4:
            raise _fail(f"board side {side} has 4 busts")
        busts[side] = tuple(
            _bust(raw, f"busts.{side}[{i}]") for i, raw in enumerate(raw_busts[side])
        )
    ids = [c.id for c in cards] + [c.id for c in colonies] + [s.id for s in starts]
    if len(ids) != len(set(ids)):
        raise _fail("every card, colony and start card needs a unique id")
    if len(epochs) != 3:
        raise _fail("the set lists prices for the 3 epochs")
    for epoch in (1, 2, 3):
        for colour in COLOURS:
            for first_game in (True, False):
                dealt = [c for c in cards if c.dealt_in(epoch, colour, first_game)]
                if len(dealt) < 2 * max_players:
                    raise _fail(
                        f"epoch {epoch} needs {2 * max_players} {colour} cards"
                        f"{' without the star' if first_game else ''}"
                    )
    for card in cards:
        if card.ability is not None and card.colour != "purple":
            raise _fail(f"{card.id}: only purple cards have abilities")
    levels = sorted({c.requirement for c in colonies})
    if len(levels) != 5 or any(
        sum(1 for c in colonies if c.requirement == level) < max_players for level in levels
    ):
        raise _fail(f"colonies come in 5 levels with at least {max_players} colonies each")
    if len(starts) < max_players or len({s.initiative for s in starts}) != len(starts):
        raise _fail(f"at least {max_players} start cards with different initiative")
    limits = data.get("limits", {})
    if not isinstance(limits, Mapping):
        raise _fail("limits is an object")

    def limit(key: str, default: int, minimum: int = 0) -> int:
        return _int(limits, key, "limits", minimum, 100) if key in limits else default

    name = data.get("component_set", "inline")
    return Components(
        name=name if isinstance(name, str) else "inline",
        cards=cards,
        colonies=colonies,
        busts=busts,
        start_cards=starts,
        epochs=epochs,
        max_silver_seals=limit("max_silver_seals", 2),
        max_golden_seals=limit("max_golden_seals", 2),
        golden_points_per_set=limit("golden_seal_points_per_set", 7),
        # Coins are divided by it at the end.
        coins_per_end_point=limit("coins_per_end_point", 5, minimum=1),
        never_start_player_coins=limit("never_start_player_coins", 1),
    )


@functools.lru_cache(maxsize=8)
def shipped_components(name: str) -> Components:
    """A shipped set by name, parsed once (so states share one object)."""
    if name not in SHIPPED_SETS:
        raise InvalidOptions(
            "unknown-component-set", f"no component set {name!r}; shipped: {sorted(SHIPPED_SETS)}"
        )
    return parse_components(load_json("gamelog.games.hadara", SHIPPED_SETS[name]))


@functools.lru_cache(maxsize=8)
def _inline_components(canonical: str) -> Components:
    return parse_components(json.loads(canonical))


def inline_components(data: Any) -> Components:
    """An inline set, parsed once per distinct content."""
    try:
        canonical = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError) as error:
        raise _fail("components must be plain JSON") from error
    return _inline_components(canonical)
