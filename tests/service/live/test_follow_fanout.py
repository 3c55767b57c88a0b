"""The fan-out in one process, without gRPC: one store read per change and one
redaction per record and kind of viewer, however many follow."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from typing import Any

import pytest

from gamelog.games.protocol import ARBITER, Viewer
from gamelog.replay.record import Record
from gamelog.service.live.fanout import Fanout
from gamelog.service.live.game_feed import Entry, GameFeed
from gamelog.service.usecases.application import GameLog


def test_records_are_read_once_and_redacted_once_per_kind_of_viewer(
    memory_app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = memory_app.games.create_game("three-too-many", ["ann", "ben"], seed=b"fanout")
    game_id = created.game_id
    reads: list[int] = []
    redactions: list[tuple[int, Viewer]] = []
    read = memory_app.following.records_after
    redact = GameFeed._redact

    def counted_read(gid: Any, from_position: int) -> list[Record]:
        reads.append(from_position)
        return read(gid, from_position)

    def counted_redact(feed: GameFeed, record: Record, viewer: Viewer) -> Record:
        redactions.append((record["position"], viewer))
        return redact(feed, record, viewer)

    monkeypatch.setattr(memory_app.following, "records_after", counted_read)
    monkeypatch.setattr(GameFeed, "_redact", counted_redact)
    viewers: list[Viewer] = ["ann", "ben", ARBITER, None]
    followers = 10
    moves = 6

    async def scenario() -> dict[Viewer, list[list[Entry]]]:
        fanout = Fanout(memory_app.following)
        fanout.start()
        memory_app.store.on_saved(fanout.saved_threadsafe)
        received: dict[Viewer, list[list[Entry]]] = {v: [] for v in viewers}

        async def follow(subscription: Any, into: list[Entry]) -> None:
            async for entry in subscription:
                into.append(entry)

        async with contextlib.AsyncExitStack() as stack:
            tasks = []
            for viewer in viewers:
                for _ in range(followers):
                    subscription = await stack.enter_async_context(
                        fanout.subscribe(game_id, viewer, 0)
                    )
                    into: list[Entry] = []
                    received[viewer].append(into)
                    tasks.append(asyncio.create_task(follow(subscription, into)))
            loop = asyncio.get_running_loop()
            for position in range(moves):
                game = memory_app.queries.state_at(game_id)
                seat = game.rules.to_act(game.state)[0]
                move = game.rules.legal_moves(game.state, seat)[0]
                token = created.tokens[seat]
                await loop.run_in_executor(
                    None, memory_app.games.play, game_id, token, move, position
                )
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.2)
            for task in tasks:
                task.cancel()
        assert not fanout.feeds, "the feed goes when its last follower does"
        fanout.close()
        return received

    received = asyncio.run(scenario())
    positions = moves + 1
    assert reads[0] == 0 and len(reads) <= positions, reads
    assert sorted(redactions, key=repr) == sorted(
        ((p, v) for p in range(positions) for v in viewers), key=repr
    )
    for viewer in viewers:
        shown = memory_app.queries.visible_records(game_id, _token(created, viewer))
        for entries in received[viewer]:
            assert [(e.record, e.notation) for e in entries] == [
                (s.record, s.notation) for s in shown
            ]
            # Shared, not copied: every follower holds the same objects.
            assert all(a is b for a, b in zip(entries, received[viewer][0], strict=True))


def _token(created: Any, viewer: Viewer) -> str | None:
    if viewer is None:
        return None
    return str(created.arbiter_token if viewer == ARBITER else created.tokens[viewer])


class _EmptyStore:
    """A store with no records, whose first read may be slow."""

    def __init__(self, read_seconds: float = 0.0) -> None:
        self.read_seconds = read_seconds

    def rules_of(self, game_id: Any) -> Any:
        time.sleep(self.read_seconds)
        return None

    def records_after(self, game_id: Any, from_position: int) -> list[Any]:
        return []


def test_a_follower_still_being_set_up_when_the_server_stops_is_ended() -> None:
    """It was not among the followers yet, so nobody told it, and it waited
    for records for ever."""
    from gamelog.service.live.fanout import FollowInterrupted

    async def scenario() -> FollowInterrupted:
        fanout = Fanout(_EmptyStore(read_seconds=0.3), None, 5.0)  # type: ignore[arg-type]
        fanout.start()

        async def follow() -> None:
            async with fanout.subscribe(uuid.uuid4(), "ann", 0) as subscription:
                async for _ in subscription:
                    pass

        follower = asyncio.create_task(follow())
        await asyncio.sleep(0.1)  # its feed is still reading the store
        fanout.close()
        with pytest.raises(FollowInterrupted) as ended:
            await asyncio.wait_for(follower, 5)
        return ended.value

    ended = asyncio.run(scenario())
    assert (ended.code, ended.from_position) == ("server-stopping", 0)


def test_a_follower_stuck_sending_when_the_server_stops_is_still_cut_off() -> None:
    """A stop ends followers when they next ask for a record; one whose page
    stopped reading never asks, and must still be ended at the stall limit,
    with the stop's reason and where to resume (not at the end of the
    server's grace period, with neither)."""

    async def scenario() -> tuple[bool, Any]:
        fanout = Fanout(_EmptyStore(), None, 0.3)  # type: ignore[arg-type]
        fanout.start()
        dropped: list[Any] = []

        async def follow() -> None:
            async with fanout.subscribe(uuid.uuid4(), "ann", 0) as subscription:
                subscription.taken_at = fanout.clock()  # as when a write began
                try:
                    await asyncio.sleep(100)  # the write that never ends
                finally:
                    dropped.append(subscription.dropped)

        follower = asyncio.create_task(follow())
        await asyncio.sleep(0.05)
        fanout.close()
        done, _ = await asyncio.wait([follower], timeout=3)
        return bool(done), dropped[0] if dropped else None

    ended, reason = asyncio.run(scenario())
    assert ended and reason is not None and reason.code == "server-stopping"


def test_a_record_read_again_after_the_end_is_skipped_and_nothing_is_logged_out_of_line(
    memory_app: GameLog, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A store read that began before the committer offered the last records
    brings them again. Skipped while the game ran, they were logged as "out
    of line" once it had finished: at the end of every game so followed."""
    created = memory_app.games.create_game("three-too-many", ["ann", "ben"], seed=b"again")
    game_id = created.game_id
    game = memory_app.queries.state_at(game_id)
    while not game.is_finished:
        seat = game.rules.to_act(game.state)[0]
        move = game.rules.legal_moves(game.state, seat)[0]
        memory_app.games.play(game_id, created.tokens[seat], move, game.position)
        game = memory_app.queries.state_at(game_id)
    read = memory_app.following.records_after

    def late_read(gid: Any, from_position: int) -> list[Record]:
        return read(gid, max(0, from_position - 2))  # as if begun before the offer

    async def scenario() -> list[Entry]:
        fanout = Fanout(memory_app.following)
        fanout.start()
        async with fanout.subscribe(game_id, "ann", 0) as subscription:
            feed = subscription.feed
            assert feed.finished
            monkeypatch.setattr(memory_app.following, "records_after", late_read)
            feed.poke()
            await feed.settled()
            entries = [entry async for entry in subscription]
        fanout.close()
        return entries

    with caplog.at_level("ERROR", logger="gamelog.service.live.fanout"):
        entries = asyncio.run(scenario())
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    assert [e.position for e in entries] == list(range(game.position + 1))
    assert entries[-1].kind == "finished"


def test_a_follower_holding_an_entry_back_for_its_own_ack_is_not_dropped_as_stalled(
    memory_app: GameLog,
) -> None:
    """A play stream holds a record back while a request of its game is in
    hand (its ack will carry it). However long that takes (a commit waiting
    out a failover), the follower is not stuck sending: it stays; once it
    sends again, the stall clock runs again."""
    created = memory_app.games.create_game("three-too-many", ["ann", "ben"], seed=b"held")

    async def scenario() -> tuple[bool, bool]:
        fanout = Fanout(memory_app.following, stall_seconds=0.05)
        fanout.start()
        async with fanout.subscribe(created.game_id, "ann", 0) as subscription:
            await subscription.__anext__()  # taken: the stall clock runs
            answered: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().call_later(0.3, answered.set_result, None)
            await subscription.held_back(answered)
            kept = subscription.dropped is None
            try:
                await asyncio.sleep(0.3)  # now it is sending, and stuck: cut off
            except asyncio.CancelledError:
                task = asyncio.current_task()
                assert task is not None
                task.uncancel()
            dropped = subscription.dropped is not None
        fanout.close()
        return kept, dropped

    kept, dropped = asyncio.run(scenario())
    assert kept, "dropped while waiting for its own ack"
    assert dropped, "the stall clock must run again once it sends"
