"""The move notation: one line per stored move, declared parts marked.

>>> from gamelog.games.pyramidion import RULES
>>> seats = ("red", "blue", "yellow")
>>> state = RULES.start(seats, RULES.normalize_options({}, seats))
>>> line(state, "red", None, [{"type": "CardsPlayed", "declared": True, "seat": "red",
...     "location": "gizeh", "count": 2}])
'declared: red plays 2 cards to Gizeh'
>>> line(state, "blue", None, [{"type": "LoadingPassed", "seat": "blue"}])
'blue passes'

A line shows only what its events show the reader: a loaded boat's points
appear for its owner and the arbiter, a round end's count only for the seat
whose count it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gamelog.games.protocol import Event, Move
from gamelog.games.pyramidion.components import SUPPLY
from gamelog.games.pyramidion.order import MARKERS, TWO_PLAYER_SWAP
from gamelog.games.pyramidion.resources import total, words
from gamelog.games.pyramidion.state import ALL_BOATS, PyramidionState
from gamelog.games.wording import and_list, counted, places


def line(
    state: PyramidionState, seat: str | None, move: Move | None, events: Sequence[Event]
) -> str:
    if seat is None:
        return _deal(state, events)
    parts = []
    for event in events:
        words_for = _WORDS.get(event["type"])
        if words_for is None:
            continue
        part = words_for(state, event)
        parts.append(f"declared: {part}" if event.get("declared") else part)
    return "; ".join(parts) or f"{seat} moves"


def _deal(state: PyramidionState, events: Sequence[Event]) -> str:
    started = next((e for e in events if e["type"] == "GameStarted"), None)
    order = started["order"] if started else list(state.seats)
    goal = started["goal"] if started else state.goal
    aim = "until every boat is loaded" if goal == ALL_BOATS else f"to {goal} points"
    deck = state.components.boats
    boats = (
        f"boats dealt from the {state.components.name} deck of {counted(len(deck), 'card')}"
        if deck is not None
        else "boats declared by the arbiter"
    )
    return f"deal: order {', '.join(order)}; playing {aim}; {boats}"


def _boat(state: PyramidionState, e: Event) -> str:
    text = f"the arbiter turns up boat {e['boat']} ({words(e['requirements'])})"
    if e["dealt"]:
        text += " from the deck"
    if "points" in e:
        text += f", {counted(e['points'], 'point')} (card {e['card']})"
    return text


def _loaded(state: PyramidionState, e: Event) -> str:
    text = f"{e['seat']} loads boat {e['boat']} ({words(e['requirements'])})"
    how = [f"a troop in {state.name(f['location'])} fetches 1 {f['resource']}" for f in e["fetch"]]
    how += [f"a statue as {resource}" for resource in e["statue_for"]]
    if how:
        text += ": " + and_list(how)
    text += f", {counted(total(e['used']), 'resource')} back to the supply"
    if "points" in e:
        text += f" ({counted(e['points'], 'point')})"
    return text


def _order(state: PyramidionState, e: Event) -> str:
    order = ", ".join(e["order"])
    if e["rule"] == MARKERS:
        return f"phase 6: player order {order} (Gizeh markers)"
    if e["rule"] == TWO_PLAYER_SWAP:
        return f"Gizeh was not activated: the second player starts the next round: {order}"
    return f"phase 6: player order unchanged, {order}"


def _round_end(state: PyramidionState, e: Event) -> str:
    if e["game_ends"]:
        text = f"phase 8: round {e['round']} ends the game"
    elif state.goal == ALL_BOATS:
        text = f"phase 8: round {e['round']} ends, boats are left to load"
    else:
        text = f"phase 8: round {e['round']} ends, nobody has {state.goal} points"
    if e["troop_bonus"]:
        text += f"; most troops: {e['troop_bonus']} (+1 point)"
    counts = e["counts"]
    if counts and not e["game_ends"]:
        text += "; secret count: " + ", ".join(f"{s} {n}" for s, n in counts.items())
    return text


def _game_end(state: PyramidionState, e: Event) -> str:
    scores = e["scores"]
    standings = ", ".join(
        f"{place}. {seat} {scores[seat]}"
        for place, seats in places([[s] for s in e["ranking"]])
        for seat in seats
    )
    owned = [b for b in e["boats"] if b["seat"] is not None]
    return f"boats revealed ({counted(len(owned), 'loaded boat')}); result: {standings}"


_WORDS: dict[str, Callable[[PyramidionState, Event], str]] = {
    "CardsDrawn": lambda s, e: f"{e['seat']} draws {counted(e['count'], 'card')}",
    "LocationActivated": lambda s, e: f"{e['seat']} activates {s.name(e['location'])}",
    "CardsPlayed": lambda s, e: (
        f"{e['seat']} plays {counted(e['count'], 'card')} to {s.name(e['location'])}"
    ),
    "OrderMarkerTaken": lambda s, e: f"{e['seat']} takes order marker {e['number']} in Gizeh",
    "ResourcesGained": lambda s, e: (
        f"{e['seat']} gains {words(e['resources'])} from "
        + ("the supply" if e["source"] == SUPPLY else s.name(e["source"]))
    ),
    "ResourcesReturned": lambda s, e: f"{e['seat']} returns {words(e['resources'])} to the supply",
    "TroopsPlaced": lambda s, e: (
        f"{e['seat']} places {counted(e['count'], 'troop')} in {s.name(e['location'])}"
    ),
    "TroopsMoved": lambda s, e: (
        f"{e['seat']} moves {counted(e['count'], 'troop')} from {s.name(e['from'])} "
        f"to {s.name(e['to'])}"
    ),
    "TroopsRemoved": lambda s, e: (
        f"{e['seat']} removes {counted(e['count'], 'troop')} from {s.name(e['location'])}"
    ),
    "CharacterRecruited": lambda s, e: (
        f"{e['seat']} recruits a character" + (f" ({e['character']})" if "character" in e else "")
    ),
    "PhasesFinished": lambda s, e: f"{e['seat']} is done with phases 1 to 5",
    "BoatTurnedUp": _boat,
    "ProductionDeclared": lambda s, e: (
        f"{e.get('name') or s.name(e['location'])} produces {and_list(e['produces'])}"
    ),
    "ResourcesProduced": lambda s, e: (
        f"{words(e['resources'])} produced in {s.name(e['location'])}"
    ),
    "DeckExhausted": lambda s, e: "no boat card is left in the deck",
    "DisplayConfirmed": lambda s, e: "the arbiter confirms the display; phase 7 begins",
    "OrderSet": _order,
    "BoatLoaded": _loaded,
    "LoadingPassed": lambda s, e: f"{e['seat']} passes",
    "RoundEnded": _round_end,
    "GameEnded": _game_end,
}
