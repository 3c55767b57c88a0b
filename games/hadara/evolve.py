"""Folding events into the state: a pure fold, no checks, no randomness.

``EVOLVE`` maps each event type to the small function that folds it
(``games/evolving.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamelog.games.evolving import EvolveTable, evolve_by
from gamelog.games.hadara import phases
from gamelog.games.hadara.cards import COLOURS
from gamelog.games.hadara.colonies import section_open
from gamelog.games.hadara.feeding import without
from gamelog.games.hadara.state import HadaraState
from gamelog.games.protocol import Event
from gamelog.games.protocol import frozen_replace as replace


def evolve(state: HadaraState, event: Event) -> HadaraState:
    return evolve_by(EVOLVE, "hadara", state, event)


def _start_cards_dealt(state: HadaraState, event: Event) -> HadaraState:
    players = []
    for player in state.players:
        start = state.components.start_by_id[event["start_cards"][player.seat]]
        players.append(
            replace(
                player,
                start_card=start.id,
                start_values=start.values,
                initiative=start.initiative,
                coins=start.coins,
            )
        )
    return replace(state, players=tuple(players))


def _start_player_coin_taken(state: HadaraState, event: Event) -> HadaraState:
    players = tuple(
        replace(p, coins=p.coins + event["coins"]) if p.seat in event["seats"] else p
        for p in state.players
    )
    return replace(state, players=players)


def _colonies_laid(state: HadaraState, event: Event) -> HadaraState:
    return replace(state, colony_slots=dict(event["colonies"]), stage="new_epoch")


def _epoch_begun(state: HadaraState, event: Event) -> HadaraState:
    return replace(
        state,
        epoch=event["epoch"],
        phase="A",
        stage="wheel",
        start_player=event["start_player"],
        order=phases.turn_order(state.seats, event["start_player"]),
        turn=0,
        draw_round=0,
        inner={c: tuple(ids) for c, ids in event["stacks"].items()},
        explicit_order=bool(event.get("explicit_order", False)),
        outer={c: () for c in COLOURS},
        drawn={},
        chosen={},
    )


def _wheel_set(state: HadaraState, event: Event) -> HadaraState:
    return replace(state, wheel=event["wheel"], stage="drawing")


def _wheel_turned(state: HadaraState, event: Event) -> HadaraState:
    return replace(state, wheel=event["wheel"], stage="drawing")


def _cards_drawn(state: HadaraState, event: Event) -> HadaraState:
    inner = dict(state.inner)
    drawn: dict[str, tuple[str, ...]] = {}
    for seat, draw in event["draws"].items():
        taken = set(draw["cards"])
        inner[draw["colour"]] = tuple(c for c in inner[draw["colour"]] if c not in taken)
        drawn[seat] = tuple(draw["cards"])
    return replace(
        state, inner=inner, drawn=drawn, chosen={}, stage="choose", draw_round=event["round"]
    )


def _draw_chosen(state: HadaraState, event: Event) -> HadaraState:
    chosen = dict(state.chosen)
    chosen[event["seat"]] = dict(event)
    return replace(state, chosen=chosen)


def _apply_card(
    state: HadaraState, seat: str, card_id: str, outcome: Mapping[str, Any], public: bool
) -> HadaraState:
    player = state.player(seat)
    if outcome["action"] == "recruit":
        tiles = dict(player.card_tiles)
        if "tile" in outcome:
            tiles[card_id] = outcome["tile"]
        player = replace(
            player,
            coins=player.coins - outcome["price"],
            cards=(*player.cards, card_id),
            card_tiles=tiles,
        )
        return replace(state, players=state.with_player(player))
    player = replace(player, coins=player.coins + outcome["coins"])
    if not public:
        player = replace(player, sold_face_down=(*player.sold_face_down, card_id))
        return replace(state, players=state.with_player(player))
    return replace(state, players=state.with_player(player), discard=(*state.discard, card_id))


def _draws_revealed(state: HadaraState, event: Event) -> HadaraState:
    outer = {c: tuple(ids) for c, ids in state.outer.items()}
    for seat in state.order:
        choice = event["choices"][seat]
        outer[choice["stack"]] = (*outer[choice["stack"]], choice["place"])
        player = state.player(seat)
        player = replace(player, laid_face_up=(*player.laid_face_up, choice["place"]))
        state = replace(state, players=state.with_player(player))
        state = _apply_card(state, seat, choice["card"], choice, public=False)
    stage = "turn_wheel" if state.draw_round < len(COLOURS) else "income"
    return replace(state, outer=outer, drawn={}, chosen={}, stage=stage)


def _income_taken(state: HadaraState, event: Event) -> HadaraState:
    extra = event.get("extra", {})
    players = tuple(
        replace(p, coins=p.coins + event["income"][p.seat] + extra.get(p.seat, 0))
        for p in state.players
    )
    return replace(state, players=players, stage="colony", turn=0, section_taken=0, section_paid=0)


def _next_turn(state: HadaraState) -> HadaraState:
    state = replace(state, section_taken=0, section_paid=0)
    if state.turn + 1 < len(state.order):
        return replace(state, turn=state.turn + 1)
    follows = {
        "colony": "bust",
        "bust": "take" if state.phase == "A" else "feed",
        "feed": "seals",
        "seals": "new_epoch" if state.epoch < 3 else "scoring",
    }[state.stage]
    phase = "B" if follows == "take" else state.phase
    return replace(state, stage=follows, turn=0, phase=phase)


def _after_taking(state: HadaraState, seat: str, paid: int, kind: str) -> HadaraState:
    state = replace(
        state, section_taken=state.section_taken + 1, section_paid=state.section_paid + paid
    )
    if not section_open(state, seat, kind):
        return _next_turn(state)
    return state


def _colony_passed(state: HadaraState, event: Event) -> HadaraState:
    return _next_turn(state)


def _bust_passed(state: HadaraState, event: Event) -> HadaraState:
    return _next_turn(state)


def _seals_passed(state: HadaraState, event: Event) -> HadaraState:
    return _next_turn(state)


def _take_colony(state: HadaraState, event: Event, allied: bool, coins: int) -> HadaraState:
    seat = event["seat"]
    player = state.player(seat)
    player = replace(
        player,
        coins=player.coins + coins + event["colony_coins"] - event["requirement_coins"],
        colonies=(*player.colonies, (event["slot"], allied)),
    )
    owner = dict(state.colony_owner)
    owner[event["slot"]] = seat
    state = replace(state, players=state.with_player(player), colony_owner=owner)
    return _after_taking(state, seat, event["requirement_coins"], "colony")


def _colony_plundered(state: HadaraState, event: Event) -> HadaraState:
    return _take_colony(state, event, False, event["coins"])


def _colony_allied(state: HadaraState, event: Event) -> HadaraState:
    return _take_colony(state, event, True, -event["cost"])


def _bust_carved(state: HadaraState, event: Event) -> HadaraState:
    seat = event["seat"]
    player = state.player(seat)
    player = replace(
        player,
        coins=player.coins - event["requirement_coins"],
        busts=(*player.busts, (event["bust"], event["tile"], event["side"])),
    )
    state = replace(state, players=state.with_player(player))
    return _after_taking(state, seat, event["requirement_coins"], "bust")


def _card_taken(state: HadaraState, event: Event) -> HadaraState:
    outer = dict(state.outer)
    outer[event["colour"]] = outer[event["colour"]][:-1]
    state = replace(state, outer=outer)
    state = _apply_card(state, event["seat"], event["card"], event, public=True)
    if any(outer.values()):
        return replace(state, turn=(state.turn + 1) % len(state.order))
    return replace(state, stage="income", turn=0)


def _people_fed(state: HadaraState, event: Event) -> HadaraState:
    player = without(state.player(event["seat"]), event["removed"])
    player = replace(player, coins=player.coins - event["paid"] + event["surplus_coins"])
    state = replace(
        state, players=state.with_player(player), discard=(*state.discard, *event["removed"])
    )
    return _next_turn(state)


def _seals_bought(state: HadaraState, event: Event) -> HadaraState:
    player = state.player(event["seat"])
    player = replace(
        player,
        coins=player.coins - event["cost"],
        silver_seals=(*player.silver_seals, *event["silver"]),
        golden_seals=player.golden_seals + event["golden"],
    )
    return _next_turn(replace(state, players=state.with_player(player)))


def _game_ended(state: HadaraState, event: Event) -> HadaraState:
    return replace(state, final_sheet=event["sheet"], stage="over")


EVOLVE: EvolveTable[HadaraState] = {
    "StartCardsDealt": _start_cards_dealt,
    "StartPlayerCoinTaken": _start_player_coin_taken,
    "ColoniesLaid": _colonies_laid,
    "EpochBegun": _epoch_begun,
    "WheelSet": _wheel_set,
    "WheelTurned": _wheel_turned,
    "CardsDrawn": _cards_drawn,
    "DrawChosen": _draw_chosen,
    "DrawsRevealed": _draws_revealed,
    "IncomeTaken": _income_taken,
    "ColonyPassed": _colony_passed,
    "BustPassed": _bust_passed,
    "SealsPassed": _seals_passed,
    "ColonyPlundered": _colony_plundered,
    "ColonyAllied": _colony_allied,
    "BustCarved": _bust_carved,
    "CardTaken": _card_taken,
    "PeopleFed": _people_fed,
    "SealsBought": _seals_bought,
    "GameEnded": _game_ended,
}
