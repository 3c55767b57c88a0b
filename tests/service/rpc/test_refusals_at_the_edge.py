"""What a client sends that the service must refuse cleanly, at the edge.

Malformed protobuf is a malformed request (INVALID_ARGUMENT), whatever the
method's shape. A refusal quoting a client's huge input stays within gRPC's
metadata limit (16 KiB), so the client gets the refusal and its reason, not
RESOURCE_EXHAUSTED "Stream removed".
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gamelog.cli.process import ServerProcess
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc
from gamelog.v1 import tournaments_pb2 as tpb
from gamelog.v1 import tournaments_pb2_grpc as tpb_grpc

pytestmark = pytest.mark.e2e

GARBAGE = b"\xff\xff\xff\xff\xff"
CUT_SHORT = b"\x0a\x05ab"  # field 1 (a string) declared 5 bytes long, 2 follow
NUMBER_AS_STRING = b"\x08\x01"  # field 1 (a string) sent as a varint
"""Protobuf keeps a field of the wrong wire type as an unknown field: the
request parses, without that field, and is refused for what it lacks."""


def reason_of(error: grpc.RpcError) -> str:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    return str(info.reason)


@pytest.mark.parametrize(
    ("payload", "reason"),
    [(GARBAGE, "bad-request"), (CUT_SHORT, "bad-request"), (NUMBER_AS_STRING, None)],
)
@pytest.mark.parametrize(
    ("method", "streaming"),
    [
        ("/gamelog.v1.GameLog/GetState", False),  # a plain call, in the thread pool
        ("/gamelog.v1.GameLog/PlayMove", False),  # a coroutine on the event loop
        ("/gamelog.v1.GameLog/FollowGame", True),  # a stream
        ("/gamelog.v1.Tournaments/GetTournament", False),
    ],
)
def test_bytes_that_are_no_request_are_a_malformed_request(
    sqlite_server: ServerProcess, method: str, streaming: bool, payload: bytes, reason: str | None
) -> None:
    with grpc.insecure_channel(sqlite_server.address) as channel:
        raw: Any = (channel.unary_stream if streaming else channel.unary_unary)(
            method, request_serializer=lambda b: b, response_deserializer=lambda b: b
        )
        with pytest.raises(grpc.RpcError) as refused:
            answer = raw(payload, timeout=30)
            if streaming:
                list(answer)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, refused.value.details()
    if reason is not None:
        assert reason_of(refused.value) == reason


def _refusal(call: Any, request: Any, **kwargs: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as refused:
        call(request, timeout=30, **kwargs)
    return refused.value


def test_a_huge_game_id_is_refused_with_its_reason_and_a_short_message(
    sqlite_server: ServerProcess,
) -> None:
    with grpc.insecure_channel(sqlite_server.address) as channel:
        stub = pb_grpc.GameLogStub(channel)
        refused = _refusal(stub.GetState, pb.GetStateRequest(game_id="z" * 10_000))
    assert refused.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason_of(refused) == "bad-game-id"
    assert len(refused.details().encode()) <= 1024
    assert "10002 characters" in refused.details()  # it says how much was cut


def test_a_huge_seat_name_is_refused_with_its_reason(sqlite_server: ServerProcess) -> None:
    with grpc.insecure_channel(sqlite_server.address) as channel:
        stub = pb_grpc.GameLogStub(channel)
        refused = _refusal(
            stub.CreateGame, pb.CreateGameRequest(game="freeform", seats=["ann", "ü" * 9_000])
        )
    assert refused.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason_of(refused) == "bad-seat-name"
    assert len(refused.details().encode()) <= 1024


def test_a_seating_that_leaves_out_two_thousand_players_is_refused_readably(
    sqlite_server: ServerProcess,
) -> None:
    """A legitimate override of a big field that seats only two players."""
    with grpc.insecure_channel(sqlite_server.address) as channel:
        stub = tpb_grpc.TournamentsStub(channel)
        created = stub.CreateTournament(
            tpb.CreateTournamentRequest(name="Big open", game="freeform", rounds=1)
        )
        director = (("authorization", f"Bearer {created.director_token}"),)
        players = [tpb.PlayerToRegister(name=f"Player number {n:04}") for n in range(2_002)]
        stub.RegisterPlayers(
            tpb.RegisterPlayersRequest(tournament_id=created.tournament_id, players=players),
            metadata=director,
            timeout=120,
        )
        stub.PairRound(
            tpb.PairRoundRequest(tournament_id=created.tournament_id),
            metadata=director,
            timeout=120,
        )
        refused = _refusal(
            stub.OverrideSeating,
            tpb.OverrideSeatingRequest(
                tournament_id=created.tournament_id,
                tables=[tpb.SeatingTable(seats=["player-number-0000", "player-number-0001"])],
                reason="two players only",
            ),
            metadata=director,
        )
    assert reason_of(refused) == "bad-seating"
    assert "not seated" in refused.details() and "more" in refused.details()
    assert len(refused.details().encode()) <= 1024


def test_an_unknown_on_timeout_is_refused_not_stored_as_lose(sqlite_server: ServerProcess) -> None:
    with grpc.insecure_channel(sqlite_server.address) as channel:
        stub = tpb_grpc.TournamentsStub(channel)
        for time_control in ("", "300+5"):
            refused = _refusal(
                stub.CreateTournament,
                tpb.CreateTournamentRequest(
                    name="Blitz",
                    game="three-too-many",
                    rounds=1,
                    time_control=time_control,
                    on_timeout="forfeit-everything",
                ),
            )
            assert refused.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert reason_of(refused) == "bad-on-timeout"


def test_a_round_before_the_first_is_a_malformed_request(sqlite_server: ServerProcess) -> None:
    with grpc.insecure_channel(sqlite_server.address) as channel:
        stub = tpb_grpc.TournamentsStub(channel)
        created = stub.CreateTournament(
            tpb.CreateTournamentRequest(name="Late", game="freeform", rounds=2)
        )
        director = (("authorization", f"Bearer {created.director_token}"),)
        for first_round in (-1, 0):
            refused = _refusal(
                stub.RegisterPlayers,
                tpb.RegisterPlayersRequest(
                    tournament_id=created.tournament_id,
                    players=[tpb.PlayerToRegister(name="Ann")],
                    first_round=first_round,
                ),
                metadata=director,
            )
            assert refused.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert reason_of(refused) == "bad-round"
