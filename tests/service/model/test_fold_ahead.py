"""A move's state comes from the rules' own fold only where it is the replay's.

Rules that fold while deciding (``FoldsWhileDeciding``) hand the state they
reached to the service, which keeps it instead of folding the same events
again. The service may keep it only when the store gives back the very
events decided; otherwise it folds what was stored, so the live state is
always what a replay from the store reaches.
"""

from __future__ import annotations

from typing import Any

import pytest

from gamelog.games import get_rules
from gamelog.replay.fold import fold
from gamelog.service.usecases.application import GameLog

SEATS = ["ann", "ben"]
RULES = get_rules("three-too-many")
RULES_CLASS = type(RULES)


def _play_all(app: GameLog) -> tuple[Any, Any]:
    """One whole game; its live state and the state a replay of its records reaches."""
    created = app.games.create_game("three-too-many", SEATS, seed=b"fold-ahead")
    for _ in range(200):  # a whole game is about forty moves
        game = app.queries.state_at(created.game_id)
        to_act = game.rules.to_act(game.state)
        if not to_act:
            break
        move = game.rules.legal_moves(game.state, to_act[0])[0]
        app.games.play(created.game_id, created.tokens[to_act[0]], move, game.position)
    live = app.queries.state_at(created.game_id).state
    replayed = list(fold(RULES, app.store.records(created.game_id)))[-1][1]
    return live, replayed


def test_a_move_keeps_the_state_the_rules_folded(
    memory_app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    handed: list[Any] = []
    real = RULES_CLASS.decide_and_fold

    def handing(self: Any, *args: Any) -> Any:
        events, after = real(self, *args)
        handed.append(after)
        return events, after

    monkeypatch.setattr(RULES_CLASS, "decide_and_fold", handing)
    live, replayed = _play_all(memory_app)
    assert live == replayed
    assert live is handed[-1]  # not folded again


def test_events_the_store_gives_back_otherwise_are_folded_again(
    memory_app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = RULES_CLASS.decide_and_fold

    def tuples_and_a_wrong_state(self: Any, state: Any, *args: Any) -> Any:
        events, _ = real(self, state, *args)
        # A tuple comes back from the store as a list: not the events decided.
        events = [{**event, "note": ("kept",)} for event in events]
        return events, state  # as if nothing had happened

    monkeypatch.setattr(RULES_CLASS, "decide_and_fold", tuples_and_a_wrong_state)
    live, replayed = _play_all(memory_app)
    assert live == replayed
