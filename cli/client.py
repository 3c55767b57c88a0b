"""A small client for the gamelog gRPC API, used by the CLI and the tests.

>>> # client = Client("localhost:50051")
>>> # created = client.create("three-too-many", ["ann", "ben"])
>>> # client.play(created.game_id, {"card": 42}, at_position=0, token=created.seat_tokens["ann"])
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import grpc

from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

MAX_MESSAGE_BYTES = 40 * 1024 * 1024
DEFAULT_PORT = 50051
FOLLOWER_TOO_SLOW = "follower-too-slow"
"""The reason a follow stream ends when its reader fell behind (it may resume)."""
MAX_RESUMES = 5
"""Resumes in a row with no record between them before a follow gives up."""


def with_default_port(address: str) -> str:
    """``host`` alone means gamelog's port, not gRPC's 443.

    >>> with_default_port("localhost"), with_default_port("10.0.0.2:6000")
    ('localhost:50051', '10.0.0.2:6000')
    >>> with_default_port("[::1]"), with_default_port("[::1]:7000")
    ('[::1]:50051', '[::1]:7000')
    """
    if "://" in address or address.startswith("unix:"):
        return address  # a full gRPC target says what it means
    if address.startswith("["):  # an IPv6 literal
        return address if "]:" in address else f"{address}:{DEFAULT_PORT}"
    return address if ":" in address else f"{address}:{DEFAULT_PORT}"
    if (address.startswith("[") and address.endswith("]")) or ":" not in address:
        return f"{address}:{DEFAULT_PORT}"
    return address


class ApiError(Exception):
    """A refused call: the status code name, the machine-readable reason, the
    message, and any facts the server added (``ErrorInfo.metadata``; a
    follow stream that was ended early says where to resume: ``from_position``)."""

    def __init__(
        self, code: str, reason: str, message: str, details: dict[str, str] | None = None
    ) -> None:
        super().__init__(code, reason, message)
        self.code = code
        self.reason = reason
        self.message = message
        self.details = details or {}

    def __str__(self) -> str:
        return f"{self.code} ({self.reason}): {self.message}"


def api_error(error: grpc.RpcError) -> ApiError:
    # Imported here: the rich error details cost a command ~20 ms of start-up
    # (their protobuf descriptors), and only a refused call reads them.
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    code = error.code().name if hasattr(error, "code") else "UNKNOWN"
    message = error.details() if hasattr(error, "details") else str(error)
    reason = ""
    details: dict[str, str] = {}
    status = rpc_status.from_call(error) if isinstance(error, grpc.Call) else None
    if status is not None:
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                reason = info.reason
                details = dict(info.metadata)
    return ApiError(code, reason, message or "", details)


def loads(text: str) -> Any:
    return json.loads(text) if text else None


def bearer(token: str | None) -> tuple[tuple[str, str], ...] | None:
    """The call metadata carrying ``token``; none for a spectator."""
    return (("authorization", f"Bearer {token}"),) if token else None


class Client:
    def __init__(
        self,
        server: str = "localhost:50051",
        ca: str | None = None,
        channel_options: Sequence[tuple[str, Any]] = (),
    ) -> None:
        server = with_default_port(server)
        self.address = server
        options = [
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
            *channel_options,
        ]
        if ca:
            credentials = grpc.ssl_channel_credentials(root_certificates=Path(ca).read_bytes())
            self.channel = grpc.secure_channel(server, credentials, options=options)
        else:
            self.channel = grpc.insecure_channel(server, options=options)
        self.stub = pb_grpc.GameLogStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, name: str, request: Any, token: str | None = None, timeout: float = 60) -> Any:
        try:
            return getattr(self.stub, name)(request, metadata=bearer(token), timeout=timeout)
        except grpc.RpcError as error:
            raise self._explained(api_error(error)) from None

    def _explained(self, error: ApiError) -> ApiError:
        """A connection failure says where it looked and how to get a server."""
        if error.code == "UNAVAILABLE" and not error.reason:
            return ApiError(
                "UNAVAILABLE",
                "no-server",
                f"no gamelog server answers at {self.address}; start one with "
                "`gamelog serve` (or `make serve`), or name another with --server HOST:PORT",
            )
        return error

    # -- calls --------------------------------------------------------------------------

    def game_types(self) -> list[Any]:
        return list(self._call("ListGameTypes", pb.ListGameTypesRequest()).game_types)

    def create(
        self,
        game: str,
        seats: list[str],
        options: dict[str, Any] | None = None,
        undo_policy: str = "",
        metadata: dict[str, str] | None = None,
        seed_hex: str = "",
    ) -> Any:
        return self._call(
            "CreateGame",
            pb.CreateGameRequest(
                game=game,
                seats=seats,
                options_json=json.dumps(options or {}),
                undo_policy=undo_policy,
                metadata=metadata or {},
                seed_hex=seed_hex,
            ),
        )

    def play(
        self,
        game_id: str,
        move: Any,
        at_position: int,
        token: str,
        request_id: str = "",
        seat: str = "",
    ) -> Any:
        return self._call(
            "PlayMove",
            pb.PlayMoveRequest(
                game_id=game_id,
                move_json=json.dumps(move),
                at_position=at_position,
                request_id=request_id,
                seat=seat,
            ),
            token,
        )

    def state(
        self,
        game_id: str,
        token: str | None = None,
        at: int | None = None,
        picture: bool = False,
    ) -> Any:
        request = pb.GetStateRequest(game_id=game_id, picture=picture)
        if at is not None:
            request.at_position = at
        return self._call("GetState", request, token)

    def legal_moves(self, game_id: str, token: str, seat: str = "") -> list[Any]:
        return [json.loads(m) for m in self.moves_listing(game_id, token, seat).moves_json]

    def moves_listing(self, game_id: str, token: str, seat: str = "") -> Any:
        """The whole answer: the moves, and whether they are all of them."""
        request = pb.ListLegalMovesRequest(game_id=game_id, seat=seat)
        return self._call("ListLegalMoves", request, token)

    def records(self, game_id: str, token: str | None = None, from_position: int = 0) -> list[Any]:
        return [record for record, _ in self.log(game_id, token, from_position)]

    def log(
        self,
        game_id: str,
        token: str | None = None,
        from_position: int = 0,
        to_position: int | None = None,
    ) -> list[tuple[Any, str]]:
        """The records from ``from_position`` to ``to_position`` (inclusive;
        None: the last) as the caller may see them, each with its line of
        notation."""
        request = pb.ListEventsRequest(game_id=game_id, from_position=from_position)
        if to_position is not None:
            request.to_position = to_position
        response = self._call("ListEvents", request, token)
        return [(json.loads(r.record_json), r.notation) for r in response.records]

    def games(self, limit: int = 1000, **filters: Any) -> list[Any]:
        """Stored games, newest first; ``filters`` are ListGamesRequest's fields
        (game, status, tags, player, event, round, tournament_id, parent_game_id)."""
        return list(self.games_page(limit, **filters).games)

    def games_page(self, limit: int = 1000, page_token: str = "", **filters: Any) -> Any:
        """One page of a listing, with its ``next_page_token``."""
        request = pb.ListGamesRequest(limit=limit, page_token=page_token, **filters)
        return self._call("ListGames", request)

    def take_back(
        self, game_id: str, action: str, to_position: int, at_position: int, token: str
    ) -> Any:
        return self._call(
            "TakeBack",
            pb.TakeBackRequest(
                game_id=game_id, action=action, to_position=to_position, at_position=at_position
            ),
            token,
        )

    def fork(
        self,
        game_id: str,
        at_position: int,
        token: str | None = None,
        keep_seed: bool = False,
        metadata: dict[str, str] | None = None,
    ) -> Any:
        return self._call(
            "ForkGame",
            pb.ForkGameRequest(
                game_id=game_id,
                at_position=at_position,
                keep_seed=keep_seed,
                metadata=metadata or {},
            ),
            token,
        )

    def tree(self, game_id: str) -> Any:
        return self._call("GetTree", pb.GetTreeRequest(game_id=game_id))

    def diff(self, game_id: str, other: str, token: str | None = None) -> Any:
        return self._call(
            "DiffGames", pb.DiffGamesRequest(game_id=game_id, other_game_id=other), token
        )

    def audit(self, game_id: str, token: str | None = None) -> Any:
        return self._call("AuditGame", pb.AuditGameRequest(game_id=game_id), token, timeout=600)

    def follow(
        self,
        game_id: str,
        token: str | None = None,
        from_position: int = 0,
        timeout: float | None = None,
    ) -> Iterator[Any]:
        for record, _ in self.follow_log(game_id, token, from_position, timeout):
            yield record

    def follow_log(
        self,
        game_id: str,
        token: str | None = None,
        from_position: int = 0,
        timeout: float | None = None,
    ) -> Iterator[tuple[Any, str]]:
        """Records as they are stored, each with its line of notation. A
        stream the server dropped because it fell behind is opened again from
        where it ended (the server says where), so no record is missed or
        given twice."""
        position = from_position
        resumed = 0
        while True:
            stream: Any = self.stub.FollowGame(
                pb.FollowGameRequest(game_id=game_id, from_position=position),
                metadata=bearer(token),
                timeout=timeout,
            )
            try:
                for record in stream:
                    position, resumed = record.position + 1, 0
                    yield json.loads(record.record_json), record.notation
                return
            except grpc.RpcError as error:
                if error.code() == grpc.StatusCode.CANCELLED:
                    return
                failure = self._explained(api_error(error))
                resume_at = failure.details.get("from_position", "")
                if failure.reason != FOLLOWER_TOO_SLOW or not resume_at.isdecimal():
                    raise failure from None
                if resumed >= MAX_RESUMES:
                    raise failure from None
                position, resumed = int(resume_at), resumed + 1
            finally:
                stream.cancel()

    def export_text(self, game_id: str, token: str | None = None, redacted: bool = False) -> str:
        request = pb.ExportGameRequest(game_id=game_id, redacted=redacted, format="text")
        return str(self._call("ExportGame", request, token).text)

    def export(self, game_id: str, token: str | None = None, redacted: bool = False) -> Any:
        response = self._call(
            "ExportGame", pb.ExportGameRequest(game_id=game_id, redacted=redacted), token
        )
        return json.loads(response.record_file_json)

    def import_file(self, data: Any, token: str | None = None) -> Any:
        """Import a record file; ``token`` is the arbiter token of a game in
        this store that the file's branches are forked from (grafting)."""
        return self._call(
            "ImportGame",
            pb.ImportGameRequest(record_file_json=json.dumps(data)),
            token,
            timeout=600,
        )

    def get_signing_key(self) -> Any:
        return self._call("GetSigningKey", pb.GetSigningKeyRequest())

    def echo(self, payload: bytes) -> bytes:
        response: Any = self._call("Echo", pb.EchoRequest(payload=payload))
        return bytes(response.payload)
