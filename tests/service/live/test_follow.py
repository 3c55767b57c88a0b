"""Live follow through a real server: what every follower receives, slow
followers, follows from beyond the end, and the tokenless flood of defect 14
(docs/service-decisions.md, "Live follow")."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import grpc
import pytest

from gamelog.cli.client import Client
from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.games import get_rules
from gamelog.games.leaks import find_leaks
from gamelog.replay.fold import state_at
from gamelog.service.rpc.requests import MAX_POSITION
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

from support.follow import Follower, Stream, bearer, error_info, records_of

pytestmark = pytest.mark.e2e

VIEWERS = ("ann", "ben", "arbiter", "spectator")


def _tokens(created: Any) -> dict[str, str | None]:
    return {
        "ann": created.seat_tokens["ann"],
        "ben": created.seat_tokens["ben"],
        "arbiter": created.arbiter_token,
        "spectator": None,
    }


async def _listed(stub: pb_grpc.GameLogStub, game_id: str, token: str | None) -> list[Any]:
    request = pb.ListEventsRequest(game_id=game_id)
    return records_of(await stub.ListEvents(request, metadata=bearer(token)))


def test_every_follower_gets_every_record_as_list_events_shows_it_to_its_viewer(
    sqlite_server: ServerProcess,
) -> None:
    """Three streams per kind of viewer follow a three-too-many game to its end.
    After every move each stream holds exactly what ListEvents showed its viewer
    when the record was delivered: redacted while the game ran, and the
    finished game's record from the end on."""

    async def scenario() -> None:
        async with grpc.aio.insecure_channel(sqlite_server.address) as channel:
            stub = pb_grpc.GameLogStub(channel)
            created = await stub.CreateGame(
                pb.CreateGameRequest(game="three-too-many", seats=["ann", "ben"], seed_hex="0717")
            )
            game_id, tokens = created.game_id, _tokens(created)
            streams = {v: [Stream(game_id, tokens[v]) for _ in range(3)] for v in VIEWERS}
            tasks = [asyncio.create_task(s.run(stub)) for ss in streams.values() for s in ss]
            delivered: dict[str, list[Any]] = {v: [] for v in VIEWERS}
            chooser = random.Random(17)
            position = 0
            while True:
                listed = {v: await _listed(stub, game_id, tokens[v]) for v in VIEWERS}
                for viewer in VIEWERS:
                    # What was delivered earlier stays as it was then.
                    delivered[viewer] += listed[viewer][len(delivered[viewer]) :]
                    for stream in streams[viewer]:
                        await stream.wait_for(position)
                        assert stream.records == delivered[viewer], viewer
                state = await stub.GetState(pb.GetStateRequest(game_id=game_id))
                if state.finished:
                    break
                token = tokens[state.to_act[0]]
                legal = await stub.ListLegalMoves(
                    pb.ListLegalMovesRequest(game_id=game_id), metadata=bearer(token)
                )
                played = await stub.PlayMove(
                    pb.PlayMoveRequest(
                        game_id=game_id,
                        move_json=chooser.choice(list(legal.moves_json)),
                        at_position=state.last_position,
                    ),
                    metadata=bearer(token),
                )
                position = played.position
            await asyncio.wait_for(asyncio.gather(*tasks), 20)
            for stream in (s for ss in streams.values() for s in ss):
                assert stream.code == grpc.StatusCode.OK
                assert stream.records[-1]["kind"] == "finished"
            # Not vacuous: the viewers really saw different things while it ran.
            running = len(delivered["ann"]) - 2
            for one, other in [("ann", "ben"), ("spectator", "arbiter"), ("ann", "arbiter")]:
                assert delivered[one][:running] != delivered[other][:running], (one, other)
            # And at the end the whole record is everyone's.
            assert delivered["spectator"][-1] == delivered["arbiter"][-1]

    asyncio.run(scenario())


def test_a_slow_follower_is_dropped_and_resumes_without_gap_or_duplicate(
    tmp_path: Path,
) -> None:
    """A client that stops reading is dropped once one record has waited
    0.5 s to be sent (--follow-stall); its stream ends RESOURCE_EXHAUSTED
    with from_position, after every record it was sent. Resuming from there
    gives the rest, each record once. A fast follower meanwhile gets every
    move as it is stored."""
    server = start_server_process(tmp_path, "--memory", "--follow-stall", "0.5")
    moves = 30

    async def scenario() -> None:
        # A small flow-control window, so that the stopped reader blocks the
        # server's writes soon (as a real stalled client does, later).
        small_window = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 16384)]
        async with (
            grpc.aio.insecure_channel(server.address) as channel,
            grpc.aio.insecure_channel(server.address, options=small_window) as slow_channel,
        ):
            stub, slow_stub = pb_grpc.GameLogStub(channel), pb_grpc.GameLogStub(slow_channel)
            created = await stub.CreateGame(pb.CreateGameRequest(game="freeform", seats=["ann"]))
            game_id, ann = created.game_id, created.seat_tokens["ann"]
            slow = slow_stub.FollowGame(pb.FollowGameRequest(game_id=game_id), timeout=60)
            first = await slow.read()
            assert first.position == 0
            fast = Stream(game_id)
            fast_task = asyncio.create_task(fast.run(stub))
            for position in range(moves):
                move = json.dumps({"text": f"{position} " + "x" * 30_000})
                await stub.PlayMove(
                    pb.PlayMoveRequest(game_id=game_id, move_json=move, at_position=position),
                    metadata=bearer(ann),
                )
                await fast.wait_for(position + 1, timeout=5)
            await asyncio.sleep(2)  # the slow one has been stalled for long enough
            received = [json.loads(first.record_json)]
            with pytest.raises(grpc.aio.AioRpcError) as dropped:
                while True:
                    message = await slow.read()
                    assert message is not grpc.aio.EOF, "the slow stream was not dropped"
                    received.append(json.loads(message.record_json))
            assert dropped.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            reason, details = error_info(dropped.value)
            assert reason == "follower-too-slow"
            resume_at = int(details["from_position"])
            assert resume_at == len(received) < moves + 1
            resumed = Stream(game_id, from_position=resume_at)
            resumed_task = asyncio.create_task(resumed.run(stub))
            await resumed.wait_for(moves)
            listed = await _listed(stub, game_id, None)
            assert received + resumed.records == listed
            assert fast.records == listed
            for task in (fast_task, resumed_task):
                task.cancel()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_follow_from_beyond_the_end_is_refused(sqlite_server: ServerProcess) -> None:
    """A running game may be followed from its next position (the stream waits
    for it), not further; a finished game up to its last position."""

    async def scenario() -> None:
        async with grpc.aio.insecure_channel(sqlite_server.address) as channel:
            stub = pb_grpc.GameLogStub(channel)
            created = await stub.CreateGame(pb.CreateGameRequest(game="freeform", seats=["ann"]))
            game_id = created.game_id
            ann, arbiter = created.seat_tokens["ann"], created.arbiter_token
            await stub.PlayMove(
                pb.PlayMoveRequest(game_id=game_id, move_json='{"text": "e4"}', at_position=0),
                metadata=bearer(ann),
            )
            for start in (3, 1000, MAX_POSITION):
                beyond = Stream(game_id, ann, from_position=start)
                await asyncio.wait_for(beyond.run(stub), 10)
                assert (beyond.code, beyond.reason) == (
                    grpc.StatusCode.OUT_OF_RANGE,
                    "beyond-the-end",
                )
                assert not beyond.records
            waiting = Stream(game_id, from_position=2)
            waiting_task = asyncio.create_task(waiting.run(stub))
            result = json.dumps({"result": {"scores": {"ann": 1}}})
            await stub.PlayMove(
                pb.PlayMoveRequest(game_id=game_id, move_json=result, at_position=1),
                metadata=bearer(arbiter),
            )
            await asyncio.wait_for(waiting_task, 10)
            assert [r["kind"] for r in waiting.records] == ["move", "finished"]
            assert waiting.code == grpc.StatusCode.OK
            last = waiting.records[-1]["position"]
            tail = Stream(game_id, from_position=last)
            await asyncio.wait_for(tail.run(stub), 10)
            assert [r["kind"] for r in tail.records] == ["finished"]
            after = Stream(game_id, from_position=last + 1)
            await asyncio.wait_for(after.run(stub), 10)
            assert (after.code, after.reason) == (grpc.StatusCode.OUT_OF_RANGE, "beyond-the-end")

    asyncio.run(scenario())


def test_a_tokenless_flood_from_beyond_the_end_holds_no_place(sqlite_server: ServerProcess) -> None:
    """Defect 14: tokenless follows from position 2^40 each held one of the
    server's 48 follow places until the caller gave up, so a seat was refused
    `too-many-followers` for its own game. Now each is refused at once, and
    the seat and the arbiter follow."""

    async def scenario() -> None:
        async with grpc.aio.insecure_channel(sqlite_server.address) as channel:
            stub = pb_grpc.GameLogStub(channel)
            created = await stub.CreateGame(
                pb.CreateGameRequest(game="three-too-many", seats=["ann", "ben"])
            )
            game_id = created.game_id
            flood = [Stream(game_id, from_position=MAX_POSITION) for _ in range(60)]
            flood_tasks = [asyncio.create_task(s.run(stub, timeout=15)) for s in flood]
            await asyncio.sleep(1)
            players = [
                Stream(game_id, created.seat_tokens["ann"]),
                Stream(game_id, created.arbiter_token),
            ]
            player_tasks = [asyncio.create_task(p.run(stub, timeout=15)) for p in players]
            for player in players:
                await asyncio.wait_for(player.started.wait(), 10)
                assert player.records and player.records[0]["kind"] == "created", (
                    player.code,
                    player.reason,
                )
            await asyncio.wait_for(asyncio.gather(*flood_tasks), 10)
            assert {(s.code, s.reason) for s in flood} == {
                (grpc.StatusCode.OUT_OF_RANGE, "beyond-the-end")
            }
            for task in player_tasks:
                task.cancel()

    asyncio.run(scenario())


def test_streams_end_with_where_to_resume_when_the_server_stops(tmp_path: Path) -> None:
    """SIGTERM: every follow stream ends UNAVAILABLE (server-stopping) with the
    position to resume from elsewhere, at once, and the server exits cleanly."""
    server = start_server_process(tmp_path, "--memory")
    streams: list[Stream] = []

    async def follow() -> None:
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = pb_grpc.GameLogStub(channel)
            created = await stub.CreateGame(pb.CreateGameRequest(game="freeform", seats=["ann"]))
            streams.extend(Stream(created.game_id) for _ in range(5))
            tasks = [asyncio.create_task(s.run(stub, timeout=30)) for s in streams]
            # Generous waits: a loaded machine may take seconds to schedule us.
            for stream in streams:
                await asyncio.wait_for(stream.started.wait(), 30)
            loop = asyncio.get_running_loop()
            stopped = loop.run_in_executor(None, server.stop)
            await asyncio.wait_for(asyncio.gather(*tasks), 30)
            assert await stopped == 0

    asyncio.run(follow())
    for stream in streams:
        assert (stream.code, stream.reason) == (grpc.StatusCode.UNAVAILABLE, "server-stopping")
        assert stream.details == {"from_position": "1"}


def test_the_client_resumes_a_stream_dropped_for_falling_behind(tmp_path: Path) -> None:
    """``gamelog follow``'s client, dropped as too slow, opens the stream again
    where the server says it ended: every record once, in order."""
    server = start_server_process(tmp_path, "--memory", "--follow-stall", "0.5")
    moves = 30
    small_window = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 16384)]
    try:
        with Client(server.address) as mover, Client(server.address, None, small_window) as slow:
            created = mover.create("freeform", ["ann"])
            game_id, ann = created.game_id, created.seat_tokens["ann"]
            following = slow.follow_log(game_id, timeout=60)
            received = [next(following)[0]]
            for position in range(moves):
                move = {"text": f"{position} " + "x" * 30_000}
                mover.play(game_id, move, position, ann)
            time.sleep(2)  # the server drops the reader that stopped reading
            for record, _ in following:
                received.append(record)
                if len(received) == moves + 1:
                    break
            following.close()
            assert [record["position"] for record in received] == list(range(moves + 1))
            assert received == mover.records(game_id)
    finally:
        server.stop()


def test_a_follower_sees_every_move_in_order_and_nothing_hidden(
    sqlite_server: ServerProcess,
) -> None:
    with sqlite_server.client() as setup:
        created = setup.create("three-too-many", ["ann", "ben"])
    gid = created.game_id
    follower = Follower(sqlite_server, gid)
    clients = {seat: sqlite_server.client() for seat in ("ann", "ben")}
    chooser = random.Random(4)
    try:
        state = clients["ann"].state(gid)
        while not state.finished:
            seat = state.to_act[0]
            token = created.seat_tokens[seat]
            move = chooser.choice(clients[seat].legal_moves(gid, token))
            clients[seat].play(gid, move, state.last_position, token)
            state = clients[seat].state(gid)
    finally:
        for c in clients.values():
            c.close()
    follower.wait_for_the_end()
    seen = follower.records
    assert [r["position"] for r in seen] == list(range(state.last_position + 1))
    assert seen[-1]["kind"] == "finished"
    # While the game ran, no hidden card reached the follower.
    with sqlite_server.client() as reader:
        full = reader.records(gid, created.arbiter_token)
    rules = get_rules("three-too-many")
    running_part = [r for r in seen if r["kind"] != "finished"]
    assert running_part[1]["move"] is None
    for position in (0, len(running_part) // 2):
        hidden = rules.hidden_from(state_at(rules, full, position), None)
        assert not find_leaks(seen[: position + 1], hidden)
