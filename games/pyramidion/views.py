"""What each viewer sees: the view as JSON and the table as text.

Hidden: the points (and card) of a displayed boat from everybody but the
arbiter; of a loaded boat from everybody but its owner and the arbiter; each
seat's secret count from everybody else. Once the game is over, everything
shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamelog.games.protocol import ARBITER, JSON, Viewer
from gamelog.games.pyramidion.resources import WILDCARD, words
from gamelog.games.pyramidion.state import ALL_BOATS, Boat, PyramidionState
from gamelog.games.wording import and_list, counted, standings_line

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


def goal_words(goal: int | str) -> str:
    return "until every boat is loaded" if goal == ALL_BOATS else f"{goal} points to end"


def boat_words(state: PyramidionState, boat: Boat, viewer: Viewer, owner: str | None) -> str:
    text = f"boat {boat.number} ({words(boat.requirements)})"
    if sees_points(state, viewer, owner):
        text += f" {counted(boat.points, 'point')}"
    return text


PHASE_WORDS = {
    "phases-1-to-5": "phases 1 to 5 (declared)",
    "display": "the arbiter confirms the display before phase 7",
    "loading": "phase 7: loading boats",
    "over": "game over",
}


def text(state: PyramidionState, viewer: Viewer, to_act: Sequence[str]) -> str:
    lines = [
        f"Pyramidion, round {state.round}: {PHASE_WORDS[state.phase]}; {goal_words(state.goal)}",
        "(" + REFEREED + ")",
        f"player order: {', '.join(state.order)}"
        + (
            "; Gizeh markers: " + ", ".join(f"{s} {n}" for s, n in state.markers.items())
            if state.markers
            else ""
        ),
    ]
    by_location = {place: who for place, who in state.activations}
    lines.append("locations (* = sundial marker: activated this round by the seat named):")
    for place in state.components.location_ids:
        produced = state.production.get(place)
        parts = [f"  {state.name(place)}"]
        if place in by_location:
            parts[0] += f" *{by_location[place]}"
        parts.append("produces " + (", ".join(produced) if produced else "(not declared yet)"))
        troops = state.troops.get(place, {})
        if troops:
            parts.append("troops " + ", ".join(f"{s} {n}" for s, n in troops.items()))
        cards = state.cards.get(place, {})
        if cards:
            parts.append("cards " + ", ".join(f"{s} {n}" for s, n in cards.items()))
        if state.piles.get(place):
            parts.append("lying there: " + words(state.piles[place]))
        lines.append("; ".join(parts))
    shown = [boat_words(state, state.boats[n], viewer, None) for n in state.display]
    lines.append("boats on display: " + (", ".join(shown) if shown else "none"))
    if state.deck is not None:
        lines.append(f"boat deck: {counted(len(state.deck), 'card')} left")
    elif state.deck_exhausted:
        lines.append("boat deck: declared empty")
    for seat in state.order:
        boats = [state.boats[n] for n in state.loaded.get(seat, ())]
        if boats and sees_points(state, viewer, seat):
            held = and_list(boat_words(state, b, viewer, seat) for b in boats)
        else:
            held = f"{counted(len(boats), 'boat')} face down"
        status = " (done with phases 1 to 5)" if seat in state.done else ""
        if seat in state.passed:
            status = " (passed)"
        line = (
            f"{seat}{status}: {counted(state.hands.get(seat, 0), 'card')} in hand; "
            f"resources: {words(state.stock(seat))}; "
            f"{counted(state.troops_of(seat), 'troop')}; boats: {held}"
        )
        if seat in state.counts and sees_points(state, viewer, seat):
            line += f"; count at the last round end: {counted(state.counts[seat], 'point')}"
        lines.append(line)
    if state.troop_bonus:
        lines.append(f"most troops at the last round end (+1 point): {state.troop_bonus}")
    lines.append(f"supply: every resource, not counted; a {WILDCARD} stands in for any resource")
    if state.result is not None:
        lines.append("result: " + standings_line(state.result.to_json()))
    elif to_act:
        lines.append("to act: " + ", ".join("the arbiter" if s == ARBITER else s for s in to_act))
    return "\n".join(lines)
