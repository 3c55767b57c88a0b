"""The Hadara decider: set-up, whose turn it is, a move judged by its stage,
legal moves; the class that is ``RULES``.

What follows by itself lives in ``automatic``, the fold in ``evolve``, what
each viewer sees in ``views``; the text board, the picture and the notation
in ``text``, ``picture`` and ``notation``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from gamelog.games.hadara import notation, phases, picture, schemas, text, views
from gamelog.games.hadara.automatic import settle
from gamelog.games.hadara.busts import bust_options
from gamelog.games.hadara.cards import COLOURS, TRACKS, Card
from gamelog.games.hadara.colonies import colony_options, slot_name
from gamelog.games.hadara.evolve import evolve
from gamelog.games.hadara.feeding import fed_event, feeding_moves, feeding_problem
from gamelog.games.hadara.options import DEFAULT_SET, components_of, normalize
from gamelog.games.hadara.prices import recruit_price, sale_coins, seal_price
from gamelog.games.hadara.scoring import final_result
from gamelog.games.hadara.seals import seal_moves, seal_problem
from gamelog.games.hadara.state import HadaraState, Player, free_tile_tracks, free_tiles, slot_level
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

TURN_STAGES = frozenset({"colony", "bust", "take", "feed", "seals"})


# --- the decider ---------------------------------------------------------------


class Hadara:
    name = "hadara"
    title = "Hadara"
    rules_version = "1.3"
    min_players = 2
    max_players = 5
    default_component_set = DEFAULT_SET
    secret_options = frozenset({"deal"})

    # set-up -------------------------------------------------------------------

    def normalize_options(self, options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
        return normalize(options, seats)

    def start(self, seats: Sequence[str], options: Options) -> HadaraState:
        components = components_of(options)
        sides = options.get("board_sides", {})
        deal = options.get("deal", {})
        epochs = {
            epoch: {colour: tuple(ids) for colour, ids in stacks.items()}
            for epoch, stacks in deal.get("epochs", {}).items()
        }
        return HadaraState(
            seats=tuple(seats),
            components=components,
            first_game=bool(options.get("first_game", False)),
            players=tuple(Player(seat=seat, side=sides.get(seat, "A")) for seat in seats),
            deal_epochs=epochs,
        )

    def setup(self, options: Options, seats: Sequence[str], rng: random.Random) -> list[Event]:
        state = self.start(seats, options)
        components = state.components
        deal = options.get("deal", {})
        n = len(seats)
        if "start_cards" in deal:
            starts = dict(deal["start_cards"])
        else:
            chosen = rng.sample(sorted(components.start_by_id), n)
            starts = dict(zip(seats, chosen))
        initiative = {seat: components.start_by_id[starts[seat]].initiative for seat in seats}
        events: list[Event] = [
            {"type": "StartCardsDealt", "start_cards": starts, "initiative": initiative}
        ]
        never = phases.never_start_players(initiative, seats)
        if never and components.never_start_player_coins:
            events.append(
                {
                    "type": "StartPlayerCoinTaken",
                    "seats": never,
                    "coins": components.never_start_player_coins,
                }
            )
        slots: dict[str, str] = {}
        for level in components.colony_levels:
            if "colonies" in deal:
                ids = list(deal["colonies"][str(level)])
            else:
                pile = sorted(c.id for c in components.colonies if c.requirement == level)
                ids = rng.sample(pile, n)
            for index, colony_id in enumerate(ids):
                slots[slot_name(level, index)] = colony_id
        fronts = {slot: components.colony_by_id[c].front() for slot, c in slots.items()}
        events.append({"type": "ColoniesLaid", "colonies": slots, "fronts": fronts})
        return settle(state, events, rng)

    # who acts --------------------------------------------------------------------

    def to_act(self, state: HadaraState) -> tuple[str, ...]:
        if state.stage == "wheel":
            return (state.start_player,)
        if state.stage == "choose":
            return tuple(s for s in state.seats if s not in state.chosen)
        if state.stage in TURN_STAGES:
            return (state.actor,)
        return ()

    # decide -----------------------------------------------------------------------

    def decide(self, state: HadaraState, seat: str, move: Move, rng: random.Random) -> list[Event]:
        if state.stage == "over":
            raise IllegalMove("game-over", "the game is over")
        if seat not in state.seats:
            raise IllegalMove("not-a-seat", f"{seat!r} does not play in this game")
        if seat not in self.to_act(state):
            raise IllegalMove("not-your-turn", f"it is not {seat}'s turn")
        if not isinstance(move, dict):
            raise IllegalMove("bad-move", "a move is a JSON object")
        handler = {
            "wheel": self._decide_wheel,
            "choose": self._decide_choice,
            "colony": self._decide_colony,
            "bust": self._decide_bust,
            "take": self._decide_take,
            "feed": self._decide_feed,
            "seals": self._decide_seals,
        }[state.stage]
        return settle(state, handler(state, seat, move), rng)

    def _decide_wheel(self, state: HadaraState, seat: str, move: Move) -> list[Event]:
        colour = move.get("wheel")
        if set(move) != {"wheel"} or colour not in COLOURS:
            raise IllegalMove(
                "bad-move", f'set the wheel: {{"wheel": colour}} with a colour of {list(COLOURS)}'
            )
        wheel = phases.wheel_for(state.seats, seat, str(colour))
        return [{"type": "WheelSet", "seat": seat, "colour": colour, "wheel": wheel}]

    def _recruit_or_sell(
        self, state: HadaraState, player: Player, card: Card, move: Move
    ) -> dict[str, JSON]:
        action = move.get("action")
        if action == "sell":
            if "tile" in move:
                raise IllegalMove("bad-move", "a sold card takes no bonus tile")
            return {"action": "sell", "coins": sale_coins(state, player, card)}
        if action != "recruit":
            raise IllegalMove(
                "bad-move", 'the card is recruited or sold: "action": "recruit"|"sell"'
            )
        price = recruit_price(state, player, card)
        if price > player.coins:
            raise IllegalMove(
                "too-expensive", f"{card.id} costs you {price} coins; you have {player.coins}"
            )
        outcome: dict[str, JSON] = {"action": "recruit", "price": price}
        free = free_tile_tracks(player)
        if card.ability == "bonus_tile_steps" and free:
            tile = move.get("tile")
            if tile not in free:
                raise IllegalMove(
                    "tile-needed", f"assign one of your free bonus tiles {free} to {card.id}"
                )
            outcome["tile"] = tile
        elif "tile" in move:
            raise IllegalMove("bad-move", f"{card.id} takes no bonus tile")
        return outcome

    def _decide_choice(self, state: HadaraState, seat: str, move: Move) -> list[Event]:
        drawn = state.drawn[seat]
        place = move.get("place")
        if not set(move) <= {"place", "action", "tile"} or place not in drawn:
            raise IllegalMove(
                "bad-move",
                f'put one of your cards {list(drawn)} face up: {{"place": card, "action": '
                '"recruit"|"sell"}; the other is recruited or sold',
            )
        kept = next(c for c in drawn if c != place)
        card = state.components.card(kept)
        outcome = self._recruit_or_sell(state, state.player(seat), card, move)
        event: Event = {"type": "DrawChosen", "seat": seat, "place": place, "card": kept}
        event.update(outcome)
        return [event]

    def _decide_colony(self, state: HadaraState, seat: str, move: Move) -> list[Event]:
        if move == {"pass": True}:
            return [{"type": "ColonyPassed", "seat": seat}]
        slot = move.get("colony")
        ally = move.get("ally")
        if (
            set(move) != {"colony", "ally"}
            or not isinstance(ally, bool)
            or not isinstance(slot, str)
        ):
            raise IllegalMove(
                "bad-move", 'take a colony: {"colony": slot, "ally": true|false}, or {"pass": true}'
            )
        if slot not in state.colony_slots:
            raise IllegalMove("no-such-colony", f"there is no colony {slot!r}")
        if slot in state.colony_owner:
            raise IllegalMove("colony-taken", f"colony {slot} is already taken")
        player = state.player(seat)
        if any(slot_level(s) == slot_level(str(slot)) for s, _ in player.colonies):
            raise IllegalMove(
                "level-taken", f"you already have a colony of requirement {slot_level(str(slot))}"
            )
        option = next((o for o in colony_options(state, seat) if o.slot == slot), None)
        if option is None:
            raise IllegalMove(
                "requirement", f"your military does not reach colony {slot}'s requirement"
            )
        base: Event = {
            "seat": seat,
            "slot": slot,
            "requirement_coins": option.requirement_coins,
            "colony_coins": option.colony_coins,
        }
        if not ally:
            return [{"type": "ColonyPlundered", **base, "coins": option.colony.plunder_coins}]
        if not option.can_ally:
            raise IllegalMove(
                "too-expensive", f"allying with colony {slot} costs {option.colony.alliance_cost}"
            )
        colony = option.colony
        return [
            {
                "type": "ColonyAllied",
                **base,
                "cost": colony.alliance_cost,
                "colony": colony.id,
                "back_values": dict(zip(TRACKS, colony.back_values)),
                "back_points": colony.back_points,
            }
        ]

    def _decide_bust(self, state: HadaraState, seat: str, move: Move) -> list[Event]:
        if move == {"pass": True}:
            return [{"type": "BustPassed", "seat": seat}]
        number, tile, side = move.get("bust"), move.get("tile"), move.get("side")
        if (
            set(move) != {"bust", "tile", "side"}
            or side not in ("front", "back")
            or not is_int(number)
        ):
            raise IllegalMove(
                "bad-move",
                'carve a bust: {"bust": 1-4, "tile": track, "side": "front"|"back"}, '
                'or {"pass": true}',
            )
        player = state.player(seat)
        if any(b == number for b, _, _ in player.busts):
            raise IllegalMove("bust-carved", f"bust {number} is already carved")
        if tile not in TRACKS or free_tiles(player)[str(tile)] <= 0:
            raise IllegalMove("no-tile", f"you have no free {tile} bonus tile")
        option = next((o for o in bust_options(state, seat) if o.number == number), None)
        if option is None:
            raise IllegalMove("requirement", f"your culture does not reach bust {number}")
        return [
            {
                "type": "BustCarved",
                "seat": seat,
                "bust": number,
                "tile": tile,
                "side": side,
                "requirement_coins": option.requirement_coins,
            }
        ]

    def _decide_take(self, state: HadaraState, seat: str, move: Move) -> list[Event]:
        colour = move.get("take")
        if not set(move) <= {"take", "action", "tile"} or colour not in COLOURS:
            raise IllegalMove(
                "bad-move", 'take a face-up card: {"take": colour, "action": "recruit"|"sell"}'
            )
        stack = state.outer.get(str(colour), ())
        if not stack:
            raise IllegalMove("empty-stack", f"the {colour} stack is empty")
        card = state.components.card(stack[-1])
        outcome = self._recruit_or_sell(state, state.player(seat), card, move)
        # the card below comes to light: naming it lets a reader of the record
        # follow the stacks without ever seeing a card below the top
        uncovered = stack[-2] if len(stack) > 1 else None
        return [
            {
                "type": "CardTaken",
                "seat": seat,
                "colour": colour,
                "card": card.id,
                **outcome,
                "uncovered": uncovered,
            }
        ]

    def _decide_feed(self, state: HadaraState, seat: str, move: Move) -> list[Event]:
        removed = move.get("remove", [])
        pay_for = move.get("pay_for", 0)
        if (
            not set(move) <= {"remove", "pay_for"}
            or not isinstance(removed, list)
            or not all(isinstance(c, str) for c in removed)
            or not is_int(pay_for)
        ):
            raise IllegalMove("bad-move", 'feed your people: {"remove": [cards], "pay_for": n}')
        player = state.player(seat)
        problem = feeding_problem(state, player, removed, pay_for)
        if problem:
            raise IllegalMove("not-fed", problem)
        return [fed_event(state, player, removed, pay_for)]

    def _decide_seals(self, state: HadaraState, seat: str, move: Move) -> list[Event]:
        if move == {"pass": True}:
            return [{"type": "SealsPassed", "seat": seat}]
        silver = move.get("silver", [])
        golden = move.get("golden", 0)
        if (
            not set(move) <= {"silver", "golden"}
            or not isinstance(silver, list)
            or not is_int(golden)
        ):
            raise IllegalMove(
                "bad-move", 'buy seals: {"silver": [tracks], "golden": n}, or {"pass": true}'
            )
        if not silver and not golden:
            return [{"type": "SealsPassed", "seat": seat}]
        player = state.player(seat)
        problem = seal_problem(state, player, silver, golden)
        if problem:
            raise IllegalMove("seals", problem)
        cost = len(silver) * seal_price(state, player, "silver") + golden * seal_price(
            state, player, "golden"
        )
        return [
            {"type": "SealsBought", "seat": seat, "silver": silver, "golden": golden, "cost": cost}
        ]

    # evolve -----------------------------------------------------------------------

    def evolve(self, state: HadaraState, event: Event) -> HadaraState:
        return evolve(state, event)

    # legal moves ------------------------------------------------------------------------

    def _card_moves(self, state: HadaraState, player: Player, card: Card, base: Move) -> list[Move]:
        moves: list[Move] = [{**base, "action": "sell"}]
        if recruit_price(state, player, card) <= player.coins:
            free = free_tile_tracks(player)
            if card.ability == "bonus_tile_steps" and free:
                moves.extend({**base, "action": "recruit", "tile": t} for t in free)
            else:
                moves.append({**base, "action": "recruit"})
        return moves

    def legal_moves(self, state: HadaraState, seat: str) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        stage = state.stage
        player = state.player(seat)
        if stage == "wheel":
            return [{"wheel": colour} for colour in COLOURS]
        if stage == "choose":
            moves: list[Move] = []
            drawn = state.drawn[seat]
            for place in drawn:
                kept = next(c for c in drawn if c != place)
                card = state.components.card(kept)
                moves.extend(self._card_moves(state, player, card, {"place": place}))
            return moves
        if stage == "take":
            moves = []
            for colour in COLOURS:
                stack = state.outer.get(colour, ())
                if stack:
                    card = state.components.card(stack[-1])
                    moves.extend(self._card_moves(state, player, card, {"take": colour}))
            return moves
        if stage == "colony":
            moves = [{"pass": True}]
            for option in colony_options(state, seat):
                moves.append({"colony": option.slot, "ally": False})
                if option.can_ally:
                    moves.append({"colony": option.slot, "ally": True})
            return moves
        if stage == "bust":
            moves = [{"pass": True}]
            for bust in bust_options(state, seat):
                for tile in bust.tiles:
                    for side in ("front", "back"):
                        moves.append({"bust": bust.number, "tile": tile, "side": side})
            return moves
        if stage == "feed":
            return feeding_moves(state, seat)
        if stage == "seals":
            return [{"pass": True}, *seal_moves(state, seat)]
        return []

    # hidden information, views, pictures, notation ----------------------------------

    def hidden_from(self, state: HadaraState, viewer: Viewer) -> frozenset[str | int]:
        return views.hidden_from(state, viewer)

    def redact(self, event: Event, viewer: Viewer) -> Event:
        return views.redact(event, viewer)

    def shows_hidden(self, event: Event) -> bool:
        return views.shows_hidden(event)

    def result(self, state: HadaraState) -> Result | None:
        return final_result(state)

    def view(self, state: HadaraState, viewer: Viewer) -> dict[str, JSON]:
        return views.view(state, viewer, self.to_act(state))

    def render_text(self, state: HadaraState, viewer: Viewer) -> str:
        return text.render_text(state, viewer, self.to_act(state))

    def render_svg(self, state: HadaraState, viewer: Viewer) -> str:
        return picture.render_svg(state, viewer, self.to_act(state))

    def notate(
        self, state: HadaraState, seat: str | None, move: Move | None, events: Sequence[Event]
    ) -> str:
        return notation.notate(state, seat, move, events)

    def schemas(self) -> Mapping[str, JSON]:
        return schemas.SCHEMAS

    def sampled(self, state: HadaraState, seat: str) -> str | None:
        if state.stage == "feed" and seat in self.to_act(state):
            return (
                "feeding lists a representative set: for each card removed first, the "
                "fewest further cards with the least food and points, for each number "
                "of cards paid for with coins; any other removal that feeds the people "
                "is legal too if its cards can go one by one while they are still unfed"
            )
        return None

    def concurrent(self, event: Event) -> bool:
        # A sealed choice changes only its own seat's entry until the reveal:
        # another seat's draw, coins, cards and tiles, hence its legal choices,
        # stay as they were. Everything else happens in turn order.
        return bool(event["type"] == "DrawChosen")


RULES = Hadara()
_IS_A_GAME_TYPE: GameType[HadaraState] = RULES  # mypy checks all three protocols
