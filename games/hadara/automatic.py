"""What follows by itself, until somebody must choose: laying out an epoch,
the draws at the wheel, the reveal of the sealed choices, income, and seats
with nothing to decide."""

from __future__ import annotations

import random

from gamelog.games.hadara import phases
from gamelog.games.hadara.busts import may_carve_bust
from gamelog.games.hadara.cards import COLOURS
from gamelog.games.hadara.colonies import may_take_colony
from gamelog.games.hadara.evolve import evolve
from gamelog.games.hadara.feeding import fed_event, shortfall
from gamelog.games.hadara.prices import income_extra
from gamelog.games.hadara.scoring import score_sheet
from gamelog.games.hadara.seals import may_buy_seal
from gamelog.games.hadara.state import HadaraState, tracks
from gamelog.games.protocol import JSON, Event


def settle(state: HadaraState, events: list[Event], rng: random.Random) -> list[Event]:
    """Apply ``events``, then add what follows by itself (draws, income,
    seats with nothing to decide) until somebody must choose."""
    out = list(events)
    for event in events:
        state = evolve(state, event)
    while True:
        more = _automatic(state, rng)
        if not more:
            return out
        for event in more:
            state = evolve(state, event)
        out.extend(more)


def _automatic(state: HadaraState, rng: random.Random) -> list[Event]:
    stage = state.stage
    if stage == "new_epoch":
        return [_lay_epoch(state, state.epoch + 1, rng)]
    if stage == "drawing":
        return [_draw(state, rng)]
    if stage == "choose" and len(state.chosen) == len(state.seats):
        return [_reveal(state)]
    if stage == "turn_wheel":
        return [{"type": "WheelTurned", "wheel": phases.turned(state.wheel)}]
    if stage == "income":
        income = {p.seat: tracks(p, state)["income"] for p in state.players}
        extra = {p.seat: income_extra(state, p) for p in state.players}
        return [
            {
                "type": "IncomeTaken",
                "phase": state.phase,
                "income": {s: income[s] for s in state.order},
                "extra": {s: extra[s] for s in state.order if extra[s]},
            }
        ]
    if stage == "colony" and not may_take_colony(state, state.actor):
        return [{"type": "ColonyPassed", "seat": state.actor, "auto": True}]
    if stage == "bust" and not may_carve_bust(state, state.actor):
        return [{"type": "BustPassed", "seat": state.actor, "auto": True}]
    if stage == "feed":
        player = state.player(state.actor)
        if shortfall(state, player, []) <= 0:
            return [fed_event(state, player, [], 0)]
    if stage == "seals" and not may_buy_seal(state, state.actor):
        return [{"type": "SealsPassed", "seat": state.actor, "auto": True}]
    if stage == "scoring":
        sheet = score_sheet(state)
        return [{"type": "GameEnded", "sheet": sheet}]
    return []


def _lay_epoch(state: HadaraState, epoch: int, rng: random.Random) -> Event:
    n = len(state.seats)
    initiative = {p.seat: p.initiative for p in state.players}
    stacks: dict[str, list[str]] = {}
    explicit = str(epoch) in state.deal_epochs
    for colour in COLOURS:
        if explicit:
            stacks[colour] = list(state.deal_epochs[str(epoch)][colour])
        else:
            pool = state.components.epoch_cards(epoch, colour, state.first_game)
            stacks[colour] = sorted(rng.sample(pool, 2 * n))
    return {
        "type": "EpochBegun",
        "epoch": epoch,
        "start_player": phases.start_player(initiative, epoch),
        "stacks": stacks,
        "explicit_order": explicit,
    }


def _draw(state: HadaraState, rng: random.Random) -> Event:
    draws: dict[str, JSON] = {}
    for seat in state.order:
        colour = phases.crest_colour(state.seats, seat, state.wheel)
        stack = state.inner[colour]
        cards = list(stack[:2]) if state.explicit_order else sorted(rng.sample(stack, 2))
        draws[seat] = {"colour": colour, "cards": cards}
    return {"type": "CardsDrawn", "round": state.draw_round + 1, "draws": draws}


def _reveal(state: HadaraState) -> Event:
    """Every sealed choice, with the stack each laid card goes on and
    whether it stays on top until phase B (then every reader may learn
    it; a card that will be covered is named to its own seat only)."""
    choices: dict[str, JSON] = {}
    for seat in state.order:
        colour = phases.crest_colour(state.seats, seat, state.wheel)
        chosen = state.chosen[seat]
        choices[seat] = {
            "place": chosen["place"],
            "stack": colour,
            "stays_on_top": phases.stays_on_top(state.seats, state.wheel, state.draw_round, colour),
            **{k: v for k, v in chosen.items() if k not in ("type", "seat", "place")},
        }
    return {"type": "DrawsRevealed", "round": state.draw_round, "choices": choices}
