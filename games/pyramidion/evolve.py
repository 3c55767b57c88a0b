"""Applying events: a pure fold, no checks, no randomness.

Every event names one fact in the game's words. Declared facts (what page 7
does not define, recorded as stated) carry ``"declared": true``; the others
are what the rules of phases 6 to 8 made happen. ``EVOLVE`` maps each event
type to the small function that folds it (``games/evolving.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamelog.games.evolving import EvolveTable, evolve_by
from gamelog.games.protocol import Event, Result
from gamelog.games.protocol import frozen_replace as replace
from gamelog.games.pyramidion.resources import minus, plus
from gamelog.games.pyramidion.state import (
    DISPLAY,
    LOADING,
    OVER,
    PHASES_1_TO_5,
    Boat,
    PyramidionState,
)


def evolve(state: PyramidionState, event: Event) -> PyramidionState:
    after = evolve_by(EVOLVE, "pyramidion", state, event)
    # Any event may be a declared fact; the count of them is no one event's.
    if event.get("declared"):
        after = replace(after, declarations=after.declarations + 1)
    return after


def _nested(table: Mapping[str, Mapping[str, int]], outer: str, inner: str, by: int) -> Any:
    """``table`` with ``table[outer][inner]`` changed by ``by`` (zeros dropped)."""
    row = dict(table.get(outer, {}))
    row[inner] = row.get(inner, 0) + by
    row = {key: row[key] for key in sorted(row) if row[key]}
    changed = {**table, outer: row}
    return {key: changed[key] for key in sorted(changed) if changed[key]}


def _count(table: Mapping[str, int], key: str, by: int) -> dict[str, int]:
    return {**table, key: table.get(key, 0) + by}


def _stock(
    state: PyramidionState, seat: str, gained: Mapping[str, int], lost: Mapping[str, int]
) -> Any:
    return {**state.stocks, seat: minus(plus(state.stock(seat), gained), lost)}


def _started(state: PyramidionState, event: Event) -> PyramidionState:
    return replace(
        state,
        order=tuple(event["order"]),
        goal=event["goal"],
        hands={seat: 0 for seat in state.seats},
        stocks={seat: {} for seat in state.seats},
        recruits={seat: 0 for seat in state.seats},
        loaded={seat: () for seat in state.seats},
    )


def _drawn(state: PyramidionState, event: Event) -> PyramidionState:
    return replace(state, hands=_count(state.hands, event["seat"], event["count"]))


def _activated(state: PyramidionState, event: Event) -> PyramidionState:
    return replace(state, activations=(*state.activations, (event["location"], event["seat"])))


def _played(state: PyramidionState, event: Event) -> PyramidionState:
    seat, number = event["seat"], event["count"]
    return replace(
        state,
        hands=_count(state.hands, seat, -number),
        cards=_nested(state.cards, event["location"], seat, number),
    )


def _marker(state: PyramidionState, event: Event) -> PyramidionState:
    return replace(state, markers={**state.markers, event["seat"]: event["number"]})


def _gained(state: PyramidionState, event: Event) -> PyramidionState:
    gained = event["resources"]
    piles = state.piles
    if event["source"] in state.components.location_ids:
        pile = minus(piles.get(event["source"], {}), gained)
        piles = {key: value for key, value in {**piles, event["source"]: pile}.items() if value}
    return replace(state, stocks=_stock(state, event["seat"], gained, {}), piles=piles)


def _returned(state: PyramidionState, event: Event) -> PyramidionState:
    return replace(state, stocks=_stock(state, event["seat"], {}, event["resources"]))


def _placed(state: PyramidionState, event: Event) -> PyramidionState:
    troops = _nested(state.troops, event["location"], event["seat"], event["count"])
    return replace(state, troops=troops)


def _moved(state: PyramidionState, event: Event) -> PyramidionState:
    seat, number = event["seat"], event["count"]
    troops = _nested(state.troops, event["from"], seat, -number)
    return replace(state, troops=_nested(troops, event["to"], seat, number))


def _removed(state: PyramidionState, event: Event) -> PyramidionState:
    troops = _nested(state.troops, event["location"], event["seat"], -event["count"])
    return replace(state, troops=troops)


def _recruited(state: PyramidionState, event: Event) -> PyramidionState:
    return replace(state, recruits=_count(state.recruits, event["seat"], 1))


def _finished(state: PyramidionState, event: Event) -> PyramidionState:
    return replace(state, done=state.done | {event["seat"]})


def _order_set(state: PyramidionState, event: Event) -> PyramidionState:
    # Phase 6 (every seat done with phases 1 to 5) leads to the display; the
    # two-player swap at a round end leaves the new round in phases 1 to 5.
    phase6 = state.phase == PHASES_1_TO_5 and set(state.done) == set(state.seats)
    return replace(state, order=tuple(event["order"]), phase=DISPLAY if phase6 else state.phase)


def _boat(state: PyramidionState, event: Event) -> PyramidionState:
    boat = Boat(
        number=event["boat"],
        card=event["card"],
        requirements=dict(event["requirements"]),
        points=event["points"],
    )
    deck = state.deck
    if deck is not None:
        deck = tuple(card for card in deck if card != boat.card)
    return replace(
        state,
        boats={**state.boats, boat.number: boat},
        display=(*state.display, boat.number),
        deck=deck,
    )


def _production(state: PyramidionState, event: Event) -> PyramidionState:
    location = event["location"]
    names = {**state.names, location: event["name"]} if "name" in event else state.names
    production = {**state.production, location: tuple(event["produces"])}
    return replace(state, production=production, names=names)


def _produced(state: PyramidionState, event: Event) -> PyramidionState:
    location = event["location"]
    pile = plus(state.piles.get(location, {}), event["resources"])
    return replace(state, piles={**state.piles, location: pile})


def _exhausted(state: PyramidionState, event: Event) -> PyramidionState:
    return replace(state, deck_exhausted=True)


def _display_confirmed(state: PyramidionState, event: Event) -> PyramidionState:
    loader = state.order[0] if state.display else None
    return replace(state, phase=LOADING, loader=loader, passed=frozenset())


def _next_loader(state: PyramidionState, current: str) -> str | None:
    """The next seat in player order after ``current`` that has not passed."""
    if not state.display:
        return None
    index = state.order.index(current)
    for step in range(1, len(state.order) + 1):
        seat = state.order[(index + step) % len(state.order)]
        if seat not in state.passed:
            return seat
    return None


def _loaded(state: PyramidionState, event: Event) -> PyramidionState:
    seat, number = event["seat"], event["boat"]
    used = state.troops_used
    for fetch in event["fetch"]:
        used = _nested(used, fetch["location"], seat, 1)
    after = replace(
        state,
        stocks=_stock(state, seat, {}, event["own"]),
        troops_used=used,
        display=tuple(n for n in state.display if n != number),
        loaded={**state.loaded, seat: (*state.loaded.get(seat, ()), number)},
    )
    return replace(after, loader=_next_loader(after, seat))


def _passed(state: PyramidionState, event: Event) -> PyramidionState:
    after = replace(state, passed=state.passed | {event["seat"]})
    return replace(after, loader=_next_loader(after, event["seat"]))


def _round_ended(state: PyramidionState, event: Event) -> PyramidionState:
    counted = replace(state, counts=dict(event["counts"]), troop_bonus=event["troop_bonus"])
    if event["game_ends"]:
        return replace(counted, loader=None)
    # Page 7: troops and resources stay where they are; the sundial markers
    # come off the locations and the cards in hand go to the discard pile.
    # Cards played to the locations count per round (our reading; page 7 is
    # silent): they go too.
    return replace(
        counted,
        round=state.round + 1,
        phase=PHASES_1_TO_5,
        hands={seat: 0 for seat in state.seats},
        done=frozenset(),
        markers={},
        activations=(),
        cards={},
        troops_used={},
        loader=None,
        passed=frozenset(),
    )


def _game_ended(state: PyramidionState, event: Event) -> PyramidionState:
    ranking = event["ranking"]
    result = Result(
        scores=dict(event["scores"]),
        ranking=tuple((seat,) for seat in ranking),
        details={
            "hands": dict(event["hands"]),
            "boats": {seat: len(state.loaded.get(seat, ())) for seat in state.seats},
            "order": list(event["order"]),
            "troop_bonus": state.troop_bonus,
            "goal": state.goal,
        },
    )
    return replace(state, phase=OVER, result=result)


EVOLVE: EvolveTable[PyramidionState] = {
    "GameStarted": _started,
    "CardsDrawn": _drawn,
    "LocationActivated": _activated,
    "CardsPlayed": _played,
    "OrderMarkerTaken": _marker,
    "ResourcesGained": _gained,
    "ResourcesReturned": _returned,
    "TroopsPlaced": _placed,
    "TroopsMoved": _moved,
    "TroopsRemoved": _removed,
    "CharacterRecruited": _recruited,
    "PhasesFinished": _finished,
    "OrderSet": _order_set,
    "BoatTurnedUp": _boat,
    "ProductionDeclared": _production,
    "ResourcesProduced": _produced,
    "DeckExhausted": _exhausted,
    "DisplayConfirmed": _display_confirmed,
    "BoatLoaded": _loaded,
    "LoadingPassed": _passed,
    "RoundEnded": _round_ended,
    "GameEnded": _game_ended,
}
