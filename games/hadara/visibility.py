"""What each viewer may know: hidden cards, redacted events.

Hidden from everybody but the arbiter: the inner (face-down) stacks, the
other seats' draws and sealed choices, cards sold face down in phase A,
colony backs until an alliance, and every card of an outer stack below its
top ("Dabei darfst du die Stapel nie durchsuchen, sondern musst immer die
Karte nehmen, die oben auf dem jeweiligen Stapel liegt"). A seat also knows
the cards it drew itself, wherever they went.

A card laid face up in phase A is seen by the table while it lies on top,
but a later card may cover it. The record is the same at every position, so
a reveal names a laid card to other viewers only when it ``stays_on_top``
until phase B takes it; a card that gets covered is named again only when a
take uncovers it (``CardTaken``'s ``uncovered``). So no record but the
arbiter's ever names a card below the top, and a reader still learns every
top card as it comes to light:

>>> choice = {"place": "I-red-03", "stack": "red", "stays_on_top": False,
...           "card": "I-red-07", "action": "sell", "coins": 2}
>>> event = {"type": "DrawsRevealed", "round": 1, "choices": {"ann": choice}}
>>> redact(event, "bob")["choices"]["ann"]["place"] is None
True
>>> redact(event, "ann") == event
True
"""

from __future__ import annotations

from gamelog.games.hadara.cards import COLOURS
from gamelog.games.hadara.state import HadaraState
from gamelog.games.protocol import ARBITER, Event, Viewer


def known_cards(state: HadaraState, viewer: Viewer) -> set[str]:
    """Epoch cards ``viewer`` may know now: the top of each outer stack,
    every display, the face-up discard, and its own draws."""
    known: set[str] = set(state.discard)
    known.update(top for top in map(state.top, COLOURS) if top is not None)
    for player in state.players:
        known.update(player.cards)
        if player.seat == viewer:
            known.update(player.sold_face_down)
            known.update(player.laid_face_up)
            known.update(state.drawn.get(player.seat, ()))
    return known


def hidden_from(state: HadaraState, viewer: Viewer) -> frozenset[str | int]:
    if viewer == ARBITER:
        return frozenset()
    known = known_cards(state, viewer)
    allied = {
        state.colony_slots[slot]
        for player in state.players
        for slot, is_allied in player.colonies
        if is_allied
    }
    hidden: set[str | int] = {c.id for c in state.components.cards if c.id not in known}
    hidden.update(c.id for c in state.components.colonies if c.id not in allied)
    return frozenset(hidden)


def redact(event: Event, viewer: Viewer) -> Event:
    if viewer == ARBITER:
        return event
    kind = event["type"]
    if kind == "EpochBegun":
        return {**event, "stacks": {c: len(ids) for c, ids in event["stacks"].items()}}
    if kind == "ColoniesLaid":
        return {key: value for key, value in event.items() if key != "colonies"}
    if kind == "CardsDrawn":
        draws = {
            seat: draw if seat == viewer else {"colour": draw["colour"], "cards": None}
            for seat, draw in event["draws"].items()
        }
        return {**event, "draws": draws}
    if kind == "DrawChosen" and event["seat"] != viewer:
        return {"type": "DrawChosen", "seat": event["seat"]}
    if kind == "DrawsRevealed":
        choices = {}
        for seat, choice in event["choices"].items():
            seen = dict(choice)
            if seat != viewer:
                if not choice["stays_on_top"]:
                    seen["place"] = None
                if choice["action"] == "sell":
                    seen["card"] = None
            choices[seat] = seen
        return {**event, "choices": choices}
    return event


def shows_hidden(event: Event) -> bool:
    """Draws, reveals, alliances, and takes that uncover the card below."""
    kind = event["type"]
    if kind == "CardTaken":
        return event.get("uncovered") is not None
    return kind in {"CardsDrawn", "DrawsRevealed", "ColonyAllied"}
