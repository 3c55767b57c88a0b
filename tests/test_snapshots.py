"""Snapshots keep "state at position N" to a bounded fold on long games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gamelog.games.freeform import RULES as FREEFORM
from gamelog.service.app import SNAPSHOT_INTERVAL, GameLog


def test_any_position_of_a_long_game_folds_a_bounded_number_of_events(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "l.db")}
    writer = GameLog(env=env)
    created = writer.create_game("freeform", ["ann", "ben"])
    for position in range(700):
        seat = "ann" if position % 2 == 0 else "ben"
        writer.play(created.game_id, created.tokens[seat], {"n": position}, position)
    writer.close()

    folded = 0
    evolve = FREEFORM.evolve

    def counting_evolve(state, event):  # type: ignore[no-untyped-def]
        nonlocal folded
        folded += 1
        return evolve(state, event)

    monkeypatch.setattr(FREEFORM, "evolve", counting_evolve)
    reader = GameLog(env=env)  # a cold cache: everything comes from the store
    chooser = random.Random(1)
    for position in [0, 1, 63, 64, 65, 699, 700, *chooser.sample(range(701), 20)]:
        folded = 0
        state = reader.state_at(created.game_id, position).state
        assert state.moves == position
        assert folded < SNAPSHOT_INTERVAL, f"position {position} folded {folded} events"
    reader.close()
