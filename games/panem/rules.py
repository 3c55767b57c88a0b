"""The decider for panem: set-up, whose turn it is, a move judged by its
phase (``movement``, ``trading``, ``tribute``), legal moves; the class that is
``RULES`` hands the fold, views, notation, text and picture to their modules."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

from gamelog.games.panem import notation, picture, text, views
from gamelog.games.panem.catalog import BAKERY, DEFAULT_SET, HOB
from gamelog.games.panem.evolve import evolve
from gamelog.games.panem.movement import (
    SAMPLED_DOUBLE_EXCHANGE,
    act_location,
    decide_movement,
    exchange_limit,
    movement_moves,
)
from gamelog.games.panem.options import catalog_for, covered_spaces, normalize
from gamelog.games.panem.rounds import begin_round, draw, pick
from gamelog.games.panem.schemas import SCHEMAS
from gamelog.games.panem.scoring import score
from gamelog.games.panem.state import (
    DISCARD,
    EXCHANGE,
    HAND_LIMIT,
    MOVEMENT,
    NEUTRAL,
    OVER,
    TRADING,
    TRIBUTE,
    PanemState,
)
from gamelog.games.panem.table import Table
from gamelog.games.panem.trading import SAMPLED_TRADING, decide_show, decide_trading, trading_moves
from gamelog.games.panem.tribute import decide_hand_limit, decide_tribute
from gamelog.games.protocol import JSON, Event, GameType, IllegalMove, Move, Options, Result, Viewer


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
        table = Table(self.start(seats, options), rng)
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
            cards = deal.get("hob", {}).get(space) or draw(table, cat.setup_hob_cards)
            table.emit({"type": "HobStocked", "space": space, "cards": list(cards)})
        for space in table.s.open_spaces(BAKERY):
            cards = deal.get("bakery", {}).get(space) or draw(table, cat.setup_bakery_cards)
            table.emit({"type": "BakeryStocked", "space": space, "cards": list(cards)})
        first = deal.get("discard") or pick(table, table.s.draw_pile, None)
        table.emit({"type": "DiscardStarted", "card": first})
        begin_round(table, 1)
        return table.events

    # -- drawing ---------------------------------------------------------------

    # -- the round track ---------------------------------------------------------

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
            table = Table(state, rng)
            decide_show(table, seat, move)
            return table.events
        if seat not in self.to_act(state):
            raise IllegalMove("not-your-turn", f"{seat} may not move now ({state.phase})")
        if not isinstance(move, dict) or not move:
            raise IllegalMove("bad-move", "a move is a JSON object")
        table = Table(state, rng)
        if state.phase == MOVEMENT:
            decide_movement(table, seat, move)
        elif state.phase == TRADING:
            decide_trading(table, seat, move)
        elif state.phase == TRIBUTE:
            decide_tribute(table, seat, move)
        else:
            decide_hand_limit(table, seat, move)
        return table.events

    # movement

    # trading

    # No other proposal is voided here, though its cards may be gone now:
    # others see only how many cards changed hands, and a void in the
    # record would tell them a traded card's kind. It stays open until
    # withdrawn, declined or a party is done; accepting it is refused
    # (only to the player asked) while its cards are gone.

    # showing cards

    # tribute and hand limit

    # -- folding -------------------------------------------------------------------

    def evolve(self, state: PanemState, event: Event) -> PanemState:
        return evolve(state, event)

    # -- legal moves ---------------------------------------------------------------

    def legal_moves(self, state: PanemState, seat: str) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        s = state
        if s.phase == MOVEMENT:
            return movement_moves(s, seat)
        if s.phase == TRADING:
            return trading_moves(s, seat)
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

    def sampled(self, state: PanemState, seat: str) -> str | None:
        if seat not in self.to_act(state):
            return None
        s = state
        if s.phase == TRADING:
            others_trading = any(o != seat and o not in s.trading_done for o in s.seats)
            return SAMPLED_TRADING if others_trading or s.hands[seat] else None
        if s.phase == MOVEMENT and s.step == EXCHANGE and s.looking is not None:
            double = exchange_limit(s, seat, act_location(s, seat)) >= 2
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
        return views.shows_hidden(event)

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
        return SCHEMAS

    def render_svg(self, state: PanemState, viewer: Viewer) -> str:
        return picture.render_svg(state, viewer)

    def render_text(self, state: PanemState, viewer: Viewer) -> str:
        return text.render_text(state, viewer)


RULES = Panem()
_IS_A_GAME_TYPE: GameType[PanemState] = RULES  # mypy checks all three protocols
