"""Every game speaks to people and to client authors, not only to the store.

Random legal play-outs of each game, at each allowed player count, checked for
the parts of the rules protocol that readers and clients rely on:

* ``schemas()``: a JSON Schema for options, moves, views and events, each a
  valid draft 2020-12 schema with examples that validate; every legal move,
  every view (seats, spectator, arbiter) and every event (as stored and as each
  viewer sees it) validates.
* ``notate``: one non-empty line per move and for the deal, as each viewer
  sees the record, never naming a component ``hidden_from`` that viewer.
* ``render_svg``: a standalone SVG (well-formed XML, no scripts, no external
  references) for every viewer, never naming a hidden component.
* ``sampled`` and ``concurrent`` answer with the types the service expects.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.games import all_rules, get_rules
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, Presentation, Rules, Viewer

CONTRACT_GAMES = tuple(rules.name for rules in all_rules())
MAX_MOVES = {"freeform": 30, "carcassonne-hg": 40, "hadara": 12, "pyramidion": 40}
"""Long games are played in part here (each game's own tests play them whole)."""
SCHEMA_PARTS = ("options", "move", "view", "event")
SVG = "{http://www.w3.org/2000/svg}svg"


def _player_counts(rules: Rules[Any]) -> list[int]:
    return list(range(max(rules.min_players, 2), min(rules.max_players, 5) + 1))


CASES = [(name, n) for name in CONTRACT_GAMES for n in _player_counts(get_rules(name))]


def validators(rules: Rules[Any]) -> dict[str, jsonschema.Draft202012Validator]:
    schemas = rules.schemas()
    assert set(SCHEMA_PARTS) <= set(schemas), f"{rules.name} lacks a schema"
    found = {}
    for part in SCHEMA_PARTS:
        schema = schemas[part]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema.get("description"), f"{rules.name} {part} schema has no description"
        assert schema.get("examples"), f"{rules.name} {part} schema has no example"
        found[part] = jsonschema.Draft202012Validator(schema)
        for example in schema["examples"]:
            found[part].validate(example)
    return found


def hidden_words(text: str, hidden: frozenset[str | int]) -> list[str]:
    """String ids of hidden components that show up as words in ``text``."""
    words = set(re.findall(r"[\w-]+", text))
    return sorted(w for w in words & {h for h in hidden if isinstance(h, str)} if len(w) >= 3)


def check_svg(rules: Presentation[Any], state: Any, viewer: Viewer) -> None:
    picture = rules.render_svg(state, viewer)
    root = ET.fromstring(picture)
    assert root.tag == SVG, "a picture is one <svg> element in the SVG namespace"
    assert "<script" not in picture.lower()
    assert not re.search(r"(href|src)\s*=\s*[\"'](https?:|//)", picture), "no external references"
    text = (
        " ".join(root.itertext())
        + " "
        + " ".join(str(v) for element in root.iter() for v in element.attrib.values())
    )
    assert not hidden_words(text, rules.hidden_from(state, viewer)), viewer


@pytest.mark.parametrize("game", CONTRACT_GAMES)
def test_schemas_are_valid_and_their_examples_validate(game: str) -> None:
    validators(get_rules(game))


@pytest.mark.parametrize(("game", "players"), CASES)
@given(seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_moves_views_events_notation_and_pictures_keep_the_contract(
    game: str, players: int, seed: int
) -> None:
    rules = get_rules(game)
    schema = validators(rules)
    seats = tuple(f"p{i + 1}" for i in range(players))
    line = play_out(rules, seats, seed, max_moves=MAX_MOVES.get(game, 20_000))
    viewers: list[Viewer] = [*seats, None, ARBITER]
    schema["options"].validate(line.options)

    start = rules.start(seats, line.options)
    for viewer in viewers:
        seen = [rules.redact(event, viewer) for event in line.setup_events]
        deal_line = rules.notate(start, None, None, seen)
        assert isinstance(deal_line, str) and deal_line.strip() and "\n" not in deal_line

    picture_at = {0, len(line.moves) // 2, len(line.moves)}
    for index, state in enumerate(line.states):
        for viewer in viewers:
            schema["view"].validate(rules.view(state, viewer))
            if index in picture_at:
                check_svg(rules, state, viewer)
        for seat in rules.to_act(state):
            for move in rules.legal_moves(state, seat):
                schema["move"].validate(move)
            note = rules.sampled(state, seat)
            assert note is None or (isinstance(note, str) and note.strip())

    for ply, (seat, move, events) in enumerate(line.moves, start=1):
        before, after = line.states[ply - 1], line.states[ply]
        for event in [*line.setup_events, *events] if ply == 1 else events:
            schema["event"].validate(event)
            assert isinstance(rules.concurrent(event), bool)
        for viewer in viewers:
            seen_events = [rules.redact(event, viewer) for event in events]
            for event in seen_events:
                schema["event"].validate(event)
            seen_move = move if viewer in (seat, ARBITER) else None
            text = rules.notate(before, seat, seen_move, seen_events)
            assert isinstance(text, str) and text.strip() and "\n" not in text
            if viewer != ARBITER:
                assert not hidden_words(text, rules.hidden_from(after, viewer)), (ply, viewer)
