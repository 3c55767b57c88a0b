"""The freeform decider: any seat records any move; the arbiter enters the
result. The class that is ``RULES`` hands the fold, views, notation, text and
picture to their modules."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence

from gamelog.games.freeform import notation, picture, text, views
from gamelog.games.freeform.evolve import evolve
from gamelog.games.freeform.options import COMPONENT_SET, PLAYERS, normalize
from gamelog.games.freeform.schemas import SCHEMAS
from gamelog.games.freeform.state import FreeformState
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
    is_int,
    rank_by,
)


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


class Freeform:
    name = "freeform"
    title = "Freeform (any game, recorded without rule checks)"
    rules_version = "1.0"
    min_players, max_players = PLAYERS
    default_component_set = COMPONENT_SET
    secret_options = frozenset({"deal"})

    def normalize_options(self, options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
        return normalize(options, seats)

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
        return evolve(state, event)

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
        return views.view(state, viewer)

    def redact(self, event: Event, viewer: Viewer) -> Event:
        return views.redact(event, viewer)

    def shows_hidden(self, event: Event) -> bool:
        return views.shows_hidden(event)

    def hidden_from(self, state: FreeformState, viewer: Viewer) -> frozenset[str | int]:
        return views.hidden_from(state, viewer)

    def result(self, state: FreeformState) -> Result | None:
        return state.result

    def render_text(self, state: FreeformState, viewer: Viewer) -> str:
        return text.render_text(state, viewer)

    def render_svg(self, state: FreeformState, viewer: Viewer) -> str:
        return picture.render_svg(state, viewer)

    def notate(
        self,
        state: FreeformState,
        seat: str | None,
        move: Move | None,
        events: Sequence[Event],
    ) -> str:
        return notation.notate(state, seat, move, events)

    def schemas(self) -> Mapping[str, JSON]:
        return SCHEMAS

    def sampled(self, state: FreeformState, seat: str) -> str | None:
        if seat == ARBITER:
            return "any integer score per seat (and optionally a ranking) is a result"
        return "any non-empty JSON object is a move; the list holds one example note"

    def concurrent(self, event: Event) -> bool:
        # Seats record moves independently of each other; a result ends it all.
        return bool(event["type"] == "MoveRecorded")


RULES = Freeform()
_IS_A_GAME_TYPE: GameType[FreeformState] = RULES  # mypy checks all three protocols
