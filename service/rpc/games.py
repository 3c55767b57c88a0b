"""The gRPC adapter of ``gamelog.v1.GameLog``: each call onto one use case.

A call reads its token and fields (``requests``), calls one use case of the
``GameLog`` application, and builds its answer (``messages``); a refusal
becomes its status (``status``, applied to every method as it is registered:
``handlers.serve``). gRPC types stop here: the use cases and the games
never see them.

Served by ``grpc.aio``: the plain methods run in the server's thread pool;
``PlayMove`` is a coroutine that decides a move on the event loop where it
can (``PlayOnLoop``) and hands the rest to the pool; ``FollowGame`` is a
coroutine on the loop and holds no thread; ``Play``, one stream for moves,
take-backs and records, is a coroutine too (``play``, ``live.play_session``).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from typing import Any
from uuid import UUID

import grpc

from gamelog.replay.record import compact_json
from gamelog.service.index.view import GameFilter
from gamelog.service.live.follow import LiveFollow
from gamelog.service.live.play_session import Answer, PlaySession
from gamelog.service.model.refusals import InvalidArgument
from gamelog.service.rpc.client_json import MAX_JSON_DEPTH, parse_json
from gamelog.service.rpc.messages import (
    audit_message,
    created_message,
    entry_message,
    shown_messages,
    state_message,
    summary_message,
)
from gamelog.service.rpc.play import answer_message, requests_of
from gamelog.service.rpc.requests import (
    MAX_MOVE_BYTES,
    MAX_RECORD_FILE_BYTES,
    checked_position,
    checked_request_id,
    full_game_id,
    options_and_seed,
    token_of,
)
from gamelog.service.usecases.application import GameLog
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

SERVICE = pb.DESCRIPTOR.services_by_name["GameLog"]
Context = grpc.ServicerContext
AsyncContext = grpc.aio.ServicerContext[Any, Any]


class GameLogServicer(pb_grpc.GameLogServicer):
    def __init__(self, app: GameLog, live: LiveFollow, executor: Executor | None = None) -> None:
        self.app = app
        self.live = live
        self.executor = executor
        """The server's thread pool, for what a coroutine hands off."""

    def ListGameTypes(self, request: Any, context: Context) -> Any:
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
                for r in self.app.queries.game_types()
            ]
        )

    def CreateGame(self, request: Any, context: Context) -> Any:
        options, seed = options_and_seed(request.options_json, request.seed_hex)
        created = self.app.games.create_game(
            request.game,
            list(request.seats),
            options,
            undo_policy=request.undo_policy or "none",
            metadata=dict(request.metadata),
            seed=seed,
        )
        return created_message(created)

    async def PlayMove(self, request: Any, context: AsyncContext) -> Any:  # type: ignore[override]
        game_id = await self._game_id_on_loop(request.game_id)
        move = parse_json(request.move_json, "move", MAX_MOVE_BYTES)
        request_id = checked_request_id(request.request_id)
        token = token_of(context)
        at_position = checked_position(request.at_position)
        played = await self.app.play_on_loop.play(
            game_id, token, move, at_position, request_id, self.executor, request.seat
        )
        return pb.PlayMoveResponse(
            position=played.position,
            records=shown_messages(played.shown),
            replayed=played.replayed,
        )

    async def _game_id_on_loop(self, text: str) -> UUID:
        """A game id for a coroutine: a full id on the loop, a short one
        (looked up in the game index: a store read) off it."""
        try:
            return full_game_id(text)
        except ValueError:
            return await asyncio.get_running_loop().run_in_executor(
                self.executor, self.app.listing.resolve_game_id, text
            )

    def GetState(self, request: Any, context: Context) -> Any:
        game_id = self.app.listing.resolve_game_id(request.game_id)
        position = (
            checked_position(request.at_position) if request.HasField("at_position") else None
        )
        view = self.app.queries.view(game_id, token_of(context), position, picture=request.picture)
        return state_message(view)

    def ListLegalMoves(self, request: Any, context: Context) -> Any:
        legal = self.app.queries.legal_moves(
            self.app.listing.resolve_game_id(request.game_id),
            token_of(context),
            request.seat or None,
        )
        return pb.ListLegalMovesResponse(
            seat=legal.seat,
            position=legal.position,
            moves_json=[compact_json(m) for m in legal.moves],
            complete=legal.sample_note is None,
            sample_note=legal.sample_note or "",
        )

    def ListEvents(self, request: Any, context: Context) -> Any:
        to_position = (
            checked_position(request.to_position, "to_position")
            if request.HasField("to_position")
            else None
        )
        shown = self.app.queries.visible_records(
            self.app.listing.resolve_game_id(request.game_id),
            token_of(context),
            checked_position(request.from_position),
            to_position,
        )
        return pb.ListEventsResponse(records=shown_messages(shown))

    def ListGames(self, request: Any, context: Context) -> Any:
        limit = request.limit or 1000  # beyond the range: refused by list_games
        parent = request.parent_game_id
        filters = GameFilter(
            game=request.game,
            status=request.status,
            tags=dict(request.tags),
            player=request.player,
            event=request.event,
            round=request.round,
            # A short tournament id names its tournament here as in every call.
            tournament_id=(
                str(self.app.tournament_listing.resolve_tournament_id(request.tournament_id))
                if request.tournament_id
                else ""
            ),
            parent_game_id=self.app.listing.resolve_game_id(parent) if parent else None,
        )
        page = self.app.listing.list_games(limit, filters, request.page_token)
        return pb.ListGamesResponse(
            games=[summary_message(s) for s in page.games],
            next_page_token=page.next_page_token,
        )

    def TakeBack(self, request: Any, context: Context) -> Any:
        outcome = self.app.games.take_back(
            self.app.listing.resolve_game_id(request.game_id),
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

    def ForkGame(self, request: Any, context: Context) -> Any:
        created = self.app.games.fork(
            self.app.listing.resolve_game_id(request.game_id),
            token_of(context),
            checked_position(request.at_position),
            keep_seed=request.keep_seed,
            metadata=dict(request.metadata),
            undo_policy=request.undo_policy or None,
        )
        return created_message(created)

    def GetTree(self, request: Any, context: Context) -> Any:
        root, nodes = self.app.listing.tree(self.app.listing.resolve_game_id(request.game_id))
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

    def DiffGames(self, request: Any, context: Context) -> Any:
        diff = self.app.queries.diff(
            self.app.listing.resolve_game_id(request.game_id),
            self.app.listing.resolve_game_id(request.other_game_id),
            token_of(context),
        )
        return pb.DiffGamesResponse(
            common_plies=diff.common_plies,
            identical=diff.identical,
            description=diff.description,
        )

    def AuditGame(self, request: Any, context: Context) -> Any:
        game_id = self.app.listing.resolve_game_id(request.game_id)
        report = self.app.queries.audit(game_id, token_of(context))
        return audit_message(str(game_id), report)

    # A coroutine writing with context.write (not an async generator), so that
    # a dropped stream can still end with a status of its own.
    async def FollowGame(self, request: Any, context: AsyncContext) -> None:  # type: ignore[override]
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

    def ExportGame(self, request: Any, context: Context) -> Any:
        game_id = self.app.listing.resolve_game_id(request.game_id)
        token = token_of(context)
        files = self.app.record_files
        if request.format == "text":
            return pb.ExportGameResponse(text=files.export_text(game_id, token, request.redacted))
        if request.format not in ("", "json"):
            raise InvalidArgument("bad-format", 'format is "json" (the record file) or "text"')
        data = files.export(game_id, token, request.redacted)
        return pb.ExportGameResponse(record_file_json=compact_json(data))

    def ImportGame(self, request: Any, context: Context) -> Any:
        # A file wraps moves and events in a few levels of its own.
        data = parse_json(
            request.record_file_json, "record-file", MAX_RECORD_FILE_BYTES, depth=MAX_JSON_DEPTH + 8
        )
        imported = self.app.record_files.import_record_file(data, token_of(context))
        return pb.ImportGameResponse(
            games=[created_message(c) for c in imported.games],
            id_map={old: str(new) for old, new in imported.id_map.items()},
            already_stored={
                old: ",".join(str(g) for g in copies)
                for old, copies in imported.already_stored.items()
            },
        )

    def Echo(self, request: Any, context: Context) -> Any:
        return pb.EchoResponse(payload=request.payload)

    def GetSigningKey(self, request: Any, context: Context) -> Any:
        keys = self.app.signing.keys
        current = keys.current
        retired = {k: p for k, p in keys.public_keys().items() if k != current.key_id}
        return pb.GetSigningKeyResponse(
            key_id=current.key_id, public_key=current.public_key, retired=retired
        )

    # Requests read as they come, answers written with context.write, as
    # FollowGame writes: a stream that must end early ends with a status.
    async def Play(self, requests: Any, context: AsyncContext) -> None:  # type: ignore[override]
        async def send(answer: Answer) -> None:
            await context.write(answer_message(answer))

        session = PlaySession(self.app, self.live, self.executor, send)
        await session.run(requests_of(requests, token_of(context), self.app, self.executor))
