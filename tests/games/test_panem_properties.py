"""Panem property tests over random legal games of 2 to 4 players, trades included.

Replay gives the live state; nothing a seat or a spectator is sent (views,
redacted events) holds a card hidden from it (``hidden_from``: other hands,
face-down Hob cards it never looked at, sealed tributes before the reveal);
every refused move raises IllegalMove with a reason.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.games.leaks import find_leaks
from gamelog.games.panem import RULES
from gamelog.games.panem.state import TRIBUTE, PanemState
from gamelog.games.playout import PlayedLine, play_out, replay
from gamelog.games.protocol import IllegalMove, Move, rng_for

SEATS = ("ann", "ben", "cat", "dan")
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def trading_chooser(r: random.Random, moves: list[Move]) -> Move:
    """Uniform, but accept a proposal more often than not, so trades happen."""
    accepts = [m for m in moves if "accept" in m]
    if accepts and r.random() < 0.7:
        return r.choice(accepts)
    return r.choice(moves)


def random_line(n: int, seed: int) -> PlayedLine:
    return play_out(RULES, SEATS[:n], seed, choose=trading_chooser)


games = st.tuples(st.sampled_from([2, 3, 4]), st.integers(min_value=0, max_value=2**32))


@SETTINGS
@given(game=games)
def test_replay_equals_live_state(game: tuple[int, int]) -> None:
    n, seed = game
    line = random_line(n, seed)
    assert RULES.result(line.final_state) is not None
    assert replay(RULES, line) == line.states
    kinds = {e["type"] for _, _, events in line.moves for e in events}
    assert {"TributesRevealed", "LotDrawn", "GameEnded", "TradingDone"} <= kinds


def sealed_cards(state: PanemState, viewer: str | None) -> set[str]:
    return {c for seat, cards in state.sealed.items() if seat != viewer for c in cards}


@SETTINGS
@given(game=games)
def test_no_view_or_event_leaks_hidden_cards(game: tuple[int, int]) -> None:
    n, seed = game
    line = random_line(n, seed)
    viewers: list[str | None] = [*line.seats, None]
    sent: dict[str | None, list[dict[str, Any]]] = {
        v: [RULES.redact(e, v) for e in line.setup_events] for v in viewers
    }
    steps = [(None, line.states[0], line.setup_events)]
    steps += [
        (seat, after, events) for (seat, _, events), after in zip(line.moves, line.states[1:])
    ]
    for index, (_, state, events) in enumerate(steps):
        check_all = index % 40 == 0 or index == len(steps) - 1 or state.phase == TRIBUTE
        for viewer in viewers:
            hidden = RULES.hidden_from(state, viewer)
            redacted = [RULES.redact(e, viewer) for e in events]
            if index:
                sent[viewer].extend(redacted)
            view = RULES.view(state, viewer)
            assert find_leaks(view, hidden) == [], (index, viewer)
            assert find_leaks(redacted, hidden) == [], (index, viewer)
            if check_all:
                assert find_leaks(sent[viewer], hidden) == [], (index, viewer)
            # Other hands are never shown before the end, whatever was seen.
            if state.phase != "over":
                assert set(view["hands"]) <= {viewer}
            # Hob cards never looked at are hidden.
            for cards in state.hob.values():
                unseen = cards - state.seen.get(viewer or "#public", frozenset())
                assert unseen - state.seen["#public"] <= hidden
            # A sealed tribute shows nowhere for anybody else before the reveal.
            secret = sealed_cards(state, viewer)
            if secret:
                tribute_view = view["tribute"]
                assert "choices" not in tribute_view
                assert not set(tribute_view.get("mine", [])) & secret
                for event in sent[viewer]:
                    if event["type"] == "TributeSealed" and event["seat"] != viewer:
                        assert "cards" not in event


JUNK: list[Any] = [
    {},
    {"go": "moon"},
    {"go": 3},
    {"skip": False},
    {"act": True, "skip": True},
    {"keep": "food-1-01"},
    {"exchange": [["nope", "nada"]]},
    {"exchange": "all"},
    {"swap_with": "nobody"},
    {"take_advantage": True},
    {"tribute": ["nope"]},
    {"tribute": "food"},
    {"discard": []},
    {"discard": ["nope"]},
    {"propose": {"to": "nobody", "give": [], "ask": []}},
    {"propose": "x"},
    {"accept": 999},
    {"decline": 999},
    {"withdraw": 999},
    {"done": False},
    [],
    "skip",
]


@SETTINGS
@given(game=games, probe=st.integers(min_value=0, max_value=2**32))
def test_refused_moves_raise_illegal_move_with_a_reason(game: tuple[int, int], probe: int) -> None:
    n, seed = game
    line = random_line(n, seed)
    r = random.Random(probe)
    positions = r.sample(range(len(line.states)), min(25, len(line.states)))
    for index in positions:
        state = line.states[index]
        actors = RULES.to_act(state)
        rng = rng_for(line.seed, index + 1)
        candidates: list[tuple[str, Any]] = [(r.choice(line.seats), m) for m in JUNK]
        idle = [s for s in line.seats if s not in actors]
        for seat in idle:
            candidates.append((seat, {"skip": True}))
            candidates.append((seat, {"done": True}))
        candidates.append(("#arbiter", {"skip": True}))
        for seat in actors:
            for move in RULES.legal_moves(state, seat)[:3]:
                for other in idle:
                    candidates.append((other, move))
        listed = {seat: RULES.legal_moves(state, seat) for seat in actors}
        for seat, move in candidates:
            legal = move in listed.get(seat, [])
            try:
                RULES.decide(state, seat, move, rng)
            except IllegalMove as refusal:
                assert refusal.code and refusal.message, (seat, move)
                assert not legal, (seat, move, refusal)
            else:
                assert seat in actors, (seat, move)
        # Every listed legal move is accepted.
        for seat in actors:
            for move in listed[seat][:5]:
                RULES.decide(state, seat, move, rng)
