"""The arbiter plays a seat's move on its behalf (a player who left the table).

The move is decided by the rules as the seat's own would be, and its record
says who played it (``by_arbiter``): the notation, the audit and record files
all carry that. Nobody but the arbiter may move for another seat.
"""

from __future__ import annotations

import json

import grpc
import pytest

from gamelog.cli.process import ServerProcess
from gamelog.service.model.refusals import PermissionDenied, Refused
from gamelog.service.usecases.application import GameLog
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc


def test_the_arbiter_plays_a_seats_move_and_the_record_says_so(memory_app: GameLog) -> None:
    created = memory_app.games.create_game("three-too-many", ["ann", "ben"], undo_policy="consent")
    card = memory_app.queries.state_at(created.game_id).state.hands[0][0]
    played = memory_app.games.play(
        created.game_id, created.arbiter_token, {"card": card}, 0, as_seat="ann"
    )
    (record,) = [r for r in played.records if r["kind"] == "move"]
    assert record["seat"] == "ann" and record["by_arbiter"] is True
    assert played.shown[0].notation.endswith("(by the arbiter)")
    assert memory_app.queries.state_at(created.game_id).position == 1
    assert memory_app.queries.audit(created.game_id, created.arbiter_token).ok
    exported = memory_app.record_files.export(created.game_id, created.arbiter_token)
    imported = memory_app.record_files.import_record_file(json.loads(json.dumps(exported)))
    assert memory_app.queries.audit(imported.games[0].game_id).ok


def test_only_the_arbiter_moves_for_another_seat(memory_app: GameLog) -> None:
    created = memory_app.games.create_game("three-too-many", ["ann", "ben"])
    card = memory_app.queries.state_at(created.game_id).state.hands[1][0]
    with pytest.raises(PermissionDenied) as refused:
        memory_app.games.play(
            created.game_id, created.tokens["ann"], {"card": card}, 0, as_seat="ben"
        )
    assert refused.value.code == "arbiter-only"
    with pytest.raises(Refused) as refused_seat:
        memory_app.games.play(created.game_id, created.arbiter_token, {"card": 1}, 0, as_seat="cy")
    assert refused_seat.value.code == "not-a-seat"
    # A seat naming itself is just its own move.
    mine = memory_app.queries.state_at(created.game_id).state.hands[0][0]
    played = memory_app.games.play(
        created.game_id, created.tokens["ann"], {"card": mine}, 0, as_seat="ann"
    )
    assert "by_arbiter" not in played.records[0]


@pytest.mark.e2e
def test_over_grpc_the_arbiter_names_the_seat_and_get_state_says_the_undo_policy(
    sqlite_server: ServerProcess,
) -> None:
    with grpc.insecure_channel(sqlite_server.address) as channel:
        stub = pb_grpc.GameLogStub(channel)
        created = stub.CreateGame(
            pb.CreateGameRequest(game="freeform", seats=["ann", "ben"], undo_policy="arbiter")
        )
        arbiter = (("authorization", f"Bearer {created.arbiter_token}"),)
        played = stub.PlayMove(
            pb.PlayMoveRequest(
                game_id=created.game_id,
                move_json=json.dumps({"say": "e4"}),
                at_position=0,
                seat="ben",
            ),
            metadata=arbiter,
        )
        assert json.loads(played.records[0].record_json)["by_arbiter"] is True
        state = stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=arbiter)
        assert state.undo_policy == "arbiter"
