"""Live follow across processes on PostgreSQL: a move stored by one process
reaches followers on another through LISTEN/NOTIFY, a follower whose
process lost its notification connection catches up from the store and
misses nothing, and a process listens only while someone follows on it
(service/live/notifications.py, service/live/follow.py)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from datetime import datetime

import grpc
import psycopg
import pytest

from gamelog.cli.process import ServerProcess
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

from support.follow import Follower, Stream, bearer, records_of
from support.random_play import GrpcGame, play_random

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]


def _listeners(dsn: str, pid: int) -> list[int]:
    """Backend pids of server process ``pid``'s notification connection."""
    return [backend for backend, _ in _listeners_since(dsn, pid)]


def _listeners_since(dsn: str, pid: int) -> list[tuple[int, datetime]]:
    """The same, with when each connection began."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid, backend_start FROM pg_stat_activity WHERE application_name = %s",
            (f"gamelog-listener-{pid}",),
        ).fetchall()
    return [(row[0], row[1]) for row in rows]


def _database_now(dsn: str) -> datetime:
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SELECT clock_timestamp()").fetchone()
    assert row is not None
    return row[0]  # type: ignore[no-any-return]


def _wait_for_listener(dsn: str, pid: int, timeout: float = 20) -> list[int]:
    deadline = time.monotonic() + timeout
    while not (found := _listeners(dsn, pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert found, "the server has a notification connection"
    return found


async def _play(stub: pb_grpc.GameLogStub, game_id: str, token: str, position: int) -> int:
    move = json.dumps({"text": f"move {position}"})
    played = await stub.PlayMove(
        pb.PlayMoveRequest(game_id=game_id, move_json=move, at_position=position),
        metadata=bearer(token),
    )
    return int(played.position)


def test_moves_reach_followers_on_the_other_process_as_they_are_stored(
    two_postgres_servers: list[ServerProcess], postgres_dsn: str
) -> None:
    """Each move reaches every follower on the other process before the next
    is played. Nothing there polls: only the notification of the move's
    commit can bring it (a catch-up reads the store only when the listening
    connection is (re)made). How fast is bench case g's to measure; the
    bound here is one only a lost notification reaches."""
    writer, reader = two_postgres_servers

    async def scenario() -> None:
        async with (
            grpc.aio.insecure_channel(writer.address) as to_writer,
            grpc.aio.insecure_channel(reader.address) as to_reader,
        ):
            write, read = pb_grpc.GameLogStub(to_writer), pb_grpc.GameLogStub(to_reader)
            created = await write.CreateGame(pb.CreateGameRequest(game="freeform", seats=["ann"]))
            game_id, ann = created.game_id, created.seat_tokens["ann"]
            followers = [Stream(game_id) for _ in range(5)]
            tasks = [asyncio.create_task(f.run(read)) for f in followers]
            for follower in followers:
                await follower.wait_for(0)
            await asyncio.to_thread(_wait_for_listener, postgres_dsn, reader.pid)
            for position in range(10):
                stored = await _play(write, game_id, ann, position)
                for follower in followers:
                    await follower.wait_for(stored, timeout=30)
            listed = records_of(await read.ListEvents(pb.ListEventsRequest(game_id=game_id)))
            assert all(f.records == listed for f in followers)
            for task in tasks:
                task.cancel()

    asyncio.run(scenario())


def test_a_follower_misses_nothing_when_its_listener_connection_is_killed(
    two_postgres_servers: list[ServerProcess], postgres_dsn: str
) -> None:
    """The reader's LISTEN connection is terminated, three moves are stored by
    the other process while it is down (their notifications are lost), and
    the follower still gets every record, in order, once the listener is
    back and has caught up from the store."""
    writer, reader = two_postgres_servers

    async def scenario() -> None:
        async with (
            grpc.aio.insecure_channel(writer.address) as to_writer,
            grpc.aio.insecure_channel(reader.address) as to_reader,
        ):
            write, read = pb_grpc.GameLogStub(to_writer), pb_grpc.GameLogStub(to_reader)
            created = await write.CreateGame(pb.CreateGameRequest(game="freeform", seats=["ann"]))
            game_id, ann = created.game_id, created.seat_tokens["ann"]
            follower = Stream(game_id)
            task = asyncio.create_task(follower.run(read))
            await follower.wait_for(0)
            (listener,) = await asyncio.to_thread(_wait_for_listener, postgres_dsn, reader.pid)
            await _play(write, game_id, ann, 0)
            await follower.wait_for(1)
            with psycopg.connect(postgres_dsn, autocommit=True) as conn:
                assert conn.execute("SELECT pg_terminate_backend(%s)", (listener,)).fetchone()
            while listener in _listeners(postgres_dsn, reader.pid):
                await asyncio.sleep(0.005)
            for position in range(1, 4):
                await _play(write, game_id, ann, position)
            stored = _database_now(postgres_dsn)
            await follower.wait_for(4, timeout=20)
            # Not vacuous: the reader's listener was gone while the three were
            # stored; the one that replaced it connected after.
            ((_, since),) = _listeners_since(postgres_dsn, reader.pid)
            assert since > stored
            # And live again afterwards.
            await _play(write, game_id, ann, 4)
            await follower.wait_for(5, timeout=5)
            listed = records_of(await read.ListEvents(pb.ListEventsRequest(game_id=game_id)))
            assert follower.records == listed
            assert [r["position"] for r in follower.records] == list(range(6))
            task.cancel()

    asyncio.run(scenario())


def test_a_process_nobody_follows_on_does_not_listen(
    two_postgres_servers: list[ServerProcess], postgres_dsn: str
) -> None:
    """Every move of every process is announced to every listening process;
    one with no followers has no use for that and holds no LISTEN
    connection: the first follower opens it."""
    writer, reader = two_postgres_servers
    with writer.client() as client:
        created = client.create("freeform", ["ann"])
        client.play(created.game_id, {"text": "e4"}, 0, created.seat_tokens["ann"])
    assert _listeners(postgres_dsn, reader.pid) == []
    assert _listeners(postgres_dsn, writer.pid) == []

    async def scenario() -> None:
        async with grpc.aio.insecure_channel(reader.address) as to_reader:
            follower = Stream(created.game_id)
            task = asyncio.create_task(follower.run(pb_grpc.GameLogStub(to_reader)))
            await follower.wait_for(1)
            await asyncio.to_thread(_wait_for_listener, postgres_dsn, reader.pid)
            task.cancel()

    asyncio.run(scenario())
    assert _listeners(postgres_dsn, writer.pid) == []


def test_a_follower_on_one_process_sees_moves_stored_by_the_other(
    two_postgres_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_postgres_servers
    with a.client() as on_a:
        created = on_a.create("three-too-many", ["ann", "ben"])
    follower = Follower(a, created.game_id)
    with b.client() as on_b:
        play_random(GrpcGame.of(on_b, created), random.Random(2))
        state = on_b.state(created.game_id)
    follower.wait_for_the_end()
    positions = [r["position"] for r in follower.records]
    assert positions == list(range(state.last_position + 1))
