"""The tribute (sealed, revealed at once) and the hand limit."""

from __future__ import annotations

from gamelog.games.panem.rounds import after_tribute
from gamelog.games.panem.state import PanemState
from gamelog.games.panem.table import Table, card_ids, only
from gamelog.games.protocol import IllegalMove, Move


def _tribute_refusal(s: PanemState, seat: str, cards: list[str]) -> str | None:
    if not set(cards) <= s.hands[seat]:
        return "you can only give cards from your hand"
    goods = [s.catalog.cards[c].good for c in cards]
    if not set(goods) <= set(s.tribute_goods):
        return f"this tribute asks only for {list(s.tribute_goods)}"
    if len(set(goods)) != len(goods):
        return "give at most one card of each good asked"
    return None


def decide_tribute(table: Table, seat: str, move: Move) -> None:
    only(move, "tribute")
    cards = card_ids(move.get("tribute"), "tribute")
    reason = _tribute_refusal(table.s, seat, cards)
    if reason:
        raise IllegalMove("bad-tribute", reason)
    table.emit({"type": "TributeSealed", "seat": seat, "cards": cards})
    s = table.s
    if len(s.sealed) < len(s.seats):
        return
    need = len(s.tribute_goods)
    table.emit(
        {
            "type": "TributesRevealed",
            "tributes": {seat: list(s.sealed[seat]) for seat in s.seats},
            "lots": {seat: min(need - len(s.sealed[seat]), s.lots_left[seat]) for seat in s.seats},
        }
    )
    limit = s.catalog.hand_limit
    over = {
        seat: len(table.s.hands[seat]) - limit
        for seat in s.seats
        if len(table.s.hands[seat]) > limit
    }
    if over:
        table.emit({"type": "HandLimitDemanded", "discards": over})
    else:
        after_tribute(table)


def decide_hand_limit(table: Table, seat: str, move: Move) -> None:
    only(move, "discard")
    cards = card_ids(move.get("discard"), "discard")
    need = table.s.hand_limit[seat]
    if len(cards) != need:
        raise IllegalMove("bad-discard", f"discard exactly {need} card(s) down to the hand limit")
    if not set(cards) <= table.s.hands[seat]:
        raise IllegalMove("bad-discard", "you can only discard cards from your hand")
    table.emit({"type": "CardsDiscarded", "seat": seat, "cards": cards})
    if not table.s.hand_limit:
        after_tribute(table)
