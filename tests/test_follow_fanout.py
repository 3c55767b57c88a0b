"""The fan-out in one process, without gRPC: one store read per change and one
redaction per record and kind of viewer, however many follow."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from gamelog.games.protocol import ARBITER, Viewer
from gamelog.replay.record import Record
from gamelog.service.app import GameLog
from gamelog.service.fanout import Entry, Fanout, GameFeed


def test_records_are_read_once_and_redacted_once_per_kind_of_viewer(
    app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = app.create_game("three-too-many", ["ann", "ben"], seed=b"fanout")
    game_id = created.game_id
    reads: list[int] = []
    redactions: list[tuple[int, Viewer]] = []
    read = app.records_after
    redact = GameFeed._redact

    def counted_read(gid: Any, from_position: int) -> list[Record]:
        reads.append(from_position)
        return read(gid, from_position)

    def counted_redact(feed: GameFeed, record: Record, viewer: Viewer) -> Record:
        redactions.append((record["position"], viewer))
        return redact(feed, record, viewer)

    monkeypatch.setattr(app, "records_after", counted_read)
    monkeypatch.setattr(GameFeed, "_redact", counted_redact)
    viewers: list[Viewer] = ["ann", "ben", ARBITER, None]
    followers = 10
    moves = 6

    async def scenario() -> dict[Viewer, list[list[Entry]]]:
        fanout = Fanout(app)
        fanout.start()
        app.on_saved(fanout.saved_threadsafe)
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
                game = app.state_at(game_id)
                seat = game.rules.to_act(game.state)[0]
                move = game.rules.legal_moves(game.state, seat)[0]
                token = created.tokens[seat]
                await loop.run_in_executor(None, app.play, game_id, token, move, position)
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
        shown = app.visible_records(game_id, _token(created, viewer))
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
