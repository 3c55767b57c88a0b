"""Follow places: seats and the arbiter keep theirs under a spectator flood,
and streams hold no thread (service/live/follow_limits.py)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from uuid import UUID

import grpc
import pytest

from gamelog.cli.process import start_server_process
from gamelog.games.protocol import ARBITER
from gamelog.service.live.follow_limits import Admission, FollowLimits, TooManyFollowers
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

from support.follow import Stream, bearer


def _refusal(stream: Stream) -> tuple[grpc.StatusCode | None, str]:
    return stream.code, stream.reason


@pytest.mark.e2e
def test_seats_and_the_arbiter_follow_their_game_under_a_spectator_flood(
    tmp_path: Path,
) -> None:
    """Two threads for calls; 8 spectators may follow one game, 12 in all, 6
    player streams in all, 4 per seat. Spectators fill their places; every
    further spectator is refused, the seats and the arbiter still follow, the
    moves still go through and reach all 20 streams."""
    server = start_server_process(
        tmp_path,
        "--memory",
        "--workers",
        "2",
        "--max-spectators",
        "12",
        "--max-spectators-per-game",
        "8",
        "--max-player-streams",
        "6",
    )

    async def scenario() -> None:
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = pb_grpc.GameLogStub(channel)

            async def create() -> pb.CreateGameResponse:
                request = pb.CreateGameRequest(game="freeform", seats=["ann", "ben"])
                return await stub.CreateGame(request)

            async def opened(streams: list[Stream]) -> list[asyncio.Task[None]]:
                tasks = [asyncio.create_task(s.run(stub, timeout=60)) for s in streams]
                for stream in streams:
                    await asyncio.wait_for(stream.started.wait(), 10)
                return tasks

            final, other = await create(), await create()
            crowd = [Stream(final.game_id) for _ in range(8)]
            crowd += [Stream(other.game_id) for _ in range(4)]
            tasks = await opened(crowd)
            assert all(s.code is None and s.records for s in crowd)
            refused = [Stream(final.game_id), Stream(other.game_id)]
            await opened(refused)
            assert [_refusal(s) for s in refused] == [
                (grpc.StatusCode.RESOURCE_EXHAUSTED, "too-many-spectators")
            ] * 2
            ann, ben = final.seat_tokens["ann"], final.seat_tokens["ben"]
            players = [Stream(final.game_id, ann) for _ in range(4)]
            players += [Stream(final.game_id, ben), Stream(final.game_id, final.arbiter_token)]
            tasks += await opened(players)
            assert all(s.code is None and s.records for s in players)
            fifth = Stream(final.game_id, ann)
            await opened([fifth])
            assert _refusal(fifth) == (
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "too-many-streams-for-seat",
            )
            # Moves and reads go through on two threads with 18 streams open.
            move = json.dumps({"text": "e4"})
            played = await stub.PlayMove(
                pb.PlayMoveRequest(game_id=final.game_id, move_json=move, at_position=0),
                metadata=bearer(ann),
            )
            await stub.GetState(pb.GetStateRequest(game_id=final.game_id))
            for stream in crowd[:8] + players:
                await stream.wait_for(played.position)
            # A spectator who leaves frees a place.
            tasks[0].cancel()
            await asyncio.sleep(0.2)
            again = Stream(final.game_id)
            tasks += await opened([again])
            assert again.code is None and again.records
            for task in tasks:
                task.cancel()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_admission_keeps_the_pools_apart() -> None:
    admission = Admission(
        FollowLimits(spectators=2, spectators_per_game=1, player_streams=2, per_player=1)
    )
    one, two = UUID(int=1), UUID(int=2)
    first = admission.admit(one, None)
    with pytest.raises(TooManyFollowers, match="game"):
        admission.admit(one, None)
    admission.admit(two, None)
    with pytest.raises(TooManyFollowers) as full:
        admission.admit(UUID(int=3), None)
    assert full.value.code == "too-many-spectators"
    admission.admit(one, "ann")
    with pytest.raises(TooManyFollowers) as twice:
        admission.admit(one, "ann")
    assert twice.value.code == "too-many-streams-for-seat"
    admission.admit(one, ARBITER)
    with pytest.raises(TooManyFollowers) as players_full:
        admission.admit(two, "ann")
    assert players_full.value.code == "too-many-followers"
    first.release()
    first.release()  # once only
    assert admission.spectators == 1
    admission.admit(one, None)
