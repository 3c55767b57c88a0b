"""A take-back's state is cached beside its record; an edited cache is damage.

A load never folds the states before a take-back: the state it returns to
is stored with the ``takeback`` record (derived, not hashed). If that cache
is edited in the store, the game must not be served as if the rules had
reached it (a hand holding one card twice): every read answers DATA_LOSS,
as other damage does, while the audit still reports where the damage is.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import grpc
import pytest

from gamelog.cli.process import start_server_process
from gamelog.service.model.refusals import DataLoss
from gamelog.service.storage.settings import store_env
from gamelog.service.usecases.answers import CreatedGame
from gamelog.service.usecases.application import GameLog
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

SEATS = ["ann", "ben"]


def _taken_back_then_edited(database: Path) -> CreatedGame:
    """A game whose take-back's cached state is edited: ann's hand gets a
    card twice."""
    app = GameLog(env=store_env(db=str(database)))
    try:
        created = app.games.create_game("three-too-many", SEATS, undo_policy="free")
        hand = app.queries.state_at(created.game_id).state.hands[0]
        app.games.play(created.game_id, created.tokens["ann"], {"card": hand[0]}, 0)
        app.games.take_back(created.game_id, created.arbiter_token, "request", 0, 1)
        assert app.queries.audit(created.game_id).ok
    finally:
        app.close()
    with sqlite3.connect(database) as connection:
        (stored,) = connection.execute(
            "SELECT state FROM stored_events WHERE topic LIKE '%MovesTakenBack'"
        ).fetchone()
        event = json.loads(stored)
        cards = event["restored_state"]["f"]["hands"]["~t"][0]["~t"]
        cards[1] = cards[0]  # one card twice
        connection.execute(
            "UPDATE stored_events SET state = ? WHERE topic LIKE '%MovesTakenBack'",
            (json.dumps(event).encode(),),
        )
    return created


def test_an_edited_take_back_state_is_data_loss_not_a_position(tmp_path: Path) -> None:
    database = tmp_path / "g.sqlite"
    created = _taken_back_then_edited(database)
    app = GameLog(env=store_env(db=str(database)))
    try:
        for read in (
            lambda: app.queries.view(created.game_id, created.tokens["ann"]),
            lambda: app.queries.legal_moves(created.game_id, created.tokens["ann"]),
            lambda: app.games.play(created.game_id, created.tokens["ann"], {"card": 1}, 2),
        ):
            with pytest.raises(DataLoss) as refused:
                read()
            assert refused.value.code == "unreadable-game"
        report = app.queries.audit(created.game_id, created.arbiter_token)
        assert not report.ok and report.first_difference is not None
        assert report.first_difference.position == 2
        assert app.queries.state_at(created.game_id, 1).position == 1  # before it: fine
    finally:
        app.close()


@pytest.mark.e2e
def test_get_state_answers_data_loss_for_an_edited_take_back(tmp_path: Path) -> None:
    database = tmp_path / "g.sqlite"
    created = _taken_back_then_edited(database)
    server = start_server_process(tmp_path, "--db", str(database))
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.GameLogStub(channel)
            with pytest.raises(grpc.RpcError) as refused:
                stub.GetState(
                    pb.GetStateRequest(game_id=str(created.game_id)),
                    metadata=(("authorization", f"Bearer {created.tokens['ann']}"),),
                    timeout=30,
                )
    finally:
        server.stop()
    assert refused.value.code() == grpc.StatusCode.DATA_LOSS
