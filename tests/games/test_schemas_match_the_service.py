"""Every game's published schemas accept what the service accepts, and refuse
what it refuses where the refusal is about shape (issue 33.5).

A client validating its options and moves against ``ListGameTypes``'s schemas
before sending must never be stopped from sending something the service
takes, nor pass something malformed the service then refuses. Whether a card
is in a hand is the rules' business at the table; shapes, names and types are
the schema's. (The strict compile of every schema is the node test
tests/web/js/schemas.test.mjs, with ajv.)
"""

from __future__ import annotations

import random
from typing import Any

import jsonschema
import pytest

from gamelog.games import all_rules
from gamelog.games.protocol import IllegalMove, InvalidOptions, Rules

RULES = {rules.name: rules for rules in all_rules()}

MALFORMED_OPTIONS: list[Any] = [
    {"no_such_option": 1},
    {"component_set": 7},
    {"deal": "all of it"},
    [],
    "house-1",
]
MALFORMED_MOVES: list[Any] = [{}, [], "a move", 42, None]


def seats_of(rules: Rules[Any]) -> list[str]:
    return [f"s{i + 1}" for i in range(max(2, rules.min_players))]


def validator(rules: Rules[Any], part: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(rules.schemas()[part])


def service_takes_options(rules: Rules[Any], options: Any) -> bool:
    """Whether the rules take ``options`` for some table (the schemas'
    examples name their seats: ann and ben, or ann and bob)."""
    for seats in (seats_of(rules), ["ann", "ben"], ["ann", "bob"]):
        try:
            rules.normalize_options(options, seats)
        except (InvalidOptions, TypeError, AttributeError):
            continue
        return True
    return False


def service_takes_move(rules: Rules[Any], state: Any, seat: str, move: Any) -> bool:
    try:
        rules.decide(state, seat, move, random.Random(1))
    except (IllegalMove, KeyError, TypeError, ValueError, AttributeError):
        return False
    return True


@pytest.mark.parametrize("game", sorted(RULES))
def test_options_the_service_takes_validate(game: str) -> None:
    rules = RULES[game]
    schema = validator(rules, "options")
    taken = [{}, *rules.schemas()["options"].get("examples", [])]
    taken.append(rules.normalize_options({}, seats_of(rules)))
    for options in taken:
        assert service_takes_options(rules, options), options
        assert schema.is_valid(options), f"{game} refuses options the service takes: {options}"


@pytest.mark.parametrize("game", sorted(RULES))
def test_options_the_service_refuses_for_their_shape_do_not_validate(game: str) -> None:
    rules = RULES[game]
    schema = validator(rules, "options")
    for options in MALFORMED_OPTIONS:
        assert not service_takes_options(rules, options), options
        assert not schema.is_valid(options), f"{game}'s schema takes {options}"


@pytest.mark.parametrize("game", sorted(RULES))
def test_moves_validate_exactly_where_the_service_takes_their_shape(game: str) -> None:
    rules = RULES[game]
    seats = seats_of(rules)
    options = rules.normalize_options({}, seats)
    state = rules.start(seats, options)
    for event in rules.setup(options, seats, random.Random(3)):
        state = rules.evolve(state, event)
    schema = validator(rules, "move")
    seat = rules.to_act(state)[0]
    for move in rules.legal_moves(state, seat):
        assert service_takes_move(rules, state, seat, move)
        assert schema.is_valid(move), f"{game} refuses a legal move: {move}"
    for move in MALFORMED_MOVES:
        assert not service_takes_move(rules, state, seat, move), move
        assert not schema.is_valid(move), f"{game}'s schema takes {move!r}"


def test_carcassonne_takes_no_options_and_its_schema_says_so() -> None:
    """The case a client met: the schema required component_set, which the
    service fills in with the default set."""
    rules = RULES["carcassonne-hg"]
    assert service_takes_options(rules, {})
    assert validator(rules, "options").is_valid({})
