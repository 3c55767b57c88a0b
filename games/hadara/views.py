"""What each viewer may know: hidden cards, redacted events, and the table
as JSON for one viewer (a seat, a spectator (None) or the arbiter).

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

Everybody sees the boards, the displays, the tracks, the colony fronts, the
inner stacks' counts and each outer stack's top card and count. A seat also
sees its own draw, its own sealed choice and the cards it sold face down; the
arbiter sees everything (``inner_cards``, ``outer_cards``, every draw and
choice, every colony back). ``schemas.json`` describes each field.
"""

from __future__ import annotations

from gamelog.games.hadara import phases
from gamelog.games.hadara.cards import COLOURS, TRACKS
from gamelog.games.hadara.scoring import final_result, score_sheet
from gamelog.games.hadara.state import (
    HadaraState,
    Player,
    free_tiles,
    track_marker,
    tracks,
)
from gamelog.games.protocol import ARBITER, JSON, Event, Viewer


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


def colony_rows(state: HadaraState, viewer: Viewer) -> list[dict[str, JSON]]:
    """Every colony slot with its front; the back only once allied (or to the arbiter)."""
    allied = {slot for p in state.players for slot, a in p.colonies if a}
    rows = []
    for slot, colony_id in state.colony_slots.items():
        colony = state.components.colony_by_id[colony_id]
        row: dict[str, JSON] = {"slot": slot, **colony.front()}
        row["taken_by"] = state.colony_owner.get(slot)
        row["allied"] = slot in allied
        if slot in allied or viewer == ARBITER:
            row["colony"] = colony_id
            row["back_values"] = dict(zip(TRACKS, colony.back_values))
            row["back_points"] = colony.back_points
        rows.append(row)
    return rows


def player_board(state: HadaraState, player: Player, viewer: Viewer) -> dict[str, JSON]:
    values = tracks(player, state)
    board: dict[str, JSON] = {
        "side": player.side,
        "start_card": player.start_card,
        "initiative": player.initiative,
        "coins": player.coins,
        "tracks": {t: track_marker(values[t]) for t in TRACKS},
        "cards": list(player.cards),
        "card_count": len(player.cards),
        "card_tiles": dict(player.card_tiles),
        "colonies": [{"slot": slot, "allied": allied} for slot, allied in player.colonies],
        "busts": [
            {"bust": number, "tile": tile, "side": side} for number, tile, side in player.busts
        ],
        "free_tiles": free_tiles(player),
        "silver_seals": list(player.silver_seals),
        "golden_seals": player.golden_seals,
        "golden_seals_left": state.components.max_golden_seals - player.golden_seals,
        "sold_face_down": len(player.sold_face_down),
    }
    if viewer in (player.seat, ARBITER):
        board["sold_cards"] = list(player.sold_face_down)
    return board


def crests(state: HadaraState) -> dict[str, str]:
    """The stack each seat's crest points at."""
    return {seat: phases.crest_colour(state.seats, seat, state.wheel) for seat in state.seats}


def view(state: HadaraState, viewer: Viewer, to_act: tuple[str, ...]) -> dict[str, JSON]:
    shown: dict[str, JSON] = {
        "game": "hadara",
        "component_set": state.components.name,
        "first_game": state.first_game,
        "epoch": state.epoch,
        "phase": state.phase,
        "stage": state.stage,
        "start_player": state.start_player,
        "turn_order": list(state.order),
        "to_act": list(to_act),
        "draw_round": state.draw_round,
        "wheel": crests(state),
        "inner_stacks": {c: len(state.inner.get(c, ())) for c in COLOURS},
        "outer_stacks": {
            c: {"top": state.top(c), "count": len(state.outer.get(c, ()))} for c in COLOURS
        },
        "discard": {"face_up": list(state.discard)},
        "colonies": colony_rows(state, viewer),
        "busts": {
            side: [
                {
                    "bust": i,
                    "requirement": b.requirement,
                    "points": b.points,
                    "reward_steps": b.reward_steps,
                }
                for i, b in enumerate(busts, start=1)
            ]
            for side, busts in state.components.busts.items()
        },
        "players": {p.seat: player_board(state, p, viewer) for p in state.players},
        "chosen": [s for s in state.seats if s in state.chosen],
        "score_sheet": state.final_sheet or score_sheet(state),
        "final": state.final_sheet is not None,
    }
    if viewer == ARBITER:
        shown["inner_cards"] = {c: list(state.inner.get(c, ())) for c in COLOURS}
        shown["outer_cards"] = {c: list(state.outer.get(c, ())) for c in COLOURS}
        shown["draws"] = {s: list(c) for s, c in state.drawn.items()}
        shown["choices"] = {s: dict(c) for s, c in state.chosen.items()}
    elif viewer in state.seats:
        shown["your_draw"] = list(state.drawn.get(viewer, ()))
        choice = state.chosen.get(viewer)
        shown["your_choice"] = dict(choice) if choice else None
    result = final_result(state)
    shown["result"] = result.to_json() if result else None
    return shown
