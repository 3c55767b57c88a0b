"""Snapshots keep "state at position N" to a bounded fold on long games."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.application import project_aggregate

from gamelog.games.freeform import RULES as FREEFORM
from gamelog.service.model.snapshots import GameSnapshot
from gamelog.service.storage.settings import SNAPSHOT_INTERVAL
from gamelog.service.usecases.application import GameLog


def test_any_position_of_a_long_game_folds_a_bounded_number_of_events(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "l.db")}
    writer = GameLog(env=env)
    created = writer.games.create_game("freeform", ["ann", "ben"])
    for position in range(700):
        seat = "ann" if position % 2 == 0 else "ben"
        writer.games.play(created.game_id, created.tokens[seat], {"n": position}, position)
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
        state = reader.queries.state_at(created.game_id, position).state
        assert state.moves == position
        assert folded < SNAPSHOT_INTERVAL, f"position {position} folded {folded} events"
    reader.close()


def _play_freeform(app: GameLog, game_id: UUID, tokens: dict[str, str], last_version: int) -> None:
    """Moves by ann and ben (with request ids) until the game stands at ``last_version``."""
    while (position := app.queries.state_at(game_id).position) + 1 < last_version:
        seat = "ann" if position % 2 == 0 else "ben"
        app.games.play(game_id, tokens[seat], {"n": position}, position, request_id=f"r{position}")


@pytest.mark.parametrize(
    "result_version",
    [
        3 * SNAPSHOT_INTERVAL - 1,  # the end is the snapshot's event
        3 * SNAPSHOT_INTERVAL,  # the result's move is; the end follows in the same save
    ],
)
def test_a_snapshot_holds_what_the_store_gives_back(tmp_path: Path, result_version: int) -> None:
    """Snapshots at a pending take-back request, after a take-back, and at the
    end equal the game folded from its stored events alone."""
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "s.db")}
    app = GameLog(env=env)
    created = app.games.create_game("freeform", ["ann", "ben"], undo_policy="consent")
    game_id, tokens = created.game_id, created.tokens
    _play_freeform(app, game_id, tokens, SNAPSHOT_INTERVAL - 1)
    # The request is the snapshot's event; the answer and the take-back follow.
    app.games.take_back(game_id, tokens["ann"], "request", 10, SNAPSHOT_INTERVAL - 2)
    app.games.take_back(game_id, tokens["ben"], "approve", 0, SNAPSHOT_INTERVAL - 1)
    _play_freeform(app, game_id, tokens, result_version - 1)
    result = {"result": {"scores": {"ann": 1, "ben": 0}}}
    app.games.play(game_id, created.arbiter_token, result, result_version - 2)
    assert app.queries.state_at(game_id).is_finished
    app.close()

    reader = GameLog(env=env)
    assert reader.store.snapshots is not None
    snapshots = list(reader.store.snapshots.get(game_id))
    versions = [snapshot.originator_version for snapshot in snapshots]
    assert versions == [SNAPSHOT_INTERVAL, 2 * SNAPSHOT_INTERVAL, 3 * SNAPSHOT_INTERVAL]
    for snapshot in snapshots:
        stored = reader.store.events.get(game_id, lte=snapshot.originator_version)
        folded = project_aggregate(None, stored)
        assert snapshot.state == GameSnapshot.take(folded).state, snapshot.originator_version
    assert snapshots[0].state["line"]["pending"] is not None
    ended_on_the_snapshot = result_version == 3 * SNAPSHOT_INTERVAL - 1
    assert (snapshots[-1].state["result"] is not None) == ended_on_the_snapshot
    reader.close()


def test_a_move_due_for_a_snapshot_reads_nothing_back_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "r.db")}
    app = GameLog(env=env)
    created = app.games.create_game("freeform", ["ann", "ben"])
    _play_freeform(app, created.game_id, created.tokens, SNAPSHOT_INTERVAL - 1)
    reads: list[Any] = []
    get = app.store.repository.get

    def counting_get(*args: Any, **kwargs: Any) -> Any:
        reads.append(args)
        return get(*args, **kwargs)

    monkeypatch.setattr(app.store.repository, "get", counting_get)
    position = SNAPSHOT_INTERVAL - 2
    app.games.play(created.game_id, created.tokens["ann"], {"n": position}, position)
    assert app.store.snapshots is not None
    assert [s.originator_version for s in app.store.snapshots.get(created.game_id)] == [
        SNAPSHOT_INTERVAL
    ]
    assert reads == [], "the game in hand is snapshotted as it is"
    app.close()


def test_a_failed_snapshot_does_not_fail_the_move_it_follows(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The move is committed before its snapshot is written: if the snapshot
    write fails, the move is still acknowledged, stored once, and the game
    plays on (its state then comes from the events)."""
    app = GameLog()
    created = app.games.create_game("freeform", ["ann", "ben"])
    assert app.store.snapshots is not None

    def broken_put(*args: Any, **kwargs: Any) -> None:
        raise OSError("snapshot store unavailable")

    monkeypatch.setattr(app.store.snapshots, "put", broken_put)
    for position in range(SNAPSHOT_INTERVAL + 2):
        played = app.games.play(created.game_id, created.tokens["ann"], {"n": position}, position)
        assert played.position == position + 1
    moves = [r["move"]["n"] for r in app.store.records(created.game_id)[1:]]
    assert moves == list(range(SNAPSHOT_INTERVAL + 2))
    assert "snapshot of game" in caplog.text
    assert app.queries.audit(created.game_id).ok
