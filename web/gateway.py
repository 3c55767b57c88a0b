"""The gRPC side of the web front end: gamelog calls as plain, JSON-ready data.

One ``Gateway`` holds one ``grpc.aio`` channel to a gamelog server for the
life of the web process. Each call takes the caller's token (or None for a
spectator) and passes it on as gRPC metadata, exactly as the CLI does; what
comes back is already redacted for that caller by the service.

A refused call becomes a ``GatewayError`` carrying the gRPC status name, the
machine-readable reason and the service's sentence, and the HTTP status the
page gets for it:

>>> GatewayError("NOT_FOUND", "no-such-game", "no game 7").http_status
404
>>> GatewayError("UNAVAILABLE", "no-server", "no gamelog server answers").http_status
502
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import grpc.aio
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gamelog.cli.client import MAX_MESSAGE_BYTES, with_default_port
from gamelog.cli.common import tokens_in_seat_order
from gamelog.cli.takeback_words import takeback_words, waiting_for
from gamelog.games.protocol import ARBITER
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc
from gamelog.v1 import tournaments_pb2_grpc as tournaments_grpc
from gamelog.web.page_streams import PageStream, StreamGone

HTTP_STATUS = {
    "INVALID_ARGUMENT": 400,
    "OUT_OF_RANGE": 400,
    "UNAUTHENTICATED": 401,
    "PERMISSION_DENIED": 403,
    "NOT_FOUND": 404,
    "ALREADY_EXISTS": 409,
    "ABORTED": 409,
    "FAILED_PRECONDITION": 409,
    "RESOURCE_EXHAUSTED": 429,
    "UNIMPLEMENTED": 501,
    "UNAVAILABLE": 502,
    "DEADLINE_EXCEEDED": 504,
}
"""The HTTP status for each gRPC status; anything else is a 500."""

CALL_TIMEOUT = 30.0


class GatewayError(Exception):
    """A call the service refused (or could not answer), as the page is told."""

    def __init__(self, code: str, reason: str, message: str, status: int | None = None) -> None:
        super().__init__(code, reason, message)
        self.code = code
        self.reason = reason
        self.message = message
        self.status = status
        """An HTTP status of the front end's own (415, 413), where the gRPC
        status's would mislead."""

    @property
    def http_status(self) -> int:
        return self.status or HTTP_STATUS.get(self.code, 500)

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "reason": self.reason, "message": self.message}


def gateway_error(error: grpc.aio.AioRpcError, address: str) -> GatewayError:
    """The status, reason and message of a refused call; a server that does
    not answer says where the front end looked."""
    code = error.code().name
    reason = ""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    if status is not None:
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                reason = info.reason
    if code == "UNAVAILABLE" and not reason:
        return GatewayError(
            code,
            "no-server",
            f"no gamelog server answers at {address}; start one with `gamelog serve`",
        )
    return GatewayError(code, reason, error.details() or "")


def bearer(token: str | None) -> tuple[tuple[str, str], ...] | None:
    return (("authorization", f"Bearer {token}"),) if token else None


def loads(text: str) -> Any:
    return json.loads(text) if text else None


def record_entry(record: dict[str, Any], notation: str) -> dict[str, Any]:
    """What the move list shows of one stored record.

    >>> record_entry({"position": 3, "kind": "move", "seat": "ann"}, "ann plays 31")["notation"]
    'ann plays 31'
    >>> back = {"position": 9, "kind": "takeback", "by": "#arbiter", "to_position": 4}
    >>> entry = record_entry(back, "")
    >>> entry["seat"], entry["notation"]
    ('#arbiter', 'back to position 4')
    """
    kind = str(record.get("kind", ""))
    seat = record.get("seat", record.get("by", ""))
    if not notation:
        if kind == "takeback":
            notation = f"back to position {record.get('to_position')}"
        else:
            notation = kind
    entry = {
        "position": int(record["position"]),
        "kind": kind,
        "seat": str(seat or ""),
        "notation": notation,
        "time": str(record.get("timestamp", "")),
    }
    # What the table needs of a record: where a take-back went (the line of
    # play), and the game's undo policy (which take-backs to offer).
    if "to_position" in record:
        entry["to_position"] = int(record["to_position"])
    if kind == "created":
        entry["undo_policy"] = str(record.get("undo_policy", "none"))
    return entry


def created_entry(created: Any) -> dict[str, Any]:
    """A new game (or fork) for the page: its id, the seats in seat order
    and their tokens in that order, and the arbiter's token."""
    seats = loads(created.record_json or "{}").get("seats") or []
    return {
        "game_id": created.game_id,
        "seats": seats,
        "seat_tokens": tokens_in_seat_order(created),
        "arbiter_token": created.arbiter_token,
    }


def state_entry(state: Any) -> dict[str, Any]:
    """What the board shows of one position (the view's JSON is left out: the
    page draws the picture, and the picture is the rules' own)."""
    return {
        "game_id": state.game_id,
        "game": state.game,
        "position": state.position,
        "last_position": state.last_position,
        "ply": state.ply,
        "viewer": state.viewer or None,
        "to_act": list(state.to_act),
        "finished": state.finished,
        "result": loads(state.result_json),
        "pending_undo": loads(state.pending_undo_json),
        "text": state.text,
        "svg": state.svg,
        "tags": dict(state.tags),
    }


class Gateway:
    """The gamelog calls the page needs, over one ``grpc.aio`` channel."""

    def __init__(self, server: str, ca: str | None = None) -> None:
        self.address = with_default_port(server)
        self.ca = ca
        self.channel: grpc.aio.Channel | None = None
        self.stub: Any = None
        self.tournaments: Any = None
        self.page_streams: dict[tuple[str, str | None], list[PageStream]] = {}
        """The Play streams behind the pages that follow a game, by game and token."""

    async def open(self) -> None:
        """Open the channel; call from inside the event loop that will use it."""
        options = [
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ]
        if self.ca:
            credentials = grpc.ssl_channel_credentials(Path(self.ca).read_bytes())
            self.channel = grpc.aio.secure_channel(self.address, credentials, options=options)
        else:
            self.channel = grpc.aio.insecure_channel(self.address, options=options)
        self.stub = pb_grpc.GameLogStub(self.channel)
        self.tournaments = tournaments_grpc.TournamentsStub(self.channel)

    async def close(self) -> None:
        if self.channel is not None:
            await self.channel.close(grace=None)
            self.channel = None

    async def call(self, name: str, request: Any, token: str | None = None) -> Any:
        """One unary call with the caller's token; a refusal raises ``GatewayError``."""
        return await self._call(self.stub, name, request, token)

    async def call_tournaments(self, name: str, request: Any, token: str | None = None) -> Any:
        """One call of ``gamelog.v1.Tournaments``."""
        return await self._call(self.tournaments, name, request, token)

    async def _call(self, stub: Any, name: str, request: Any, token: str | None) -> Any:
        try:
            return await getattr(stub, name)(request, metadata=bearer(token), timeout=CALL_TIMEOUT)
        except grpc.aio.AioRpcError as error:
            raise gateway_error(error, self.address) from None

    # -- the calls --------------------------------------------------------------------

    async def game_types(self) -> list[dict[str, Any]]:
        """Each game with its option and move schemas: the new-game form and
        the schema form for open-ended moves are built from them."""
        response = await self.call("ListGameTypes", pb.ListGameTypesRequest())
        found = []
        for t in response.game_types:
            schemas = loads(t.schemas_json) or {}
            found.append(
                {
                    "name": t.name,
                    "title": t.title,
                    "min_players": t.min_players,
                    "max_players": t.max_players,
                    "schemas": {"options": schemas.get("options"), "move": schemas.get("move")},
                }
            )
        return found

    async def state(self, game_id: str, token: str | None, at: int | None) -> dict[str, Any]:
        """The position as the caller sees it, with the game's picture (or,
        for a game that draws none, its text board alone)."""
        request = pb.GetStateRequest(game_id=game_id, picture=True)
        if at is not None:
            request.at_position = at
        try:
            return state_entry(await self.call("GetState", request, token))
        except GatewayError as error:
            if error.reason != "no-picture":
                raise
        request.picture = False
        return state_entry(await self.call("GetState", request, token))

    async def table(self, game_id: str, token: str | None, seat: str) -> dict[str, Any]:
        """What a seat's page needs to move: the latest position as the caller
        sees it (the view's JSON, who acts, a pending take-back), and the
        legal moves of the caller's seat, or of ``seat`` for the arbiter.
        No moves for a spectator, a seat not to act, or a finished game."""
        state = await self.call("GetState", pb.GetStateRequest(game_id=game_id), token)
        return await self.table_of(state, token, seat)

    async def table_of(self, state: Any, token: str | None, seat: str) -> dict[str, Any]:
        entry = {
            "game_id": state.game_id,
            "game": state.game,
            "position": state.last_position,
            "viewer": state.viewer or None,
            "to_act": list(state.to_act),
            "finished": state.finished,
            "pending_undo": loads(state.pending_undo_json),
            "view": loads(state.view_json),
            "legal": None,
        }
        arbiter = state.viewer == ARBITER
        mover = (seat or ARBITER) if arbiter else state.viewer
        if state.viewer and not state.finished and mover in state.to_act:
            request = pb.ListLegalMovesRequest(game_id=state.game_id, seat=seat if arbiter else "")
            listing = await self.call("ListLegalMoves", request, token)
            entry["legal"] = {
                "seat": listing.seat,
                "position": listing.position,
                "moves": [json.loads(m) for m in listing.moves_json],
                "complete": listing.complete,
                "sample_note": listing.sample_note,
            }
        return entry

    async def play(
        self, game_id: str, token: str | None, move: Any, at: int, request_id: str, seat: str = ""
    ) -> dict[str, Any]:
        """One move at position ``at`` (the latest the page saw); ``seat``:
        the arbiter plays that seat's move on its behalf. On the Play stream
        of a page that follows the game with this token, if there is one
        (``page_streams``); else, or if that stream ends first, through
        ``PlayMove`` with the same request id (so it is stored once)."""
        stream = self._page_stream(game_id, token)
        if stream is not None:
            request_id = request_id or f"page-{uuid.uuid4().hex}"
            try:
                response, records = await stream.play(move, at, request_id, seat, CALL_TIMEOUT)
            except StreamGone:
                pass
            else:
                if response.HasField("refusal"):
                    raise stream_refusal(response.refusal)
                ack = response.ack
                if not ack.replayed:  # a retry is answered below, as the first time
                    if [r["position"] for r in records] != list(range(at + 1, ack.position + 1)):
                        records = await self.records(game_id, token, at + 1, ack.position)
                    return {"position": ack.position, "replayed": False, "records": records}
        request = pb.PlayMoveRequest(
            game_id=game_id,
            move_json=json.dumps(move),
            at_position=at,
            request_id=request_id,
            seat=seat,
        )
        played = await self.call("PlayMove", request, token)
        return {
            "position": played.position,
            "replayed": played.replayed,
            "records": [
                record_entry(json.loads(r.record_json), r.notation) for r in played.records
            ],
        }

    async def take_back(
        self, game_id: str, token: str | None, action: str, to: int, at: int
    ) -> dict[str, Any]:
        """Ask for, answer, or order a take-back; the answer says in words what
        happened and where the game goes on."""
        request = pb.TakeBackRequest(game_id=game_id, action=action, to_position=to, at_position=at)
        outcome = await self.call("TakeBack", request, token)
        records = [json.loads(r.record_json) for r in outcome.records]
        after = await self.call("GetState", pb.GetStateRequest(game_id=game_id), token)
        created = await self.call(
            "ListEvents", pb.ListEventsRequest(game_id=game_id, to_position=0), token
        )
        seats = json.loads(created.records[0].record_json).get("seats", [])
        waiting = waiting_for(after.pending_undo_json, seats)
        return {
            "position": after.last_position,
            "taken_back": outcome.taken_back,
            "records": [
                record_entry(record, r.notation) for record, r in zip(records, outcome.records)
            ],
            "says": takeback_words(records, after.last_position, waiting),
        }

    async def create(self, request: pb.CreateGameRequest) -> dict[str, Any]:
        """A new game; its tokens go to the caller once."""
        created = await self.call("CreateGame", request)
        return created_entry(created)

    async def viewer(self, game_id: str, token: str | None) -> str | None:
        """Who the token makes the caller in this game (None: a spectator);
        refuses a token that is not this game's."""
        request = pb.GetStateRequest(game_id=game_id, at_position=0)
        return (await self.call("GetState", request, token)).viewer or None

    async def records(
        self,
        game_id: str,
        token: str | None,
        from_position: int = 0,
        to_position: int | None = None,
    ) -> list[dict[str, Any]]:
        request = pb.ListEventsRequest(
            game_id=game_id, from_position=from_position, to_position=to_position
        )
        response = await self.call("ListEvents", request, token)
        return [record_entry(json.loads(r.record_json), r.notation) for r in response.records]

    async def tree(self, game_id: str) -> dict[str, Any]:
        response = await self.call("GetTree", pb.GetTreeRequest(game_id=game_id))
        return {
            "root": response.root_game_id,
            "nodes": [
                {
                    "game_id": n.game_id,
                    "parent": n.parent_game_id or None,
                    "parent_position": n.parent_position,
                    "last_position": n.last_position,
                    "finished": n.finished,
                }
                for n in response.nodes
            ],
        }

    async def fork(self, game_id: str, token: str | None, at: int) -> dict[str, Any]:
        """A new game from position ``at``; its tokens go to the caller once."""
        request = pb.ForkGameRequest(game_id=game_id, at_position=at)
        created = await self.call("ForkGame", request, token)
        return created_entry(created)

    async def follow(
        self, game_id: str, token: str | None, from_position: int
    ) -> AsyncIterator[dict[str, Any]]:
        """Each record from ``from_position`` on as it is stored, until the
        game ends or the caller stops listening (the gRPC stream is then
        cancelled). A Play stream joined with ``token``: the page's moves
        with that token go out on it while it runs (``play``)."""
        stream = PageStream(self.stub, game_id, token, bearer(token))
        key = (game_id, token)
        self.page_streams.setdefault(key, []).append(stream)
        try:
            async for entry in stream.records(from_position, record_entry, stream_refusal):
                yield entry
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.CANCELLED:
                raise gateway_error(error, self.address) from None
        finally:
            held = self.page_streams.get(key, [])
            if stream in held:
                held.remove(stream)
            if not held:
                self.page_streams.pop(key, None)

    def _page_stream(self, game_id: str, token: str | None) -> PageStream | None:
        open_streams = [s for s in self.page_streams.get((game_id, token), []) if s.open]
        return open_streams[-1] if open_streams else None


def stream_refusal(refusal: Any) -> GatewayError:
    """A refusal on a Play stream, as the unary call's would be."""
    return GatewayError(refusal.code, refusal.reason, refusal.message)
