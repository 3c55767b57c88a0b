"""Freeform: record any game, judge nothing.

Moves are any JSON object, stored and replayed without rule checks, so a
tournament can keep the record of a game gamelog has no rules for. Any seat may
move at any time; the arbiter ends the game by entering the result:

>>> from gamelog.games.protocol import ARBITER, rng_for
>>> seats = ("ann", "ben")
>>> state = RULES.start(seats, RULES.normalize_options({}, seats))
>>> for e in RULES.decide(state, "ann", {"text": "1. e4"}, rng_for(b"s", 1)):
...     state = RULES.evolve(state, e)
>>> result = {"result": {"scores": {"ann": 1, "ben": 0}}}
>>> for e in RULES.decide(state, ARBITER, result, rng_for(b"s", 2)):
...     state = RULES.evolve(state, e)
>>> RULES.result(state).winners
('ann',)

Decisions (also in docs/rules-decisions.md): the arbiter's result gives
integer scores per seat; a ranking may be given explicitly, otherwise higher
scores rank first and equal scores share a place. The state keeps only counts
and the last move, never the whole list: the log is the record.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from gamelog.games.protocol import (
    ARBITER,
    JSON,
    Event,
    IllegalMove,
    InvalidOptions,
    Move,
    Options,
    Result,
    Viewer,
    check_table,
    is_int,
    rank_by,
)
from gamelog.games.protocol import (
    frozen_replace as replace,
)
from gamelog.games.wording import counted, standings_line


def score_hint(scores: Mapping[str, JSON], seats: Sequence[str]) -> str:
    """Why a result's scores are refused, with how a draw is recorded: a
    half point is no integer, and equal scores already share a place.

    >>> print(score_hint({"ann": 0.5, "ben": 0.5}, ("ann", "ben")))
    give every seat an integer score (ann has 0.5); a draw is equal scores, \
which share a place: {"ann": 1, "ben": 1}, or a ranking [["ann", "ben"]]
    """
    missing = [seat for seat in seats if seat not in scores]
    if missing:
        return f"give every seat an integer score (no score for {', '.join(missing)})"
    strangers = [seat for seat in scores if seat not in seats]
    if strangers:
        return f"give every seat an integer score ({', '.join(strangers)} does not play here)"
    wrong = next(seat for seat in seats if not is_int(scores[seat]))
    return (
        f"give every seat an integer score ({wrong} has {json.dumps(scores[wrong])}); "
        "a draw is equal scores, which share a place: "
        f"{json.dumps(dict.fromkeys(seats, 1))}, or a ranking {json.dumps([list(seats)])}"
    )


@dataclass(frozen=True)
class FreeformState:
    seats: tuple[str, ...]
    moves: int = 0
    moves_by_seat: tuple[int, ...] = ()
    last_move: Mapping[str, JSON] | None = None
    last_seat: str | None = None
    result: Result | None = None


class Freeform:
    name = "freeform"
    title = "Freeform (any game, recorded without rule checks)"
    rules_version = "1.0"
    min_players = 1
    max_players = 16
    default_component_set = "freeform/none"
    secret_options = frozenset({"deal"})

    def normalize_options(self, options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
        check_table(
            self.name,
            options,
            frozenset({"component_set", "title"}),
            seats,
            (self.min_players, self.max_players),
        )
        title = options.get("title", "")
        if not isinstance(title, str):
            raise InvalidOptions("bad-option", "title must be a string")
        if options.get("component_set", self.default_component_set) != self.default_component_set:
            raise InvalidOptions(
                "bad-option",
                f"freeform has no components: component_set is {self.default_component_set}",
            )
        return {"component_set": self.default_component_set, "title": title}

    def start(self, seats: Sequence[str], options: Options) -> FreeformState:
        return FreeformState(seats=tuple(seats), moves_by_seat=tuple(0 for _ in seats))

    def setup(self, options: Options, seats: Sequence[str], rng: random.Random) -> list[Event]:
        return []

    def to_act(self, state: FreeformState) -> tuple[str, ...]:
        return () if state.result is not None else (*state.seats, ARBITER)

    def decide(
        self, state: FreeformState, seat: str, move: Move, rng: random.Random
    ) -> list[Event]:
        if state.result is not None:
            raise IllegalMove("game-over", "the result is entered; the game is over")
        if not isinstance(move, dict) or not move:
            raise IllegalMove("bad-move", "a freeform move is a non-empty JSON object")
        if seat == ARBITER:
            if set(move) != {"result"}:
                raise IllegalMove("bad-move", 'the arbiter enters {"result": {"scores": {...}}}')
            return [{"type": "ResultEntered", **self._checked_result(state, move["result"])}]
        if seat not in state.seats:
            raise IllegalMove("not-a-seat", f"{seat!r} does not play in this game")
        return [{"type": "MoveRecorded", "seat": seat, "move": move}]

    def _checked_result(self, state: FreeformState, raw: JSON) -> dict[str, JSON]:
        if not isinstance(raw, dict) or not isinstance(raw.get("scores"), dict):
            raise IllegalMove("bad-result", "a result needs scores: {seat: integer, ...}")
        scores = raw["scores"]
        if set(scores) != set(state.seats) or not all(is_int(v) for v in scores.values()):
            raise IllegalMove("bad-result", score_hint(scores, state.seats))
        if "ranking" in raw:
            ranking = raw["ranking"]
            well_formed = isinstance(ranking, list) and all(
                isinstance(place, list) for place in ranking
            )
            flat = [seat for place in ranking for seat in place] if well_formed else []
            if not well_formed or sorted(flat) != sorted(state.seats):
                raise IllegalMove("bad-result", "a ranking lists every seat once, in places")
        else:
            ranking = [list(place) for place in rank_by(scores, state.seats)]
        return {"scores": {seat: scores[seat] for seat in state.seats}, "ranking": ranking}

    def evolve(self, state: FreeformState, event: Event) -> FreeformState:
        kind = event["type"]
        if kind == "MoveRecorded":
            index = state.seats.index(event["seat"])
            counts = list(state.moves_by_seat)
            counts[index] += 1
            return replace(
                state,
                moves=state.moves + 1,
                moves_by_seat=tuple(counts),
                last_move=event["move"],
                last_seat=event["seat"],
            )
        if kind == "ResultEntered":
            result = Result(
                scores=dict(event["scores"]),
                ranking=tuple(tuple(place) for place in event["ranking"]),
            )
            return replace(state, result=result)
        raise ValueError(f"unknown freeform event {kind!r}")

    def legal_moves(self, state: FreeformState, seat: str) -> list[Move]:
        # Any JSON object is legal; this is the sample self-play and pickers use.
        if state.result is not None:
            return []
        if seat == ARBITER:
            return [{"result": {"scores": {s: 0 for s in state.seats}}}]
        if seat not in state.seats:
            return []
        return [{"note": f"move {state.moves + 1}"}]

    def view(self, state: FreeformState, viewer: Viewer) -> dict[str, JSON]:
        return {
            "seats": list(state.seats),
            "moves": state.moves,
            "moves_by_seat": dict(zip(state.seats, state.moves_by_seat)),
            "last_move": state.last_move,
            "last_seat": state.last_seat,
            "result": state.result.to_json() if state.result else None,
            "note": "freeform: moves are recorded without rule checks",
        }

    def redact(self, event: Event, viewer: Viewer) -> Event:
        return event

    def shows_hidden(self, event: Event) -> bool:
        return False

    def hidden_from(self, state: FreeformState, viewer: Viewer) -> frozenset[str | int]:
        return frozenset()

    def result(self, state: FreeformState) -> Result | None:
        return state.result

    def render_text(self, state: FreeformState, viewer: Viewer) -> str:
        lines = [f"freeform game, {counted(state.moves, 'move')} recorded (no rule checks)"]
        if state.last_move is not None:
            lines.append(f"last move, by {state.last_seat}: {move_words(state.last_move)}")
        if state.result is not None:
            lines.append(f"result: {standings_line(state.result.to_json())}")
        return "\n".join(lines)

    def render_svg(self, state: FreeformState, viewer: Viewer) -> str:
        """The seats with their move counts, the last move and the result: a
        freeform game has no board, its record is the move list."""
        rows = [
            f"{seat}: {counted(n, 'move')}" for seat, n in zip(state.seats, state.moves_by_seat)
        ]
        if state.last_move is not None:
            rows.append(f"last move, by {state.last_seat}: {move_words(state.last_move)}")
        if state.result is not None:
            rows.append(f"result: {standings_line(state.result.to_json())}")
        height = 40 + 22 * len(rows)
        texts = "".join(
            f'<text x="16" y="{56 + 22 * i}">{escape(row[:120])}</text>'
            for i, row in enumerate(rows)
        )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="{height}" '
            f'viewBox="0 0 640 {height}" font-family="sans-serif" font-size="15">'
            f'<rect width="640" height="{height}" fill="#faf7f0"/>'
            f'<text x="16" y="28" font-weight="bold">freeform: {counted(state.moves, "move")}'
            f"</text>{texts}</svg>"
        )

    def notate(
        self,
        state: FreeformState,
        seat: str | None,
        move: Move | None,
        events: Sequence[Event],
    ) -> str:
        if seat is None:
            return f"freeform game for {', '.join(state.seats)}"
        for event in events:
            if event["type"] == "ResultEntered":
                result = {"scores": event["scores"], "ranking": event["ranking"]}
                return f"the arbiter enters the result: {standings_line(result)}"
            if event["type"] == "MoveRecorded":
                return f"{seat}: {move_words(event['move'])}"
        return f"{seat} moves"

    def schemas(self) -> Mapping[str, JSON]:
        return SCHEMAS

    def sampled(self, state: FreeformState, seat: str) -> str | None:
        if seat == ARBITER:
            return "any integer score per seat (and optionally a ranking) is a result"
        return "any non-empty JSON object is a move; the list holds one example note"

    def concurrent(self, event: Event) -> bool:
        # Seats record moves independently of each other; a result ends it all.
        return bool(event["type"] == "MoveRecorded")


def move_words(move: Mapping[str, JSON]) -> str:
    """A freeform move as words: ``text: 1. e4``, several fields joined by ``;``."""
    parts = []
    for key, value in move.items():
        shown = value if isinstance(value, str) else compact(value)
        parts.append(f"{key}: {shown}")
    return "; ".join(parts).replace("\n", " ")


def compact(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


_SCORES: dict[str, JSON] = {
    "type": "object",
    "description": "an integer score per seat",
    "additionalProperties": {"type": "integer"},
}
_RANKING: dict[str, JSON] = {
    "type": "array",
    "description": "places from first to last; seats sharing a place share one list",
    "items": {"type": "array", "items": {"type": "string"}},
}
SCHEMAS: dict[str, JSON] = {
    "options": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:gamelog:freeform:options:1",
        "description": "freeform options: a title for the game (what is being played)",
        "type": "object",
        "properties": {
            "component_set": {"const": "freeform/none"},
            "title": {"type": "string", "description": "what game is recorded"},
        },
        "additionalProperties": False,
        "examples": [{"title": "Azul"}, {"component_set": "freeform/none", "title": ""}],
    },
    "move": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:gamelog:freeform:move:1",
        "description": (
            "a seat's move: any non-empty JSON object, recorded as given; the arbiter "
            'ends the game with {"result": {"scores": {seat: integer}, "ranking": [[seat]]}} '
            "(ranking optional: higher scores rank first, equal scores share a place)"
        ),
        "type": "object",
        "minProperties": 1,
        "examples": [
            {"text": "1. e4"},
            {"result": {"scores": {"ann": 61, "ben": 40}}},
        ],
    },
    "view": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:gamelog:freeform:view:1",
        "description": "the same for every viewer: nothing is hidden",
        "type": "object",
        "required": ["seats", "moves", "moves_by_seat", "last_move", "last_seat", "result"],
        "properties": {
            "seats": {"type": "array", "items": {"type": "string"}},
            "moves": {"type": "integer", "description": "moves recorded so far"},
            "moves_by_seat": {"type": "object", "additionalProperties": {"type": "integer"}},
            "last_move": {"type": ["object", "null"]},
            "last_seat": {"type": ["string", "null"]},
            "result": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "properties": {
                            "scores": _SCORES,
                            "ranking": _RANKING,
                            "winners": {"type": "array", "items": {"type": "string"}},
                        },
                        "required": ["scores", "ranking", "winners"],
                    },
                ]
            },
            "note": {"type": "string"},
        },
        "examples": [
            {
                "seats": ["ann", "ben"],
                "moves": 1,
                "moves_by_seat": {"ann": 1, "ben": 0},
                "last_move": {"text": "1. e4"},
                "last_seat": "ann",
                "result": None,
                "note": "freeform: moves are recorded without rule checks",
            }
        ],
    },
    "event": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:gamelog:freeform:event:1",
        "description": "what happened: a recorded move, or the result the arbiter entered",
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "type": {"const": "MoveRecorded"},
                    "seat": {"type": "string"},
                    "move": {"type": "object"},
                },
                "required": ["type", "seat", "move"],
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {
                    "type": {"const": "ResultEntered"},
                    "scores": _SCORES,
                    "ranking": _RANKING,
                },
                "required": ["type", "scores", "ranking"],
                "additionalProperties": False,
            },
        ],
        "examples": [
            {"type": "MoveRecorded", "seat": "ann", "move": {"text": "1. e4"}},
            {
                "type": "ResultEntered",
                "scores": {"ann": 1, "ben": 0},
                "ranking": [["ann"], ["ben"]],
            },
        ],
    },
}


RULES = Freeform()
