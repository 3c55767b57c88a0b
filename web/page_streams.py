"""A page's Play stream: its game's records for the page, and its moves.

A page that shows a running game holds one live event stream
(``streaming.follow_events``). Behind it the front end holds one
``gamelog.v1`` Play stream, joined to the game with the page's token: its
records feed the page, and a move the page posts with the same token goes
out on that stream instead of a unary ``PlayMove``. The answer the page gets
is the same either way: the position, whether it was a retry, and the
move's records (kept from the stream as they passed: the stream sends a
move's records before its ack or in it), or the refusal with its reason.

A page with no live stream (a finished game, a page that stopped following)
plays through ``PlayMove``.
"""

from __future__ import annotations

import asyncio
import collections
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import grpc
import grpc.aio

from gamelog.v1 import gamelog_pb2 as pb

RECENT = 64
"""Records a page stream keeps for the answers to its moves."""


class StreamGone(Exception):
    """The page's stream ended before the move went out on it."""


class PageStream:
    """One page's Play stream in one game, seen with one token."""

    def __init__(self, stub: Any, game_id: str, token: str | None, metadata: Any) -> None:
        self.game_id = game_id
        self.token = token
        self.call: Any = stub.Play(metadata=metadata)
        self.recent: collections.deque[dict[str, Any]] = collections.deque(maxlen=RECENT)
        self.answers: dict[str, asyncio.Future[Any]] = {}
        self.writing = asyncio.Lock()
        self.open = True

    async def records(
        self, from_position: int, entry_of: Any, refusal_error: Any
    ) -> AsyncIterator[dict[str, Any]]:
        """The game's records from ``from_position``, each as ``entry_of``
        makes it, until the game ends; answers to moves are handed on as they
        pass. Raises ``refusal_error`` of a refused join."""
        join_id = f"join-{uuid.uuid4().hex[:8]}"
        joined = asyncio.get_running_loop().create_future()
        self.answers[join_id] = joined
        await self._write(
            pb.PlayRequest(
                request_id=join_id,
                game_id=self.game_id,
                join=pb.PlayJoin(token=self.token or "", from_position=from_position),
            )
        )
        finished = False
        try:
            async for response in self.call:
                kind = response.WhichOneof("answer")
                if kind == "record":
                    message = response.record
                    entry = entry_of(json.loads(message.record_json), message.notation)
                    self.recent.append(entry)
                    finished = message.kind == "finished"
                    yield entry
                else:
                    answer = getattr(response, kind)
                    carried = []
                    if kind == "ack":  # a move's records, if not sent before it
                        for message in answer.records:
                            entry = entry_of(json.loads(message.record_json), message.notation)
                            self.recent.append(entry)
                            finished = finished or message.kind == "finished"
                            carried.append(entry)
                    waiting = self.answers.pop(answer.request_id, None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(response)
                    if waiting is joined and kind == "refusal":
                        raise refusal_error(answer)
                    for entry in carried:
                        yield entry
                if finished and not self.answers:
                    # The game is over, and the move that ended it answered.
                    return
        finally:
            self.open = False
            self.call.cancel()
            for waiting in self.answers.values():
                if not waiting.done():
                    waiting.set_exception(StreamGone())

    async def _write(self, request: Any) -> None:
        async with self.writing:
            await self.call.write(request)

    async def play(
        self, move: Any, at: int, request_id: str, seat: str, timeout: float
    ) -> tuple[Any, list[dict[str, Any]]]:
        """The answer (a ``PlayResponse``: ``ack`` or ``refusal``) to a move
        sent on this stream, and its records as the stream carried them.
        ``StreamGone`` if the stream ended before the move went out."""
        if not self.open:
            raise StreamGone()
        request_id = request_id or f"page-{uuid.uuid4().hex}"
        answered = asyncio.get_running_loop().create_future()
        self.answers[request_id] = answered
        request = pb.PlayRequest(
            request_id=request_id,
            game_id=self.game_id,
            move=pb.PlayStreamMove(move_json=json.dumps(move), at_position=at, seat=seat),
        )
        try:
            await self._write(request)
        except (grpc.aio.AioRpcError, grpc.aio.UsageError, asyncio.InvalidStateError):
            self.answers.pop(request_id, None)
            raise StreamGone() from None
        response = await asyncio.wait_for(answered, timeout)
        if response.HasField("refusal"):
            return response, []
        position = response.ack.position
        records = [e for e in self.recent if at < e["position"] <= position]
        return response, records
