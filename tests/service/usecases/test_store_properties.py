"""Properties of the store over random legal games of every game we have.

For each game and player count: the state read back at every position equals
the live state held while playing; audit passes; a fork of the finished game
that keeps its seed, replaying the original's remaining moves, goes through
the same states; export, import and export again give the same file apart
from ids and timestamps; no seat or spectator is ever sent a hidden card.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.games import all_rules
from gamelog.games.leaks import find_leaks
from gamelog.games.protocol import ARBITER
from gamelog.service.usecases.application import GameLog

from support.random_play import random_game

GAMES = [r for r in all_rules() if r.name != "freeform"]
CASES = [
    pytest.param(r.name, n, id=f"{r.name}-{n}")
    for r in GAMES
    for n in sorted({r.min_players, r.max_players})
]
SETTINGS = settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def without_ids(data: Any) -> Any:
    """A record file with game ids and timestamps blanked (they change on import)."""
    text = json.dumps(data, sort_keys=True)
    for entry in data["games"]:
        text = text.replace(entry["game_id"], "<id>")
    loaded = json.loads(text)
    for entry in loaded["games"]:
        for record in entry["records"]:
            record.pop("timestamp", None)
    return loaded


@pytest.mark.parametrize(("game", "players"), CASES)
@given(seed=st.integers(min_value=0, max_value=2**31))
@SETTINGS
def test_stored_game_replays_audits_forks_and_round_trips(
    memory_app: GameLog, game: str, players: int, seed: int
) -> None:
    played = random_game(memory_app, game, players, seed)
    game_id = played.game_id
    final = memory_app.queries.state_at(game_id)
    assert final.is_finished, "random legal play must end the game"
    assert len(played.states) == final.position + 1

    # Replay at every position equals the live state recorded while playing.
    for position, live in enumerate(played.states):
        assert memory_app.queries.state_at(game_id, position).state == live, f"position {position}"

    report = memory_app.queries.audit(game_id)
    assert report.ok, report.to_json()
    assert report.seed_checked

    # Branch at a random position, keep the seed, replay the original's moves.
    chooser = random.Random(seed)
    records = memory_app.store.records(game_id)
    move_positions = [r["position"] for r in records if r["kind"] == "move"]
    fork_at = chooser.choice([0, *move_positions[:-1]])
    fork = memory_app.games.fork(game_id, None, fork_at, keep_seed=True)
    assert memory_app.queries.state_at(fork.game_id).state == played.states[fork_at]
    fork_position = 0
    for record in records[fork_at + 1 :]:
        if record["kind"] != "move":
            continue
        token = fork.arbiter_token if record["seat"] == ARBITER else fork.tokens[record["seat"]]
        memory_app.games.play(fork.game_id, token, record["move"], fork_position)
        fork_position = memory_app.queries.state_at(fork.game_id).position
        assert memory_app.queries.state_at(fork.game_id).state == played.states[record["position"]]
    assert memory_app.queries.audit(fork.game_id).ok

    # Export, import, export: the same file apart from ids and timestamps.
    exported = memory_app.record_files.export(game_id, None)
    imported = memory_app.record_files.import_record_file(exported)
    new_root = imported.id_map[str(game_id)]
    again = memory_app.record_files.export(new_root, None)
    assert without_ids(again) == without_ids(exported)
    assert memory_app.queries.audit(new_root).ok
    for position in range(0, final.position + 1, max(1, final.position // 7)):
        assert memory_app.queries.state_at(new_root, position).state == played.states[position]


@pytest.mark.parametrize(("game", "players"), CASES)
@given(seed=st.integers(min_value=0, max_value=2**31))
@SETTINGS
def test_no_viewer_is_sent_what_it_may_not_see(
    memory_app: GameLog, game: str, players: int, seed: int
) -> None:
    """Views, event lists and exports, for every seat and the spectator, at
    positions through a running game."""
    played = random_game(memory_app, game, players, seed, max_moves=25)
    game_id = played.game_id
    rules = memory_app.queries.state_at(game_id).rules
    seats = list(played.created.tokens)
    last = memory_app.queries.state_at(game_id).position
    # Once a game is finished its seed is out and the whole record is public.
    running = not memory_app.queries.state_at(game_id).is_finished
    for position in sorted({0, last // 3, (2 * last) // 3, last}):
        if position < 0:
            continue
        state = memory_app.queries.state_at(game_id, position).state
        for viewer in [*seats, None]:
            token = played.created.tokens[viewer] if viewer else None
            hidden = rules.hidden_from(state, viewer)
            view = memory_app.queries.view(game_id, token, position)
            assert not find_leaks(view.view, hidden), (viewer, position)
            if running:
                seen = memory_app.queries.visible_records(game_id, token)[: position + 1]
                records = [s.record for s in seen]
                assert not find_leaks(records, hidden), (viewer, position)
                assert all("seed" not in record for record in records)
    if running:
        exported = memory_app.record_files.export(game_id, None, redacted=True)
        state = memory_app.queries.state_at(game_id).state
        assert not find_leaks(exported, rules.hidden_from(state, None))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@pytest.mark.parametrize(("game", "players"), CASES)
@given(seed=st.integers(min_value=0, max_value=2**31), data=st.data())
@SETTINGS
def test_refused_moves_leave_the_store_unchanged(
    memory_app: GameLog, game: str, players: int, seed: int, data: st.DataObject
) -> None:
    """Wrong seat, garbage moves, stale positions and moves after the end are
    refused with a reason, at random positions, and store nothing."""
    from gamelog.service.model.refusals import GamelogError

    stop_after = data.draw(st.integers(min_value=0, max_value=80), label="moves before")
    played = random_game(memory_app, game, players, seed, max_moves=stop_after)
    game_id = played.game_id
    current = memory_app.queries.state_at(game_id)
    before = memory_app.store.records(game_id)
    rules = current.rules
    actors = [s for s in rules.to_act(current.state) if s != ARBITER]
    idle = [s for s in played.created.tokens if s not in actors]
    attempts: list[tuple[str, object, int]] = []
    for seat in idle:
        for move in rules.legal_moves(current.state, actors[0])[:2] if actors else []:
            attempts.append((seat, move, current.position))
    for _ in range(4):
        garbage = data.draw(st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=4))
        seat = data.draw(st.sampled_from(sorted(played.created.tokens)))
        attempts.append((seat, garbage, current.position))
    if actors:
        legal = rules.legal_moves(current.state, actors[0])[0]
        attempts.append((actors[0], legal, current.position + 1))
        if current.position > 0:
            attempts.append((actors[0], legal, current.position - 1))
    for seat, move, at in attempts:
        try:
            memory_app.games.play(game_id, played.created.tokens[seat], move, at)
        except GamelogError as refusal:
            assert refusal.code and refusal.message
        else:
            # Random JSON can happen to be a legal move; then it was stored. An
            # older position is good only after other seats' simultaneous parts.
            simultaneous = (
                at < current.position
                and at + 1 >= current.concurrent_from
                and current.concurrent_last.get(seat, -1) <= at
            )
            assert seat in actors and (at == current.position or simultaneous)
            return
        assert memory_app.store.records(game_id) == before
