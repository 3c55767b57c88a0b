"""The stream phases of a bench client process (``bench.load``): moves over
gamelog's ``Play`` stream, and grpcio's own streaming echo.

Both run on a ``grpc.aio`` event loop in a thread of the client process
(``LoopThread``), opened and connected before the clock starts, so that a
visit only sends and waits:

- ``stream``: the worker's games played over two ``Play`` streams, one per
  seat, each joined to every game of the worker with that seat's token (as
  two players at one table would be). A move goes on its seat's stream with a
  request id; it counts when its ack came back, with the records it stored
  (or after them).
  Every record also reaches the other seat's stream, redacted for it: that
  stream reads it too. A seat's hand is followed from its own stream's
  records (its cards placed, its own draws), so a move needs no extra call.
- ``stream_echo``: one stream to ``bench.stream_echo``, a message sent and
  its echo awaited, again and again: gRPC Python's own per-message cost;
  ``stream_echo_2``: the same with two answers per message, a stream
  move's shape (its ack carrying its record on the mover's stream, and its
  record on the other seat's stream).
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
import uuid
from collections.abc import Coroutine
from typing import Any, TypeVar

from bench.load import ECHO_PAYLOAD, SEATS, TrackedGame

T = TypeVar("T")
ECHO_ANSWERS = {"stream_echo": 1, "stream_echo_2": 2}
"""The echo phases: messages back per message sent."""
STREAM_PLAY_PHASES = {"stream", "stream_floor", "stream_floor_2"}
"""The phases that play over a ``Play`` stream: gamelog's own, and the floor
prototypes' (``bench.stream_floor``, without and with the second seat's
message), each on its own server."""


class LoopThread:
    """An asyncio event loop running in a daemon thread of this process."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)


class EchoStream:
    """One bidirectional stream to ``bench.stream_echo``, used ping-pong."""

    def __init__(self, address: str, answers: int = 1) -> None:
        self.address = address
        self.answers = answers
        self.payload = bytes([answers]) + ECHO_PAYLOAD[1:]
        self.channel: Any = None
        self.call: Any = None

    async def open(self) -> None:
        import grpc

        from bench.stream_echo import METHOD

        self.channel = grpc.aio.insecure_channel(self.address)
        self.call = self.channel.stream_stream(METHOD)()
        await self.ping(1)  # connected before the clock runs

    async def ping(self, calls: int) -> list[float]:
        latencies = []
        for _ in range(calls):
            t0 = time.perf_counter()
            await self.call.write(self.payload)
            for _ in range(self.answers):
                await self.call.read()
            latencies.append(time.perf_counter() - t0)
        return latencies

    async def close(self) -> None:
        await self.call.done_writing()
        await self.channel.close()


class SeatStream:
    """One seat's ``Play`` stream: requests written, answers matched to them
    by request id, the seat's own hand followed from the records."""

    def __init__(
        self, stub: Any, seat: str, games: dict[str, TrackedGame], every_seat: bool = False
    ) -> None:
        self.seat = seat
        self.games = games
        self.every_seat = every_seat
        """Follow every seat's hand from this stream's records: the floor
        prototype (``bench.stream_floor``) sends each seat only its own
        moves' records, whole."""
        self.call = stub.Play()
        self.waiting: dict[str, asyncio.Future[Any]] = {}
        self.reader = asyncio.ensure_future(self._read())

    async def ask(self, request: Any) -> Any:
        """Send a request; its answer (``PlayResponse``: ack or refusal)."""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting[request.request_id] = answer
        await self.call.write(request)
        return await answer

    async def _read(self) -> None:
        async for response in self.call:
            kind = response.WhichOneof("answer")
            if kind == "record":
                self._follow(self.games[response.game_id], response.record.record_json)
            else:
                answer = getattr(response, kind)
                if kind == "ack":  # the records it stored not yet sent come in it
                    for record in answer.records:
                        self._follow(self.games[response.game_id], record.record_json)
                self.waiting.pop(answer.request_id).set_result(response)

    def _follow(self, game: TrackedGame, record_json: str) -> None:
        record = json.loads(record_json)
        if record["kind"] == "finished":
            game.finished = True
        for event in record.get("events", ()):
            kind = event.get("type")
            if kind == "GameEnded":
                game.finished = True
            seat = event.get("seat")
            if seat != self.seat and not (self.every_seat and seat in game.hands):
                continue  # the other seat's stream follows that seat's hand
            if kind == "CardPlaced":
                game.hands[seat].remove(event["card"])
            elif kind == "CardsDrawn" and "cards" in event:
                game.hands[seat].extend(event["cards"])


class StreamPlayer:
    """A client's games over two ``Play`` streams (one per seat)."""

    def __init__(
        self, address: str, games: list[TrackedGame], seed: int, every_seat: bool = False
    ) -> None:
        self.address = address
        self.every_seat = every_seat
        self.games = games
        self.rng = random.Random(seed)
        self.streams: dict[str, SeatStream] = {}
        self.channel: Any = None

    async def open(self) -> None:
        """Open both streams and join every game from its current position."""
        import grpc

        from gamelog.cli.client import MAX_MESSAGE_BYTES
        from gamelog.v1 import gamelog_pb2 as pb
        from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

        self.channel = grpc.aio.insecure_channel(
            self.address, options=[("grpc.max_receive_message_length", MAX_MESSAGE_BYTES)]
        )
        stub = pb_grpc.GameLogStub(self.channel)
        by_id = {game.game_id: game for game in self.games}
        for seat in SEATS:
            stream = SeatStream(stub, seat, by_id, self.every_seat)
            self.streams[seat] = stream
            for game in self.games:
                # From the next record: the hands so far came from GetState.
                join = pb.PlayJoin(token=game.tokens[seat], from_position=game.position + 1)
                answer = await stream.ask(
                    pb.PlayRequest(request_id=uuid.uuid4().hex, game_id=game.game_id, join=join)
                )
                if answer.WhichOneof("answer") != "ack":
                    raise RuntimeError(f"join refused: {answer.refusal}")

    async def play(self, calls: int) -> tuple[list[float], int, int]:
        """Up to ``calls`` moves through the games in turn: (latencies,
        refusals, games finished)."""
        from gamelog.v1 import gamelog_pb2 as pb

        latencies: list[float] = []
        errors = finished = 0
        pending = self.games  # finished games leave it, as in bench.load._play
        while len(latencies) < calls and pending:
            game = pending[0]
            if game.finished:
                pending.pop(0)
                finished += 1
                continue
            seat = SEATS[game.turn]
            move = pb.PlayStreamMove(
                move_json=json.dumps({"card": self.rng.choice(game.hands[seat])}),
                at_position=game.position,
            )
            request = pb.PlayRequest(request_id=uuid.uuid4().hex, game_id=game.game_id, move=move)
            t0 = time.perf_counter()
            answer = await self.streams[seat].ask(request)
            if answer.WhichOneof("answer") != "ack":
                errors += 1
                raise RuntimeError(f"move refused: {answer.refusal}")
            latencies.append(time.perf_counter() - t0)
            game.position = answer.ack.position  # at_position names the last record
            game.turn = (game.turn + 1) % len(SEATS)
        return latencies, errors, finished

    async def close(self) -> None:
        for stream in self.streams.values():
            await stream.call.done_writing()
            await stream.reader
        await self.channel.close()


class WorkerStreams:
    """A client process's streams for its phases, on one loop thread."""

    def __init__(self, loop: LoopThread) -> None:
        self.loop = loop
        self.echo: EchoStream | None = None
        self.player: StreamPlayer | None = None

    @classmethod
    def open(
        cls, address: str, phases: list[str], games: list[TrackedGame], seed: int
    ) -> WorkerStreams:
        streams = cls(LoopThread())
        for phase, answers in ECHO_ANSWERS.items():
            if phase in phases:
                streams.echo = EchoStream(address, answers)
                streams.loop.run(streams.echo.open())
        for phase in STREAM_PLAY_PHASES & set(phases):
            streams.player = StreamPlayer(address, games, seed, every_seat=phase == "stream_floor")
            streams.loop.run(streams.player.open())
        return streams

    def visit(self, phase: str, calls: int) -> tuple[list[float], int, int]:
        """One visit of ``phase``: (latencies, errors, games finished)."""
        if phase in ECHO_ANSWERS and self.echo is not None:
            return self.loop.run(self.echo.ping(calls)), 0, 0
        if phase in STREAM_PLAY_PHASES and self.player is not None:
            return self.loop.run(self.player.play(calls))
        raise ValueError(f"no stream open for phase {phase!r}")

    def close(self) -> None:
        for part in (self.echo, self.player):
            if part is not None:
                self.loop.run(part.close())
        self.loop.stop()
