"""The gRPC edge of ``Play``: each request read and bounded, each answer built.

A ``PlayRequest`` becomes a ``Join``, ``Move`` or ``TakeBackAsk`` of the
session (``live.play_session``), read as ``PlayMove`` and ``TakeBack`` read
theirs: the same bounds, the same refusals. A request that cannot be read
(bytes that are no ``PlayRequest``, a bad field) is refused on its own, as
data, and the stream goes on: one bad message does not cost a client its
stream. A refusal carries what the unary call's status would have carried
(``status.status_for``: the code, ErrorInfo's reason and metadata, the
message, bounded alike).

>>> answer_message(Acked("r1", "g", 4, replayed=True)).ack.replayed
True
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterable, AsyncIterator
from concurrent.futures import Executor
from typing import Any
from uuid import UUID

from gamelog.service.live.play_session import (
    Acked,
    Answer,
    Join,
    Move,
    Recorded,
    RefusedRequest,
    Request,
    TakeBackAsk,
)
from gamelog.service.model.refusals import InvalidArgument
from gamelog.service.rpc.client_json import parse_json
from gamelog.service.rpc.handlers import Undecodable
from gamelog.service.rpc.messages import entry_message
from gamelog.service.rpc.requests import (
    MAX_MOVE_BYTES,
    checked_position,
    checked_request_id,
    full_game_id,
)
from gamelog.service.rpc.status import code_name, error_info, message_of, refusal
from gamelog.service.usecases.application import GameLog
from gamelog.v1 import gamelog_pb2 as pb

MAX_GAME_ID = 64
"""A game id's length, full or short."""
MAX_TOKEN = 256


async def requests_of(
    messages: AsyncIterable[Any],
    stream_token: str | None,
    app: GameLog,
    executor: Executor | None,
) -> AsyncIterator[Request | RefusedRequest]:
    """The session's requests from the client's messages (``handlers``
    decodes each; an undecodable one arrives with its refusal)."""
    async for message in messages:
        if isinstance(message, Undecodable):
            yield RefusedRequest("", "", message.refusal)
            continue
        try:
            game_id = await _game_id(message.game_id, app, executor)
            yield _request(message, game_id, stream_token)
        except Exception as error:
            yield RefusedRequest(message.request_id[:128], message.game_id[:MAX_GAME_ID], error)


async def _game_id(text: str, app: GameLog, executor: Executor | None) -> UUID:
    if len(text) > MAX_GAME_ID:
        raise InvalidArgument("bad-game-id", f"a game id is at most {MAX_GAME_ID} characters")
    try:
        return full_game_id(text)
    except ValueError:
        # A short id: looked up in the game index (a store read), off the loop.
        game_id: UUID = await asyncio.get_running_loop().run_in_executor(
            executor, app.listing.resolve_game_id, text
        )
        return game_id


def _request(message: Any, game_id: UUID, stream_token: str | None) -> Request:
    request_id = checked_request_id(message.request_id)
    action = message.WhichOneof("action")
    if action == "move":
        move = message.move
        return Move(
            request_id,
            game_id,
            parse_json(move.move_json, "move", MAX_MOVE_BYTES),
            checked_position(move.at_position, "at_position"),
            move.seat,
        )
    if action == "take_back":
        take_back = message.take_back
        return TakeBackAsk(
            request_id,
            game_id,
            take_back.action or "request",
            checked_position(take_back.to_position, "to_position"),
            checked_position(take_back.at_position, "at_position"),
        )
    if action == "join":
        join = message.join
        if len(join.token) > MAX_TOKEN:
            raise InvalidArgument("bad-token", f"a token is at most {MAX_TOKEN} characters")
        return Join(
            request_id,
            game_id,
            join.token.strip() or stream_token,
            checked_position(join.from_position, "from_position"),
        )
    raise InvalidArgument("bad-request", "a PlayRequest joins, moves or takes back")


def answer_message(answer: Answer) -> pb.PlayResponse:
    if isinstance(answer, Recorded):
        return pb.PlayResponse(game_id=answer.game_id, record=entry_message(answer.entry))
    if isinstance(answer, Acked):
        return pb.PlayResponse(
            game_id=answer.game_id,
            ack=pb.PlayAck(
                request_id=answer.request_id,
                position=answer.position,
                replayed=answer.replayed,
                taken_back=answer.taken_back,
                records=[entry_message(entry) for entry in answer.records],
            ),
        )
    return pb.PlayResponse(game_id=answer.game_id, refusal=refusal_message(answer))


def refusal_message(refused: RefusedRequest) -> pb.PlayRefusal:
    """The refusal as the unary call's status would carry it."""
    error = refusal(refused.error, "Play")
    info = error_info(error)
    return pb.PlayRefusal(
        request_id=refused.request_id,
        code=code_name(error),
        reason=info.reason,
        message=message_of(error),
        metadata=dict(info.metadata),
    )
