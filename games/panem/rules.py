"""The decider for panem: set-up, moves and legal moves; the Rules object that
hands views (views.py), notation, text, picture and scoring to their modules."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games.components import load_json
from gamelog.games.panem import evolve as _evolve
from gamelog.games.panem import notation, picture, text, views
from gamelog.games.panem.catalog import (
    BAKERY,
    CAPITOL_STOREHOUSE,
    DEFAULT_SET,
    EVERDEEN_HOUSE,
    FOREST,
    HOB,
    JUSTICE_BUILDING,
)
from gamelog.games.panem.options import catalog_for, covered_spaces, normalize
from gamelog.games.panem.scoring import score
from gamelog.games.panem.state import (
    ACT,
    DISCARD,
    EXCHANGE,
    FOREST_KEEP,
    HAND_LIMIT,
    HOUSE_KEEP,
    MOVE,
    MOVEMENT,
    NEUTRAL,
    OVER,
    TRADING,
    TRIBUTE,
    Offer,
    PanemState,
)
from gamelog.games.protocol import (
    JSON,
    Event,
    IllegalMove,
    Move,
    Options,
    Result,
    Viewer,
)
from gamelog.games.wording import and_list

FOREST_REVEAL = 3
FOREST_KEEP_GOODS = ("food",)
HOUSE_DRAW = 1
EXCHANGES = 1
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
SAMPLED_DOUBLE_EXCHANGE = (
    "a sample: every single exchange, and double exchanges only among your first four "
    "hand cards and the first five pile cards (in id order), each matched one way; any "
    "two pairs, matched either way, are legal."
)

_SHOWS_HIDDEN = {
    "StartCardsDealt",
    "HobStocked",
    "BakeryStocked",
    "DiscardStarted",
    "DrawPileRenewed",
    "AdvantagesRevealed",
    "StartAdvantagesDealt",
    "ForestRevealed",
    "CardsDrawn",
    "PileLooked",
    "TributesRevealed",
    "TradeProposed",
    "TradeAccepted",
    "CardsShown",
    "LotDrawn",
    "GameEnded",
}


@functools.cache
def _schemas() -> Mapping[str, JSON]:
    """The JSON Schemas of options, moves, views and events (data/schemas.json)."""
    schemas: Mapping[str, JSON] = load_json("gamelog.games.panem", "schemas.json")
    return schemas


class _Table:
    """Events decided so far, each already folded into ``s``."""

    def __init__(self, state: PanemState, rng: random.Random) -> None:
        self.s = state
        self.rng = rng
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.s = _evolve.apply(self.s, event)


def _ids(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise IllegalMove("bad-move", f"{what} must be a list of card ids")
    if len(set(value)) != len(value):
        raise IllegalMove("bad-move", f"{what} names a card twice")
    return list(value)


class Panem:
    name = "panem"
    title = "Die Tribute von Panem: Überleben in Distrikt 12"
    rules_version = "1.2"
    min_players = 2
    max_players = 4
    default_component_set = DEFAULT_SET
    secret_options = frozenset({"deal"})

    # -- set-up ----------------------------------------------------------------

    def normalize_options(self, options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
        return normalize(options, seats)

    def start(self, seats: Sequence[str], options: Options) -> PanemState:
        return PanemState(
            seats=tuple(seats), catalog=catalog_for(options), deal=dict(options.get("deal") or {})
        )

    def setup(self, options: Options, seats: Sequence[str], rng: random.Random) -> list[Event]:
        table = _Table(self.start(seats, options), rng)
        cat, deal, n = table.s.catalog, table.s.deal, len(seats)
        glass_ball = {seat: 1 for seat in seats}
        if n == 2:
            glass_ball[NEUTRAL] = cat.neutral_lots_two_players
        table.emit(
            {
                "type": "TableSet",
                "seats": list(seats),
                "start_player": seats[0],
                "covered": covered_spaces(cat, n),
                "glass_ball": glass_ball,
                "lots_left": {seat: cat.lots_per_player - 1 for seat in seats},
            }
        )
        start_advs = sorted(a.id for a in cat.advantages.values() if a.start)
        if "start_advantages" in deal:
            dealt = dict(deal["start_advantages"])
        else:
            chosen = rng.sample(start_advs, n)
            dealt = dict(zip(seats, chosen))
        table.emit(
            {
                "type": "StartAdvantagesDealt",
                "advantages": dealt,
                "boxed": [a for a in start_advs if a not in dealt.values()],
            }
        )
        counts = cat.start_cards_by_seat[str(n)]
        pool = sorted(table.s.start_pool)
        if "start_cards" in deal:
            hands = {seat: list(deal["start_cards"][seat]) for seat in seats}
        else:
            rng.shuffle(pool)
            hands, at = {}, 0
            for seat, count in zip(seats, counts):
                hands[seat] = sorted(pool[at : at + count])
                at += count
        given = {c for cards in hands.values() for c in cards}
        table.emit(
            {
                "type": "StartCardsDealt",
                "hands": hands,
                "boxed": sorted(c for c in table.s.start_pool if c not in given),
            }
        )
        for space in table.s.open_spaces(HOB):
            cards = deal.get("hob", {}).get(space) or self._draw(table, cat.setup_hob_cards)
            table.emit({"type": "HobStocked", "space": space, "cards": list(cards)})
        for space in table.s.open_spaces(BAKERY):
            cards = deal.get("bakery", {}).get(space) or self._draw(table, cat.setup_bakery_cards)
            table.emit({"type": "BakeryStocked", "space": space, "cards": list(cards)})
        first = deal.get("discard") or self._pick(table, table.s.draw_pile, None)
        table.emit({"type": "DiscardStarted", "card": first})
        self._begin_round(table, 1)
        return table.events

    # -- drawing ---------------------------------------------------------------

    @staticmethod
    def _draw_number(table: _Table, taken: list[str]) -> int | None:
        """The index in the deal's ``draws`` of the next card drawn; None during
        the set-up, whose cards the deal names by place instead."""
        return table.s.draws_made + len(taken) if table.s.round >= 1 else None

    def _pick(self, table: _Table, available: frozenset[str], index: int | None) -> str:
        draws = table.s.deal.get("draws", [])
        if index is not None and index < len(draws) and draws[index] in available:
            return str(draws[index])
        return table.rng.choice(sorted(available))

    def _draw(self, table: _Table, count: int) -> list[str]:
        """Cards from the draw pile; renews it from the discard pile when it runs out.

        The rulebook renews the pile "sofort" (at once) when its last card is
        drawn, so the renewal happens before the drawn cards are laid anywhere
        (the forest's two discards start the new discard pile; a visitor to the
        Capitol storehouse finds one card, not the whole old pile).
        """
        taken: list[str] = []
        for _ in range(count):
            if not table.s.draw_pile - set(taken):
                self._renew(table, taken, minimum=1)
            available = table.s.draw_pile - set(taken)
            if not available:
                break
            taken.append(self._pick(table, available, self._draw_number(table, taken)))
        if taken and not table.s.draw_pile - set(taken):
            self._renew(table, taken, minimum=2)
        return taken

    def _renew(self, table: _Table, taken: list[str], minimum: int) -> None:
        """Shuffle the discard pile into a new draw pile and start a new discard pile.

        ``taken`` are cards drawn but not yet laid anywhere (their event comes
        after). A discard pile of one card is only renewed when a card must be
        drawn: renewing it at once would just lay the same card back.
        """
        if len(table.s.pile(DISCARD)) < minimum:
            return
        table.emit({"type": "DrawPileRenewed", "count": len(table.s.pile(DISCARD))})
        available = table.s.draw_pile - set(taken)
        card = self._pick(table, available, self._draw_number(table, taken))
        table.emit({"type": "DiscardStarted", "card": card})

    # -- the round track ---------------------------------------------------------

    def _begin_round(self, table: _Table, number: int) -> None:
        spec = table.s.catalog.round_spec(number)
        table.emit({"type": "RoundStarted", "round": number})
        if spec.pass_start:
            seats = table.s.seats
            after = seats[(seats.index(table.s.start_player) + 1) % len(seats)]
            table.emit({"type": "StartPlayerPassed", "to": after})
        # Bakery before Hob, the left space before the right one, covered spaces unused.
        if spec.bakery:
            for space in table.s.open_spaces(BAKERY):
                cards = self._draw(table, spec.bakery)
                if cards:
                    table.emit({"type": "BakeryStocked", "space": space, "cards": cards})
        if spec.hob:
            for space in table.s.open_spaces(HOB):
                cards = self._draw(table, spec.hob)
                if cards:
                    table.emit({"type": "HobStocked", "space": space, "cards": cards})
        if spec.advantages and table.s.later_advantages:
            left = table.s.later_advantages
            chosen = [a for a in table.s.deal.get("later_advantages", []) if a in left]
            chosen = chosen[: spec.advantages]
            rest = sorted(left - set(chosen))
            chosen += table.rng.sample(rest, min(spec.advantages - len(chosen), len(rest)))
            table.emit({"type": "AdvantagesRevealed", "advantages": chosen})
        if spec.trade:
            table.emit({"type": "TradingOpened"})
        else:
            self._after_trading(table, closing=False)

    def _after_trading(self, table: _Table, closing: bool = True) -> None:
        if closing:
            table.emit({"type": "TradingClosed"})
        spec = table.s.catalog.round_spec(table.s.round)
        if spec.tribute:
            table.emit({"type": "TributeDemanded", "goods": list(spec.tribute)})
        else:
            self._after_tribute(table)

    def _after_tribute(self, table: _Table) -> None:
        spec = table.s.catalog.round_spec(table.s.round)
        if spec.end:
            self._finish(table)
            return
        seats = table.s.seats
        first = seats.index(table.s.start_player)
        order = [seats[(first + i) % len(seats)] for i in range(len(seats))]
        table.emit({"type": "MovementStarted", "order": order})

    def _finish(self, table: _Table) -> None:
        s = table.s
        lots = [owner for owner in (*s.seats, NEUTRAL) for _ in range(s.glass_ball.get(owner, 0))]
        table.rng.shuffle(lots)
        wanted = s.deal.get("tribute_lot")
        if wanted in lots:
            lots.remove(wanted)
            lots.insert(0, wanted)
        table.emit({"type": "LotDrawn", "glass_ball": lots, "owner": lots[0]})
        result = score(table.s)
        table.emit(
            {
                "type": "GameEnded",
                "hands": {seat: sorted(table.s.hands[seat]) for seat in s.seats},
                **result.to_json(),
            }
        )

    # -- who acts ----------------------------------------------------------------

    def to_act(self, state: PanemState) -> tuple[str, ...]:
        if state.phase == MOVEMENT:
            mover = state.mover
            return () if mover is None else (mover,)
        if state.phase == TRADING:
            return tuple(s for s in state.seats if s not in state.trading_done)
        if state.phase == TRIBUTE:
            return tuple(s for s in state.seats if s not in state.sealed)
        if state.phase == HAND_LIMIT:
            return tuple(s for s in state.seats if s in state.hand_limit)
        return ()

    # -- deciding ----------------------------------------------------------------

    def decide(self, state: PanemState, seat: str, move: Move, rng: random.Random) -> list[Event]:
        if state.phase == OVER:
            raise IllegalMove("game-over", "the game is over")
        if seat not in state.seats:
            raise IllegalMove("not-a-seat", f"{seat!r} does not play in this game")
        if isinstance(move, dict) and "show" in move:
            # Before the turn check: a seat showing cards out of the trading
            # phase is told why, not merely that it is not its turn.
            table = _Table(state, rng)
            self._decide_show(table, seat, move)
            return table.events
        if seat not in self.to_act(state):
            raise IllegalMove("not-your-turn", f"{seat} may not move now ({state.phase})")
        if not isinstance(move, dict) or not move:
            raise IllegalMove("bad-move", "a move is a JSON object")
        table = _Table(state, rng)
        if state.phase == MOVEMENT:
            self._decide_movement(table, seat, move)
        elif state.phase == TRADING:
            self._decide_trading(table, seat, move)
        elif state.phase == TRIBUTE:
            self._decide_tribute(table, seat, move)
        else:
            self._decide_hand_limit(table, seat, move)
        return table.events

    def _only(self, move: Move, *keys: str) -> None:
        extra = set(move) - set(keys)
        if extra:
            raise IllegalMove("bad-move", f"unexpected {sorted(extra)} in this move")

    # movement

    def _decide_movement(self, table: _Table, seat: str, move: Move) -> None:
        s = table.s
        if s.step == MOVE:
            self._only(move, "go")
            if "go" not in move:
                raise IllegalMove("bad-move", 'move your figure first: {"go": "<space>"}')
            space = move["go"]
            reason = self._space_refusal(s, seat, space)
            if reason:
                raise IllegalMove("space-not-allowed", reason)
            table.emit({"type": "FigureMoved", "seat": seat, "space": space})
            return
        if s.step == ACT:
            self._decide_action(table, seat, move)
            return
        if s.step == FOREST_KEEP:
            self._only(move, "keep")
            if "keep" not in move:
                raise IllegalMove("bad-move", 'choose {"keep": "<card>"} or {"keep": null}')
            kept = move["keep"]
            if kept is not None and kept not in self._forest_choices(s, seat):
                raise IllegalMove("cannot-keep", "you may keep one revealed card you are allowed")
            rest = [c for c in s.revealed if c != kept]
            table.emit({"type": "ForestEnded", "seat": seat, "kept": kept, "discarded": rest})
            self._end_turn(table, seat)
            return
        if s.step == HOUSE_KEEP:
            self._only(move, "keep")
            kept = move.get("keep")
            if kept not in s.drawn:
                raise IllegalMove("cannot-keep", "keep one of the cards you drew")
            rest = [c for c in s.drawn if c != kept]
            table.emit({"type": "CardKept", "seat": seat, "kept": kept, "discarded": rest})
            self._end_turn(table, seat)
            return
        # EXCHANGE
        self._only(move, "exchange")
        pairs = move.get("exchange")
        assert s.looking is not None
        reason = self._exchange_refusal(s, seat, pairs)
        if reason:
            raise IllegalMove("bad-exchange", reason)
        event: Event = {"type": "PileExchanged", "seat": seat, "pile": s.looking, "pairs": pairs}
        if s.looking == DISCARD:
            top = s.discard_top
            for give, take in pairs or []:
                top = give if take == top else top
            event["top"] = top
        table.emit(event)
        self._end_turn(table, seat)

    def _space_refusal(self, s: PanemState, seat: str, space: Any) -> str | None:
        if not isinstance(space, str) or space not in {sp.id for sp in s.catalog.spaces}:
            return f"there is no action space {space!r}"
        if space in s.covered:
            return f"{space} is covered with {len(s.seats)} players"
        holder = next((o for o, at in s.position.items() if at == space and o != seat), None)
        if holder is not None:
            return f"{holder}'s figure stands on {space}"
        location = s.catalog.location_of(space)
        if location == s.last_location.get(seat) or location == s.location(seat):
            return f"you stood at the {location} last round; move to another location"
        return None

    def _act_location(self, s: PanemState, seat: str) -> str:
        location = s.location(seat)
        assert location is not None
        return location

    def _effect(self, s: PanemState, seat: str, kind: str) -> Mapping[str, Any] | None:
        advantage = s.advantage.get(seat)
        if advantage is None:
            return None
        effect = s.catalog.advantages[advantage].effect
        return effect if effect.get("kind") == kind else None

    def _exchange_limit(self, s: PanemState, seat: str, location: str) -> int:
        effect = self._effect(s, seat, "exchange")
        if effect is not None and location in effect["locations"]:
            return int(effect["count"])
        return EXCHANGES

    def _forest_choices(self, s: PanemState, seat: str) -> list[str]:
        effect = self._effect(s, seat, "forest_keep")
        goods = set(FOREST_KEEP_GOODS) | set(effect["goods"] if effect else ())
        return [c for c in s.revealed if s.catalog.cards[c].good in goods]

    def _decide_action(self, table: _Table, seat: str, move: Move) -> None:
        s = table.s
        location = self._act_location(s, seat)
        if move.get("skip") is True:
            self._only(move, "skip")
            table.emit({"type": "ActionSkipped", "seat": seat})
            self._end_turn(table, seat)
            return
        if move.get("take_advantage") is True:
            self._only(move, "take_advantage")
            advantage = s.beside.get(location)
            if advantage is None:
                raise IllegalMove("no-advantage", f"no advantage card lies beside the {location}")
            if seat in s.took_advantage:
                raise IllegalMove("advantage-taken", "you already took an advantage card this game")
            table.emit(
                {
                    "type": "AdvantageTaken",
                    "seat": seat,
                    "advantage": advantage,
                    "returned": s.advantage.get(seat),
                }
            )
            self._end_turn(table, seat)
            return
        if "swap_with" in move:
            self._only(move, "swap_with")
            self._swap_places(table, seat, move["swap_with"])
            return
        if move.get("act") is not True:
            raise IllegalMove(
                "bad-move", 'choose {"act": true}, {"skip": true}, {"take_advantage": true}'
            )
        self._only(move, "act")
        space = s.position[seat]
        assert space is not None
        if location == FOREST:
            cards = self._draw(table, FOREST_REVEAL)
            table.emit({"type": "ForestRevealed", "seat": seat, "cards": cards})
            if not self._forest_choices(table.s, seat):
                table.emit({"type": "ForestEnded", "seat": seat, "kept": None, "discarded": cards})
                self._end_turn(table, seat)
        elif location == EVERDEEN_HOUSE:
            effect = self._effect(s, seat, "house_draw")
            cards = self._draw(table, int(effect["draw"]) if effect else HOUSE_DRAW)
            choose = len(cards) > 1
            table.emit({"type": "CardsDrawn", "seat": seat, "cards": cards, "choose": choose})
            if not choose:
                self._end_turn(table, seat)
        elif location == BAKERY:
            cards = sorted(s.bakery.get(space, frozenset()))
            table.emit({"type": "BakeryTaken", "seat": seat, "space": space, "cards": cards})
            effect = self._effect(s, seat, "bakery_draw")
            if effect:
                extra = self._draw(table, int(effect["count"]))
                table.emit({"type": "CardsDrawn", "seat": seat, "cards": extra, "choose": False})
            self._end_turn(table, seat)
        elif location in (HOB, CAPITOL_STOREHOUSE):
            pile = space if location == HOB else DISCARD
            event: Event = {
                "type": "PileLooked",
                "seat": seat,
                "pile": pile,
                "cards": sorted(s.pile(pile)),
            }
            if pile == DISCARD:
                event["top"] = s.discard_top
            table.emit(event)
        else:
            raise IllegalMove(
                "bad-move", 'at the Justice building choose {"swap_with": "<seat>"} or skip'
            )

    def _swap_refusal(self, s: PanemState, seat: str, other: Any) -> str | None:
        if self._act_location(s, seat) != JUSTICE_BUILDING:
            return "only the Justice building lets you swap places"
        if seat not in s.chips:
            return "you already gave up your player chip"
        if other not in s.seats or other == seat:
            return f"{other!r} is not another player"
        if other not in s.order[: s.turn]:
            return f"{other} has not moved yet this round"
        if s.location(other) == s.last_location.get(seat):
            return f"you stood at the {s.location(other)} last round"
        return None

    def _swap_places(self, table: _Table, seat: str, other: Any) -> None:
        s = table.s
        reason = self._swap_refusal(s, seat, other)
        if reason:
            raise IllegalMove("cannot-swap", reason)
        table.emit(
            {
                "type": "PlacesSwapped",
                "seat": seat,
                "with": other,
                "space": s.position[other],
                "other_space": s.position[seat],
            }
        )

    def _exchange_refusal(self, s: PanemState, seat: str, pairs: Any) -> str | None:
        assert s.looking is not None
        location = self._act_location(s, seat)
        limit = self._exchange_limit(s, seat, location)
        if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(c, str) for c in p)
            for p in pairs
        ):
            return 'exchange is a list of [hand card, pile card] pairs: {"exchange": [[g, t]]}'
        if len(pairs) > limit:
            return f"you may exchange at most {limit} card(s) here"
        gives = [g for g, _ in pairs]
        takes = [t for _, t in pairs]
        if len(set(gives)) != len(gives) or len(set(takes)) != len(takes):
            return "each card may be exchanged once"
        if not set(gives) <= s.hands[seat]:
            return "you can only give cards from your hand"
        if not set(takes) <= s.pile(s.looking):
            return "you can only take cards of the pile you looked at"
        return None

    def _end_turn(self, table: _Table, seat: str) -> None:
        table.emit({"type": "TurnEnded", "seat": seat})
        s = table.s
        if s.turn < len(s.order):
            return
        table.emit(
            {
                "type": "RoundEnded",
                "round": s.round,
                "locations": {seat: s.location(seat) for seat in s.seats},
            }
        )
        self._begin_round(table, s.round + 1)

    # trading

    def _cover(self, s: PanemState, seat: str, ask: Sequence[str]) -> list[str] | None:
        """Cards of ``seat`` matching the asked kinds (lowest ids first), or None."""
        pool = sorted(s.hands[seat])
        chosen: list[str] = []
        for kind in ask:
            match = next(
                (c for c in pool if s.catalog.cards[c].kind == kind and c not in chosen), None
            )
            if match is None:
                return None
            chosen.append(match)
        return chosen

    def _offer(self, s: PanemState, offer_id: Any) -> Offer:
        for offer in s.offers:
            if offer.id == offer_id:
                return offer
        raise IllegalMove("no-offer", f"there is no open proposal {offer_id!r}")

    def _decide_trading(self, table: _Table, seat: str, move: Move) -> None:
        s = table.s
        if "propose" in move:
            self._only(move, "propose")
            self._propose(table, seat, move["propose"])
        elif "accept" in move:
            self._only(move, "accept", "cards")
            self._accept(table, seat, move)
        elif "decline" in move:
            self._only(move, "decline")
            offer = self._offer(s, move["decline"])
            if offer.target != seat:
                raise IllegalMove("not-your-offer", "only the player asked may decline")
            table.emit({"type": "TradeDeclined", "offer": offer.id})
        elif "withdraw" in move:
            self._only(move, "withdraw")
            offer = self._offer(s, move["withdraw"])
            if offer.proposer != seat:
                raise IllegalMove("not-your-offer", "only the proposer may withdraw")
            table.emit({"type": "TradeWithdrawn", "offer": offer.id})
        elif move.get("done") is True:
            self._only(move, "done")
            for offer in s.offers:
                if seat in (offer.proposer, offer.target):
                    table.emit({"type": "TradeVoided", "offer": offer.id, "reason": "done"})
            table.emit({"type": "TradingDone", "seat": seat})
            if len(table.s.trading_done) == len(s.seats):
                self._after_trading(table)
        else:
            raise IllegalMove(
                "bad-move", "trade with propose, accept, decline, withdraw or done: true"
            )

    def _propose(self, table: _Table, seat: str, raw: Any) -> None:
        s = table.s
        if not isinstance(raw, dict) or set(raw) - {"to", "give", "ask"}:
            raise IllegalMove("bad-move", 'propose {"to": seat, "give": [cards], "ask": [kinds]}')
        other = raw.get("to")
        if other not in s.seats or other == seat:
            raise IllegalMove("bad-trade", f"{other!r} is not another player")
        if other in s.trading_done:
            raise IllegalMove("bad-trade", f"{other} has finished trading")
        give = _ids(raw.get("give", []), "give")
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

    def _accept(self, table: _Table, seat: str, move: Move) -> None:
        s = table.s
        offer = self._offer(s, move["accept"])
        if offer.target != seat:
            raise IllegalMove("not-your-offer", "only the player asked may accept")
        if not set(offer.give) <= s.hands[offer.proposer]:
            raise IllegalMove("void-offer", f"{offer.proposer} no longer holds the offered cards")
        if "cards" in move:
            cards = _ids(move["cards"], "cards")
            if not set(cards) <= s.hands[seat]:
                raise IllegalMove("bad-trade", "you can only give cards from your hand")
            if sorted(s.catalog.cards[c].kind for c in cards) != sorted(offer.ask):
                raise IllegalMove("bad-trade", f"the proposal asks for {list(offer.ask)}")
        else:
            found = self._cover(s, seat, offer.ask)
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
        # No other proposal is voided here, though its cards may be gone now:
        # others see only how many cards changed hands, and a void in the
        # record would tell them a traded card's kind. It stays open until
        # withdrawn, declined or a party is done; accepting it is refused
        # (only to the player asked) while its cards are gone.

    # showing cards

    def _decide_show(self, table: _Table, seat: str, move: Move) -> None:
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
        self._only(move, "show", "to")
        hand = s.hands[seat]
        raw = move["show"]
        whole_hand = raw == "hand"
        if not whole_hand and not isinstance(raw, list):
            raise IllegalMove("bad-show", 'show lists card ids of your hand, or says "hand"')
        cards = sorted(hand) if whole_hand else _ids(raw, "show")
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

    # tribute and hand limit

    def _tribute_refusal(self, s: PanemState, seat: str, cards: list[str]) -> str | None:
        if not set(cards) <= s.hands[seat]:
            return "you can only give cards from your hand"
        goods = [s.catalog.cards[c].good for c in cards]
        if not set(goods) <= set(s.tribute_goods):
            return f"this tribute asks only for {list(s.tribute_goods)}"
        if len(set(goods)) != len(goods):
            return "give at most one card of each good asked"
        return None

    def _decide_tribute(self, table: _Table, seat: str, move: Move) -> None:
        self._only(move, "tribute")
        cards = _ids(move.get("tribute"), "tribute")
        reason = self._tribute_refusal(table.s, seat, cards)
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
                "lots": {
                    seat: min(need - len(s.sealed[seat]), s.lots_left[seat]) for seat in s.seats
                },
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
            self._after_tribute(table)

    def _decide_hand_limit(self, table: _Table, seat: str, move: Move) -> None:
        self._only(move, "discard")
        cards = _ids(move.get("discard"), "discard")
        need = table.s.hand_limit[seat]
        if len(cards) != need:
            raise IllegalMove(
                "bad-discard", f"discard exactly {need} card(s) down to the hand limit"
            )
        if not set(cards) <= table.s.hands[seat]:
            raise IllegalMove("bad-discard", "you can only discard cards from your hand")
        table.emit({"type": "CardsDiscarded", "seat": seat, "cards": cards})
        if not table.s.hand_limit:
            self._after_tribute(table)

    # -- folding -------------------------------------------------------------------

    def evolve(self, state: PanemState, event: Event) -> PanemState:
        return _evolve.apply(state, event)

    # -- legal moves ---------------------------------------------------------------

    def legal_moves(self, state: PanemState, seat: str) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        s = state
        if s.phase == MOVEMENT:
            return self._movement_moves(s, seat)
        if s.phase == TRADING:
            return self._trading_moves(s, seat)
        if s.phase == TRIBUTE:
            hand = sorted(s.hands[seat])
            options = [
                [None, *[c for c in hand if s.catalog.cards[c].good == good]]
                for good in s.tribute_goods
            ]
            return [
                {"tribute": [c for c in combo if c is not None]}
                for combo in itertools.product(*options)
            ]
        hand = sorted(s.hands[seat])
        return [
            {"discard": list(combo)} for combo in itertools.combinations(hand, s.hand_limit[seat])
        ]

    def _movement_moves(self, s: PanemState, seat: str) -> list[Move]:
        if s.step == MOVE:
            return [
                {"go": space}
                for space in s.open_spaces()
                if self._space_refusal(s, seat, space) is None
            ]
        if s.step == FOREST_KEEP:
            return [{"keep": None}, *[{"keep": c} for c in self._forest_choices(s, seat)]]
        if s.step == HOUSE_KEEP:
            return [{"keep": c} for c in s.drawn]
        if s.step == EXCHANGE:
            assert s.looking is not None
            hand, pile = sorted(s.hands[seat]), sorted(s.pile(s.looking))
            moves: list[Move] = [{"exchange": []}]
            moves += [{"exchange": [[g, t]]} for g in hand for t in pile]
            if self._exchange_limit(s, seat, self._act_location(s, seat)) >= 2:
                # Double exchanges (Haymitch) are only sampled, from the first
                # hand and pile cards: all of them would run to hundreds of
                # thousands with a big hand and pile. decide accepts any pair.
                for gives in itertools.combinations(hand[:4], 2):
                    for takes in itertools.combinations(pile[:5], 2):
                        moves.append({"exchange": [list(p) for p in zip(gives, takes)]})
            return moves
        location = self._act_location(s, seat)
        moves = [{"skip": True}]
        if location != JUSTICE_BUILDING:
            moves.append({"act": True})
        if location in s.beside and seat not in s.took_advantage:
            moves.append({"take_advantage": True})
        moves += [
            {"swap_with": other} for other in s.seats if self._swap_refusal(s, seat, other) is None
        ]
        return moves

    def _trading_moves(self, s: PanemState, seat: str) -> list[Move]:
        moves: list[Move] = [{"done": True}]
        for offer in s.offers:
            if offer.target == seat:
                moves.append({"decline": offer.id})
                if (
                    set(offer.give) <= s.hands[offer.proposer]
                    and self._cover(s, seat, offer.ask) is not None
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

    def sampled(self, state: PanemState, seat: str) -> str | None:
        if seat not in self.to_act(state):
            return None
        s = state
        if s.phase == TRADING:
            others_trading = any(o != seat and o not in s.trading_done for o in s.seats)
            return SAMPLED_TRADING if others_trading or s.hands[seat] else None
        if s.phase == MOVEMENT and s.step == EXCHANGE and s.looking is not None:
            double = self._exchange_limit(s, seat, self._act_location(s, seat)) >= 2
            hand, pile = len(s.hands[seat]), len(s.pile(s.looking))
            # At the Hob two pairs in either order or matched either way end in
            # the same hand and stack, so with few cards the listed doubles are
            # all of them; at the Capitol storehouse the matching decides which
            # card given becomes the top card, and only one matching is listed.
            crossed = s.looking == DISCARD and hand >= 2 and pile >= 2
            big = hand > 4 or pile > 5 or crossed
            return SAMPLED_DOUBLE_EXCHANGE if double and big else None
        return None

    def concurrent(self, event: Event) -> bool:
        """A sealed tribute and a seat showing cards leave every other seat's
        choices as they were. A seat ending its trading (``TradingDone``, with
        its open proposals voided) only takes choices away: another seat's
        proposal to it, or acceptance of a voided proposal, is refused when
        decided against the game as it stands, and every other move means what
        it meant. So all four seats may say "done" at one position."""
        kind = event.get("type")
        if kind == "TradeVoided":
            return event.get("reason") == "done"
        return kind in ("TributeSealed", "CardsShown", "TradingDone")

    # -- what each viewer sees ---------------------------------------------------------

    def view(self, state: PanemState, viewer: Viewer) -> dict[str, JSON]:
        return views.view(state, viewer)

    def redact(self, event: Event, viewer: Viewer) -> Event:
        return views.redact(event, viewer)

    def shows_hidden(self, event: Event) -> bool:
        return event.get("type") in _SHOWS_HIDDEN

    def hidden_from(self, state: PanemState, viewer: Viewer) -> frozenset[str | int]:
        return views.hidden_from(state, viewer)

    # -- the end ----------------------------------------------------------------------

    def result(self, state: PanemState) -> Result | None:
        if state.phase != OVER:
            return None
        return score(state)

    def notate(
        self, state: PanemState, seat: str | None, move: Move | None, events: Sequence[Event]
    ) -> str:
        return notation.notate(state, seat, move, events)

    def schemas(self) -> Mapping[str, JSON]:
        return _schemas()

    def render_svg(self, state: PanemState, viewer: Viewer) -> str:
        return picture.render_svg(state, viewer)

    def render_text(self, state: PanemState, viewer: Viewer) -> str:
        return text.render_text(state, viewer)
