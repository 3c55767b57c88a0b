"""The table as JSON for one viewer: a seat, a spectator (None) or the arbiter.

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
from gamelog.games.protocol import ARBITER, JSON, Viewer


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
