"""Creation options: the component set, first game or later game, board
sides, and the explicit deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games.hadara.cards import COLOURS, Components
from gamelog.games.hadara.component_set import inline_components, shipped_components
from gamelog.games.protocol import JSON, InvalidOptions, Options, check_table

DEFAULT_SET = "hadara/house-1"
KNOWN_OPTIONS = frozenset({"component_set", "components", "first_game", "board_sides", "deal"})


def components_of(options: Mapping[str, Any]) -> Components:
    if "components" in options:
        return inline_components(options["components"])
    return shipped_components(str(options.get("component_set", DEFAULT_SET)))


def _bad(message: str) -> InvalidOptions:
    return InvalidOptions("bad-deal", message)


def _check_deal(
    deal: Any, seats: Sequence[str], components: Components, first_game: bool
) -> dict[str, JSON]:
    if not isinstance(deal, Mapping):
        raise _bad("deal is an object with start_cards, colonies and/or epochs")
    unknown = set(deal) - {"start_cards", "colonies", "epochs"}
    if unknown:
        raise _bad(f"deal takes no {sorted(unknown)}")
    n = len(seats)
    checked: dict[str, JSON] = {}
    if "start_cards" in deal:
        starts = deal["start_cards"]
        if not isinstance(starts, Mapping) or set(starts) != set(seats):
            raise _bad("start_cards gives every seat one start card id")
        ids = [starts[seat] for seat in seats]
        # Strings first: set() of ids holding a list or an object raised TypeError.
        if not all(isinstance(i, str) for i in ids):
            raise _bad("start_cards names start card ids (strings)")
        if len(set(ids)) != n or any(i not in components.start_by_id for i in ids):
            raise _bad("start_cards names different start cards of the set")
        checked["start_cards"] = {seat: starts[seat] for seat in seats}
    if "colonies" in deal:
        colonies = deal["colonies"]
        levels = {str(level) for level in components.colony_levels}
        if not isinstance(colonies, Mapping) or set(colonies) != levels:
            raise _bad(f"colonies gives a list per level {sorted(levels, key=int)}")
        out: dict[str, JSON] = {}
        for level in sorted(levels, key=int):
            ids = colonies[level]
            if (
                not isinstance(ids, list)
                or not all(isinstance(i, str) for i in ids)
                or len(ids) != n
                or len(set(ids)) != n
                or any(
                    i not in components.colony_by_id
                    or components.colony_by_id[i].requirement != int(level)
                    for i in ids
                )
            ):
                raise _bad(f"colonies[{level}] lists {n} different colonies of that level")
            out[level] = list(ids)
        checked["colonies"] = out
    if "epochs" in deal:
        epochs = deal["epochs"]
        if not isinstance(epochs, Mapping) or not set(epochs) <= {"1", "2", "3"}:
            raise _bad('epochs maps "1", "2", "3" to stacks per colour')
        out_epochs: dict[str, JSON] = {}
        for epoch_key in sorted(epochs):
            stacks = epochs[epoch_key]
            if not isinstance(stacks, Mapping) or set(stacks) != set(COLOURS):
                raise _bad(f"epoch {epoch_key} gives a stack for each of {list(COLOURS)}")
            out_stacks: dict[str, JSON] = {}
            for colour in COLOURS:
                allowed = set(components.epoch_cards(int(epoch_key), colour, first_game))
                ids = stacks[colour]
                if (
                    not isinstance(ids, list)
                    or not all(isinstance(i, str) for i in ids)
                    or len(ids) != 2 * n
                    or len(set(ids)) != 2 * n
                    or not set(ids) <= allowed
                ):
                    raise _bad(
                        f"epoch {epoch_key} {colour}: {2 * n} different {colour} cards "
                        f"of that epoch{' without the star' if first_game else ''}"
                    )
                out_stacks[colour] = list(ids)
            out_epochs[epoch_key] = out_stacks
        checked["epochs"] = out_epochs
    return checked


def normalize(options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
    check_table("hadara", options, KNOWN_OPTIONS, seats, (2, 5))
    result: Options = {}
    if "components" in options:
        if "component_set" in options and options["component_set"] != "inline":
            raise InvalidOptions("bad-option", "give either component_set or components")
        components = inline_components(options["components"])
        result["component_set"] = "inline"
        result["components"] = options["components"]
    else:
        name = options.get("component_set", DEFAULT_SET)
        if not isinstance(name, str):
            raise InvalidOptions("bad-option", "component_set is a name")
        components = shipped_components(name)
        result["component_set"] = name
    first_game = options.get("first_game", False)
    if not isinstance(first_game, bool):
        raise InvalidOptions("bad-option", "first_game is true or false")
    result["first_game"] = first_game
    sides = options.get("board_sides", {})
    if not isinstance(sides, Mapping) or not set(sides) <= set(seats):
        raise InvalidOptions("bad-option", "board_sides maps seats to 'A' or 'B'")
    if any(side not in ("A", "B") for side in sides.values()):
        raise InvalidOptions("bad-option", "a board side is 'A' or 'B'")
    if first_game and any(side != "A" for side in sides.values()):
        raise InvalidOptions("bad-option", "in a first game every board shows side A")
    result["board_sides"] = {seat: sides.get(seat, "A") for seat in seats}
    if "deal" in options:
        result["deal"] = _check_deal(options["deal"], seats, components, first_game)
    return result
