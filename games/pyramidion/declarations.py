"""Declared facts: what page 7 does not define, recorded as a seat or the
arbiter states it.

Nothing here judges whether a declaration was allowed by phases 1 to 5 (we do
not have those rules). It checks only that the record stays consistent: known
locations and resources, no negative stock, pile, hand or troop count, order
markers distinct and no more of them than exist, a location activated once
per round; and the page-7 rules that touch these facts (markers only from an
activated Gizeh; with two players three activations in the order first,
second, first player, at least one card on each if possible, at most five
cards per location, no recruiting).

A seat's declarations (phases 1 to 5, before it declares itself done)::

    {"declare": "draw", "cards": 5}
    {"declare": "activate", "location": "gizeh"}
    {"declare": "play", "location": "gizeh", "cards": 2}
    {"declare": "marker", "number": 1}
    {"declare": "gain", "resources": {"stone": 2}, "from": "supply" | "<location>"}
    {"declare": "return", "resources": {"stone": 1}}
    {"declare": "place-troops", "location": "cairo", "count": 1}
    {"declare": "move-troops", "from": "cairo", "to": "gizeh", "count": 1}
    {"declare": "remove-troops", "location": "cairo", "count": 1}
    {"declare": "recruit", "character": "thief"}          # character optional
    {"declare": "done"}

The arbiter's::

    {"declare": "boat", "requirements": {"stone": 2}, "points": 3}   # no deck
    {"declare": "boat"}                                # a deck: the game deals
    {"declare": "production", "location": "cairo", "produces": ["camel"],
     "name": "..."}                                    # name optional
    {"declare": "produce", "location": "cairo", "resources": {"camel": 2}}
    {"declare": "deck-empty"}                          # no deck: no boat is left
    {"declare": "display-complete"}                    # phase 7 may begin
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gamelog.games.protocol import Event, IllegalMove, Move, is_int
from gamelog.games.pyramidion.components import SUPPLY, fit_name
from gamelog.games.pyramidion.resources import checked_counts, covers, words
from gamelog.games.pyramidion.state import DISPLAY, PHASES_1_TO_5, PyramidionState

TWO_PLAYER_ACTIVATIONS = 3
TWO_PLAYER_MOST_CARDS = 5
SEAT_KINDS = (
    "draw",
    "activate",
    "play",
    "marker",
    "gain",
    "return",
    "place-troops",
    "move-troops",
    "remove-troops",
    "recruit",
    "done",
)
ARBITER_KINDS = ("boat", "production", "produce", "deck-empty", "display-complete")


def declared(kind: str, **fields: Any) -> Event:
    return {"type": kind, "declared": True, **fields}


def _keys(move: Move, required: tuple[str, ...] = (), optional: tuple[str, ...] = ()) -> None:
    unknown = set(move) - {"declare", *required, *optional}
    if unknown:
        raise IllegalMove("bad-move", f"{move['declare']} takes no {sorted(unknown)}")
    missing = [key for key in required if key not in move]
    if missing:
        raise IllegalMove("bad-move", f"{move['declare']} needs {', '.join(missing)}")


def _positive(value: Any, what: str) -> int:
    if not is_int(value) or value < 1:
        raise IllegalMove("bad-number", f"{what} is a positive whole number")
    return value


def _location(state: PyramidionState, value: Any) -> str:
    if not isinstance(value, str) or value not in state.components.location_ids:
        known = ", ".join(state.components.location_ids)
        raise IllegalMove("unknown-location", f"there is no location {value!r}; known: {known}")
    return value


def _resources(state: PyramidionState, value: Any, what: str) -> dict[str, int]:
    return checked_counts(value, state.components.resources, what, IllegalMove)


# -- a seat's declarations ---------------------------------------------------------


def seat_declaration(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    kind = move["declare"]
    if not isinstance(kind, str) or kind not in _SEAT:
        if kind in ARBITER_KINDS:
            raise IllegalMove("arbiter-declares", f"the arbiter declares {kind}, not a seat")
        raise IllegalMove("bad-declaration", f"a seat declares one of {', '.join(SEAT_KINDS)}")
    if state.phase != PHASES_1_TO_5 or seat in state.done:
        raise IllegalMove(
            "not-now", "seats declare during phases 1 to 5, until they declare themselves done"
        )
    return _SEAT[kind](state, seat, move)


def _draw(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move, ("cards",))
    return [declared("CardsDrawn", seat=seat, count=_positive(move["cards"], "cards"))]


def _activate(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move, ("location",))
    location = _location(state, move["location"])
    if state.activated(location):
        raise IllegalMove(
            "already-activated",
            f"{state.name(location)} already has its sundial marker this round",
        )
    if state.players == 2:
        done = len(state.activations)
        if done >= TWO_PLAYER_ACTIVATIONS:
            raise IllegalMove(
                "three-locations", "with two players only three locations are activated a round"
            )
        due = state.order[0] if done in (0, 2) else state.order[1]
        if seat != due:
            raise IllegalMove(
                "not-your-activation",
                f"with two players the {('first', 'second', 'last')[done]} location is "
                f"activated by {due}",
            )
    return [declared("LocationActivated", seat=seat, location=location)]


def _play(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move, ("location", "cards"))
    location = _location(state, move["location"])
    number = _positive(move["cards"], "cards")
    if number > state.hands.get(seat, 0):
        raise IllegalMove(
            "not-enough-cards", f"you hold {state.hands.get(seat, 0)} cards, not {number}"
        )
    there = state.cards.get(location, {}).get(seat, 0)
    if state.players == 2 and there + number > TWO_PLAYER_MOST_CARDS:
        raise IllegalMove(
            "five-cards", "with two players nobody plays more than five cards on one location"
        )
    return [declared("CardsPlayed", seat=seat, location=location, count=number)]


def _marker(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move, ("number",))
    number = move["number"]
    if not state.gizeh_activated:
        raise IllegalMove(
            "gizeh-not-activated", "order markers are taken in Gizeh once it is activated"
        )
    if not is_int(number) or not 1 <= number <= state.players:
        raise IllegalMove("no-such-marker", f"the order markers are numbered 1 to {state.players}")
    if seat in state.markers:
        raise IllegalMove("has-marker", f"you took marker {state.markers[seat]} this round")
    if number in state.markers.values():
        raise IllegalMove("marker-taken", f"marker {number} is taken this round")
    return [declared("OrderMarkerTaken", seat=seat, number=number)]


def _gain(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move, ("resources",), ("from",))
    resources = _resources(state, move["resources"], "resources")
    source = move.get("from", SUPPLY)
    if source != SUPPLY:
        source = _location(state, source)
        pile = state.piles.get(source, {})
        if not covers(pile, resources):
            raise IllegalMove(
                "not-in-pile", f"{state.name(source)} holds {words(pile)}, not {words(resources)}"
            )
    return [declared("ResourcesGained", seat=seat, resources=resources, source=source)]


def _return(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move, ("resources",))
    resources = _resources(state, move["resources"], "resources")
    if not covers(state.stock(seat), resources):
        raise IllegalMove(
            "not-enough-resources", f"you hold {words(state.stock(seat))}, not {words(resources)}"
        )
    return [declared("ResourcesReturned", seat=seat, resources=resources)]


def _place(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move, ("location", "count"))
    location = _location(state, move["location"])
    number = _positive(move["count"], "count")
    return [declared("TroopsPlaced", seat=seat, location=location, count=number)]


def _troops_at(state: PyramidionState, seat: str, location: str, number: int) -> None:
    there = state.troops.get(location, {}).get(seat, 0)
    if number > there:
        raise IllegalMove(
            "not-enough-troops", f"you have {there} troops in {state.name(location)}, not {number}"
        )


def _move_troops(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move, ("from", "to", "count"))
    source, target = _location(state, move["from"]), _location(state, move["to"])
    number = _positive(move["count"], "count")
    if source == target:
        raise IllegalMove("same-location", "troops move from one location to another")
    _troops_at(state, seat, source, number)
    event = declared("TroopsMoved", seat=seat, count=number)
    event["from"], event["to"] = source, target
    return [event]


def _remove_troops(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move, ("location", "count"))
    location = _location(state, move["location"])
    number = _positive(move["count"], "count")
    _troops_at(state, seat, location, number)
    return [declared("TroopsRemoved", seat=seat, location=location, count=number)]


def _recruit(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move, optional=("character",))
    if state.players == 2:
        raise IllegalMove("no-recruiting", "with two players nobody recruits a character")
    event = declared("CharacterRecruited", seat=seat)
    if "character" in move:
        try:
            event["character"] = fit_name(move["character"], "character")
        except ValueError as error:
            raise IllegalMove("bad-name", str(error)) from None
    return [event]


def _done(state: PyramidionState, seat: str, move: Move) -> list[Event]:
    _keys(move)
    if state.players == 2:
        if len(state.activations) < TWO_PLAYER_ACTIVATIONS:
            raise IllegalMove(
                "three-locations",
                "with two players three locations are activated before phases 1 to 5 end",
            )
        bare = [place for place, _ in state.activations if not state.cards.get(place, {}).get(seat)]
        if bare and state.hands.get(seat, 0) > 0:
            raise IllegalMove(
                "card-on-each-location",
                "with two players you play at least one card on each activated location while "
                f"you hold cards: none on {', '.join(state.name(p) for p in bare)} yet",
            )
    return [declared("PhasesFinished", seat=seat)]


_SEAT: dict[str, Callable[[PyramidionState, str, Move], list[Event]]] = {
    "draw": _draw,
    "activate": _activate,
    "play": _play,
    "marker": _marker,
    "gain": _gain,
    "return": _return,
    "place-troops": _place,
    "move-troops": _move_troops,
    "remove-troops": _remove_troops,
    "recruit": _recruit,
    "done": _done,
}


# -- the arbiter's declarations -----------------------------------------------------


def arbiter_declaration(state: PyramidionState, move: Move, rng: random.Random) -> list[Event]:
    kind = move["declare"]
    if not isinstance(kind, str) or kind not in ARBITER_KINDS:
        raise IllegalMove(
            "bad-declaration",
            f"the arbiter declares one of {', '.join(ARBITER_KINDS)}; seats declare their own",
        )
    if kind == "production":
        return _production(state, move)
    if state.phase not in (PHASES_1_TO_5, DISPLAY):
        raise IllegalMove(
            "not-now", f"the arbiter declares {kind} during phases 1 to 5 or at the display"
        )
    if kind == "boat":
        return _boat(state, move, rng)
    if kind == "produce":
        _keys(move, ("location", "resources"))
        location = _location(state, move["location"])
        resources = _resources(state, move["resources"], "resources")
        return [declared("ResourcesProduced", location=location, resources=resources)]
    if kind == "deck-empty":
        _keys(move)
        if state.deck is not None:
            raise IllegalMove("dealt-deck", "the game deals from the component set's deck")
        if state.deck_exhausted:
            raise IllegalMove("deck-empty", "the boat deck is declared empty already")
        return [declared("DeckExhausted")]
    _keys(move)
    if state.phase != DISPLAY:
        raise IllegalMove("not-now", "the display is confirmed once every seat finished phase 5")
    return [declared("DisplayConfirmed")]


def _boat(state: PyramidionState, move: Move, rng: random.Random) -> list[Event]:
    number = len(state.boats) + 1
    if state.deck is None:
        _keys(move, ("requirements", "points"))
        if state.deck_exhausted:
            raise IllegalMove("deck-empty", "the boat deck was declared empty")
        requirements = _resources(state, move["requirements"], "requirements")
        points = move["points"]
        if not is_int(points) or points < 0:
            raise IllegalMove("bad-number", "points is a whole number, 0 or more")
        card, dealt = f"declared-{number}", False
    else:
        _keys(move)
        if not state.deck:
            raise IllegalMove("deck-empty", "every boat card has been turned up")
        card, dealt = draw_boat(state, number, rng), True
        boat = state.components.boat(card)
        requirements, points = dict(boat.requirements), boat.points
    return [
        declared(
            "BoatTurnedUp",
            boat=number,
            requirements=requirements,
            card=card,
            points=points,
            dealt=dealt,
        )
    ]


def draw_boat(state: PyramidionState, number: int, rng: random.Random) -> str:
    """The card turned up as boat ``number``: the creator's deal where it
    says, else drawn now with the rng from the cards not yet turned up."""
    assert state.deck is not None
    dealt = state.deal
    if number <= len(dealt) and dealt[number - 1] in state.deck:
        return dealt[number - 1]
    return rng.choice(state.deck)


def _production(state: PyramidionState, move: Move) -> list[Event]:
    _keys(move, ("location", "produces"), ("name",))
    location = _location(state, move["location"])
    if location in state.production:
        raise IllegalMove(
            "production-known", f"what {state.name(location)} produces is known already"
        )
    produces = move["produces"]
    known = isinstance(produces, list) and all(
        isinstance(r, str) and r in state.components.resources for r in produces
    )
    if not known or not produces or len(set(produces)) != len(produces):
        raise IllegalMove("bad-production", "produces lists distinct known resources")
    event = declared("ProductionDeclared", location=location, produces=sorted(produces))
    if "name" in move:
        if location in state.names:
            raise IllegalMove("named", f"{state.name(location)} has its name already")
        try:
            event["name"] = fit_name(move["name"], "name")
        except ValueError as error:
            raise IllegalMove("bad-name", str(error)) from None
    return [event]
