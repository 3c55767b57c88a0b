"""Property tests over random legal games of Hunters and Gatherers, 2–5 players."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.games.carcassonne_hg import RULES, HGState
from gamelog.games.carcassonne_hg.board import step
from gamelog.games.carcassonne_hg.tiles import oriented
from gamelog.games.leaks import find_leaks
from gamelog.games.playout import PlayedLine, play_out, replay
from gamelog.games.protocol import IllegalMove, rng_for

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
players = st.integers(min_value=2, max_value=5)
seeds = st.integers(min_value=0, max_value=2**32)


def _game(n: int, seed: int) -> PlayedLine:
    return play_out(RULES, tuple(f"p{i + 1}" for i in range(n)), seed)


def _all_events(line: PlayedLine) -> list[dict[str, Any]]:
    return [*line.setup_events, *(e for _, _, events in line.moves for e in events)]


@given(n=players, seed=seeds)
@SETTINGS
def test_replay_equals_live_and_the_game_ends(n: int, seed: int) -> None:
    line = _game(n, seed)
    assert replay(RULES, line) == line.states
    state = line.final_state
    result = RULES.result(state)
    assert result is not None and dict(result.scores) == dict(zip(line.seats, state.scores))


def _check_map(state: HGState) -> None:
    for pos, placed in state.board.items():
        here = oriented(state.tileset, placed.tile, placed.rotation)
        for side in range(4):
            near = state.board.get(step(pos, side))
            if near is not None:
                there = oriented(state.tileset, near.tile, near.rotation)
                assert here.sides[side] == there.sides[(side + 2) % 4], (pos, side)


@given(n=players, seed=seeds)
@SETTINGS
def test_tiles_match_scores_grow_and_every_land_tile_is_drawn_once(n: int, seed: int) -> None:
    line = _game(n, seed)
    final = line.final_state
    _check_map(final)
    for before, after in zip(line.states, line.states[1:]):
        assert all(b <= a for b, a in zip(before.scores, after.scores))
        assert all(0 <= m <= 5 for m in after.members) and all(0 <= h <= 2 for h in after.huts)
    drawn = [e["tile"] for e in _all_events(line) if e["type"] == "TileDrawn" and not e["bonus"]]
    land = final.tileset.ids("land")
    assert sorted(drawn) == list(land)
    laid = {p.tile for p in final.board.values() if not p.bonus} - {final.tileset.start_tile}
    set_aside = set(final.set_aside) - set(final.tileset.ids("bonus"))
    assert laid | set_aside == set(land) and not laid & set_aside
    # At the end only huts and hunters stay on the map.
    assert {f.piece for f in final.followers} <= {"hut", "hunter"}


@given(n=players, seed=seeds)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_view_or_event_leaks_a_pile_tile(n: int, seed: int) -> None:
    line = _game(n, seed)
    viewers = (*line.seats, None)
    events = list(line.setup_events)
    positions = [(line.states[0], list(events))]
    for (_, _, move_events), state in zip(line.moves, line.states[1:]):
        events.extend(move_events)
        positions.append((state, list(events)))
    for index, (state, seen) in enumerate(positions):
        for viewer in viewers:
            hidden = RULES.hidden_from(state, viewer)
            assert find_leaks(RULES.view(state, viewer), hidden) == []
            # The whole history is checked every few positions, the newest events always.
            recent = seen if index % 10 == 0 else seen[-6:]
            redacted = [RULES.redact(e, viewer) for e in recent]
            assert find_leaks(redacted, hidden) == []


@given(n=players, seed=seeds)
@SETTINGS
def test_every_illegal_move_tried_is_refused(n: int, seed: int) -> None:
    line = _game(n, seed)
    chooser = random.Random(seed)
    for ply, state in enumerate(line.states[:-1], start=1):
        if chooser.random() > 0.3:
            continue
        seat = state.current_seat
        legal = RULES.legal_moves(state, seat)
        x, y = chooser.choice(list(state.board))
        candidates: list[dict[str, Any]] = [
            {"place": {"x": x + chooser.randint(-2, 2), "y": y, "rotation": r}} for r in range(4)
        ]
        candidates += [
            {"deploy": {"piece": p, "zone": z}} for p in ("hut", "hunter") for z in (0, 8)
        ]
        candidates += [{"pass": True}, {"place": {"x": 0, "y": 0}}]
        for move in candidates:
            if move in legal:
                continue
            try:
                RULES.decide(state, seat, move, rng_for(line.seed, ply))
            except IllegalMove as refusal:
                assert refusal.code and refusal.message
            else:
                raise AssertionError(f"{move} was accepted but is not listed as legal")
        other = line.seats[(line.seats.index(seat) + 1) % len(line.seats)]
        assert RULES.legal_moves(state, other) == []


def test_a_five_player_game_plays_out_to_its_end() -> None:
    # Speed is measured in bench/, never in a timed test.
    line = _game(5, 12345)
    assert RULES.result(line.final_state) is not None
