"""The move notation: one line per stored move.

A turn is two stored moves, so two lines: the tile laid
(``ben: tile 17 at (2,-1) turned 90°``), then the figure placed and
everything that followed (``ben: gatherer on the south forest (zone 3) of
tile 17; forest of 2 tiles completed: ben scores 4, ben's gatherer comes
home; ann draws tile 41``). Zones are named by feature, place on the turned
tile and number, the number being what a ``deploy`` move and the picture's
zone labels use. Nothing in this game is hidden once drawn: the drawn tile
is shown to everybody, so every reader gets the same line.

The rulebook's river worth 6 (red's fisher on tile 46; blue closes the river):

>>> from gamelog.games.carcassonne_hg import RULES
>>> from gamelog.games.protocol import rng_for
>>> seats = ("red", "blue")
>>> options = RULES.normalize_options({"deal": {"order": [46, 62]}}, seats)
>>> state = RULES.start(seats, options)
>>> deal = RULES.setup(options, seats, rng_for(b"s", 0))
>>> RULES.notate(state, None, None, deal)
'deal: start tile 56 at (0,0); red draws tile 46'
>>> for event in deal:
...     state = RULES.evolve(state, event)
>>> move = {"place": {"x": -1, "y": 0, "rotation": 0}}
>>> events = RULES.decide(state, "red", move, rng_for(b"s", 1))
>>> RULES.notate(state, "red", move, events)
'red: tile 46 at (-1,0) not turned'
>>> for event in events:
...     state = RULES.evolve(state, event)
>>> move = {"deploy": {"piece": "fisher", "zone": 1}}
>>> events = RULES.decide(state, "red", move, rng_for(b"s", 2))
>>> RULES.notate(state, "red", move, events)
'red: fisher on the west-east river (zone 1) of tile 46; blue draws tile 62'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gamelog.games.carcassonne_hg.geometry import compass_word
from gamelog.games.carcassonne_hg.naming import degrees, where
from gamelog.games.carcassonne_hg.tiles import oriented
from gamelog.games.protocol import Event
from gamelog.games.wording import and_list, counted, standings_line

if TYPE_CHECKING:
    from gamelog.games.carcassonne_hg.state import HGState


def notate(state: HGState, seat: str | None, events: Sequence[Event]) -> str:
    """The line for a stored move (``seat`` None: the set-up's events)."""
    if seat is None:
        return "deal: " + "; ".join(_words(state, event) for event in events)
    head, rest = events[0], events[1:]
    first = _first(state, seat, head)
    return "; ".join([first, *(_words(state, event) for event in rest)])


def _first(state: HGState, seat: str, event: Mapping[str, Any]) -> str:
    """The seat's own choice: the tile laid, or the figure placed."""
    kind = event["type"]
    if kind == "TilePlaced":
        tile = f"bonus tile {event['tile']}" if event["bonus"] else f"tile {event['tile']}"
        rotation = event["rotation"]
        turned = f"turned {degrees(rotation)}" if rotation else "not turned"
        return f"{seat}: {tile} at {where((event['x'], event['y']))} {turned}"
    if kind in ("FollowerPlaced", "HutBuilt"):
        return f"{seat}: {event['piece']} on {zone_words(state, event)}"
    if kind == "NothingPlaced":
        return f"{seat}: no figure"
    return f"{seat}: {_words(state, event)}"


def zone_words(state: HGState, event: Mapping[str, Any]) -> str:
    """``the south forest (zone 3) of tile 17``: feature, place on the tile, number."""
    placed = state.board.get((event["x"], event["y"]))
    if placed is None:
        return f"zone {event['zone']} at {where((event['x'], event['y']))}"
    here = oriented(state.tileset, placed.tile, placed.rotation)
    zone = here.tile.zone(event["zone"])
    place = compass_word(here, zone.index)
    feature = zone.type if place == "middle" and zone.type == "lake" else f"{place} {zone.type}"
    return f"the {feature} (zone {zone.index}) of tile {placed.tile}"


def _home(returned: Sequence[Mapping[str, Any]]) -> str:
    names = [f"{piece['seat']}'s {piece['piece']}" for piece in returned]
    if not names:
        return ""
    return f", {and_list(names)} {'comes' if len(names) == 1 else 'come'} home"


def _scorers(scorers: Sequence[str], points: int) -> str:
    if not scorers:
        return "nobody scores"
    return f"{and_list(scorers)} {'scores' if len(scorers) == 1 else 'score'} {points}"


def _counts(pieces: Mapping[str, int]) -> str:
    return ", ".join(f"{seat} {n}" for seat, n in pieces.items())


def _words(state: HGState, event: Mapping[str, Any]) -> str:
    kind = event["type"]
    if kind == "StartTilePlaced":
        return f"start tile {event['tile']} at {where((event['x'], event['y']))}"
    if kind == "TileDrawn":
        if event["bonus"]:
            return f"{event['seat']} draws bonus tile {event['tile']} for the gold nugget"
        return f"{event['seat']} draws tile {event['tile']}"
    if kind == "TileSetAside":
        return f"tile {event['tile']} fits nowhere and is set aside"
    if kind == "NoBonusTileLeft":
        return f"{event['seat']} earned a bonus tile, but none is left"
    if kind == "ForestCompleted":
        extras = []
        if event["mushrooms"]:
            extras.append(counted(event["mushrooms"], "mushroom site"))
        if event["gold_nugget"]:
            extras.append("a gold nugget")
        with_extras = f" with {and_list(extras)}" if extras else ""
        return (
            f"forest of {counted(event['size'], 'tile')}{with_extras} completed: "
            f"{_scorers(event['scorers'], event['points'])}{_home(event['returned'])}"
        )
    if kind == "RiverCompleted":
        fish = f", {counted(event['fish'], 'fish', 'fish')} in its lakes" if event["fish"] else ""
        return (
            f"river of {counted(event['size'], 'tile')}{fish} completed: "
            f"{_scorers(event['scorers'], event['points'])}{_home(event['returned'])}"
        )
    if kind == "UnfinishedFeaturesAbandoned":
        back = _home(event["returned"]).removeprefix(", ")
        end = "the last land tile is down"
        return f"{end}: {back} without points" if back else end
    if kind == "RiverSystemScored":
        return (
            f"river system with {counted(event['fish'], 'fish', 'fish')} "
            f"(huts: {_counts(event['huts'])}): "
            f"{_scorers(event['scorers'], event['points'])}"
        )
    if kind == "MeadowScored":
        return _meadow(event)
    if kind == "GameEnded":
        return f"game over: {standings_line(event)}"
    return str(kind)


def _meadow(event: Mapping[str, Any]) -> str:
    animals = [
        counted(event[name], name, plural)
        for name, plural in (
            ("deer", "deer"),
            ("mammoth", "mammoths"),
            ("aurochs", "aurochs"),
            ("tiger", "tigers"),
        )
        if event[name]
    ]
    fire = ", fire drives the tigers off" if event["fire"] and event["tiger"] else ""
    if event["fire"] and not event["tiger"]:
        fire = ", a fire"
    shrine = f", {event['shrine']}'s hunter on the shrine takes it all" if event["shrine"] else ""
    return (
        f"meadow with {and_list(animals) if animals else 'no animals'}{fire} "
        f"(hunters: {_counts(event['hunters'])}){shrine}: "
        f"{_scorers(event['scorers'], event['points'])}"
    )
