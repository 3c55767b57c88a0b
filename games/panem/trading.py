"""The trading phase: proposals, acceptances, declines, showing cards, and its
legal moves (a documented sample)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamelog.games.panem.rounds import after_trading
from gamelog.games.panem.state import TRADING, Offer, PanemState
from gamelog.games.panem.table import Table, card_ids, only
from gamelog.games.protocol import IllegalMove, Move
from gamelog.games.wording import and_list

MAX_SAMPLE_PROPOSALS = 2
"""legal_moves offers proposals only while a seat has made fewer than this many
in the current trading phase (decide accepts any number)."""
MAX_SAMPLE_SHOWS = 1
"""legal_moves offers to show cards only while a seat has shown fewer than this
many times in the current trading phase (decide accepts any number)."""
SAMPLED_TRADING = (
    "a sample: proposals only as 1-for-1 offers of one of your cards for a card of "
    "the same value of another good, while you have no open proposal and made fewer "
    f"than {MAX_SAMPLE_PROPOSALS} this phase; showing only your whole hand to everybody "
    "or to one player, or one card to one player, once a phase; accepting without naming "
    "cards (your lowest matching cards go). Proposals of any size to any player still "
    "trading, showing any of your cards to any players, and accepting with the cards "
    "you name are legal too."
)


def _cover(s: PanemState, seat: str, ask: Sequence[str]) -> list[str] | None:
    """Cards of ``seat`` matching the asked kinds (lowest ids first), or None."""
    pool = sorted(s.hands[seat])
    chosen: list[str] = []
    for kind in ask:
        match = next((c for c in pool if s.catalog.cards[c].kind == kind and c not in chosen), None)
        if match is None:
            return None
        chosen.append(match)
    return chosen


def _offer(s: PanemState, offer_id: Any) -> Offer:
    for offer in s.offers:
        if offer.id == offer_id:
            return offer
    raise IllegalMove("no-offer", f"there is no open proposal {offer_id!r}")


def decide_trading(table: Table, seat: str, move: Move) -> None:
    s = table.s
    if "propose" in move:
        only(move, "propose")
        _propose(table, seat, move["propose"])
    elif "accept" in move:
        only(move, "accept", "cards")
        _accept(table, seat, move)
    elif "decline" in move:
        only(move, "decline")
        offer = _offer(s, move["decline"])
        if offer.target != seat:
            raise IllegalMove("not-your-offer", "only the player asked may decline")
        table.emit({"type": "TradeDeclined", "offer": offer.id})
    elif "withdraw" in move:
        only(move, "withdraw")
        offer = _offer(s, move["withdraw"])
        if offer.proposer != seat:
            raise IllegalMove("not-your-offer", "only the proposer may withdraw")
        table.emit({"type": "TradeWithdrawn", "offer": offer.id})
    elif move.get("done") is True:
        only(move, "done")
        for offer in s.offers:
            if seat in (offer.proposer, offer.target):
                table.emit({"type": "TradeVoided", "offer": offer.id, "reason": "done"})
        table.emit({"type": "TradingDone", "seat": seat})
        if len(table.s.trading_done) == len(s.seats):
            after_trading(table)
    else:
        raise IllegalMove("bad-move", "trade with propose, accept, decline, withdraw or done: true")


def _propose(table: Table, seat: str, raw: Any) -> None:
    s = table.s
    if not isinstance(raw, dict) or set(raw) - {"to", "give", "ask"}:
        raise IllegalMove("bad-move", 'propose {"to": seat, "give": [cards], "ask": [kinds]}')
    other = raw.get("to")
    if other not in s.seats or other == seat:
        raise IllegalMove("bad-trade", f"{other!r} is not another player")
    if other in s.trading_done:
        raise IllegalMove("bad-trade", f"{other} has finished trading")
    give = card_ids(raw.get("give", []), "give")
    ask = raw.get("ask", [])
    if not isinstance(ask, list) or not all(isinstance(k, str) for k in ask):
        raise IllegalMove("bad-move", "ask lists card kinds such as 'food-3'")
    bad = [k for k in ask if k not in s.catalog.kinds]
    if bad:
        raise IllegalMove("bad-trade", f"unknown card kinds {bad}; kinds are good-value")
    if not give and not ask:
        raise IllegalMove("bad-trade", "a proposal gives or asks at least one card")
    if not set(give) <= s.hands[seat]:
        raise IllegalMove("bad-trade", "you can only offer cards from your hand")
    table.emit(
        {
            "type": "TradeProposed",
            "offer": {"id": s.next_offer, "from": seat, "to": other, "give": give, "ask": ask},
        }
    )


def _accept(table: Table, seat: str, move: Move) -> None:
    s = table.s
    offer = _offer(s, move["accept"])
    if offer.target != seat:
        raise IllegalMove("not-your-offer", "only the player asked may accept")
    if not set(offer.give) <= s.hands[offer.proposer]:
        raise IllegalMove("void-offer", f"{offer.proposer} no longer holds the offered cards")
    if "cards" in move:
        cards = card_ids(move["cards"], "cards")
        if not set(cards) <= s.hands[seat]:
            raise IllegalMove("bad-trade", "you can only give cards from your hand")
        if sorted(s.catalog.cards[c].kind for c in cards) != sorted(offer.ask):
            raise IllegalMove("bad-trade", f"the proposal asks for {list(offer.ask)}")
    else:
        found = _cover(s, seat, offer.ask)
        if found is None:
            raise IllegalMove("bad-trade", f"you do not hold {list(offer.ask)}")
        cards = found
    table.emit(
        {
            "type": "TradeAccepted",
            "offer": offer.id,
            "from": offer.proposer,
            "to": seat,
            "give": list(offer.give),
            "take": cards,
        }
    )


def decide_show(table: Table, seat: str, move: Move) -> None:
    """ "Die Spieler dürfen zeigen, welche Karten sie auf der Hand haben":
    while trading, a seat shows some or all of its hand cards to chosen
    seats, or to everybody at the table (spectators too)."""
    s = table.s
    if s.phase != TRADING:
        raise IllegalMove(
            "show-not-now", "hand cards may be shown only while trading, to help a trade"
        )
    if seat in s.trading_done:
        raise IllegalMove(
            "show-not-now", "you are done trading; cards are shown only to help a trade"
        )
    only(move, "show", "to")
    hand = s.hands[seat]
    raw = move["show"]
    whole_hand = raw == "hand"
    if not whole_hand and not isinstance(raw, list):
        raise IllegalMove("bad-show", 'show lists card ids of your hand, or says "hand"')
    cards = sorted(hand) if whole_hand else card_ids(raw, "show")
    if not cards:
        raise IllegalMove("bad-show", "show at least one card (your hand is empty)")
    if not set(cards) <= hand:
        raise IllegalMove("not-in-hand", "you can only show cards from your hand")
    target = move.get("to")
    others = [other for other in s.seats if other != seat]
    public = target == "all"
    if public:
        to = others
    else:
        if not isinstance(target, list) or not target:
            raise IllegalMove("bad-show", 'show to a list of seats or to "all"')
        unknown = [t for t in target if t not in others]
        if unknown:
            named = [t for t in unknown if isinstance(t, str)]
            raise IllegalMove(
                "unknown-seat",
                "cards are shown to other players of this game"
                + (f", not to {and_list(named)}" if named else ""),
            )
        if len(set(target)) != len(target):
            raise IllegalMove("bad-show", "a seat is named twice")
        to = [other for other in others if other in target]
    table.emit(
        {
            "type": "CardsShown",
            "seat": seat,
            "to": to,
            "public": public,
            "whole_hand": whole_hand,
            "cards": cards,
        }
    )


def trading_moves(s: PanemState, seat: str) -> list[Move]:
    moves: list[Move] = [{"done": True}]
    for offer in s.offers:
        if offer.target == seat:
            moves.append({"decline": offer.id})
            if (
                set(offer.give) <= s.hands[offer.proposer]
                and _cover(s, seat, offer.ask) is not None
            ):
                moves.append({"accept": offer.id})
        if offer.proposer == seat:
            moves.append({"withdraw": offer.id})
    has_open = any(o.proposer == seat for o in s.offers)
    if not has_open and s.proposals_made.get(seat, 0) < MAX_SAMPLE_PROPOSALS:
        # Only kinds the set has: a set whose goods differ in values (food 4,
        # no fuel 4) offered asks that ``_propose`` refuses.
        for other in s.seats:
            if other == seat or other in s.trading_done:
                continue
            for card_id in sorted(s.hands[seat]):
                card = s.catalog.cards[card_id]
                for good in s.catalog.goods:
                    if good != card.good and f"{good}-{card.value}" in s.catalog.kinds:
                        moves.append(
                            {
                                "propose": {
                                    "to": other,
                                    "give": [card_id],
                                    "ask": [f"{good}-{card.value}"],
                                }
                            }
                        )
    hand = sorted(s.hands[seat])
    if hand and s.shows_made.get(seat, 0) < MAX_SAMPLE_SHOWS:
        moves.append({"show": "hand", "to": "all"})
        for other in s.seats:
            if other != seat:
                moves.append({"show": "hand", "to": [other]})
                moves += [{"show": [card], "to": [other]} for card in hand]
    return moves
