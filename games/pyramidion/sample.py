"""The moves ``legal_moves`` offers: every refereed move where there are few,
and a representative sample of declarations, which are open-ended.

Random play must end, so the sample leans toward the game going on. A seat
in phases 1 to 5 is offered to be done (when it may), to gain what a
displayed boat still needs, the first declaration that moves the round on
(an activation, a card onto an activated location, a draw, an order marker)
and one more taken in turn from everything else it could declare. The
arbiter at the display is offered to confirm it, to turn up a boat while
fewer than three lie there, and to declare the production of the next
location not yet known. A loader is offered to pass and, for each displayed
boat, up to two ways to pay for it.
"""

from __future__ import annotations

from gamelog.games.protocol import IllegalMove, Move
from gamelog.games.pyramidion.components import GIZEH
from gamelog.games.pyramidion.declarations import seat_declaration
from gamelog.games.pyramidion.loading import sample_loads
from gamelog.games.pyramidion.resources import WILDCARD, minus
from gamelog.games.pyramidion.state import DISPLAY, PHASES_1_TO_5, PyramidionState

DISPLAY_SAMPLE = 3
"""The sample turns up boats while fewer than this many are displayed."""
BOATS_BEFORE_DECK_EMPTY = 12
"""Without a deck, the sample declares the deck empty only after this many boats."""


def seat_sample(state: PyramidionState, seat: str) -> list[Move]:
    moves: list[Move] = [{"declare": "done"}]
    toward = toward_a_boat(state, seat)
    if toward:
        moves.append({"declare": "gain", "resources": toward})
    moves = [m for m in moves if _accepted(state, seat, m)]
    duties = [m for m in _duties(state, seat) if _accepted(state, seat, m)]
    others = duties[1:] + [m for m in _extras(state, seat) if _accepted(state, seat, m)]
    turn = state.declarations + state.seats.index(seat)
    for move in duties[:1] + ([others[turn % len(others)]] if others else []):
        if move not in moves:
            moves.append(move)
    # Drawing a card is always consistent: the sample never runs dry.
    return moves or [{"declare": "draw", "cards": 1}]


def _accepted(state: PyramidionState, seat: str, move: Move) -> bool:
    try:
        seat_declaration(state, seat, move)
    except IllegalMove:
        return False
    return True


def toward_a_boat(state: PyramidionState, seat: str) -> dict[str, int]:
    """What one displayed boat (a different one as declarations go on) still
    needs beyond the seat's stock."""
    if not state.display:
        return {}
    number = state.display[(state.declarations + state.seats.index(seat)) % len(state.display)]
    return minus(state.boats[number].requirements, state.stock(seat))


def _duties(state: PyramidionState, seat: str) -> list[Move]:
    """Declarations that move the round on: an activation (the one due, with
    two players), cards onto activated locations, a draw with an empty hand,
    an order marker in an activated Gizeh."""
    free = [p for p in state.components.location_ids if not state.activated(p)]
    activated = [place for place, _ in state.activations]
    hand = state.hands.get(seat, 0)
    duties: list[Move] = []
    if free and not any(who == seat for _, who in state.activations):
        first = GIZEH if GIZEH in free and state.round % 2 else free[state.round % len(free)]
        duties.append({"declare": "activate", "location": first})
    if state.players == 2 and len(state.activations) == 2 and free:
        duties.append({"declare": "activate", "location": free[0]})
    bare = [p for p in activated if not state.cards.get(p, {}).get(seat)]
    if hand and (bare or activated):
        for place in bare or activated[::-1]:
            duties.append({"declare": "play", "location": place, "cards": 1})
    if not hand:
        duties.append({"declare": "draw", "cards": 3 if state.players == 2 else 4})
    free_markers = [n for n in range(1, state.players + 1) if n not in state.markers.values()]
    if state.gizeh_activated and seat not in state.markers and free_markers:
        duties.append({"declare": "marker", "number": free_markers[0]})
    return duties


def _extras(state: PyramidionState, seat: str) -> list[Move]:
    locations = state.components.location_ids
    producing = [p for p in locations if state.production.get(p)] or list(locations)
    spot = producing[(state.declarations // 3) % len(producing)]
    extras: list[Move] = [{"declare": "place-troops", "location": spot, "count": 1}]
    stationed = [p for p in locations if state.troops.get(p, {}).get(seat)]
    if stationed:
        target = next(p for p in locations if p != stationed[0])
        extras.append({"declare": "move-troops", "from": stationed[0], "to": target, "count": 1})
        if state.declarations % 4 == 0:
            extras.append({"declare": "remove-troops", "location": stationed[-1], "count": 1})
    stock = state.stock(seat)
    if stock and state.declarations % 5 == 0:
        extras.append({"declare": "return", "resources": {next(iter(stock)): 1}})
    if WILDCARD not in stock:
        extras.append({"declare": "gain", "resources": {WILDCARD: 1}})
    piles = [p for p in locations if state.piles.get(p)]
    if piles:
        pile = state.piles[piles[0]]
        extras.append({"declare": "gain", "resources": {next(iter(pile)): 1}, "from": piles[0]})
    if state.players > 2 and state.recruits.get(seat, 0) < state.round // 2:
        extras.append({"declare": "recruit"})
    return extras


def arbiter_sample(state: PyramidionState) -> list[Move]:
    moves: list[Move] = []
    if state.phase == DISPLAY:
        moves.append({"declare": "display-complete"})
    if state.phase in (PHASES_1_TO_5, DISPLAY):
        if len(state.display) < DISPLAY_SAMPLE and state.boats_left:
            moves.append(sample_boat(state))
        if (
            state.deck is None
            and not state.deck_exhausted
            and len(state.boats) >= BOATS_BEFORE_DECK_EMPTY
        ):
            moves.append({"declare": "deck-empty"})
        if not state.piles:
            moves.append(_produce(state))
    unknown = [p for p in state.components.location_ids if p not in state.production]
    due = _due(state)
    for location in due or unknown[:1]:
        moves.append(sample_production(state, location))
    # Resources laid on a location are always consistent: never an empty sample.
    return moves or [_produce(state)]


def _due(state: PyramidionState) -> list[str]:
    """Locations whose production the loader needs declared: it has a troop
    there that may still fetch."""
    if state.loader is None:
        return []
    return [
        p
        for p in state.components.location_ids
        if p not in state.production and state.free_troops(state.loader, p) > 0
    ]


def production_due(state: PyramidionState) -> bool:
    return bool(_due(state))


def _plain(state: PyramidionState) -> list[str]:
    return [r for r in state.components.resources if r != WILDCARD]


def sample_boat(state: PyramidionState) -> Move:
    """A boat to turn up: with a deck the game deals; else a made-up one that
    varies with the number of boats so far (a sample, not card data)."""
    if state.deck is not None:
        return {"declare": "boat"}
    plain = _plain(state)
    n = len(state.boats) + 1
    wanted = [plain[(n + 2 * i) % len(plain)] for i in range(2 + n % 3)]
    if n % 5 == 0:
        wanted.append(WILDCARD)
    requirements: dict[str, int] = {}
    for resource in wanted:
        requirements[resource] = requirements.get(resource, 0) + 1
    return {"declare": "boat", "requirements": requirements, "points": 2 + (3 * n) % 4}


def sample_production(state: PyramidionState, location: str) -> Move:
    plain = _plain(state)
    index = state.components.location_ids.index(location)
    return {"declare": "production", "location": location, "produces": [plain[index % len(plain)]]}


def _produce(state: PyramidionState) -> Move:
    locations = state.components.location_ids
    location = locations[state.round % len(locations)]
    resource = (state.production.get(location) or _plain(state))[0]
    return {"declare": "produce", "location": location, "resources": {resource: 2}}


def loader_sample(state: PyramidionState, seat: str) -> list[Move]:
    return [*sample_loads(state, seat), {"pass": True}]
