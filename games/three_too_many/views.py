"""What each viewer may know: the state and the events cut per viewer.

Hidden: other seats' hands, every draw pile (even from its owner, face
down) and the box's undealt cards, which only the arbiter sees.
"""

from __future__ import annotations

from gamelog.games.protocol import ARBITER, JSON, Event, Viewer
from gamelog.games.three_too_many.scoring import final_result, totals
from gamelog.games.three_too_many.state import ThreeTooManyState


def view(state: ThreeTooManyState, viewer: Viewer, to_act: tuple[str, ...]) -> dict[str, JSON]:
    """What ``viewer`` may see: a seat its own hand, the arbiter every hand,
    pile and the box; scores and collections are public."""
    colours = state.components.colours
    scores = totals(state)
    players: dict[str, JSON] = {}
    for i, seat in enumerate(state.seats):
        collection = state.collections[i]
        players[seat] = {
            "holding": len(state.hands[i]),
            "reserve": len(state.piles[i]),
            "played": state.played[i],
            "face_up": {c: list(collection.face_up[k]) for k, c in enumerate(colours)},
            "face_down": {c: list(collection.face_down[k]) for k, c in enumerate(colours)},
            "interim_bonus": state.interim_bonus[i],
            "final_bonus": state.final_bonus[i] if state.ended else None,
            "score": scores[i],
        }
    data: dict[str, JSON] = {
        "game": "three-too-many",
        "component_set": state.components.name,
        "seats": list(state.seats),
        "to_act": list(to_act),
        "rows": [[r.start, *r.cards] for r in state.display],
        "players": players,
        "interim_bonus_left": [{"points": p} for p in state.interim_stack],
        "box": {
            "undealt": len(state.box),
            "colourless": list(state.colourless),
            "returned_at_end": sum(len(h) for h in state.last_hands),
        },
        "ended": state.ended,
    }
    if viewer in state.seats:
        i = state.seats.index(viewer)
        data["hand"] = list(state.hands[i])
        if state.ended:
            data["last_hand"] = list(state.last_hands[i])
    if viewer == ARBITER:
        data["hands"] = {s: list(h) for s, h in zip(state.seats, state.hands)}
        data["piles"] = {s: list(p) for s, p in zip(state.seats, state.piles)}
        data["last_hands"] = {s: list(h) for s, h in zip(state.seats, state.last_hands)}
        data["box_cards"] = list(state.box)
    result = final_result(state)
    data["result"] = result.to_json() if result else None
    return data


def redact(event: Event, viewer: Viewer) -> Event:
    if viewer == ARBITER:
        return event
    if event["type"] == "PilesDealt":
        return {
            "type": "PilesDealt",
            "piles": {s: len(cards) for s, cards in event["piles"].items()},
            "box": len(event["box"]),
            "in_draw_order": event["in_draw_order"],
        }
    if event["type"] == "CardsDrawn" and viewer != event["seat"]:
        return {"type": "CardsDrawn", "seat": event["seat"], "count": len(event["cards"])}
    return event


def shows_hidden(event: Event) -> bool:
    return event["type"] in ("CardsDrawn", "DisplayDealt")


def hidden_from(state: ThreeTooManyState, viewer: Viewer) -> frozenset[str | int]:
    if viewer == ARBITER:
        return frozenset()
    hidden: set[str | int] = set(state.box)
    for i, seat in enumerate(state.seats):
        hidden.update(state.piles[i])
        if seat != viewer:
            hidden.update(state.hands[i])
            if state.last_hands:
                hidden.update(state.last_hands[i])
    return frozenset(hidden)
