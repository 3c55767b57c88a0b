"""The table as plain text for the terminal, as one viewer sees it."""

from __future__ import annotations

from collections.abc import Sequence

from gamelog.games.protocol import ARBITER, Viewer
from gamelog.games.pyramidion.resources import WILDCARD, words
from gamelog.games.pyramidion.state import ALL_BOATS, Boat, PyramidionState
from gamelog.games.pyramidion.views import REFEREED, sees_points
from gamelog.games.wording import and_list, counted, standings_line


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


def render_text(state: PyramidionState, viewer: Viewer, to_act: Sequence[str]) -> str:
    """The table as plain text for ``viewer``: the phase, each location, the
    boats, each seat's stock, and who is to act."""
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
