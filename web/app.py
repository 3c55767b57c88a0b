"""The web front end as a Starlette application: the page, and a small JSON API.

Everything under ``/api`` answers one call to the gamelog service with the
caller's token, which the page sends in an ``Authorization: Bearer`` header
on each request. Tokens are never part of a URL, so no access log can print
one, and the front end keeps none: it has no sessions and no cookies.

    GET  /                               the page
    GET  /static/...                     its scripts, styles and icon
    GET  /api/game-types                 the games the server knows
    GET  /api/games?game=&event=&round=&status=&player=&tag=K=V&page=   the game list
    GET  /api/games/{id}/state?at=N      a position: picture, who acts, result
    GET  /api/games/{id}/records?from=N  the move list in the game's notation
    GET  /api/games/{id}/follow?from=N   server-sent events: records as stored
    GET  /api/games/{id}/tree            the game's tree of branches
    POST /api/games/{id}/fork            {"at": N}: a new game from position N
    GET  /api/games/{id}/table?seat=S    the caller's view now and its legal moves
    POST /api/games/{id}/moves           {"move", "at", "request_id", "seat"?}: play a move
                                         (the arbiter: on ``seat``'s behalf)
    POST /api/games/{id}/takeback        {"action", "to", "at"}: ask, answer, order
    POST /api/games                      {"game", "seats", "tags", "options", "undo_policy"}
    POST /api/qr                         {"text": link}: the link as a QR code (SVG)
    GET  /api/events                     tournaments (events) from the games' tags
    GET  /api/event?name=E               one event's rounds and tables
    GET  /api/event?tournament=ID        one tournament's rounds, tables and standings

>>> token_from("Bearer abc"), token_from(None)
('abc', None)
>>> position_from("12", "at"), position_from(None, "at")
(12, None)
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gamelog.v1 import gamelog_pb2 as pb
from gamelog.web import listing, tournaments
from gamelog.web.gateway import Gateway, GatewayError
from gamelog.web.links import qr_svg
from gamelog.web.sharing import SharedCalls
from gamelog.web.streaming import (
    MAX_STREAMS,
    STALL_SECONDS,
    LiveResponse,
    StreamSlots,
    follow_events,
)

STATIC = Path(str(resources.files("gamelog.web") / "static"))
MAX_PLAYER_NAME = 200
"""The longest player (seat) name a player page is asked for."""
GAME_ID = re.compile(r"[0-9A-Za-z-]{1,64}")
TOKEN = re.compile(r"[\x21-\x7e]{1,512}")
MAX_POSITION = 2**40
MAX_BODY_BYTES = 1024
"""The largest body a POST may send by default (a fork's ``{"at": N}`` is a dozen bytes)."""
MAX_MOVE_BYTES = 64 * 1024
"""A move's or a new game's body: a Panem trade or an explicit deal is a few kB."""
UNDO_ACTIONS = ("request", "approve", "decline")
REQUEST_ID = re.compile(r"[0-9A-Za-z_-]{0,64}")

SECURITY_HEADERS = {
    # Only the page's own files run: a picture holding markup from a move
    # (a freeform note, a seat's name) can never execute anything.
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def bad_request(reason: str, message: str) -> GatewayError:
    return GatewayError("INVALID_ARGUMENT", reason, message)


def token_from(header: str | None) -> str | None:
    """The caller's token from ``Authorization: Bearer <token>``; None: a spectator."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not TOKEN.fullmatch(token):
        raise bad_request("bad-authorization", 'send "Authorization: Bearer <token>"')
    return token


def position_from(text: str | None, name: str) -> int | None:
    if text is None or text == "":
        return None
    # isdecimal, not isdigit: "²" is a digit that int() refuses (a 500, not a 400).
    if not text.isdecimal() or int(text) > MAX_POSITION:
        raise bad_request("bad-position", f"{name} is a position: a whole number from 0")
    return int(text)


def game_id_of(request: Request) -> str:
    game_id = str(request.path_params["game_id"])
    if not GAME_ID.fullmatch(game_id):
        raise bad_request("bad-game-id", "a game id is letters, digits and dashes")
    return game_id


def caller(request: Request) -> str | None:
    return token_from(request.headers.get("authorization"))


def gateway_of(request: Request) -> Gateway:
    gateway: Gateway = request.app.state.gateway
    return gateway


# -- routes ----------------------------------------------------------------------------


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def game_types(request: Request) -> Response:
    return JSONResponse(await gateway_of(request).game_types())


async def games(request: Request) -> Response:
    wanted = listing.GameFilter.from_query(
        request.query_params, request.query_params.getlist("tag")
    )
    return JSONResponse(await listing.list_games(gateway_of(request), wanted))


async def state(request: Request) -> Response:
    at = position_from(request.query_params.get("at"), "at")
    return JSONResponse(await gateway_of(request).state(game_id_of(request), caller(request), at))


async def records(request: Request) -> Response:
    start = position_from(request.query_params.get("from"), "from") or 0
    found = await gateway_of(request).records(game_id_of(request), caller(request), start)
    return JSONResponse(found)


async def follow(request: Request) -> Response:
    game_id, token = game_id_of(request), caller(request)
    start = position_from(request.query_params.get("from"), "from") or 0
    # Refuse a bad game or token with a status, before the stream starts.
    await gateway_of(request).viewer(game_id, token)
    slots: StreamSlots = request.app.state.stream_slots
    slots.take()  # given back by the response, however it ends
    return LiveResponse(
        follow_events(gateway_of(request), game_id, token, start),
        slots,
        request.app.state.stream_stall,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def tree(request: Request) -> Response:
    return JSONResponse(await gateway_of(request).tree(game_id_of(request)))


async def json_body(request: Request, limit: int = MAX_BODY_BYTES) -> Any:
    """A POST's body: a small JSON text, sent as JSON from this page.

    Only a page of this front end's own origin can send ``Content-Type:
    application/json`` here: another site's page would need a CORS
    preflight, which the front end never grants; a form or a plain
    ``fetch`` from it sends ``text/plain``, which is refused before any gRPC
    call (CSRF). The body is read up to ``MAX_BODY_BYTES`` only: a bigger
    one (or a deep nesting of brackets, which made ``json.loads`` raise
    ``RecursionError``: a 500) is refused."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind != "application/json":
        raise GatewayError(
            "INVALID_ARGUMENT", "not-json", "send the body as application/json", status=415
        )
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
        raise GatewayError("PERMISSION_DENIED", "cross-origin", "a call from another site")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise GatewayError(
                "RESOURCE_EXHAUSTED",
                "body-too-large",
                f"a body is at most {limit} bytes",
                status=413,
            )
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise bad_request("bad-body", "the body is not JSON") from None


async def fork(request: Request) -> Response:
    body = await json_body(request)
    at = body.get("at") if isinstance(body, dict) else None
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= MAX_POSITION:
        raise bad_request("bad-position", 'send {"at": N}, a position from 0')
    created = await gateway_of(request).fork(game_id_of(request), caller(request), at)
    return JSONResponse(created)


def whole_number(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_POSITION:
        raise bad_request("bad-position", f"{name} is a position: a whole number from 0")
    return value


async def table(request: Request) -> Response:
    seat = request.query_params.get("seat", "")
    if len(seat) > 64:
        raise bad_request("bad-seat", "a seat name is at most 64 characters")
    found = await gateway_of(request).table(game_id_of(request), caller(request), seat)
    return JSONResponse(found)


async def play(request: Request) -> Response:
    body = await json_body(request, MAX_MOVE_BYTES)
    if not isinstance(body, dict) or "move" not in body:
        raise bad_request("bad-body", 'send {"move": ..., "at": N, "request_id": "..."}')
    at = whole_number(body.get("at"), "at")
    request_id = body.get("request_id", "")
    if not isinstance(request_id, str) or not REQUEST_ID.fullmatch(request_id):
        raise bad_request("bad-request-id", "a request id is up to 64 letters, digits, - and _")
    seat = body.get("seat", "")
    if not isinstance(seat, str) or len(seat) > 64:
        raise bad_request("bad-seat", "a seat is a name of up to 64 characters")
    played = await gateway_of(request).play(
        game_id_of(request), caller(request), body["move"], at, request_id, seat
    )
    return JSONResponse(played)


async def take_back(request: Request) -> Response:
    body = await json_body(request)
    action = body.get("action") if isinstance(body, dict) else None
    if action not in UNDO_ACTIONS:
        raise bad_request("bad-action", "action is request, approve or decline")
    at = whole_number(body.get("at"), "at")
    to = whole_number(body.get("to", 0), "to")
    answered = await gateway_of(request).take_back(
        game_id_of(request), caller(request), str(action), to, at
    )
    return JSONResponse(answered)


async def create(request: Request) -> Response:
    body = await json_body(request, MAX_MOVE_BYTES)
    if not isinstance(body, dict):
        raise bad_request("bad-body", "send the new game as a JSON object")
    game, seats = body.get("game"), body.get("seats")
    tags, options = body.get("tags", {}), body.get("options", {})
    undo_policy = body.get("undo_policy", "none")
    if not isinstance(game, str) or not game:
        raise bad_request("bad-game", "name the game")
    if not isinstance(seats, list) or not all(isinstance(seat, str) for seat in seats):
        raise bad_request("bad-seats", "seats are a list of names")
    if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
        raise bad_request("bad-metadata", "tags are names with one line of text each")
    if not isinstance(options, dict):
        raise bad_request("bad-option", "options are a JSON object")
    if undo_policy not in ("none", "consent", "arbiter", "free"):
        raise bad_request("bad-undo-policy", "the undo policy is none, consent, arbiter or free")
    created = await gateway_of(request).create(
        pb.CreateGameRequest(
            game=game,
            seats=seats,
            options_json=json.dumps(options),
            undo_policy=undo_policy,
            metadata=tags,
        )
    )
    return JSONResponse(created)


async def qr(request: Request) -> Response:
    """A link as a QR code. The link (it holds a token) comes in the body,
    never in the URL, so no log keeps it; the answer is not cached."""
    body = await json_body(request)
    text = body.get("text") if isinstance(body, dict) else None
    if not isinstance(text, str):
        raise bad_request("bad-text", 'send {"text": link}')
    try:
        return JSONResponse({"svg": qr_svg(text)})
    except ValueError as error:
        raise bad_request("bad-text", str(error)) from None


async def event_list(request: Request) -> Response:
    shared: SharedCalls = request.app.state.shared
    gateway = gateway_of(request)
    return JSONResponse(await shared.call("events", lambda: tournaments.events(gateway)))


async def event(request: Request) -> Response:
    name = request.query_params.get("name", "")
    tournament = request.query_params.get("tournament", "")
    if not name and not tournament:
        raise bad_request(
            "bad-event", "name the event: /api/event?name=... or /api/event?tournament=ID"
        )
    shared: SharedCalls = request.app.state.shared
    gateway = gateway_of(request)
    return JSONResponse(
        await shared.call(
            ("event", name, tournament), lambda: tournaments.event(gateway, name, tournament)
        )
    )


async def round_sheet(request: Request) -> Response:
    """A round on paper (web/sheets.py): ``pairings`` for the wall or ``slips``."""
    from gamelog.v1 import tournaments_pb2 as tpb
    from gamelog.web import sheets

    draw = {"pairings": sheets.pairing_list, "slips": sheets.result_slips}.get(
        request.path_params["sheet"]
    )
    tournament_id = str(request.path_params["tournament_id"])
    if draw is None or not GAME_ID.fullmatch(tournament_id):
        raise GatewayError("NOT_FOUND", "no-such-sheet", "a round's sheets: pairings or slips")
    number = position_from(request.path_params["number"], "round") or 0
    ask = tpb.GetTournamentRequest(tournament_id=tournament_id)
    found = await gateway_of(request).call_tournaments("GetTournament", ask)
    try:
        return HTMLResponse(draw(found, number), headers={"Cache-Control": "no-cache"})
    except LookupError as error:
        raise GatewayError("NOT_FOUND", "no-such-round", str(error)) from None


async def player(request: Request) -> Response:
    """A player's ratings with their history as a chart (web/players.py)."""
    from gamelog.v1 import tournaments_pb2 as tpb
    from gamelog.web.players import player_page

    name = str(request.path_params["player"])
    if not 0 < len(name) <= MAX_PLAYER_NAME:
        raise bad_request("bad-player", f"a player's name is 1 to {MAX_PLAYER_NAME} characters")
    ask = tpb.GetPlayerRatingsRequest(player=name)
    found = await gateway_of(request).call_tournaments("GetPlayerRatings", ask)
    return HTMLResponse(player_page(name, found), headers={"Cache-Control": "no-cache"})


async def refused(request: Request, error: Exception) -> Response:
    assert isinstance(error, GatewayError)
    return JSONResponse({"error": error.to_json()}, status_code=error.http_status)


# -- the application -------------------------------------------------------------------


class Headers:
    """Security headers on every answer; API answers are never cached, since
    what they hold depends on the token."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_api = scope["path"].startswith("/api/")

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                extra = dict(SECURITY_HEADERS)
                if is_api:
                    extra.setdefault("Cache-Control", "no-store")
                present = {name.lower() for name, _ in headers}
                for name, value in extra.items():
                    if name.lower().encode() not in present:
                        headers.append((name.lower().encode(), value.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    server: str,
    ca: str | None = None,
    hosts: list[str] | None = None,
    max_streams: int = MAX_STREAMS,
    stall: float = STALL_SECONDS,
) -> Starlette:
    """The front end for the gamelog server at ``server`` (host:port).

    ``hosts``: the host names the page may be reached by (a page bound to
    localhost refuses other names, so no other site can rebind its name to it).
    ``max_streams``: live streams held at once; ``stall``: seconds one write
    to a page may wait before its stream is dropped.
    """
    gateway = Gateway(server, ca)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await gateway.open()
        app.state.gateway = gateway
        app.state.stream_slots = StreamSlots(max_streams)
        app.state.stream_stall = stall
        app.state.shared = SharedCalls()
        try:
            yield
        finally:
            await gateway.close()

    routes = [
        Route("/", page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/game-types", game_types),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/games/{game_id}/state", state),
        Route("/api/games/{game_id}/records", records),
        Route("/api/games/{game_id}/follow", follow),
        Route("/api/games/{game_id}/tree", tree),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game_id}/fork", fork, methods=["POST"]),
        Route("/api/games/{game_id}/table", table),
        Route("/api/games/{game_id}/moves", play, methods=["POST"]),
        Route("/api/games/{game_id}/takeback", take_back, methods=["POST"]),
        Route("/api/qr", qr, methods=["POST"]),
        Route("/api/events", event_list),
        Route("/api/event", event),
        Route("/tournaments/{tournament_id}/rounds/{number}/{sheet:str}", round_sheet),
        Route("/players/{player:str}", player),
    ]
    middleware = [Middleware(Headers)]
    if hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=hosts))
    return Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={GatewayError: refused},
        lifespan=lifespan,
    )
