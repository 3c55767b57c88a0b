"""Folding events into the state: no checks, no randomness.

``EVOLVE`` maps each event type to the small function that folds it
(``games/evolving.py``); the four events that take cards off the draw pile
go through ``_from_draw_pile``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from gamelog.games.evolving import EvolveTable, evolve_by
from gamelog.games.panem.state import (
    ACT,
    DISCARD,
    EXCHANGE,
    FOREST_KEEP,
    HAND_LIMIT,
    HOUSE_KEEP,
    MOVE,
    MOVEMENT,
    OVER,
    PUBLIC,
    TRADING,
    TRIBUTE,
    Offer,
    PanemState,
)
from gamelog.games.protocol import Event
from gamelog.games.protocol import frozen_replace as replace


def _see(s: PanemState, viewer: str, cards: Iterable[str]) -> dict[str, frozenset[str]]:
    seen = dict(s.seen)
    seen[viewer] = seen.get(viewer, frozenset()) | frozenset(cards)
    return seen


def _add_to_hand(s: PanemState, seat: str, cards: Iterable[str]) -> dict[str, frozenset[str]]:
    hands = dict(s.hands)
    hands[seat] = hands[seat] | frozenset(cards)
    return hands


def _remove_from_hand(s: PanemState, seat: str, cards: Iterable[str]) -> dict[str, frozenset[str]]:
    hands = dict(s.hands)
    hands[seat] = hands[seat] - frozenset(cards)
    return hands


def _onto_discard(s: PanemState, cards: list[str]) -> PanemState:
    """Lay cards face up on the discard pile, one after the other: everybody sees them."""
    top, below = s.discard_top, s.discard
    for card in cards:
        if top is not None:
            below = below | {top}
        top = card
    memory = {
        viewer: {**piles, DISCARD: piles.get(DISCARD, frozenset()) | frozenset(cards)}
        for viewer, piles in s.memory.items()
    }
    return replace(s, discard_top=top, discard=below, seen=_see(s, PUBLIC, cards), memory=memory)


def _forget(
    s: PanemState, pile: str, keep: str | None = None
) -> dict[str, dict[str, frozenset[str]]]:
    return {
        viewer: piles if viewer == keep else {**piles, pile: frozenset()}
        for viewer, piles in s.memory.items()
    }


def _forget_shown(
    s: PanemState, holder: str, gone: Iterable[str], saw: frozenset[str] | None
) -> dict[str, dict[str, frozenset[str]]]:
    """The shown-card memory after ``holder`` gave ``gone`` away.

    ``saw`` are the seats that saw which cards went (None: everybody did, as
    with an open discard). A viewer who saw keeps the shown cards that stayed;
    a viewer who did not can no longer tell which of them are still there, so
    it forgets them all: it knew them only "until they could have moved out
    of sight". A seat that saw the move keeps what was shown to everybody.
    """
    gone = frozenset(gone)
    if not gone:
        return s.shown
    public = s.shown.get(PUBLIC, {}).get(holder, frozenset())
    shown: dict[str, dict[str, frozenset[str]]] = {}
    for viewer, holders in s.shown.items():
        kept = dict(holders)
        if holder in kept:
            witness = saw is None or viewer in saw
            kept[holder] = kept[holder] - gone if witness else frozenset()
        shown[viewer] = kept
    if saw is not None and public:
        for viewer in saw - {holder}:
            kept = shown.setdefault(viewer, {})
            kept[holder] = kept.get(holder, frozenset()) | (public - gone)
    return {
        viewer: {h: cards for h, cards in holders.items() if cards}
        for viewer, holders in shown.items()
        if any(holders.values())
    }


def evolve(state: PanemState, event: Event) -> PanemState:
    return evolve_by(EVOLVE, "panem", state, event)


def _from_draw_pile(
    fold: Callable[[PanemState, Event], PanemState],
) -> Callable[[PanemState, Event], PanemState]:
    """``fold`` for an event whose ``cards`` come from the draw pile: they
    leave it first, and from round 1 on they count as draws made."""

    def drawn(s: PanemState, e: Event) -> PanemState:
        cards = frozenset(e["cards"])
        s = replace(
            s,
            draw_pile=s.draw_pile - cards,
            draws_made=s.draws_made + (len(cards) if s.round >= 1 else 0),
        )
        return fold(s, e)

    return drawn


def _table_set(s: PanemState, e: Event) -> PanemState:
    cat = s.catalog
    covered = frozenset(e["covered"])
    open_spaces = [sp for sp in cat.spaces if sp.id not in covered]
    viewers = [*s.seats, PUBLIC]
    piles = {sp.id: frozenset[str]() for sp in open_spaces if sp.location == "hob"}
    return replace(
        s,
        start_player=e["start_player"],
        covered=covered,
        hands={seat: frozenset() for seat in s.seats},
        draw_pile=frozenset(c.id for c in cat.cards.values() if not c.start),
        start_pool=frozenset(c.id for c in cat.cards.values() if c.start),
        hob=dict(piles),
        bakery={sp.id: frozenset() for sp in open_spaces if sp.location == "bakery"},
        glass_ball=dict(e["glass_ball"]),
        lots_left=dict(e["lots_left"]),
        advantage={seat: None for seat in s.seats},
        later_advantages=frozenset(a.id for a in cat.advantages.values() if not a.start),
        chips=frozenset(s.seats),
        position={seat: None for seat in s.seats},
        last_location={seat: None for seat in s.seats},
        seen={viewer: frozenset() for viewer in viewers},
        memory={viewer: {**piles, DISCARD: frozenset()} for viewer in viewers},
        proposals_made={seat: 0 for seat in s.seats},
    )


def _start_advantages(s: PanemState, e: Event) -> PanemState:
    return replace(s, advantage={seat: e["advantages"].get(seat) for seat in s.seats})


def _start_cards(s: PanemState, e: Event) -> PanemState:
    hands = {seat: frozenset(e["hands"].get(seat, [])) for seat in s.seats}
    seen = dict(s.seen)
    for seat in s.seats:
        seen[seat] = seen[seat] | hands[seat]
    return replace(
        s, hands=hands, box=s.box | frozenset(e["boxed"]), start_pool=frozenset(), seen=seen
    )


def _hob_stocked(s: PanemState, e: Event) -> PanemState:
    hob = dict(s.hob)
    hob[e["space"]] = hob[e["space"]] | frozenset(e["cards"])
    return replace(s, hob=hob)


def _bakery_stocked(s: PanemState, e: Event) -> PanemState:
    bakery = dict(s.bakery)
    bakery[e["space"]] = bakery[e["space"]] | frozenset(e["cards"])
    return replace(s, bakery=bakery, seen=_see(s, PUBLIC, e["cards"]))


def _discard_started(s: PanemState, e: Event) -> PanemState:
    s = replace(
        s,
        draw_pile=s.draw_pile - {e["card"]},
        draws_made=s.draws_made + (1 if s.round >= 1 else 0),
    )
    return _onto_discard(s, [e["card"]])


def _draw_pile_renewed(s: PanemState, e: Event) -> PanemState:
    return replace(
        s,
        draw_pile=s.draw_pile | s.pile(DISCARD),
        discard=frozenset(),
        discard_top=None,
        memory=_forget(s, DISCARD),
    )


def _round_started(s: PanemState, e: Event) -> PanemState:
    return replace(s, round=e["round"], order=(), turn=0, step="")


def _start_player_passed(s: PanemState, e: Event) -> PanemState:
    return replace(s, start_player=e["to"])


def _advantages_revealed(s: PanemState, e: Event) -> PanemState:
    beside = dict(s.beside)
    for adv in e["advantages"]:
        location = s.catalog.advantages[adv].location
        assert location is not None
        beside[location] = adv
    return replace(s, later_advantages=s.later_advantages - set(e["advantages"]), beside=beside)


def _trading_opened(s: PanemState, e: Event) -> PanemState:
    return replace(
        s,
        phase=TRADING,
        trading_done=frozenset(),
        offers=(),
        proposals_made={seat: 0 for seat in s.seats},
        shows_made={seat: 0 for seat in s.seats},
    )


def _tribute_demanded(s: PanemState, e: Event) -> PanemState:
    return replace(s, phase=TRIBUTE, tribute_goods=tuple(e["goods"]), sealed={})


def _movement_started(s: PanemState, e: Event) -> PanemState:
    return replace(
        s, phase=MOVEMENT, order=tuple(e["order"]), turn=0, step=MOVE, hand_limit={}, offers=()
    )


def _figure_moved(s: PanemState, e: Event) -> PanemState:
    return replace(s, position={**s.position, e["seat"]: e["space"]}, step=ACT)


def _nothing(s: PanemState, e: Event) -> PanemState:
    return s


def _advantage_taken(s: PanemState, e: Event) -> PanemState:
    location = s.catalog.advantages[e["advantage"]].location
    beside = {loc: adv for loc, adv in s.beside.items() if loc != location}
    return replace(
        s,
        advantage={**s.advantage, e["seat"]: e["advantage"]},
        took_advantage=s.took_advantage | {e["seat"]},
        beside=beside,
    )


def _forest_revealed(s: PanemState, e: Event) -> PanemState:
    return replace(
        s, revealed=tuple(e["cards"]), step=FOREST_KEEP, seen=_see(s, PUBLIC, e["cards"])
    )


def _forest_ended(s: PanemState, e: Event) -> PanemState:
    if e["kept"] is not None:
        s = replace(s, hands=_add_to_hand(s, e["seat"], [e["kept"]]))
    return replace(_onto_discard(s, list(e["discarded"])), revealed=())


def _cards_drawn(s: PanemState, e: Event) -> PanemState:
    seat = e["seat"]
    seen = _see(s, seat, e["cards"])
    if e.get("choose"):
        return replace(s, drawn=tuple(e["cards"]), step=HOUSE_KEEP, seen=seen)
    return replace(s, hands=_add_to_hand(s, seat, e["cards"]), seen=seen)


def _card_kept(s: PanemState, e: Event) -> PanemState:
    s = replace(s, hands=_add_to_hand(s, e["seat"], [e["kept"]]), drawn=())
    return _onto_discard(s, list(e["discarded"]))


def _bakery_taken(s: PanemState, e: Event) -> PanemState:
    bakery = {**s.bakery, e["space"]: frozenset[str]()}
    return replace(s, bakery=bakery, hands=_add_to_hand(s, e["seat"], e["cards"]))


def _pile_looked(s: PanemState, e: Event) -> PanemState:
    seat, pile, cards = e["seat"], e["pile"], frozenset(e["cards"])
    memory = dict(s.memory)
    memory[seat] = {**memory[seat], pile: cards}
    return replace(s, seen=_see(s, seat, cards), memory=memory, looking=pile, step=EXCHANGE)


def _pile_exchanged(s: PanemState, e: Event) -> PanemState:
    seat, pile = e["seat"], e["pile"]
    pairs = [(give, take) for give, take in e["pairs"]]
    gives = [g for g, _ in pairs]
    takes = [t for _, t in pairs]
    hands = dict(s.hands)
    hands[seat] = (hands[seat] - frozenset(gives)) | frozenset(takes)
    s = replace(s, hands=hands, looking=None)
    if pile == DISCARD:
        # decide worked out the new top card (a card given takes the place of
        # the card taken); the rest of the pile lies below it.
        top = e["top"]
        below = (s.pile(DISCARD) - frozenset(takes)) | frozenset(gives)
        s = replace(s, discard_top=top, discard=below - {top})
        if top is not None:
            s = replace(s, seen=_see(s, PUBLIC, [top]))
    else:
        hob = dict(s.hob)
        hob[pile] = (hob[pile] - frozenset(takes)) | frozenset(gives)
        s = replace(s, hob=hob)
    if not pairs:
        return s
    # Only the exchanging seat sees which cards left its hand, unless a single
    # card given became the open top of the discard pile.
    public_give = pile == DISCARD and len(pairs) == 1 and s.discard_top in gives
    s = replace(s, shown=_forget_shown(s, seat, gives, None if public_give else frozenset({seat})))
    memory = _forget(s, pile, keep=seat)
    memory[seat] = {
        **memory[seat],
        pile: (memory[seat].get(pile, frozenset()) - frozenset(takes)) | frozenset(gives),
    }
    if pile == DISCARD and s.discard_top is not None:
        memory = {v: {**m, DISCARD: m[DISCARD] | {s.discard_top}} for v, m in memory.items()}
    return replace(s, memory=memory)


def _places_swapped(s: PanemState, e: Event) -> PanemState:
    position = {**s.position, e["seat"]: e["space"], e["with"]: e["other_space"]}
    return replace(s, position=position, chips=s.chips - {e["seat"]})


def _turn_ended(s: PanemState, e: Event) -> PanemState:
    return replace(s, turn=s.turn + 1, step=MOVE, looking=None, revealed=(), drawn=())


def _round_ended(s: PanemState, e: Event) -> PanemState:
    return replace(s, last_location={seat: e["locations"].get(seat) for seat in s.seats}, step="")


def _tribute_sealed(s: PanemState, e: Event) -> PanemState:
    return replace(s, sealed={**s.sealed, e["seat"]: tuple(e["cards"])})


def _tributes_revealed(s: PanemState, e: Event) -> PanemState:
    hands = dict(s.hands)
    laid: list[str] = []
    glass_ball = dict(s.glass_ball)
    lots_left = dict(s.lots_left)
    for seat in s.seats:
        cards = list(e["tributes"].get(seat, []))
        s = replace(s, shown=_forget_shown(s, seat, cards, None))
        hands[seat] = hands[seat] - frozenset(cards)
        laid.extend(cards)
        lots = e["lots"].get(seat, 0)
        glass_ball[seat] = glass_ball.get(seat, 0) + lots
        lots_left[seat] = lots_left[seat] - lots
    s = replace(s, hands=hands, sealed={}, glass_ball=glass_ball, lots_left=lots_left)
    return _onto_discard(s, laid)


def _hand_limit_demanded(s: PanemState, e: Event) -> PanemState:
    return replace(s, phase=HAND_LIMIT, hand_limit=dict(e["discards"]))


def _cards_discarded(s: PanemState, e: Event) -> PanemState:
    s = replace(
        s,
        shown=_forget_shown(s, e["seat"], e["cards"], None),
        hands=_remove_from_hand(s, e["seat"], e["cards"]),
        hand_limit={k: v for k, v in s.hand_limit.items() if k != e["seat"]},
    )
    return _onto_discard(s, list(e["cards"]))


def _trade_proposed(s: PanemState, e: Event) -> PanemState:
    raw = e["offer"]
    offer = Offer(raw["id"], raw["from"], raw["to"], tuple(raw["give"]), tuple(raw["ask"]))
    made = {**s.proposals_made, offer.proposer: s.proposals_made.get(offer.proposer, 0) + 1}
    return replace(
        s,
        offers=(*s.offers, offer),
        next_offer=offer.id + 1,
        proposals_made=made,
        seen=_see(s, offer.target, offer.give),
    )


def _without_offer(s: PanemState, e: Event) -> PanemState:
    return replace(s, offers=tuple(o for o in s.offers if o.id != e["offer"]))


def _trade_accepted(s: PanemState, e: Event) -> PanemState:
    proposer, target = e["from"], e["to"]
    give, take = frozenset(e["give"]), frozenset(e["take"])
    hands = dict(s.hands)
    hands[proposer] = (hands[proposer] - give) | take
    hands[target] = (hands[target] - take) | give
    partners = frozenset({proposer, target})
    s = replace(s, shown=_forget_shown(s, proposer, give, partners))
    s = replace(s, shown=_forget_shown(s, target, take, partners))
    s = replace(s, hands=hands, seen=_see(s, proposer, take))
    return _without_offer(replace(s, seen=_see(s, target, give)), e)


def _trading_done(s: PanemState, e: Event) -> PanemState:
    return replace(s, trading_done=s.trading_done | {e["seat"]})


def _cards_shown(s: PanemState, e: Event) -> PanemState:
    holder, cards = e["seat"], frozenset(e["cards"])
    viewers = [PUBLIC] if e["public"] else list(e["to"])
    shown = {viewer: dict(holders) for viewer, holders in s.shown.items()}
    seen = dict(s.seen)
    for viewer in viewers:
        holders = shown.setdefault(viewer, {})
        holders[holder] = holders.get(holder, frozenset()) | cards
        seen[viewer] = seen.get(viewer, frozenset()) | cards
    made = {**s.shows_made, holder: s.shows_made.get(holder, 0) + 1}
    return replace(s, shown=shown, seen=seen, shows_made=made)


def _trading_closed(s: PanemState, e: Event) -> PanemState:
    return replace(s, offers=())


def _lot_drawn(s: PanemState, e: Event) -> PanemState:
    return replace(s, lot_drawn=e["owner"])


def _game_ended(s: PanemState, e: Event) -> PanemState:
    shown = [card for cards in e["hands"].values() for card in cards]
    return replace(s, phase=OVER, seen=_see(s, PUBLIC, shown))


EVOLVE: EvolveTable[PanemState] = {
    "TableSet": _table_set,
    "StartAdvantagesDealt": _start_advantages,
    "StartCardsDealt": _start_cards,
    "HobStocked": _from_draw_pile(_hob_stocked),
    "BakeryStocked": _from_draw_pile(_bakery_stocked),
    "DiscardStarted": _discard_started,
    "DrawPileRenewed": _draw_pile_renewed,
    "RoundStarted": _round_started,
    "StartPlayerPassed": _start_player_passed,
    "AdvantagesRevealed": _advantages_revealed,
    "TradingOpened": _trading_opened,
    "TributeDemanded": _tribute_demanded,
    "MovementStarted": _movement_started,
    "FigureMoved": _figure_moved,
    "ActionSkipped": _nothing,
    "AdvantageTaken": _advantage_taken,
    "ForestRevealed": _from_draw_pile(_forest_revealed),
    "ForestEnded": _forest_ended,
    "CardsDrawn": _from_draw_pile(_cards_drawn),
    "CardKept": _card_kept,
    "BakeryTaken": _bakery_taken,
    "PileLooked": _pile_looked,
    "PileExchanged": _pile_exchanged,
    "PlacesSwapped": _places_swapped,
    "TurnEnded": _turn_ended,
    "RoundEnded": _round_ended,
    "TributeSealed": _tribute_sealed,
    "TributesRevealed": _tributes_revealed,
    "HandLimitDemanded": _hand_limit_demanded,
    "CardsDiscarded": _cards_discarded,
    "TradeProposed": _trade_proposed,
    "TradeAccepted": _trade_accepted,
    "TradeDeclined": _without_offer,
    "TradeWithdrawn": _without_offer,
    "TradeVoided": _without_offer,
    "TradingDone": _trading_done,
    "CardsShown": _cards_shown,
    "TradingClosed": _trading_closed,
    "LotDrawn": _lot_drawn,
    "GameEnded": _game_ended,
}
