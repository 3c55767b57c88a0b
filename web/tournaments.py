"""Tournaments on the page: events, their rounds and tables, and standings.

The service's API has no ``gamelog.v1.Tournaments`` service yet, so this
module builds what it can from the games' tag pairs, as a director's tables
carry them (Event, Round, Table): each event with its rounds, each round with
its tables, each table a link to its game, with the result of a finished one.
Standings need the Tournaments service; until the API has it the page says so.
This module is the only one the page's tournament view calls, so wiring in
that service (standings, rounds, tables by tournament id) happens here.

>>> sorted(["10", "final", "9", "2"], key=natural_key)
['2', '9', '10', 'final']
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc
from gamelog.web.gateway import Gateway, GatewayError
from gamelog.web.listing import summary_entry

HAS_SERVICE = hasattr(pb_grpc, "TournamentsStub")
STANDINGS_NOTE = (
    "Standings come from the gamelog.v1.Tournaments service"
    + (
        ", which this page does not call yet."
        if HAS_SERVICE
        else ", which this server's API does not have yet."
    )
    + " Rounds and tables below are grouped from the games' Event, Round and Table tags."
)
MAX_RESULTS = 300
"""An event's tables beyond this many are listed without their results."""
MAX_GAMES = 10_000
"""The most games one view reads (pages of the service's listing)."""


def natural_key(text: str) -> tuple[int, int, str]:
    """Round and table names in their natural order: 2 before 10, names after numbers."""
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


async def _games(gateway: Gateway, event: str = "") -> list[dict[str, Any]]:
    """The stored games (of one event, when named), newest first."""
    games: list[dict[str, Any]] = []
    page = ""
    while len(games) < MAX_GAMES:
        request = pb.ListGamesRequest(limit=1000, event=event, page_token=page)
        response = await gateway.call("ListGames", request)
        games.extend(summary_entry(s) for s in response.games)
        page = response.next_page_token
        if not page:
            break
    return games


async def events(gateway: Gateway) -> dict[str, Any]:
    """Every Event tag with its number of games and rounds."""
    found: dict[str, dict[str, Any]] = {}
    for game in await _games(gateway):
        name = game["tags"].get("Event")
        if not name:
            continue
        event = found.setdefault(name, {"name": name, "games": 0, "rounds": set(), "running": 0})
        event["games"] += 1
        event["running"] += 0 if game["finished"] else 1
        if game["tags"].get("Round"):
            event["rounds"].add(game["tags"]["Round"])
    listed = [
        {**e, "rounds": sorted(e["rounds"], key=natural_key)}
        for e in sorted(found.values(), key=lambda e: e["name"])
    ]
    return {"service": HAS_SERVICE, "note": STANDINGS_NOTE, "events": listed}


async def event(gateway: Gateway, name: str) -> dict[str, Any]:
    """One event's rounds and tables, each table with its game and result."""
    games = await _games(gateway, name)
    if not games:
        raise GatewayError("NOT_FOUND", "no-such-event", f"no game carries the Event tag {name!r}")
    results = await _results([g for g in games if g["finished"]][:MAX_RESULTS], gateway)
    rounds: dict[str, list[dict[str, Any]]] = {}
    for game in games:
        rounds.setdefault(game["tags"].get("Round", ""), []).append(
            {
                "table": game["tags"].get("Table", ""),
                "game_id": game["game_id"],
                "game": game["game"],
                "seats": game["seats"],
                "finished": game["finished"],
                "result": results.get(game["game_id"]),
            }
        )
    return {
        "name": name,
        "service": HAS_SERVICE,
        "note": STANDINGS_NOTE,
        "standings": None,
        "rounds": [
            {"round": key, "tables": sorted(tables, key=lambda t: natural_key(t["table"]))}
            for key, tables in sorted(rounds.items(), key=lambda item: natural_key(item[0]))
        ],
    }


async def _results(games: list[dict[str, Any]], gateway: Gateway) -> dict[str, Any]:
    """The result of each finished game, as a spectator sees it."""

    async def result_of(game_id: str) -> tuple[str, Any]:
        request = pb.GetStateRequest(game_id=game_id)
        try:
            state = await gateway.call("GetState", request)
        except GatewayError:
            return game_id, None  # a damaged table must not hide the others
        return game_id, json.loads(state.result_json) if state.result_json else None

    return dict(await asyncio.gather(*(result_of(g["game_id"]) for g in games)))
