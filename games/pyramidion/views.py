"""What each viewer may know: the view as JSON, redacted events, hidden cards.

Hidden: the points (and card) of a displayed boat from everybody but the
arbiter; of a loaded boat from everybody but its owner and the arbiter; each
seat's secret count from everybody else. Once the game is over, everything
shows.
"""

from __future__ import annotations

from typing import Any

from gamelog.games.protocol import ARBITER, JSON, Event, Viewer
from gamelog.games.pyramidion.state import Boat, PyramidionState

SHOWS_HIDDEN = frozenset({"BoatTurnedUp", "BoatLoaded", "RoundEnded", "GameEnded"})
"""Events that show what was hidden: a boat's points, a seat's secret count."""

REFEREED = (
    "partly refereed: only page 7 of the rulebook is known, so phases 6 to 8 (player "
    "order, loading boats, the round end) and the end of the game are rule-checked, "
    "and everything else is recorded as the seats and the arbiter declare it"
)


def sees_points(state: PyramidionState, viewer: Viewer, owner: str | None) -> bool:
    return viewer == ARBITER or state.over or (owner is not None and owner == viewer)


def boat_view(state: PyramidionState, boat: Boat, viewer: Viewer, owner: str | None) -> JSON:
    shown: dict[str, Any] = {"boat": boat.number, "requirements": dict(boat.requirements)}
    if sees_points(state, viewer, owner):
        shown["card"] = boat.card
        shown["points"] = boat.points
    return shown


def view(state: PyramidionState, viewer: Viewer) -> dict[str, JSON]:
    by_location = {place: who for place, who in state.activations}
    locations = [
        {
            "id": place,
            "name": state.name(place),
            "produces": list(state.production[place]) if place in state.production else None,
            "activated_by": by_location.get(place),
            "troops": dict(state.troops.get(place, {})),
            "troops_used": dict(state.troops_used.get(place, {})),
            "cards": dict(state.cards.get(place, {})),
            "pile": dict(state.piles.get(place, {})),
        }
        for place in state.components.location_ids
    ]
    seats: dict[str, JSON] = {}
    for seat in state.seats:
        entry: dict[str, Any] = {
            "hand": state.hands.get(seat, 0),
            "stock": dict(state.stock(seat)),
            "troops": state.troops_of(seat),
            "recruits": state.recruits.get(seat, 0),
            "boats": [
                boat_view(state, state.boats[n], viewer, seat) for n in state.loaded.get(seat, ())
            ],
            "done": seat in state.done,
            "passed": seat in state.passed,
        }
        if seat in state.counts and sees_points(state, viewer, seat):
            entry["count"] = state.counts[seat]
        seats[seat] = entry
    deck: dict[str, JSON] = (
        {"cards_left": len(state.deck)}
        if state.deck is not None
        else {"declared": True, "exhausted": state.deck_exhausted}
    )
    return {
        "refereed": REFEREED,
        "component_set": state.components.name,
        "goal": state.goal,
        "round": state.round,
        "phase": state.phase,
        "order": list(state.order),
        "loader": state.loader,
        "resources": list(state.components.resources),
        "locations": locations,
        "markers": dict(state.markers),
        "display": [boat_view(state, state.boats[n], viewer, None) for n in state.display],
        "deck": deck,
        "seats": seats,
        "troop_bonus": state.troop_bonus,
        "result": state.result.to_json() if state.result else None,
    }


def redact(event: Event, viewer: Viewer) -> Event:
    if viewer == ARBITER:
        return event
    kind = event["type"]
    if kind == "BoatTurnedUp" or (kind == "BoatLoaded" and event["seat"] != viewer):
        return {k: v for k, v in event.items() if k not in ("card", "points")}
    if kind == "RoundEnded":
        counts = event["counts"]
        own = {viewer: counts[viewer]} if viewer in counts else {}
        return {**event, "counts": own}
    return event


def shows_hidden(event: Event) -> bool:
    return event["type"] in SHOWS_HIDDEN


def hidden_from(state: PyramidionState, viewer: Viewer) -> frozenset[str | int]:
    if viewer == ARBITER or state.over:
        return frozenset()
    hidden: set[str | int] = {state.boats[n].card for n in state.display}
    for seat, numbers in state.loaded.items():
        if seat != viewer:
            hidden |= {state.boats[n].card for n in numbers}
    return frozenset(hidden)
