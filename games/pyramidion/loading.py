"""Phase 7: loading a boat and paying for it.

A seat loads a displayed boat by giving back the resources it requires. Page 7
adds two ways to pay: a statue stands in for any resource, and each torturer
troop stationed at a location may, once per round, fetch from the supply one
resource that location produces, which goes straight onto the boat. Every
resource used goes back to the supply.

A load move names the boat, the fetches and what each statue stands in for;
the rest comes from the seat's own stock::

    {"load": 3, "fetch": [{"location": "cairo", "resource": "camel"}],
     "statue_for": ["food"]}

Page 7's example: Blue has troops in Gizeh and Cairo and a camel, a statue,
2 stones and a worker. A boat asking 2 camels, food, 2 stones and a worker is
paid with a camel fetched by a troop, the statue as food and his own camel,
stones and worker: 6 resources go back.

>>> blue = {"camel": 1, "statue": 1, "stone": 2, "worker": 1}
>>> needs = {"camel": 2, "food": 1, "stone": 2, "worker": 1}
>>> used, own = payment(needs, blue, fetched=["camel"], statue_for=["food"])
>>> used
{'camel': 2, 'statue': 1, 'stone': 2, 'worker': 1}
>>> own
{'camel': 1, 'statue': 1, 'stone': 2, 'worker': 1}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games.protocol import IllegalMove, Move, is_int
from gamelog.games.pyramidion.resources import (
    WILDCARD,
    Counts,
    covers,
    minus,
    plus,
    tally,
    words,
)
from gamelog.games.pyramidion.state import Boat, PyramidionState


def payment(
    requirements: Counts, stock: Counts, fetched: Sequence[str], statue_for: Sequence[str]
) -> tuple[dict[str, int], dict[str, int]]:
    """(all resources used, the part from the seat's own stock), or IllegalMove."""
    standing_in = tally(statue_for)
    if WILDCARD in standing_in:
        raise IllegalMove("bad-statue", "a statue stands in for another resource, not a statue")
    if not covers(requirements, standing_in):
        raise IllegalMove(
            "bad-statue", "a statue can only stand in for a resource the boat requires"
        )
    used = plus(minus(requirements, standing_in), {WILDCARD: len(statue_for)})
    brought = tally(fetched)
    if not covers(used, brought):
        raise IllegalMove(
            "fetch-not-used",
            f"a resource a troop fetches must go straight onto this boat; it needs {words(used)}",
        )
    own = minus(used, brought)
    if not covers(stock, own):
        raise IllegalMove(
            "not-enough-resources",
            f"paying {words(own)} from your stock needs more than your {words(stock)}",
        )
    return used, own


def read_load(state: PyramidionState, seat: str, move: Move) -> dict[str, Any]:
    """The checked load: boat, fetches, statues, resources used and paid."""
    unknown = set(move) - {"load", "fetch", "statue_for"}
    if unknown:
        raise IllegalMove("bad-move", f"a load takes no {sorted(unknown)}")
    number = move["load"]
    if not is_int(number) or number not in state.display:
        shown = ", ".join(str(n) for n in state.display) or "none"
        raise IllegalMove("no-such-boat", f"load one of the displayed boats ({shown})")
    boat = state.boats[number]
    fetches = _fetches(state, seat, move.get("fetch", []))
    statue_for = move.get("statue_for", [])
    if not isinstance(statue_for, list) or not all(
        isinstance(r, str) and r in state.components.resources for r in statue_for
    ):
        raise IllegalMove("bad-statue", "statue_for lists the resources the statues stand in for")
    used, own = payment(
        boat.requirements,
        state.stock(seat),
        [fetch["resource"] for fetch in fetches],
        statue_for,
    )
    return {
        "boat": boat,
        "fetch": fetches,
        "statue_for": sorted(statue_for),
        "used": used,
        "own": own,
    }


def _fetches(state: PyramidionState, seat: str, raw: Any) -> list[dict[str, str]]:
    if not isinstance(raw, list):
        raise IllegalMove("bad-fetch", 'fetch lists {"location": ..., "resource": ...} objects')
    fetches: list[dict[str, str]] = []
    per_location: dict[str, int] = {}
    for entry in raw:
        if not isinstance(entry, Mapping) or set(entry) != {"location", "resource"}:
            raise IllegalMove("bad-fetch", 'each fetch is {"location": ..., "resource": ...}')
        location, resource = entry["location"], entry["resource"]
        if not isinstance(location, str) or location not in state.components.location_ids:
            raise IllegalMove("unknown-location", f"there is no location {location!r}")
        if not isinstance(resource, str) or resource not in state.components.resources:
            raise IllegalMove("unknown-resource", f"there is no resource {resource!r}")
        per_location[location] = per_location.get(location, 0) + 1
        if per_location[location] > state.free_troops(seat, location):
            raise IllegalMove(
                "no-free-troop",
                f"you have no troop left in {state.name(location)} that has not fetched "
                "this round (each troop fetches once per round)",
            )
        produced = state.production.get(location)
        if produced is None:
            raise IllegalMove(
                "production-unknown",
                f"what {state.name(location)} produces is not declared yet; the arbiter "
                "declares it first",
            )
        if resource not in produced:
            raise IllegalMove(
                "not-produced-there",
                f"{state.name(location)} produces {', '.join(produced)}, not {resource}",
            )
        fetches.append({"location": location, "resource": resource})
    return fetches


def sample_loads(state: PyramidionState, seat: str) -> list[Move]:
    """For each displayed boat, the ways of paying that ``suggest`` finds."""
    moves: list[Move] = []
    for number in state.display:
        for fetch_first in (False, True):
            move = suggest(state, seat, state.boats[number], fetch_first)
            if move is not None and move not in moves:
                moves.append(move)
    return moves


def suggest(state: PyramidionState, seat: str, boat: Boat, fetch_first: bool) -> Move | None:
    """One way to pay for ``boat``: own resources, troop fetches, then statues
    (or fetches before own resources); None if this way does not reach."""
    stock = dict(state.stock(seat))
    short = dict(boat.requirements)
    fetch: list[dict[str, str]] = []
    free = {loc: state.free_troops(seat, loc) for loc in state.components.location_ids}
    troops = {loc: n for loc, n in free.items() if n > 0 and state.production.get(loc)}

    def from_stock() -> None:
        for resource in sorted(short):
            taken = min(short[resource], stock.get(resource, 0))
            short[resource] -= taken
            stock[resource] = stock.get(resource, 0) - taken

    def by_troops() -> None:
        for resource in sorted(short):
            for location in sorted(troops):
                while (
                    short[resource] and troops[location] and resource in state.production[location]
                ):
                    fetch.append({"location": location, "resource": resource})
                    troops[location] -= 1
                    short[resource] -= 1

    if fetch_first:
        by_troops()
        from_stock()
    else:
        from_stock()
        by_troops()
    statue_for: list[str] = []
    for resource in sorted(short):
        while short[resource] and resource != WILDCARD and stock.get(WILDCARD, 0) > 0:
            statue_for.append(resource)
            stock[WILDCARD] -= 1
            short[resource] -= 1
    if any(short.values()):
        return None
    move: Move = {"load": boat.number}
    if fetch:
        move["fetch"] = fetch
    if statue_for:
        move["statue_for"] = statue_for
    return move
