"""The decider: who may act and what a move makes happen; the class that is
``RULES`` hands the fold, views, notation, text and picture to their modules."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from gamelog.games.protocol import (
    ARBITER,
    JSON,
    Event,
    GameType,
    IllegalMove,
    Move,
    Options,
    Result,
    Viewer,
)
from gamelog.games.pyramidion import notation, picture, text, views
from gamelog.games.pyramidion.declarations import arbiter_declaration, seat_declaration
from gamelog.games.pyramidion.evolve import evolve
from gamelog.games.pyramidion.loading import read_load
from gamelog.games.pyramidion.options import PLAYERS, components_of, normalize
from gamelog.games.pyramidion.order import TWO_PLAYER_SWAP, new_order, next_round_order
from gamelog.games.pyramidion.sample import (
    arbiter_sample,
    loader_sample,
    production_due,
    seat_sample,
)
from gamelog.games.pyramidion.schemas import SCHEMAS
from gamelog.games.pyramidion.scoring import count, game_ends, ranking
from gamelog.games.pyramidion.state import (
    DISPLAY,
    LOADING,
    PHASES_1_TO_5,
    PyramidionState,
)

CONCURRENT = frozenset(
    {
        "CardsDrawn",
        "CardsPlayed",
        "ResourcesReturned",
        "TroopsPlaced",
        "TroopsMoved",
        "TroopsRemoved",
        "CharacterRecruited",
        "PhasesFinished",
    }
)
"""One seat's own declarations in phases 1 to 5 that leave every other seat's
choices as they were (gaining from the supply too; not from a location's
pile, which others may take from)."""


class Pyramidion:
    name = "pyramidion"
    title = "Pyramidion (White Goblin Games), partly refereed: page 7 of the rulebook"
    rules_version = "1.2"
    min_players, max_players = PLAYERS
    default_component_set = "pyramidion/page-7"
    # A club's own boat deck lists every boat's points: its faces stay hidden.
    secret_options = frozenset({"deal", "components"})

    def normalize_options(self, options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
        return normalize(options, seats)

    def start(self, seats: Sequence[str], options: Options) -> PyramidionState:
        components = components_of(options)
        deck = None
        if components.boats is not None:
            deck = tuple(sorted(boat.card for boat in components.boats))
        production = {
            location.id: location.produces
            for location in components.locations
            if location.produces is not None
        }
        names = {loc.id: loc.name for loc in components.locations if loc.name is not None}
        return PyramidionState(
            seats=tuple(seats),
            components=components,
            goal=options["goal"],
            order=tuple(seats),
            production=production,
            names=names,
            deck=deck,
            deal=tuple(options.get("deal", {}).get("boats", ())),
        )

    def setup(self, options: Options, seats: Sequence[str], rng: random.Random) -> list[Event]:
        # The first seat is the start player; nothing is dealt before play:
        # boats are turned up by the arbiter's declarations.
        return [{"type": "GameStarted", "order": list(seats), "goal": options["goal"]}]

    def to_act(self, state: PyramidionState) -> tuple[str, ...]:
        if state.phase == PHASES_1_TO_5:
            return (*(s for s in state.order if s not in state.done), ARBITER)
        if state.phase == DISPLAY:
            return (ARBITER,)
        if state.phase == LOADING and state.loader is not None:
            return (state.loader, ARBITER) if production_due(state) else (state.loader,)
        return ()

    def decide(
        self, state: PyramidionState, seat: str, move: Move, rng: random.Random
    ) -> list[Event]:
        if state.over:
            raise IllegalMove("game-over", "the game is over")
        if not isinstance(move, dict):
            raise IllegalMove("bad-move", "a move is a JSON object")
        if seat != ARBITER and seat not in state.seats:
            raise IllegalMove("not-a-seat", f"{seat!r} does not play in this game")
        if seat not in self.to_act(state):
            raise IllegalMove("not-your-turn", f"{seat} may not move now")
        if "declare" in move:
            if seat == ARBITER:
                events = arbiter_declaration(state, move, rng)
            else:
                events = seat_declaration(state, seat, move)
        elif seat == ARBITER:
            raise IllegalMove("bad-move", 'the arbiter only declares: {"declare": ...}')
        elif "load" in move:
            events = self._load(state, seat, move)
        elif move == {"pass": True}:
            if state.phase != LOADING:
                raise IllegalMove("not-now", "passing is for phase 7, loading boats")
            events = [{"type": "LoadingPassed", "seat": seat}]
        else:
            raise IllegalMove(
                "bad-move", 'a move is {"declare": ...}, {"load": boat, ...} or {"pass": true}'
            )
        return events + self._consequences(state, events)

    def _load(self, state: PyramidionState, seat: str, move: Move) -> list[Event]:
        if state.phase != LOADING:
            raise IllegalMove("not-now", "boats are loaded in phase 7")
        load = read_load(state, seat, move)
        boat = load["boat"]
        return [
            {
                "type": "BoatLoaded",
                "seat": seat,
                "boat": boat.number,
                "requirements": dict(boat.requirements),
                "fetch": load["fetch"],
                "statue_for": load["statue_for"],
                "used": load["used"],
                "own": load["own"],
                "card": boat.card,
                "points": boat.points,
            }
        ]

    def _consequences(self, state: PyramidionState, events: list[Event]) -> list[Event]:
        """What the rules of phases 6 to 8 make happen after ``events``."""
        after = state
        for event in events:
            after = evolve(after, event)
        follows: list[Event] = []
        if after.phase == PHASES_1_TO_5 and set(after.done) == set(after.seats):
            order, rule = new_order(after.order, after.markers, after.gizeh_activated)
            follows.append(
                {
                    "type": "OrderSet",
                    "order": list(order),
                    "markers": dict(after.markers),
                    "rule": rule,
                }
            )
        elif after.phase == LOADING and after.loader is None:
            follows += self._round_end(after)
        return follows

    def _round_end(self, state: PyramidionState) -> list[Event]:
        points, bonus = count(state)
        ends = game_ends(state, points)
        ended: Event = {
            "type": "RoundEnded",
            "round": state.round,
            "counts": points,
            "troop_bonus": bonus,
            "game_ends": ends,
        }
        if not ends:
            swapped = next_round_order(state.order, state.gizeh_activated)
            if swapped is None:
                return [ended]
            # Two players, Gizeh not activated: "ist der zweite Spieler
            # automatisch Startspieler für die nächste Runde".
            return [
                ended,
                {
                    "type": "OrderSet",
                    "order": list(swapped),
                    "markers": {},
                    "rule": TWO_PLAYER_SWAP,
                },
            ]
        places = ranking(
            state.seats,
            points,
            state.hands,
            {seat: len(state.loaded.get(seat, ())) for seat in state.seats},
            state.order,
        )
        boats = [
            {
                "boat": number,
                "seat": next((s for s in state.seats if number in state.loaded.get(s, ())), None),
                "card": boat.card,
                "points": boat.points,
            }
            for number, boat in sorted(state.boats.items())
        ]
        return [
            ended,
            {
                "type": "GameEnded",
                "boats": boats,
                "scores": points,
                "hands": {seat: state.hands.get(seat, 0) for seat in state.seats},
                "order": list(state.order),
                "ranking": places,
            },
        ]

    def evolve(self, state: PyramidionState, event: Event) -> PyramidionState:
        return evolve(state, event)

    def legal_moves(self, state: PyramidionState, seat: str) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if seat == ARBITER:
            return arbiter_sample(state)
        if state.phase == LOADING:
            return loader_sample(state, seat)
        return seat_sample(state, seat)

    def sampled(self, state: PyramidionState, seat: str) -> str | None:
        if seat == ARBITER:
            return (
                "a sample: confirming the display, one boat to turn up, the production of one "
                "location; any consistent declaration is accepted"
            )
        if state.phase == LOADING:
            return (
                "passing, and up to two ways to pay for each displayed boat (own resources, "
                "troop fetches, statues); any valid payment is accepted"
            )
        return (
            "a sample of declarations: being done, gaining what a displayed boat needs, and "
            "two more in turn; any consistent declaration is accepted"
        )

    def concurrent(self, event: Event) -> bool:
        kind = event["type"]
        return kind in CONCURRENT or (kind == "ResourcesGained" and event["source"] == "supply")

    def view(self, state: PyramidionState, viewer: Viewer) -> dict[str, JSON]:
        return views.view(state, viewer)

    def redact(self, event: Event, viewer: Viewer) -> Event:
        return views.redact(event, viewer)

    def shows_hidden(self, event: Event) -> bool:
        return views.shows_hidden(event)

    def hidden_from(self, state: PyramidionState, viewer: Viewer) -> frozenset[str | int]:
        return views.hidden_from(state, viewer)

    def result(self, state: PyramidionState) -> Result | None:
        return state.result

    def render_text(self, state: PyramidionState, viewer: Viewer) -> str:
        return text.render_text(state, viewer, self.to_act(state))

    def render_svg(self, state: PyramidionState, viewer: Viewer) -> str:
        return picture.svg(state, viewer, self.to_act(state))

    def notate(
        self,
        state: PyramidionState,
        seat: str | None,
        move: Move | None,
        events: Sequence[Event],
    ) -> str:
        return notation.line(state, seat, move, events)

    def schemas(self) -> Mapping[str, JSON]:
        return SCHEMAS


RULES = Pyramidion()
_IS_A_GAME_TYPE: GameType[PyramidionState] = RULES  # mypy checks all three protocols
