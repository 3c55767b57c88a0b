"""The gRPC adapter: ``gamelog.v1.GameLog`` calls onto the ``GameLog`` application.

Each call reads its token from the ``authorization`` metadata, parses and
bounds its JSON, calls one use case, and maps a refusal onto a status code
with a ``google.rpc.ErrorInfo`` detail whose ``reason`` is the machine-readable
code. gRPC types stop here: the application and the games never see them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar
from uuid import UUID

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from gamelog.replay.audit import AuditReport
from gamelog.replay.record import Record, compact_json
from gamelog.service.app import CreatedGame, GameLog, PositionView
from gamelog.service.client_json import MAX_JSON_DEPTH, parse_json
from gamelog.service.errors import GamelogError, InvalidArgument
from gamelog.service.fanout import Entry
from gamelog.service.listing import GameFilter
from gamelog.service.live import LiveFollow
from gamelog.service.outcomes import Shown
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

log = logging.getLogger(__name__)

MAX_MOVE_BYTES = 64 * 1024
MAX_OPTIONS_BYTES = 1024 * 1024
MAX_RECORD_FILE_BYTES = 32 * 1024 * 1024
MAX_MESSAGE_BYTES = 40 * 1024 * 1024
MAX_POSITION = 2**40

# GamelogError.status names a google.rpc code; anything else is INTERNAL.
_CODES = {
    name: getattr(code_pb2, name)
    for name in (
        "INVALID_ARGUMENT",
        "FAILED_PRECONDITION",
        "ABORTED",
        "PERMISSION_DENIED",
        "UNAUTHENTICATED",
        "NOT_FOUND",
        "RESOURCE_EXHAUSTED",
        "DATA_LOSS",
        "OUT_OF_RANGE",
        "UNAVAILABLE",
    )
}
ABORT_WAIT_SECONDS = 5.0


def status_for(error: GamelogError) -> grpc.Status:
    rpc_code = _CODES.get(error.status, code_pb2.INTERNAL)
    # A refusal may carry facts for the client, such as a stream's from_position.
    metadata = getattr(error, "metadata", None) or {}
    info = error_details_pb2.ErrorInfo(reason=error.code, domain="gamelog", metadata=metadata)
    detail = any_pb2.Any()
    detail.Pack(info)
    return rpc_status.to_status(
        status_pb2.Status(code=rpc_code, message=error.message, details=[detail])
    )


F = TypeVar("F", bound=Callable[..., Any])


def _refusal(error: Exception, call: str) -> GamelogError:
    if isinstance(error, RecursionError):
        return InvalidArgument("too-deep", "input nests too deep")
    if not isinstance(error, GamelogError):
        log.error("internal error in %s", call, exc_info=error)
        return GamelogError("internal", "internal error; nothing was stored")
    return error


def _abort(context: grpc.ServicerContext, error: Exception, call: str) -> None:
    """End a call with the status its exception stands for; nothing was stored.

    Works with the context grpc.aio gives a synchronous handler, which has no
    ``abort_with_status`` (and whose ``abort`` returns instead of raising: the
    server then ends the call with the status sent here)."""
    status = status_for(_refusal(error, call))
    context.set_trailing_metadata(status.trailing_metadata)
    context.abort(status.code, status.details)


async def _abort_stream(context: grpc.aio.ServicerContext[Any, Any], error: Exception) -> None:
    """End a stream with the status its exception stands for.

    The status goes out after the records already written; if the client is
    not reading them, it waits in the transport until the client does (or
    goes away), and this stream's task ends now all the same."""
    status = status_for(_refusal(error, "FollowGame"))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(
            context.abort(status.code, status.details, status.trailing_metadata),
            ABORT_WAIT_SECONDS,
        )


def refusals_as_status(method: F) -> F:
    @functools.wraps(method)
    def wrapper(self: GameLogServicer, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            return method(self, request, context)
        except Exception as error:
            _abort(context, error, method.__name__)

    return wrapper  # type: ignore[return-value]


def token_of(context: grpc.ServicerContext | grpc.aio.ServicerContext[Any, Any]) -> str | None:
    for key, value in context.invocation_metadata() or ():
        if key == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise InvalidArgument("bad-authorization", 'use "authorization: Bearer <token>"')
            return token.strip()
    return None


def options_and_seed(options_json: str, seed_hex: str) -> tuple[dict[str, Any], bytes | None]:
    """A create call's options (a JSON object, default empty) and seed (1 to
    64 bytes in hexadecimal; None: the server draws one)."""
    options = parse_json(options_json, "options", MAX_OPTIONS_BYTES, empty={})
    if not isinstance(options, dict):
        raise InvalidArgument("bad-options", "options must be a JSON object")
    if not seed_hex:
        return options, None
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise InvalidArgument("bad-seed", "seed_hex must be hexadecimal") from None
    if not 1 <= len(seed) <= 64:
        raise InvalidArgument("bad-seed", "a seed is 1 to 64 bytes")
    return options, seed


@functools.lru_cache(maxsize=4096)
def _full_game_id(text: str) -> UUID:
    """A full game id as given (ValueError if it is none): remembered for
    the games being played, whose every move names its game again."""
    return UUID(text.strip())


def checked_position(value: int, what: str = "position") -> int:
    if value < 0 or value > MAX_POSITION:
        raise InvalidArgument("bad-position", f"{what} must be between 0 and {MAX_POSITION}")
    return value


def record_message(record: Record, notation: str = "") -> pb.Record:
    return pb.Record(
        position=record["position"],
        kind=record["kind"],
        record_json=compact_json(record),
        notation=notation,
    )


def shown_messages(shown: list[Shown]) -> list[pb.Record]:
    return [record_message(s.record, s.notation) for s in shown]


def entry_message(entry: Entry) -> pb.Record:
    return pb.Record(
        position=entry.position, kind=entry.kind, record_json=entry.json, notation=entry.notation
    )


def created_message(app: GameLog, created: CreatedGame) -> pb.CreateGameResponse:
    record = app.redact([created.record], None)[0]
    return pb.CreateGameResponse(
        game_id=str(created.game_id),
        seat_tokens=created.tokens,
        arbiter_token=created.arbiter_token,
        seed_commitment=created.commitment,
        record_json=compact_json(record),
    )


def state_message(view: PositionView) -> pb.GameState:
    return pb.GameState(
        game_id=str(view.game_id),
        game=view.game,
        position=view.position,
        last_position=view.last_position,
        ply=view.ply,
        viewer=view.viewer or "",
        view_json=compact_json(view.view),
        to_act=view.to_act,
        finished=view.finished,
        result_json=compact_json(view.result) if view.result is not None else "",
        text=view.text,
        pending_undo_json=compact_json(view.pending_undo) if view.pending_undo else "",
        svg=view.svg,
        tags=view.tags,
        **clock_fields(view.clocks),
    )


def clock_fields(clocks: dict[str, Any] | None) -> dict[str, Any]:
    """GameState's clock fields (none for an untimed game)."""
    if not clocks:
        return {}
    return {
        "time_control": clocks["time_control"],
        "clock_remaining_ms": clocks["remaining_ms"],
        "clock_running": clocks["running"],
        "out_of_time": clocks["out_of_time"],
    }


class GameLogServicer(pb_grpc.GameLogServicer):
    """Served by ``grpc.aio``: the unary calls are synchronous and run in the
    server's thread pool (``migration_thread_pool``), exactly as before;
    ``FollowGame`` is a coroutine on the event loop and holds no thread, and
    so is ``PlayMove`` wherever it can be (it hands the rest to the pool)."""

    def __init__(self, app: GameLog, live: LiveFollow, executor: Executor | None = None) -> None:
        self.app = app
        self.live = live
        self.executor = executor
        """The server's thread pool, for what a coroutine hands off."""

    @refusals_as_status
    def ListGameTypes(self, request: Any, context: grpc.ServicerContext) -> Any:
        return pb.ListGameTypesResponse(
            game_types=[
                pb.GameType(
                    name=r.name,
                    title=r.title,
                    rules_version=r.rules_version,
                    min_players=r.min_players,
                    max_players=r.max_players,
                    default_component_set=r.default_component_set,
                    schemas_json=compact_json(r.schemas()),
                )
                for r in self.app.game_types()
            ]
        )

    @refusals_as_status
    def CreateGame(self, request: Any, context: grpc.ServicerContext) -> Any:
        options, seed = options_and_seed(request.options_json, request.seed_hex)
        created = self.app.create_game(
            request.game,
            list(request.seats),
            options,
            undo_policy=request.undo_policy or "none",
            metadata=dict(request.metadata),
            seed=seed,
        )
        return created_message(self.app, created)

    async def PlayMove(  # type: ignore[override]
        self, request: Any, context: grpc.aio.ServicerContext[Any, Any]
    ) -> Any:
        """A coroutine: a move of a game this process holds is decided on
        the event loop and waits for its commit holding no thread (the
        thread pool's hop cost more than the move); anything else runs in
        the pool as every other unary call does (``GameLog.play_async``)."""
        try:
            played = await self._play(request, context)
        except Exception as error:
            status = status_for(_refusal(error, "PlayMove"))
            await context.abort(status.code, status.details, status.trailing_metadata)
        return pb.PlayMoveResponse(
            position=played.position,
            records=shown_messages(played.shown),
            replayed=played.replayed,
        )

    async def _play(self, request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        game_id = await self._game_id_on_loop(request.game_id)
        move = parse_json(request.move_json, "move", MAX_MOVE_BYTES)
        if len(request.request_id) > 128:
            raise InvalidArgument("bad-request-id", "a request id is at most 128 characters")
        token = token_of(context)
        at_position = checked_position(request.at_position)
        return await self.app.play_async(
            game_id, token, move, at_position, request.request_id, self.executor
        )

    async def _game_id_on_loop(self, text: str) -> UUID:
        """``resolve_game_id`` for a coroutine: a full id on the loop, a
        short one (looked up in the game index: a store read) off it."""
        try:
            return _full_game_id(text)
        except ValueError:
            return await asyncio.get_running_loop().run_in_executor(
                self.executor, self.app.resolve_game_id, text
            )

    @refusals_as_status
    def GetState(self, request: Any, context: grpc.ServicerContext) -> Any:
        game_id = self.app.resolve_game_id(request.game_id)
        position = (
            checked_position(request.at_position) if request.HasField("at_position") else None
        )
        view = self.app.view(game_id, token_of(context), position, picture=request.picture)
        return state_message(view)

    @refusals_as_status
    def ListLegalMoves(self, request: Any, context: grpc.ServicerContext) -> Any:
        legal = self.app.legal_moves(
            self.app.resolve_game_id(request.game_id), token_of(context), request.seat or None
        )
        return pb.ListLegalMovesResponse(
            seat=legal.seat,
            position=legal.position,
            moves_json=[compact_json(m) for m in legal.moves],
            complete=legal.sample_note is None,
            sample_note=legal.sample_note or "",
        )

    @refusals_as_status
    def ListEvents(self, request: Any, context: grpc.ServicerContext) -> Any:
        to_position = (
            checked_position(request.to_position, "to_position")
            if request.HasField("to_position")
            else None
        )
        shown = self.app.visible_records(
            self.app.resolve_game_id(request.game_id),
            token_of(context),
            checked_position(request.from_position),
            to_position,
        )
        return pb.ListEventsResponse(records=shown_messages(shown))

    @refusals_as_status
    def ListGames(self, request: Any, context: grpc.ServicerContext) -> Any:
        limit = request.limit or 1000  # beyond the range: refused by list_games
        parent = request.parent_game_id
        filters = GameFilter(
            game=request.game,
            status=request.status,
            tags=dict(request.tags),
            player=request.player,
            event=request.event,
            round=request.round,
            tournament_id=request.tournament_id,
            parent_game_id=self.app.resolve_game_id(parent) if parent else None,
        )
        page = self.app.list_games(limit, filters, request.page_token)
        return pb.ListGamesResponse(
            games=[
                pb.GameSummary(
                    game_id=str(s.game_id),
                    game=s.game,
                    rules_version=s.rules_version,
                    seats=s.seats,
                    finished=s.finished,
                    created_at=s.created_at,
                    parent_json=compact_json(s.parent) if s.parent else "",
                    metadata={k: str(v) for k, v in s.metadata.items()},
                    last_position=s.last_position,
                    status=s.status,
                    tournament_id=s.tournament_id,
                )
                for s in page.games
            ],
            next_page_token=page.next_page_token,
        )

    @refusals_as_status
    def TakeBack(self, request: Any, context: grpc.ServicerContext) -> Any:
        outcome = self.app.take_back(
            self.app.resolve_game_id(request.game_id),
            token_of(context),
            request.action or "request",
            checked_position(request.to_position),
            checked_position(request.at_position),
        )
        return pb.TakeBackResponse(
            position=outcome.position,
            taken_back=outcome.taken_back,
            records=shown_messages(outcome.shown),
        )

    @refusals_as_status
    def ForkGame(self, request: Any, context: grpc.ServicerContext) -> Any:
        created = self.app.fork(
            self.app.resolve_game_id(request.game_id),
            token_of(context),
            checked_position(request.at_position),
            keep_seed=request.keep_seed,
            metadata=dict(request.metadata),
            undo_policy=request.undo_policy or None,
        )
        return created_message(self.app, created)

    @refusals_as_status
    def GetTree(self, request: Any, context: grpc.ServicerContext) -> Any:
        root, nodes = self.app.tree(self.app.resolve_game_id(request.game_id))
        return pb.GetTreeResponse(
            root_game_id=str(root),
            nodes=[
                pb.TreeNode(
                    game_id=str(n.game_id),
                    parent_game_id=str(n.parent_game_id) if n.parent_game_id else "",
                    parent_position=n.parent_position,
                    last_position=n.last_position,
                    finished=n.finished,
                )
                for n in nodes
            ],
        )

    @refusals_as_status
    def DiffGames(self, request: Any, context: grpc.ServicerContext) -> Any:
        diff = self.app.diff(
            self.app.resolve_game_id(request.game_id),
            self.app.resolve_game_id(request.other_game_id),
            token_of(context),
        )
        return pb.DiffGamesResponse(
            common_plies=diff.common_plies,
            identical=diff.identical,
            description=diff.description,
        )

    @refusals_as_status
    def AuditGame(self, request: Any, context: grpc.ServicerContext) -> Any:
        game_id = self.app.resolve_game_id(request.game_id)
        report = self.app.audit(game_id, token_of(context))
        return audit_message(str(game_id), report)

    # A coroutine writing with context.write (not an async generator), so that
    # a dropped stream can still end with a status of its own.
    async def FollowGame(  # type: ignore[override]
        self, request: Any, context: grpc.aio.ServicerContext[Any, Any]
    ) -> None:
        try:
            game_id = await self._game_id_on_loop(request.game_id)
            token = token_of(context)
            from_position = checked_position(request.from_position)
            async with self.live.follow(game_id, token, from_position) as subscription:
                try:
                    async for entry in subscription:
                        await context.write(entry_message(entry))
                except asyncio.CancelledError:
                    # Dropped by the fan-out (too slow, or the server is
                    # stopping); anything else that cancels goes on.
                    if subscription.dropped is None:
                        raise
                    task = asyncio.current_task()
                    if task is not None:
                        task.uncancel()
                    raise subscription.dropped from None
        except grpc.aio.BaseError:
            raise  # the transport's own (the client went away): it ends the call
        except Exception as error:
            await _abort_stream(context, error)

    @refusals_as_status
    def ExportGame(self, request: Any, context: grpc.ServicerContext) -> Any:
        game_id, token = self.app.resolve_game_id(request.game_id), token_of(context)
        if request.format == "text":
            return pb.ExportGameResponse(
                text=self.app.export_text(game_id, token, request.redacted)
            )
        if request.format not in ("", "json"):
            raise InvalidArgument("bad-format", 'format is "json" (the record file) or "text"')
        data = self.app.export(game_id, token, request.redacted)
        return pb.ExportGameResponse(record_file_json=compact_json(data))

    @refusals_as_status
    def ImportGame(self, request: Any, context: grpc.ServicerContext) -> Any:
        # A file wraps moves and events in a few levels of its own.
        data = parse_json(
            request.record_file_json, "record-file", MAX_RECORD_FILE_BYTES, depth=MAX_JSON_DEPTH + 8
        )
        imported = self.app.import_record_file(data, token_of(context))
        return pb.ImportGameResponse(
            games=[created_message(self.app, c) for c in imported.games],
            id_map={old: str(new) for old, new in imported.id_map.items()},
            already_stored={
                old: ",".join(str(g) for g in copies)
                for old, copies in imported.already_stored.items()
            },
        )

    def Echo(self, request: Any, context: grpc.ServicerContext) -> Any:
        return pb.EchoResponse(payload=request.payload)


def audit_message(game_id: str, report: AuditReport) -> pb.AuditReport:
    first = report.first_difference
    return pb.AuditReport(
        game_id=game_id,
        ok=report.ok,
        positions_checked=report.positions_checked,
        seed_checked=report.seed_checked,
        failed_position=first.position if first else -1,
        problem=first.problem if first else "",
        stored_json=compact_json(first.stored) if first else "",
        expected_json=compact_json(first.expected) if first else "",
        report_json=compact_json(report.to_json()),
    )


__all__ = ["GameLogServicer", "status_for"]
