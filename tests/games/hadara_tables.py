"""Known Hadara positions for the tests of the record, the views and the
pictures: a fixed deal, a move played, phase A played through."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from gamelog.games.hadara import RULES
from gamelog.games.hadara.cards import COLOURS
from gamelog.games.hadara.component_set import shipped_components
from gamelog.games.hadara.phases import turn_order
from gamelog.games.hadara.state import HadaraState
from gamelog.games.protocol import ARBITER, Event, Move, Viewer, rng_for

COMPONENTS = shipped_components("hadara/house-1")
TWO = ("ann", "bob")
FIVE = ("ann", "bob", "cid", "dee", "eve")


def dealt(seats: tuple[str, ...] = TWO) -> HadaraState:
    """Start cards by seat order (ann has initiative 1 and starts epoch I),
    colonies and every epoch's stacks in id order, first game."""
    n = len(seats)
    deal = {
        "start_cards": {seat: f"start-{i + 1}" for i, seat in enumerate(seats)},
        "colonies": {
            str(level): [f"colony-{level:02d}-{i + 1}" for i in range(n)]
            for level in (3, 9, 15, 21, 30)
        },
        "epochs": {
            str(e): {c: list(COMPONENTS.epoch_cards(e, c, True)[: 2 * n]) for c in COLOURS}
            for e in (1, 2, 3)
        },
    }
    options = RULES.normalize_options({"deal": deal, "first_game": True}, seats)
    state = RULES.start(seats, options)
    for event in deal_events(seats, options):
        state = RULES.evolve(state, event)
    return state


def deal_events(seats: tuple[str, ...], options: dict[str, object]) -> list[Event]:
    return RULES.setup(options, seats, rng_for(b"deal", 0))


def play(state: HadaraState, seat: str, move: Move) -> tuple[HadaraState, list[Event]]:
    events = RULES.decide(state, seat, move, rng_for(b"test", 1))
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def line_for(state: HadaraState, seat: str, events: list[Event], viewer: Viewer) -> str:
    """The notation of a move as ``viewer`` reads the record."""
    move = None  # the notation must not need the move: it reads the events
    seen = [RULES.redact(event, viewer) for event in events]
    return RULES.notate(state, seat, move, seen)


def through_phase_a(state: HadaraState) -> tuple[HadaraState, list[Event]]:
    """The start player sets the wheel at red; every seat lays its first drawn
    card and sells the other, and passes colonies and busts, until phase B."""
    events: list[Event] = []
    while state.stage != "take":
        seat = RULES.to_act(state)[0]
        if state.stage == "wheel":
            move: Move = {"wheel": "red"}
        elif state.stage == "choose":
            move = {"place": state.drawn[seat][0], "action": "sell"}
        else:
            move = {"pass": True}
        state, more = play(state, seat, move)
        events += more
    return state, events


def names(text: str, card: str) -> bool:
    """Whether ``text`` names ``card`` as a whole word (I-red-01, not II-red-01)."""
    return re.search(rf"(?<![\w-]){re.escape(card)}(?![\w-])", text) is not None


VIEWERS: tuple[Viewer, ...] = (*TWO, None, ARBITER)


def set_player(state: HadaraState, seat: str, **changes: Any) -> HadaraState:
    player = replace(state.player(seat), **changes)
    return replace(state, players=state.with_player(player))


def at_section(state: HadaraState, stage: str, first: str, **changes: Any) -> HadaraState:
    """The table moved on to a section (colony, bust, take, feed, seals)."""
    return replace(
        state,
        stage=stage,
        order=turn_order(state.seats, first),
        turn=0,
        section_taken=0,
        section_paid=0,
        **changes,
    )
