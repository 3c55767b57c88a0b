"""Hadara's schemas, ``concurrent`` and ``sampled`` over whole games (the
shared contract test stops after a few moves: Hadara games are long)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hadara_tables import TWO, at_section, dealt, play, set_player

from gamelog.games.hadara import RULES
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, rng_for

PARTS = ("options", "move", "view", "event")


def validators() -> dict[str, jsonschema.Draft202012Validator]:
    schemas = RULES.schemas()
    return {part: jsonschema.Draft202012Validator(schemas[part]) for part in PARTS}


@pytest.mark.parametrize("players", [2, 5])
def test_every_move_view_and_event_of_a_whole_game_validates(players: int) -> None:
    schema = validators()
    seats = tuple(f"s{i + 1}" for i in range(players))
    line = play_out(RULES, seats, seed=players, options={"first_game": players == 2})
    schema["options"].validate(line.options)
    viewers = [*seats, None, ARBITER]
    events = list(line.setup_events) + [e for _, _, es in line.moves for e in es]
    assert {e["type"] for e in events} >= {"DrawsRevealed", "CardTaken", "GameEnded"}
    forms = {json.dumps(RULES.redact(e, v), sort_keys=True) for e in events for v in viewers}
    for form in forms:  # each distinct form, stored or redacted, once
        schema["event"].validate(json.loads(form))
    moves = {
        json.dumps(move, sort_keys=True)
        for state in line.states
        for seat in RULES.to_act(state)
        for move in RULES.legal_moves(state, seat)
    }
    for move in moves:
        schema["move"].validate(json.loads(move))
    for index, state in enumerate(line.states):
        if index % 25 == 0 or index == len(line.states) - 1:
            for viewer in viewers:
                schema["view"].validate(RULES.view(state, viewer))


def test_the_view_schema_tells_a_seat_a_spectator_and_the_arbiter_apart() -> None:
    schema = validators()["view"]
    state, _ = play(dealt(), "ann", {"wheel": "red"})
    seat, spectator, arbiter = (RULES.view(state, v) for v in ("ann", None, ARBITER))
    for view in (seat, spectator, arbiter):
        schema.validate(view)
    assert not schema.is_valid({**spectator, "inner_cards": arbiter["inner_cards"]})
    assert not schema.is_valid({k: v for k, v in arbiter.items() if k != "outer_cards"})
    assert not schema.is_valid({**seat, "draws": arbiter["draws"]})


def test_a_redacted_sealed_choice_validates_only_as_the_redacted_form() -> None:
    schema = validators()["event"]
    state, _ = play(dealt(), "ann", {"wheel": "red"})
    _, events = play(state, "ann", {"place": "I-red-01", "action": "sell"})
    schema.validate(events[0])
    schema.validate(RULES.redact(events[0], "bob"))
    assert not schema.is_valid({"type": "DrawChosen", "seat": "ann", "place": "I-red-01"})


def test_only_a_sealed_choice_is_concurrent() -> None:
    line = play_out(RULES, ("s1", "s2", "s3"), seed=4)
    kinds: dict[str, set[bool]] = {}
    for event in list(line.setup_events) + [e for _, _, es in line.moves for e in es]:
        kinds.setdefault(event["type"], set()).add(RULES.concurrent(event))
    assert kinds.pop("DrawChosen") == {True}
    assert all(answers == {False} for answers in kinds.values()), kinds
    assert RULES.concurrent({"type": "DrawChosen", "seat": "s1"})  # as others see it


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_sealed_choice_leaves_the_other_seats_choices_as_they_were(players: int) -> None:
    """A seat that chose at the position before another seat's sealed choice
    could make the same choice after it, to the same effect."""
    seats = tuple(f"s{i + 1}" for i in range(players))
    line = play_out(RULES, seats, seed=players + 10)
    checked = 0
    for ply, (seat, _, events) in enumerate(line.moves, start=1):
        if not all(RULES.concurrent(e) for e in events):
            continue
        before, after = line.states[ply - 1], line.states[ply]
        for other in RULES.to_act(after):
            assert other != seat
            moves = RULES.legal_moves(before, other)
            assert RULES.legal_moves(after, other) == moves
            for move in moves:
                then = RULES.decide(before, other, move, rng_for(b"x", ply))
                now = RULES.decide(after, other, move, rng_for(b"x", ply + 1))
                if len(RULES.to_act(after)) > 1:  # the reveal waits for others still
                    assert then == now
                else:
                    assert then[0] == now[0]
            checked += 1
    assert checked >= 5 * (players - 1)


def test_sampled_names_the_feeding_sample_only() -> None:
    line = play_out(RULES, TWO, seed=5)
    for state in line.states:
        for seat in RULES.to_act(state):
            note = RULES.sampled(state, seat)
            assert (note is not None) == (state.stage == "feed"), state.stage
    cards = ("I-yellow-02", "I-red-04", "I-red-05", "I-blue-05", "I-blue-06")
    state = set_player(dealt(), "ann", cards=cards, start_values=(2, 2, 2, 3))
    state = at_section(state, "feed", "ann", phase="B")
    note = RULES.sampled(state, "ann")
    assert note is not None and "representative" in note
    assert RULES.sampled(state, "bob") is None  # not bob's turn: nothing listed


def test_schemas_are_loaded_once() -> None:
    first: Any = RULES.schemas()
    assert RULES.schemas() is first
    assert set(PARTS) <= set(first)
