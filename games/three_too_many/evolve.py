"""Folding events into the state: a pure fold, no checks, no randomness.

``EVOLVE`` maps each event type to the small function that folds it
(``games/evolving.py``).
"""

from __future__ import annotations

from gamelog.games.evolving import EvolveTable, evolve_by
from gamelog.games.protocol import Event
from gamelog.games.protocol import frozen_replace as replace
from gamelog.games.three_too_many.collection import take
from gamelog.games.three_too_many.display import Row, place, row_of
from gamelog.games.three_too_many.state import ThreeTooManyState, set_at, without


def evolve(state: ThreeTooManyState, event: Event) -> ThreeTooManyState:
    return evolve_by(EVOLVE, "three-too-many", state, event)


def _display_dealt(state: ThreeTooManyState, event: Event) -> ThreeTooManyState:
    display = list(state.display)
    for card in event["cards"]:
        at = row_of(card)
        display[at] = place(display[at], card).row
    return replace(state, display=tuple(display))


def _piles_dealt(state: ThreeTooManyState, event: Event) -> ThreeTooManyState:
    ordered = bool(event["in_draw_order"])
    piles = tuple(
        tuple(event["piles"][s]) if ordered else tuple(sorted(event["piles"][s]))
        for s in state.seats
    )
    return replace(state, piles=piles, box=tuple(sorted(event["box"])), pile_order_fixed=ordered)


def _cards_drawn(state: ThreeTooManyState, event: Event) -> ThreeTooManyState:
    i = state.seats.index(event["seat"])
    cards = event["cards"]
    return replace(
        state,
        hands=set_at(state.hands, i, tuple(sorted((*state.hands[i], *cards)))),
        piles=set_at(state.piles, i, without(state.piles[i], cards)),
    )


def _card_placed(state: ThreeTooManyState, event: Event) -> ThreeTooManyState:
    i = state.seats.index(event["seat"])
    card = event["card"]
    row = state.display[event["row"]]
    placed = Row(row.start, tuple(sorted((*row.cards, card))))
    return replace(
        state,
        display=set_at(state.display, event["row"], placed),
        hands=set_at(state.hands, i, without(state.hands[i], [card])),
        played=set_at(state.played, i, state.played[i] + 1),
        turn=(i + 1) % len(state.seats),
    )


def _cards_taken(state: ThreeTooManyState, event: Event) -> ThreeTooManyState:
    i = state.seats.index(event["seat"])
    row = state.display[event["row"]]
    taken = take(state.components, state.collections[i], event["cards"])
    return replace(
        state,
        display=set_at(
            state.display, event["row"], Row(row.start, without(row.cards, event["cards"]))
        ),
        collections=set_at(state.collections, i, taken.collection),
        colourless=tuple(sorted((*state.colourless, *taken.to_box))),
    )


def _interim_bonus_taken(state: ThreeTooManyState, event: Event) -> ThreeTooManyState:
    i = state.seats.index(event["seat"])
    return replace(
        state,
        interim_stack=state.interim_stack[1:],
        interim_bonus=set_at(state.interim_bonus, i, event["points"]),
    )


def _game_ended(state: ThreeTooManyState, event: Event) -> ThreeTooManyState:
    return replace(
        state,
        last_hands=state.hands,
        hands=((),) * len(state.seats),
        final_bonus=tuple(event["final_bonus"][s] for s in state.seats),
        ended=True,
    )


EVOLVE: EvolveTable[ThreeTooManyState] = {
    "DisplayDealt": _display_dealt,
    "PilesDealt": _piles_dealt,
    "CardsDrawn": _cards_drawn,
    "CardPlaced": _card_placed,
    "CardsTaken": _cards_taken,
    "InterimBonusTaken": _interim_bonus_taken,
    "GameEnded": _game_ended,
}
