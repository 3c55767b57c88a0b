"""Following games in tests: many streams at once on one event loop
(``Stream``, grpc.aio), or one spectator in a thread of its own (``Follower``)."""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.rpc import error_details_pb2, status_pb2

from gamelog.cli.process import ServerProcess
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc


def bearer(token: str | None) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),) if token else ()


def error_info(error: grpc.aio.AioRpcError) -> tuple[str, dict[str, str]]:
    """The ErrorInfo reason and metadata of a failed aio call."""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return info.reason, dict(info.metadata)
    return "", {}


@dataclass
class Stream:
    """One follow stream's records (as JSON objects) and how it ended."""

    game_id: str
    token: str | None = None
    from_position: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)
    code: grpc.StatusCode | None = None
    reason: str = ""
    details: dict[str, str] = field(default_factory=dict)
    started: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def last_position(self) -> int:
        return self.records[-1]["position"] if self.records else self.from_position - 1

    async def run(self, stub: pb_grpc.GameLogStub, timeout: float = 60) -> None:
        call = stub.FollowGame(
            pb.FollowGameRequest(game_id=self.game_id, from_position=self.from_position),
            metadata=bearer(self.token),
            timeout=timeout,
        )
        try:
            async for message in call:
                self.records.append(json.loads(message.record_json))
                self.started.set()
            self.code = grpc.StatusCode.OK
        except grpc.aio.AioRpcError as error:
            self.code = error.code()
            self.reason, self.details = error_info(error)
        finally:
            self.started.set()

    async def wait_for(self, position: int, timeout: float = 20) -> None:
        async def reached() -> None:
            while self.last_position < position and self.code is None:
                await asyncio.sleep(0.005)

        await asyncio.wait_for(reached(), timeout)
        assert self.last_position >= position, (self.code, self.reason, self.last_position)


def records_of(response: Any) -> list[dict[str, Any]]:
    return [json.loads(r.record_json) for r in response.records]


class Follower:
    """A spectator following a game from position 0 in a thread of its own."""

    def __init__(self, server: ServerProcess, game_id: str, timeout: float = 120) -> None:
        self.records: list[dict[str, Any]] = []
        self._started = threading.Event()

        def follow() -> None:
            with server.client() as watcher:
                for record in watcher.follow(game_id, None, 0, timeout=timeout):
                    self.records.append(record)
                    self._started.set()

        self._thread = threading.Thread(target=follow)
        self._thread.start()
        assert self._started.wait(10), "the stream delivers the creation at once"

    def wait_for_the_end(self, timeout: float = 60) -> None:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the stream ends when the game ends"
