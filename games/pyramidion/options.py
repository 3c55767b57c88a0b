"""Creation options: the component set, the goal, the explicit boat order.

``{"component_set": "pyramidion/page-7"}`` (the default) or ``{"components":
{...}}`` (a club's whole set, checked and stored in the options); ``{"goal":
10}`` (the default), 12 or 15 points, or ``"all-boats"`` (page 7's variants);
with a boat deck, optionally ``{"deal": {"boats": ["B07", "B02", ...]}}``: the
first boats turned up, in this order (the rest are drawn with the rng).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games.protocol import InvalidOptions, Options, check_table, is_int
from gamelog.games.pyramidion.components import (
    DEFAULT_SET,
    SHIPPED_SETS,
    Components,
    parse_components,
    shipped_components,
)
from gamelog.games.pyramidion.state import GOALS

KNOWN_OPTIONS = frozenset({"component_set", "components", "goal", "deal"})
PLAYERS = (2, 5)


def components_of(options: Mapping[str, Any]) -> Components:
    if "components" in options:
        return parse_components(options["components"])
    return shipped_components(str(options["component_set"]))


def normalize(options: Mapping[str, Any], seats: Sequence[str]) -> Options:
    check_table("pyramidion", options, KNOWN_OPTIONS, seats, PLAYERS)
    result: Options = {}
    if "components" in options:
        components = parse_components(options["components"])
        named = options.get("component_set", components.name)
        if named != components.name:
            raise InvalidOptions(
                "unknown-component-set", "component_set must be the name of the components given"
            )
        result["component_set"] = components.name
        result["components"] = copy.deepcopy(options["components"])
    else:
        name = options.get("component_set", DEFAULT_SET)
        if not isinstance(name, str) or name not in SHIPPED_SETS:
            raise InvalidOptions(
                "unknown-component-set",
                f"no component set {name!r}; shipped: {', '.join(SHIPPED_SETS)}",
            )
        components = shipped_components(name)
        result["component_set"] = name
    goal = options.get("goal", 10)
    if not (is_int(goal) or isinstance(goal, str)) or goal not in GOALS:
        raise InvalidOptions(
            "bad-goal", "goal is 10, 12 or 15 points, or 'all-boats' (until every boat is loaded)"
        )
    result["goal"] = goal
    if "deal" in options:
        result["deal"] = {"boats": _dealt_boats(options["deal"], components)}
    return result


def _dealt_boats(deal: Any, components: Components) -> list[str]:
    if components.boats is None:
        raise InvalidOptions("bad-deal", "a deal orders a boat deck; this component set has none")
    if not isinstance(deal, Mapping) or set(deal) != {"boats"}:
        raise InvalidOptions("bad-deal", 'deal is {"boats": [card ids in the order turned up]}')
    cards = deal["boats"]
    known = {boat.card for boat in components.boats}
    if (
        not isinstance(cards, list)
        or not all(isinstance(card, str) and card in known for card in cards)
        or len(set(cards)) != len(cards)
    ):
        raise InvalidOptions("bad-deal", "deal.boats lists distinct boat card ids of the set")
    return list(cards)
