"""A Play stream from Python, one request answered at a time.

``PlayStream`` opens ``GameLog.Play`` on a client's channel, sends each
request, and reads the stream until that request's answer, keeping every
record of every joined game it reads on the way, as record answers or in
acks (``records``):

    with PlayStream(client) as stream:
        answer = stream.join(game_id, token)            # the records so far, then the ack
        answer = stream.move(game_id, {"card": 42}, at_position=answer.ack.position)
        answer.ack.position                             # its records are in stream.records

A refused request answers with ``answer.refusal`` (the unary call's code,
reason and message) and the stream goes on. The stream is read by whoever
asks, so another seat's moves wait in the transport until the next request
or ``until``.
"""

from __future__ import annotations

import itertools
import json
import queue
import uuid
from collections.abc import Iterator
from typing import Any

import grpc

from gamelog.cli.client import ApiError, Client, api_error, bearer
from gamelog.v1 import gamelog_pb2 as pb

_END = object()


class PlayStream:
    def __init__(self, client: Client, token: str | None = None) -> None:
        self._outbox: queue.Queue[Any] = queue.Queue()
        self._ids = itertools.count(1)
        self._prefix = uuid.uuid4().hex[:12]
        """Request ids are kept per game for all its seats: each stream's its own."""
        self.records: dict[str, list[Any]] = {}
        """Each joined game's records as read, position by position (JSON)."""
        self.notation: dict[str, list[str]] = {}
        self._forgotten: set[str] = set()
        self._call: Any = client.stub.Play(
            iter(self._outbox.get, _END), metadata=bearer(token), wait_for_ready=True
        )
        self._answers: Iterator[Any] = iter(self._call)

    def __enter__(self) -> PlayStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()

    # -- requests --------------------------------------------------------------------

    def join(
        self, game_id: str, token: str | None = None, from_position: int = 0, request_id: str = ""
    ) -> Any:
        self.records.setdefault(game_id, [])
        self.notation.setdefault(game_id, [])
        join = pb.PlayJoin(token=token or "", from_position=from_position)
        return self.ask(pb.PlayRequest(request_id=request_id, game_id=game_id, join=join))

    def move(
        self, game_id: str, move: Any, at_position: int, request_id: str = "", seat: str = ""
    ) -> Any:
        played = pb.PlayStreamMove(move_json=json.dumps(move), at_position=at_position, seat=seat)
        return self.ask(pb.PlayRequest(request_id=request_id, game_id=game_id, move=played))

    def take_back(
        self, game_id: str, action: str, to_position: int, at_position: int, request_id: str = ""
    ) -> Any:
        asked = pb.PlayStreamTakeBack(
            action=action, to_position=to_position, at_position=at_position
        )
        return self.ask(pb.PlayRequest(request_id=request_id, game_id=game_id, take_back=asked))

    def ask(self, request: Any) -> Any:
        """Send ``request`` (given a request id if it has none) and read until
        its answer: a ``PlayResponse`` with its ``ack`` or its ``refusal``."""
        if not request.request_id:
            request.request_id = f"{self._prefix}-{next(self._ids)}"
        self.send(request)
        for response in self:
            kind = response.WhichOneof("answer")
            if kind != "record" and getattr(response, kind).request_id == request.request_id:
                return response
        raise EOFError("the play stream ended before its answer")

    def send(self, request: Any) -> None:
        """Send without waiting for the answer (read it with ``ask``'s loop, or iterate)."""
        self._outbox.put(request)

    def until(self, game_id: str, position: int) -> list[Any]:
        """Read until the record at ``position`` of ``game_id`` has come."""
        records = self.records[game_id]
        if not records or records[-1]["position"] < position:
            for _ in self:
                if records and records[-1]["position"] >= position:
                    break
        return records

    # -- answers -----------------------------------------------------------------------

    def __iter__(self) -> Iterator[Any]:
        """Every answer, records kept as they pass."""
        try:
            for response in self._answers:
                kind = response.WhichOneof("answer")
                if kind == "record":
                    self._keep(response.game_id, response.record)
                elif kind == "ack":
                    for record in response.ack.records:
                        self._keep(response.game_id, record)
                yield response
        except grpc.RpcError as error:
            raise api_error(error) from None

    def _keep(self, game_id: str, record: Any) -> None:
        if game_id in self._forgotten:
            return  # read after the client was done with it
        self.records.setdefault(game_id, []).append(json.loads(record.record_json))
        self.notation.setdefault(game_id, []).append(record.notation)

    def forget(self, game_id: str) -> None:
        """Drop what was kept of a game this client is done with, and keep
        nothing more of it (its last records may still be on their way)."""
        self._forgotten.add(game_id)
        self.records.pop(game_id, None)
        self.notation.pop(game_id, None)

    def close(self) -> None:
        """Say that no more requests come; the server ends the stream once all are answered."""
        self._outbox.put(_END)

    def cancel(self) -> None:
        self._outbox.put(_END)
        self._call.cancel()


def refusal_error(refusal: Any) -> ApiError:
    """A stream's refusal as the unary call's error would be."""
    return ApiError(refusal.code, refusal.reason, refusal.message, dict(refusal.metadata))
