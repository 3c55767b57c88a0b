"""Panem's move notation: one line per stored move, in the game's own words.

Each event of a move gives one phrase; the phrases are joined with ``; ``.
The first ones say what the seat did, the rest what followed on the round
track. The line is written from the record *as the reader may see it*: a
redacted event gives the redacted phrase (``ben draws 1 card``), the full
event the full one (``ben draws fuel 2``). From the state before the move it
reads only what everybody at the table sees (names, positions, the discard
pile's top card, the glass ball).

>>> from gamelog.games.panem import RULES
>>> seats = ("ann", "ben")
>>> options = RULES.normalize_options({}, seats)
>>> state = RULES.start(seats, options)
>>> event = {"type": "CardsShown", "seat": "ann", "to": ["ben"], "public": False,
...          "whole_hand": False, "cards": ["medicine-3-01", "food-2-01"]}
>>> notate(state, "ann", None, [event])
'ann shows ben medicine 3 and food 2'
>>> notate(state, "ann", None, [RULES.redact(event, None)])
'ann shows ben 2 cards'
>>> notate(state, "ann", None, [{"type": "TributeSealed", "seat": "ann"}])
'ann seals a tribute'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gamelog.games.panem.catalog import BAKERY
from gamelog.games.panem.state import DISCARD, NEUTRAL, PanemState
from gamelog.games.panem.words import (
    advantage_name,
    card_name,
    cards_text,
    kind_name,
    location_name,
    owner_name,
    pile_name,
    space_name,
)
from gamelog.games.protocol import Event, Move
from gamelog.games.wording import and_list, counted, standings_line


def notate(state: PanemState, seat: str | None, move: Move | None, events: Sequence[Event]) -> str:
    line = _Line(state, seat)
    phrases = [phrase for event in events if (phrase := line.phrase(event))]
    if seat is None:
        return "deal: " + ("; ".join(phrases) or "nothing dealt")
    return "; ".join(phrases) or f"{seat} moves"


def _cards_or_count(line: _Line, cards: Any) -> str:
    """Names of the cards, or their count where the record hides them."""
    if isinstance(cards, int):
        return counted(cards, "card")
    return cards_text(line.catalog, cards)


class _Line:
    def __init__(self, state: PanemState, seat: str | None) -> None:
        self.state = state
        self.catalog = state.catalog
        self.seat = seat
        self.covered: frozenset[str] = state.covered

    def phrase(self, event: Event) -> str | None:
        handler = _PHRASES.get(event["type"])
        return None if handler is None else handler(self, event)

    def space(self, space: str) -> str:
        return space_name(self.catalog, self.covered, space)

    def cards(self, cards: Any) -> str:
        return _cards_or_count(self, cards)

    # -- the deal and the round track ----------------------------------------------

    def table_set(self, e: Event) -> str:
        self.covered = frozenset(e["covered"])
        covered = f", {counted(len(self.covered), 'action space')} covered" if self.covered else ""
        return f"{and_list(e['seats'])} at the table, {e['start_player']} starts{covered}"

    def start_advantages(self, e: Event) -> str:
        dealt = e["advantages"]
        return "start advantages " + ", ".join(
            f"{seat} {advantage_name(self.catalog, adv)}" for seat, adv in dealt.items()
        )

    def start_cards(self, e: Event) -> str:
        parts = []
        for seat, cards in e["hands"].items():
            if isinstance(cards, int):
                parts.append(f"{seat} {cards}")
            else:
                parts.append(f"{seat} {len(cards)} ({self.cards(cards)})")
        return "start cards " + ", ".join(parts)

    def hob_stocked(self, e: Event) -> str:
        cards = e.get("cards", e.get("count", 0))
        return f"{self.cards(cards)} face down on {self.space(e['space'])}"

    def bakery_stocked(self, e: Event) -> str:
        return f"{self.cards(e['cards'])} face up on {self.space(e['space'])}"

    def discard_started(self, e: Event) -> str:
        return f"{card_name(self.catalog, e['card'])} starts the discard pile"

    def draw_pile_renewed(self, e: Event) -> str:
        return f"the discard pile ({counted(e['count'], 'card')}) is shuffled into a new draw pile"

    def round_started(self, e: Event) -> str:
        number = e["round"]
        if self.catalog.round_spec(number).end:
            return "the end round begins"
        return f"round {number} begins"

    def start_player_passed(self, e: Event) -> str:
        return f"{e['to']} takes the start player token"

    def advantages_revealed(self, e: Event) -> str:
        placed = []
        for adv in e["advantages"]:
            location = self.catalog.advantages[adv].location
            placed.append(
                f"{advantage_name(self.catalog, adv)} beside {location_name(location or '')}"
            )
        return f"advantage cards revealed: {and_list(placed)}"

    def trading_opened(self, e: Event) -> str:
        return "trading opens"

    def tribute_demanded(self, e: Event) -> str:
        goods = e["goods"]
        if len(goods) == 1:
            return f"tribute: one {goods[0]} card from each player"
        return f"tribute: one card each of {and_list(goods)} from each player"

    # -- moving and acting ----------------------------------------------------------

    def figure_moved(self, e: Event) -> str:
        return f"{e['seat']} goes to {self.space(e['space'])}"

    def action_skipped(self, e: Event) -> str:
        return f"{e['seat']} skips the action"

    def advantage_taken(self, e: Event) -> str:
        taken = advantage_name(self.catalog, e["advantage"])
        returned = e.get("returned")
        back = f", {advantage_name(self.catalog, returned)} goes to the box" if returned else ""
        return f"{e['seat']} takes {taken} instead of the action{back}"

    def forest_revealed(self, e: Event) -> str:
        return f"{e['seat']} turns up {self.cards(e['cards'])} in the forest"

    def forest_ended(self, e: Event) -> str:
        kept = e["kept"]
        keeps = "nothing" if kept is None else card_name(self.catalog, kept)
        rest = e["discarded"]
        if not rest:
            return f"{e['seat']} keeps {keeps}"
        return f"{e['seat']} keeps {keeps} and discards {self.cards(rest)}"

    def cards_drawn(self, e: Event) -> str:
        cards = e.get("cards", e.get("count", 0))
        location = self.state.location(e["seat"])
        if location == BAKERY:
            return f"{e['seat']} also draws {self.cards(cards)} (Peeta)"
        choose = " to keep one" if e.get("choose") or (isinstance(cards, int) and cards > 1) else ""
        return f"{e['seat']} draws {self.cards(cards)}{choose}"

    def card_kept(self, e: Event) -> str:
        kept = card_name(self.catalog, e["kept"]) if "kept" in e else "one card"
        rest = e["discarded"]
        discards = f" and discards {self.cards(rest)}" if rest else ""
        return f"{e['seat']} keeps {kept}{discards}"

    def bakery_taken(self, e: Event) -> str:
        where = self.space(e["space"])
        if not e["cards"]:
            return f"{e['seat']} finds {where} empty"
        return f"{e['seat']} takes {self.cards(e['cards'])} from {where}"

    def pile_looked(self, e: Event) -> str:
        where = pile_name(self.catalog, self.covered, e["pile"])
        if "cards" in e:
            return f"{e['seat']} looks at {where}: {self.cards(e['cards'])}"
        return f"{e['seat']} looks at the {counted(e['count'], 'card')} of {where}"

    def pile_exchanged(self, e: Event) -> str:
        seat = e["seat"]
        if "pairs" in e:
            pairs = e["pairs"]
            gives = self.cards([give for give, _ in pairs])
            takes = self.cards([take for _, take in pairs])
            said = f"{seat} gives {gives} and takes {takes}" if pairs else ""
        else:
            count = e["count"]
            said = f"{seat} exchanges {counted(count, 'card')}" if count else ""
        pile = e["pile"]
        where = "the Capitol storehouse" if pile == DISCARD else self.space(pile)
        said = f"{said} at {where}" if said else f"{seat} exchanges nothing at {where}"
        if e["pile"] == DISCARD and e.get("top") != self.state.discard_top and e.get("top"):
            said += f" ({card_name(self.catalog, e['top'])} now lies on top)"
        return said

    def places_swapped(self, e: Event) -> str:
        seat, other = e["seat"], e["with"]
        return (
            f"{seat} gives up the player chip and swaps places with {other}: "
            f"{seat} to {self.space(e['space'])}, {other} to {self.space(e['other_space'])}"
        )

    # -- tribute and hand limit -----------------------------------------------------

    def tribute_sealed(self, e: Event) -> str:
        if "cards" not in e:
            return f"{e['seat']} seals a tribute"
        if not e["cards"]:
            return f"{e['seat']} seals an empty tribute"
        return f"{e['seat']} seals a tribute of {self.cards(e['cards'])}"

    def tributes_revealed(self, e: Event) -> str:
        parts = []
        ball = dict(self.state.glass_ball)
        for seat, cards in e["tributes"].items():
            lots = e["lots"].get(seat, 0)
            ball[seat] = ball.get(seat, 0) + lots
            gives = self.cards(cards) if cards else "no card"
            extra = f" and {counted(lots, 'lot')}" if lots else ""
            parts.append(f"{seat} ({gives}){extra}")
        total = sum(ball.values())
        return (
            f"tributes revealed: {', '.join(parts)}; "
            f"the glass ball now holds {counted(total, 'lot')}"
        )

    def hand_limit_demanded(self, e: Event) -> str:
        owed = [f"{seat} {n}" for seat, n in e["discards"].items()]
        return f"hand limit {self.catalog.hand_limit}: to discard {', '.join(owed)}"

    def cards_discarded(self, e: Event) -> str:
        return f"{e['seat']} discards {self.cards(e['cards'])} down to the hand limit"

    # -- trading --------------------------------------------------------------------

    def trade_proposed(self, e: Event) -> str:
        offer = e["offer"]
        give, ask = offer["give"], [kind_name(k) for k in offer["ask"]]
        who = f"{offer['from']} offers {offer['to']}"
        gives = self.cards(give) if give else ""
        if not give:
            said = f"{offer['from']} asks {offer['to']} for {and_list(ask)} as a gift"
        elif not ask:
            said = f"{who} {gives} as a gift"
        else:
            said = f"{who} {gives} for {and_list(ask)}"
        return f"{said} (proposal {offer['id']})"

    def trade_accepted(self, e: Event) -> str:
        give = self.cards(e["give"]) if e["give"] else "nothing"
        take = self.cards(e["take"]) if e["take"] else "nothing"
        return (
            f"{e['to']} accepts proposal {e['offer']}: {e['from']} gives {give}, "
            f"{e['to']} gives {take}"
        )

    def trade_declined(self, e: Event) -> str:
        return f"{self.seat} declines proposal {e['offer']}"

    def trade_withdrawn(self, e: Event) -> str:
        return f"{self.seat} withdraws proposal {e['offer']}"

    def trade_voided(self, e: Event) -> str:
        why = ": the cards are gone" if e.get("reason") == "cards gone" else ""
        return f"proposal {e['offer']} is void{why}"

    def trading_done(self, e: Event) -> str:
        return f"{e['seat']} is done trading"

    def trading_closed(self, e: Event) -> str:
        return "trading ends"

    def cards_shown(self, e: Event) -> str:
        to = "everybody" if e["public"] else and_list(e["to"])
        cards = e.get("cards", e.get("count", 0))
        if e.get("whole_hand"):
            return f"{e['seat']} shows {to} the whole hand ({self.cards(cards)})"
        return f"{e['seat']} shows {to} {self.cards(cards)}"

    # -- the end --------------------------------------------------------------------

    def lot_drawn(self, e: Event) -> str:
        owner = e["owner"]
        drawn = f"{owner_name(owner)} lot is drawn"
        fate = "nobody is the tribute" if owner == NEUTRAL else f"{owner} is the tribute"
        total = counted(len(e["glass_ball"]), "lot")
        return f"the {total} in the glass ball are shuffled, {drawn}: {fate}"

    def game_ended(self, e: Event) -> str:
        hands = ", ".join(
            f"{seat} ({self.cards(cards) if cards else 'no card'})"
            for seat, cards in e["hands"].items()
        )
        standings = standings_line({"scores": e["scores"], "ranking": e["ranking"]})
        return f"final hands: {hands}; result: {standings}"


def _skip(line: _Line, e: Event) -> None:
    return None


_PHRASES: Mapping[str, Callable[[_Line, Event], str | None]] = {
    "TableSet": _Line.table_set,
    "StartAdvantagesDealt": _Line.start_advantages,
    "StartCardsDealt": _Line.start_cards,
    "HobStocked": _Line.hob_stocked,
    "BakeryStocked": _Line.bakery_stocked,
    "DiscardStarted": _Line.discard_started,
    "DrawPileRenewed": _Line.draw_pile_renewed,
    "RoundStarted": _Line.round_started,
    "StartPlayerPassed": _Line.start_player_passed,
    "AdvantagesRevealed": _Line.advantages_revealed,
    "TradingOpened": _Line.trading_opened,
    "TributeDemanded": _Line.tribute_demanded,
    "MovementStarted": _skip,
    "FigureMoved": _Line.figure_moved,
    "ActionSkipped": _Line.action_skipped,
    "AdvantageTaken": _Line.advantage_taken,
    "ForestRevealed": _Line.forest_revealed,
    "ForestEnded": _Line.forest_ended,
    "CardsDrawn": _Line.cards_drawn,
    "CardKept": _Line.card_kept,
    "BakeryTaken": _Line.bakery_taken,
    "PileLooked": _Line.pile_looked,
    "PileExchanged": _Line.pile_exchanged,
    "PlacesSwapped": _Line.places_swapped,
    "TurnEnded": _skip,
    "RoundEnded": _skip,
    "TributeSealed": _Line.tribute_sealed,
    "TributesRevealed": _Line.tributes_revealed,
    "HandLimitDemanded": _Line.hand_limit_demanded,
    "CardsDiscarded": _Line.cards_discarded,
    "TradeProposed": _Line.trade_proposed,
    "TradeAccepted": _Line.trade_accepted,
    "TradeDeclined": _Line.trade_declined,
    "TradeWithdrawn": _Line.trade_withdrawn,
    "TradeVoided": _Line.trade_voided,
    "TradingDone": _Line.trading_done,
    "TradingClosed": _Line.trading_closed,
    "CardsShown": _Line.cards_shown,
    "LotDrawn": _Line.lot_drawn,
    "GameEnded": _Line.game_ended,
}
