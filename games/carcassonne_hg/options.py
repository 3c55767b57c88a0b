"""Creation options: the component set (shipped or inline) and an explicit deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games.carcassonne_hg.tiles import Tileset, TilesetRef, reference, resolve
from gamelog.games.protocol import JSON, InvalidOptions, Options, check_table, is_int

DEFAULT_SET = "carcassonne-hg/house-2002"
PLAYERS = (2, 5)
"""The fewest and most players the rulebook allows."""
KNOWN_OPTIONS = frozenset({"component_set", "components", "deal"})


def tileset_for(options: Mapping[str, Any]) -> Tileset:
    return resolve(reference_for(options))


def reference_for(options: Mapping[str, Any]) -> TilesetRef:
    return reference(str(options.get("component_set", DEFAULT_SET)), options.get("components"))


def normalize(options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
    """Check creation options and fill in the component set; a deal's tile
    orders are checked against the set."""
    check_table("carcassonne-hg", options, KNOWN_OPTIONS, seats, PLAYERS)
    name = options.get("component_set")
    if name is not None and not isinstance(name, str):
        raise InvalidOptions("bad-option", "component_set must be a string")
    normalized: Options = {}
    if "components" in options:
        normalized["component_set"] = name or "carcassonne-hg/inline"
        normalized["components"] = options["components"]
    else:
        normalized["component_set"] = name or DEFAULT_SET
    # Parsing the set refuses an unknown shipped name or a broken inline set.
    tileset = tileset_for(normalized)
    if "deal" in options:
        normalized["deal"] = checked_deal(options["deal"], tileset)
    return normalized


def checked_deal(deal: Any, tileset: Tileset) -> dict[str, list[int]]:
    if not isinstance(deal, Mapping) or set(deal) - {"order", "bonus_order"}:
        raise InvalidOptions("bad-deal", 'a deal is {"order": [...], "bonus_order": [...]}')
    checked: dict[str, list[int]] = {}
    for key, kind in (("order", "land"), ("bonus_order", "bonus")):
        order = deal.get(key, [])
        allowed = set(tileset.ids(kind))
        if (
            not isinstance(order, list)
            or not all(is_int(t) and t in allowed for t in order)
            or len(set(order)) != len(order)
        ):
            raise InvalidOptions("bad-deal", f"deal {key} lists distinct {kind} tile ids")
        checked[key] = list(order)
    return checked
