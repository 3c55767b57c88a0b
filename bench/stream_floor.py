"""The floor under any play stream on this stack: a prototype ``Play`` that
does nothing but the durable move.

Case a's peer rows (``bench.peers``) run it beside the real ``Play`` stream,
to show with a measurement (not an estimate) what gRPC Python and the durable
move cost together before any of the stream's own work. It is ``gamelog
serve`` on a SQLite file, the same application and the same process set-up,
with one method replaced: its ``Play`` reads one request at a time and
answers each move with one message, the move's ack carrying the move's
records as stored. What it leaves out, and the real stream does:

- the second seat's message (every record on every joined seat's stream);
- redaction (the records go out whole, which no real stream may do: a
  prototype for the bench only, never served to a player);
- notation, and the per-viewer JSON of the fan-out;
- the session's bookkeeping (requests of several games side by side, in
  order per game; resuming; refusals as data).

It keeps what a move cannot do without: the token's seat, the rules'
decision, the hash chain, the position check, the request id, and the
commit with fsync in the group commit (``PlayOnLoop.play``, as the stream and
PlayMove call it).

    python -m bench.stream_floor --db FILE   # prints "serving on 127.0.0.1:PORT"
    python -m bench.stream_floor --second --db FILE

With ``--second`` (phase ``stream_floor_2``) each move's records also go,
whole, to the game's other joined streams, one message each: the floor with
the second seat's message, which every real play stream must send. The gap
between the two floors is what that message costs; the gap between the
second floor and the real stream is what the stream's own work costs
(redaction, notation, the session's ordering and resuming).

The client is the stream's (``bench.stream_load``), reading every seat's hand
from the whole records (phase ``stream_floor``).
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any
from uuid import UUID

from gamelog.replay.record import compact_json
from gamelog.service.rpc.games import GameLogServicer


async def floor_play(self: GameLogServicer, requests: Any, context: Any) -> None:
    """One request at a time: a join remembers the token, a move is played
    and acknowledged with its records (and, with ``--second``, its records
    written to the game's other joined streams, as the real stream does)."""
    from gamelog.v1 import gamelog_pb2 as pb

    tokens: dict[str, str] = {}
    writing = asyncio.Lock()  # the other seats' moves write here too
    try:
        async for message in requests:
            game_id = message.game_id
            action = message.WhichOneof("action")
            if action == "join":
                tokens[game_id] = message.join.token
                JOINED.setdefault(game_id, []).append((context, writing))
                ack = pb.PlayAck(request_id=message.request_id, position=message.join.from_position)
                records = []
            elif action == "move":
                played = await self.app.play_on_loop.play(
                    UUID(game_id),
                    tokens[game_id],
                    json.loads(message.move.move_json),
                    message.move.at_position,
                    message.request_id,
                    self.executor,
                    shown=False,
                )
                records = [
                    pb.Record(
                        position=record["position"],
                        kind=record["kind"],
                        record_json=compact_json(record),
                    )
                    for record in played.records
                ]
                ack = pb.PlayAck(
                    request_id=message.request_id, position=played.position, records=records
                )
            else:
                raise ValueError(f"the floor prototype takes joins and moves, not {action!r}")
            async with writing:
                await context.write(pb.PlayResponse(game_id=game_id, ack=ack))
            if SECOND and records:
                for other, other_writing in JOINED.get(game_id, ()):
                    if other is not context:
                        async with other_writing:
                            for record in records:
                                await other.write(pb.PlayResponse(game_id=game_id, record=record))
    finally:
        for game_id in tokens:
            JOINED[game_id] = [(c, w) for c, w in JOINED.get(game_id, ()) if c is not context]


JOINED: dict[str, list[tuple[Any, asyncio.Lock]]] = {}
"""Each game's joined streams and their write locks, so a move's records can
also go to its other seats (``--second``)."""
SECOND = False


def main(argv: list[str]) -> None:
    from gamelog.cli.main import main as gamelog

    global SECOND
    SECOND = "--second" in argv
    argv = [arg for arg in argv if arg != "--second"]
    GameLogServicer.Play = floor_play  # type: ignore[method-assign]
    gamelog.main(["serve", "--port", "0", *argv], prog_name="bench.stream_floor")


if __name__ == "__main__":
    main(sys.argv[1:])
