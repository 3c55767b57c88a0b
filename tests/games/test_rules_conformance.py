"""Every registered game keeps the rules protocol's promises.

Random legal play-outs of each game, at each allowed player count, checked for
what the store, replay and audit rely on: decisions are deterministic for a
given state and random source, events and views are plain JSON, states survive
the snapshot codec, the arbiter sees events unredacted, a game that ends
has a result for every seat, and rules that hand over the state they fold while
deciding (``decide_and_fold``) hand over the fold of their events.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.games import all_rules
from gamelog.games.codec import decode, encode
from gamelog.games.playout import play_out, replay
from gamelog.games.protocol import ARBITER, InvalidOptions, Rules, rng_for

GAMES = {rules.name: rules for rules in all_rules()}
# Freeform never ends by itself; a bounded play-out is enough to check it.
MAX_MOVES = {"freeform": 40}


def _no_floats(value: Any) -> bool:
    if isinstance(value, float):
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and _no_floats(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_no_floats(v) for v in value)
    return value is None or isinstance(value, bool | int | str)


def _player_counts(rules: Rules[Any]) -> list[int]:
    return list(range(max(rules.min_players, 2), min(rules.max_players, 5) + 1))


CASES = [(name, n) for name, rules in GAMES.items() for n in _player_counts(rules)]


@pytest.mark.parametrize(("game", "players"), CASES)
@given(seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_playout_keeps_the_protocol(game: str, players: int, seed: int) -> None:
    rules = GAMES[game]
    seats = tuple(f"p{i + 1}" for i in range(players))
    line = play_out(rules, seats, seed, max_moves=MAX_MOVES.get(game, 20_000))

    for event in line.setup_events:
        assert _no_floats(event) and json.loads(json.dumps(event)) == event
        assert rules.redact(event, ARBITER) == event

    # Replaying from the empty table gives the same states as live play.
    replayed = replay(rules, line)
    assert len(replayed) == len(line.states)
    for ply, (folded, live) in enumerate(zip(replayed, line.states)):
        assert folded == live, f"the fold differs from live play at ply {ply}"
    for ply, ((seat, move, events), before) in enumerate(zip(line.moves, line.states), start=1):
        assert _no_floats(move) and _no_floats(events)
        again = rules.decide(before, seat, move, rng_for(line.seed, ply))
        assert again == events, f"decide is not deterministic at ply {ply}"
        decide_and_fold = getattr(rules, "decide_and_fold", None)
        if decide_and_fold is not None:
            # The state handed over is the service's live state: it must be the fold.
            decided, after = decide_and_fold(before, seat, move, rng_for(line.seed, ply))
            assert decided == events, f"decide_and_fold decides otherwise at ply {ply}"
            assert after == line.states[ply], f"decide_and_fold's state is no fold at ply {ply}"
        for event in events:
            assert rules.redact(event, ARBITER) == event
            for viewer in (*seats, None):
                assert _no_floats(rules.redact(event, viewer))

    final = line.final_state
    assert decode(json.loads(json.dumps(encode(final)))) == final
    for viewer in (*seats, None, ARBITER):
        view = rules.view(final, viewer)
        assert json.loads(json.dumps(view)) == view
        assert isinstance(rules.render_text(final, viewer), str)

    if game not in MAX_MOVES:
        assert rules.to_act(final) == (), "the play-out ended before the game did"
        result = rules.result(final)
        assert result is not None
        assert set(result.scores) == set(seats)
        assert sorted(s for place in result.ranking for s in place) == sorted(seats)


OPTION_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)
OPTION_KEYS = st.sampled_from(
    [
        "component_set",
        "components",
        "deal",
        "start_seat",
        "first_game",
        "board_sides",
        "title",
        "variant",
    ]
)


@pytest.mark.parametrize("game", sorted(GAMES))
@given(options=st.dictionaries(OPTION_KEYS, OPTION_VALUES, max_size=3))
@settings(max_examples=60, deadline=None)
def test_malformed_options_are_refused_not_crashed_on(game: str, options: dict[str, Any]) -> None:
    rules = GAMES[game]
    seats = ("p1", "p2")
    try:
        normalized = rules.normalize_options(options, seats)
    except InvalidOptions as refusal:
        assert refusal.code and refusal.message
    else:
        assert rules.normalize_options(normalized, seats) == normalized
