"""The decider of three-too-many: state, events, moves, views, result.

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

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gamelog.games.components import load_json
from gamelog.games.protocol import (
    ARBITER,
    JSON,
    Event,
    IllegalMove,
    Move,
    Options,
    Result,
    Viewer,
    is_int,
    rank_by,
)
from gamelog.games.protocol import (
    frozen_replace as replace,
)
from gamelog.games.three_too_many import notation, picture, text
from gamelog.games.three_too_many.cards import (
    CARD_COUNT,
    NUMBER_CARDS,
    Components,
    components_from_json,
    load_component_set,
)
from gamelog.games.three_too_many.collection import Collection, score_collection
from gamelog.games.three_too_many.display import Row, empty_display, place, row_of
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
from gamelog.games.three_too_many.scores import totals


@dataclass(frozen=True)
class ThreeTooManyState:
    """A position. Per-seat tuples follow ``seats``. Draw piles are sorted
    (unordered) unless an explicit deal fixed their order."""

    seats: tuple[str, ...]
    components: Components
    display: tuple[Row, ...]
    hands: tuple[tuple[int, ...], ...]
    piles: tuple[tuple[int, ...], ...]
    collections: tuple[Collection, ...]
    interim_stack: tuple[int, ...]
    interim_bonus: tuple[int | None, ...]
    played: tuple[int, ...]
    turn: int
    pile_order_fixed: bool = False
    box: tuple[int, ...] = ()
    """Undealt cards, face down in the box: only the arbiter knows them."""
    colourless: tuple[int, ...] = ()
    """Taken colourless cards (15, 45, 75), put back into the box openly."""
    last_hands: tuple[tuple[int, ...], ...] = ()
    """Each seat's last two cards, put back into the box unscored at the end."""
    final_bonus: tuple[int, ...] = ()
    ended: bool = False


def _without(cards: tuple[int, ...], removed: Sequence[int]) -> tuple[int, ...]:
    gone = set(removed)
    return tuple(c for c in cards if c not in gone)


def _set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


@dataclass(frozen=True)
class _Take:
    """Cards taken from a row, sorted into a collection in the order given."""

    collection: Collection
    turned_face_down: tuple[str, ...]
    """The colours whose third card turned a triple face down, in turn order."""
    to_box: tuple[int, ...]
    """The colourless cards (15, 45, 75): back into the box, unscored."""


def _take(components: Components, collection: Collection, cards: Sequence[int]) -> _Take:
    """Add taken ``cards`` to ``collection``: the one rule ``decide`` (to name
    the turned colours in the event) and ``evolve`` (to fold it) share."""
    turned: list[str] = []
    to_box: list[int] = []
    for card in cards:
        colour = components.colour_of[card]
        if colour is None:
            to_box.append(card)
            continue
        collection, flipped = collection.add(components.colours.index(colour), card)
        if flipped:
            turned.append(colour)
    return _Take(collection, tuple(turned), tuple(to_box))


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
            take = _take(state.components, state.collections[index], taken)
            events.append(
                {
                    "type": "CardsTaken",
                    "seat": seat,
                    "row": row,
                    "cards": list(taken),
                    "to_box": list(take.to_box),
                    "turned_face_down": list(take.turned_face_down),
                }
            )
        after = state
        for event in events:
            after = self.evolve(after, event)
        collection = after.collections[index]
        if (
            state.interim_bonus[index] is None
            and after.interim_stack
            and collection.face_up_colours() == len(state.components.colours)
        ):
            points = after.interim_stack[0]
            events.append({"type": "InterimBonusTaken", "seat": seat, "points": points})
            after = self.evolve(after, events[-1])
        pile = after.piles[index]
        if len(after.hands[index]) == REFILL_AT and pile:
            if after.pile_order_fixed:
                drawn = list(pile[:REFILL])
            else:
                drawn = rng.sample(list(pile), min(REFILL, len(pile)))
            events.append({"type": "CardsDrawn", "seat": seat, "cards": sorted(drawn)})
            after = self.evolve(after, events[-1])
        if all(len(h) <= REFILL_AT for h in after.hands) and not any(after.piles):
            events.append(self._ending(after))
            after = self.evolve(after, events[-1])
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
        kind = event["type"]
        if kind == "DisplayDealt":
            display = list(state.display)
            for card in event["cards"]:
                at = row_of(card)
                display[at] = place(display[at], card).row
            return replace(state, display=tuple(display))
        if kind == "PilesDealt":
            ordered = bool(event["in_draw_order"])
            piles = tuple(
                tuple(event["piles"][s]) if ordered else tuple(sorted(event["piles"][s]))
                for s in state.seats
            )
            return replace(
                state, piles=piles, box=tuple(sorted(event["box"])), pile_order_fixed=ordered
            )
        if kind == "CardsDrawn":
            i = state.seats.index(event["seat"])
            cards = event["cards"]
            return replace(
                state,
                hands=_set_at(state.hands, i, tuple(sorted((*state.hands[i], *cards)))),
                piles=_set_at(state.piles, i, _without(state.piles[i], cards)),
            )
        if kind == "CardPlaced":
            i = state.seats.index(event["seat"])
            card = event["card"]
            row = state.display[event["row"]]
            placed = Row(row.start, tuple(sorted((*row.cards, card))))
            return replace(
                state,
                display=_set_at(state.display, event["row"], placed),
                hands=_set_at(state.hands, i, _without(state.hands[i], [card])),
                played=_set_at(state.played, i, state.played[i] + 1),
                turn=(i + 1) % len(state.seats),
            )
        if kind == "CardsTaken":
            i = state.seats.index(event["seat"])
            row = state.display[event["row"]]
            take = _take(state.components, state.collections[i], event["cards"])
            return replace(
                state,
                display=_set_at(
                    state.display, event["row"], Row(row.start, _without(row.cards, event["cards"]))
                ),
                collections=_set_at(state.collections, i, take.collection),
                colourless=tuple(sorted((*state.colourless, *take.to_box))),
            )
        if kind == "InterimBonusTaken":
            i = state.seats.index(event["seat"])
            return replace(
                state,
                interim_stack=state.interim_stack[1:],
                interim_bonus=_set_at(state.interim_bonus, i, event["points"]),
            )
        if kind == "GameEnded":
            return replace(
                state,
                last_hands=state.hands,
                hands=((),) * len(state.seats),
                final_bonus=tuple(event["final_bonus"][s] for s in state.seats),
                ended=True,
            )
        raise ValueError(f"unknown three-too-many event {kind!r}")

    # -- what each viewer sees ------------------------------------------------

    def view(self, state: ThreeTooManyState, viewer: Viewer) -> dict[str, JSON]:
        colours = state.components.colours
        scores = totals(state)
        players: dict[str, JSON] = {}
        for i, seat in enumerate(state.seats):
            collection = state.collections[i]
            players[seat] = {
                "holding": len(state.hands[i]),
                "reserve": len(state.piles[i]),
                "played": state.played[i],
                "face_up": {c: list(collection.face_up[k]) for k, c in enumerate(colours)},
                "face_down": {c: list(collection.face_down[k]) for k, c in enumerate(colours)},
                "interim_bonus": state.interim_bonus[i],
                "final_bonus": state.final_bonus[i] if state.ended else None,
                "score": scores[i],
            }
        data: dict[str, JSON] = {
            "game": self.name,
            "component_set": state.components.name,
            "seats": list(state.seats),
            "to_act": list(self.to_act(state)),
            "rows": [[r.start, *r.cards] for r in state.display],
            "players": players,
            "interim_bonus_left": [{"points": p} for p in state.interim_stack],
            "box": {
                "undealt": len(state.box),
                "colourless": list(state.colourless),
                "returned_at_end": sum(len(h) for h in state.last_hands),
            },
            "ended": state.ended,
        }
        if viewer in state.seats:
            i = state.seats.index(viewer)
            data["hand"] = list(state.hands[i])
            if state.ended:
                data["last_hand"] = list(state.last_hands[i])
        if viewer == ARBITER:
            data["hands"] = {s: list(h) for s, h in zip(state.seats, state.hands)}
            data["piles"] = {s: list(p) for s, p in zip(state.seats, state.piles)}
            data["last_hands"] = {s: list(h) for s, h in zip(state.seats, state.last_hands)}
            data["box_cards"] = list(state.box)
        result = self.result(state)
        data["result"] = result.to_json() if result else None
        return data

    def redact(self, event: Event, viewer: Viewer) -> Event:
        if viewer == ARBITER:
            return event
        if event["type"] == "PilesDealt":
            return {
                "type": "PilesDealt",
                "piles": {s: len(cards) for s, cards in event["piles"].items()},
                "box": len(event["box"]),
                "in_draw_order": event["in_draw_order"],
            }
        if event["type"] == "CardsDrawn" and viewer != event["seat"]:
            return {"type": "CardsDrawn", "seat": event["seat"], "count": len(event["cards"])}
        return event

    def shows_hidden(self, event: Event) -> bool:
        return event["type"] in ("CardsDrawn", "DisplayDealt")

    def hidden_from(self, state: ThreeTooManyState, viewer: Viewer) -> frozenset[str | int]:
        if viewer == ARBITER:
            return frozenset()
        hidden: set[str | int] = set(state.box)
        for i, seat in enumerate(state.seats):
            hidden.update(state.piles[i])
            if seat != viewer:
                hidden.update(state.hands[i])
                if state.last_hands:
                    hidden.update(state.last_hands[i])
        return frozenset(hidden)

    # -- the end --------------------------------------------------------------

    def result(self, state: ThreeTooManyState) -> Result | None:
        if not state.ended:
            return None
        by_seat = dict(zip(state.seats, totals(state)))
        details: dict[str, JSON] = {}
        for i, seat in enumerate(state.seats):
            score = score_collection(state.collections[i])
            details[seat] = {
                "single_colours": score.singles,
                "pairs": score.pairs,
                "face_down": score.face_down,
                "collection": score.points,
                "interim_bonus": state.interim_bonus[i] or 0,
                "final_bonus": state.final_bonus[i],
                "total": by_seat[seat],
            }
        return Result(scores=by_seat, ranking=rank_by(by_seat, state.seats), details=details)

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
        return _schemas()

    def sampled(self, state: ThreeTooManyState, seat: str) -> str | None:
        return None

    def concurrent(self, event: Event) -> bool:
        # Seats take turns; no event leaves the others' choices open.
        return False


@functools.cache
def _schemas() -> Mapping[str, JSON]:
    loaded: Mapping[str, JSON] = load_json(__package__ or __name__, "schemas.json")
    return loaded


RULES = ThreeTooMany()
