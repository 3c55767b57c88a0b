"""The decider of three-too-many: set-up, moves and legal moves; the class
that is ``RULES`` hands the fold, views, notation, text and picture to their modules.

A turn is one move ``{"card": n}``: the seat to act plays a hand card into
its row. ``decide`` returns, in order: ``CardPlaced``; ``CardsTaken`` when
that was a row's fifth card; ``InterimBonusTaken`` when the mover now shows
all colours face up for the first time; ``CardsDrawn`` when the hand is down
to two and the pile is not empty; ``GameEnded`` after the last turn.

>>> from gamelog.games.protocol import rng_for
>>> seats = ("ann", "ben")
>>> options = RULES.normalize_options({}, seats)
>>> state = RULES.start(seats, options)
>>> for event in RULES.setup(options, seats, rng_for(b"seed", 0)):
...     state = RULES.evolve(state, event)
>>> len(state.hands[0]), len(state.piles[0]), RULES.to_act(state)
(8, 12, ('ann',))
>>> card = state.hands[0][0]
>>> events = RULES.decide(state, "ann", {"card": card}, rng_for(b"seed", 1))
>>> events[0] == {"type": "CardPlaced", "seat": "ann", "card": card, "row": card // 30}
True
>>> RULES.redact({"type": "CardsDrawn", "seat": "ann", "cards": [4, 50]}, "ben")
{'type': 'CardsDrawn', 'seat': 'ann', 'count': 2}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from gamelog.games.protocol import (
    JSON,
    Event,
    GameType,
    IllegalMove,
    Move,
    Options,
    Result,
    Viewer,
    is_int,
)
from gamelog.games.protocol import (
    frozen_replace as replace,
)
from gamelog.games.three_too_many import notation, picture, text, views
from gamelog.games.three_too_many.cards import (
    CARD_COUNT,
    NUMBER_CARDS,
    components_from_json,
    load_component_set,
)
from gamelog.games.three_too_many.collection import Collection, take
from gamelog.games.three_too_many.display import empty_display, place, row_of
from gamelog.games.three_too_many.evolve import evolve
from gamelog.games.three_too_many.options import (
    DEFAULT_COMPONENT_SET,
    DISPLAY_CARDS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PILE_SIZE,
    REFILL,
    REFILL_AT,
    normalize,
)
from gamelog.games.three_too_many.schemas import SCHEMAS
from gamelog.games.three_too_many.scoring import final_result, totals
from gamelog.games.three_too_many.state import ThreeTooManyState


class ThreeTooMany:
    name = "three-too-many"
    title = "3 sind eine zu viel! (AMIGO)"
    rules_version = "1.0"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_component_set = DEFAULT_COMPONENT_SET
    secret_options = frozenset({"deal"})

    # -- set-up ---------------------------------------------------------------

    def normalize_options(self, options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
        return normalize(options, seats)

    def start(self, seats: Sequence[str], options: Options) -> ThreeTooManyState:
        if "components" in options:
            components = components_from_json(options["components"])
        else:
            components = load_component_set(options["component_set"])
        count = len(seats)
        return ThreeTooManyState(
            seats=tuple(seats),
            components=components,
            display=empty_display(),
            hands=((),) * count,
            piles=((),) * count,
            collections=(Collection.empty(len(components.colours)),) * count,
            interim_stack=components.interim_bonus,
            interim_bonus=(None,) * count,
            played=(0,) * count,
            turn=list(seats).index(options.get("start_seat", seats[0])),
        )

    def setup(self, options: Options, seats: Sequence[str], rng: random.Random) -> list[Event]:
        deal = options.get("deal")
        if deal is not None:
            display = list(deal["display"])
            piles = {s: [*deal["hands"][s], *deal["piles"][s]] for s in seats}
            hands = {s: sorted(deal["hands"][s]) for s in seats}
        else:
            deck = list(NUMBER_CARDS)
            rng.shuffle(deck)
            display = sorted(deck[:DISPLAY_CARDS])
            piles = {
                s: sorted(deck[DISPLAY_CARDS + i * PILE_SIZE : DISPLAY_CARDS + (i + 1) * PILE_SIZE])
                for i, s in enumerate(seats)
            }
            hands = {s: sorted(rng.sample(piles[s], HAND_SIZE)) for s in seats}
        dealt = {c for cards in piles.values() for c in cards} | set(display)
        box = [c for c in NUMBER_CARDS if c not in dealt]
        events: list[Event] = [
            {"type": "DisplayDealt", "cards": display},
            {
                "type": "PilesDealt",
                "piles": piles,
                "box": box,
                "in_draw_order": deal is not None,
            },
        ]
        events.extend({"type": "CardsDrawn", "seat": s, "cards": hands[s]} for s in seats)
        return events

    # -- moves ----------------------------------------------------------------

    def to_act(self, state: ThreeTooManyState) -> tuple[str, ...]:
        if state.ended or not any(state.hands):
            return ()
        return (state.seats[state.turn],)

    def legal_moves(self, state: ThreeTooManyState, seat: str) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        return [{"card": card} for card in state.hands[state.turn]]

    def decide(
        self, state: ThreeTooManyState, seat: str, move: Move, rng: random.Random
    ) -> list[Event]:
        return self.decide_and_fold(state, seat, move, rng)[0]

    def decide_and_fold(
        self, state: ThreeTooManyState, seat: str, move: Move, rng: random.Random
    ) -> tuple[list[Event], ThreeTooManyState]:
        """``decide``, and the state its events lead to (``FoldsWhileDeciding``):
        deciding folds them anyway, to see the bonus, the refill and the end."""
        if state.ended:
            raise IllegalMove("game-over", "the game is over")
        if seat not in state.seats:
            raise IllegalMove("not-a-seat", f"{seat!r} does not play in this game")
        if seat != state.seats[state.turn]:
            raise IllegalMove("not-your-turn", f"it is {state.seats[state.turn]}'s turn")
        if not isinstance(move, dict) or set(move) != {"card"}:
            raise IllegalMove("bad-move", 'a move is {"card": <number in your hand>}')
        card = move["card"]
        if not is_int(card):
            raise IllegalMove("bad-move", "the card is given by its number")
        if not 0 <= card < CARD_COUNT:
            raise IllegalMove("no-such-card", f"there is no card {card}; cards are 0..89")
        index = state.turn
        if card not in state.hands[index]:
            raise IllegalMove("not-in-hand", f"card {card} is not in your hand")

        row = row_of(card)
        events: list[Event] = [{"type": "CardPlaced", "seat": seat, "card": card, "row": row}]
        taken = place(state.display[row], card).taken
        if taken:
            sorted_in = take(state.components, state.collections[index], taken)
            events.append(
                {
                    "type": "CardsTaken",
                    "seat": seat,
                    "row": row,
                    "cards": list(taken),
                    "to_box": list(sorted_in.to_box),
                    "turned_face_down": list(sorted_in.turned_face_down),
                }
            )
        after = state
        for event in events:
            after = evolve(after, event)
        collection = after.collections[index]
        if (
            state.interim_bonus[index] is None
            and after.interim_stack
            and collection.face_up_colours() == len(state.components.colours)
        ):
            points = after.interim_stack[0]
            events.append({"type": "InterimBonusTaken", "seat": seat, "points": points})
            after = evolve(after, events[-1])
        pile = after.piles[index]
        if len(after.hands[index]) == REFILL_AT and pile:
            if after.pile_order_fixed:
                drawn = list(pile[:REFILL])
            else:
                drawn = rng.sample(list(pile), min(REFILL, len(pile)))
            events.append({"type": "CardsDrawn", "seat": seat, "cards": sorted(drawn)})
            after = evolve(after, events[-1])
        if all(len(h) <= REFILL_AT for h in after.hands) and not any(after.piles):
            events.append(self._ending(after))
            after = evolve(after, events[-1])
        return events, after

    def _ending(self, state: ThreeTooManyState) -> Event:
        final = {
            seat: state.components.final_bonus_for(state.collections[i].face_up_colours())
            for i, seat in enumerate(state.seats)
        }
        ended = replace(state, final_bonus=tuple(final.values()), ended=True)
        return {
            "type": "GameEnded",
            "final_bonus": final,
            "scores": dict(zip(state.seats, totals(ended))),
        }

    # -- the fold -------------------------------------------------------------

    def evolve(self, state: ThreeTooManyState, event: Event) -> ThreeTooManyState:
        return evolve(state, event)

    # -- what each viewer sees ------------------------------------------------

    def view(self, state: ThreeTooManyState, viewer: Viewer) -> dict[str, JSON]:
        return views.view(state, viewer, self.to_act(state))

    def redact(self, event: Event, viewer: Viewer) -> Event:
        return views.redact(event, viewer)

    def shows_hidden(self, event: Event) -> bool:
        return views.shows_hidden(event)

    def hidden_from(self, state: ThreeTooManyState, viewer: Viewer) -> frozenset[str | int]:
        return views.hidden_from(state, viewer)

    # -- the end --------------------------------------------------------------

    def result(self, state: ThreeTooManyState) -> Result | None:
        return final_result(state)

    def render_text(self, state: ThreeTooManyState, viewer: Viewer) -> str:
        return text.render_text(state, viewer)

    def render_svg(self, state: ThreeTooManyState, viewer: Viewer) -> str:
        return picture.render_svg(state, viewer)

    # -- the record, for readers and clients ------------------------------------

    def notate(
        self,
        state: ThreeTooManyState,
        seat: str | None,
        move: Move | None,
        events: Sequence[Event],
    ) -> str:
        if seat is None:
            return notation.notate_deal(state, events)
        return notation.notate_turn(state, seat, events)

    def schemas(self) -> Mapping[str, JSON]:
        return SCHEMAS

    def sampled(self, state: ThreeTooManyState, seat: str) -> str | None:
        return None

    def concurrent(self, event: Event) -> bool:
        # Seats take turns; no event leaves the others' choices open.
        return False


RULES = ThreeTooMany()
_IS_A_GAME_TYPE: GameType[ThreeTooManyState] = RULES  # mypy checks all three protocols
