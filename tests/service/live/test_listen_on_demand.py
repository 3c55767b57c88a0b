"""The PostgreSQL listener runs only while this process has followers
(service/live/follow.py), here with a stand-in for the listener."""

from __future__ import annotations

import asyncio
from typing import Any

from gamelog.service.live.follow import LiveFollow
from gamelog.service.usecases.application import GameLog


class FakeListener:
    def __init__(self) -> None:
        self.running = False
        self.starts = 0
        self.cancels = 0

    def start(self) -> None:
        self.running = True
        self.starts += 1

    def cancel(self) -> None:
        self.running = False
        self.cancels += 1

    async def stop(self) -> None:
        self.running = False


def test_the_listener_starts_with_the_first_follower_and_lingers_after_the_last() -> None:
    app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    created = app.games.create_game("freeform", ["ann"])

    async def scenario() -> None:
        live = LiveFollow(app, linger_seconds=0.2)
        await live.start()
        listener: Any = FakeListener()
        live.listener = listener
        assert not listener.running
        async with live.follow(created.game_id, None, 0):
            assert listener.running
            async with live.follow(created.game_id, None, 0):
                pass
            await asyncio.sleep(0.3)
            assert listener.running  # one follower is still there
        assert listener.running  # lingers a while
        async with live.follow(created.game_id, None, 0):
            await asyncio.sleep(0.3)  # came back in time: the same listener
        assert (listener.starts, listener.cancels) == (1, 0)
        await asyncio.sleep(0.3)
        assert not listener.running
        assert listener.cancels == 1
        async with live.follow(created.game_id, None, 0):
            assert listener.running
        assert listener.starts == 2
        await live.stop()
        live.close()

    try:
        asyncio.run(scenario())
    finally:
        app.close()
