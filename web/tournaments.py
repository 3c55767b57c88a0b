"""Tournaments on the page: events, their rounds and tables, and standings.

Events are found from the games' tag pairs, as a director's tables carry them
(Event, Round, Table): each event with its rounds, each round with its
tables, each table a link to its game, with the result of a finished one. An
event run by gamelog's tournaments (its tables were seated by a tournament
here, which the game index names: ``GameSummary.tournament_id``) also shows
its standings, from ``gamelog.v1.Tournaments.GetStandings``; a club's own
event, recorded game by game with tags, shows its tables alone. This module
is the only one the page's tournament view calls.

>>> sorted(["10", "final", "9", "2"], key=natural_key)
['2', '9', '10', 'final']
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

from gamelog.tournaments.points import decimal_number
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import tournaments_pb2 as tpb
from gamelog.web.gateway import Gateway, GatewayError
from gamelog.web.listing import summary_entry

STANDINGS_NOTE = (
    "Standings come from gamelog's tournaments (gamelog.v1.Tournaments); an event whose "
    "tables were recorded one by one, with Event, Round and Table tags, has none."
)
MAX_RESULTS = 300
"""An event's tables beyond this many are listed without their results."""
MAX_TOURNAMENTS = 8
"""The most tournaments one event shows standings for (anyone may create
tournaments under an event's name, so an event's page does not call the
service once per tournament it finds)."""
LISTED_TOURNAMENTS = 100
"""The newest tournaments the events' page lists by id."""
MAX_GAMES = 10_000
"""The most games one view reads (pages of the service's listing)."""
AT_ONCE = 8
"""Tables' states one event's page asks for at a time: all of them at once
(up to ``MAX_RESULTS``) took every worker the server has, for one request
that anyone may send."""


def natural_key(text: str) -> tuple[int, int, str]:
    """Round and table names in their natural order: 2 before 10, names after numbers."""
    # isdecimal, not isdigit: "²" is a digit that int() refuses.
    return (0, int(text), "") if text.isdecimal() else (1, 0, text)


async def _games(gateway: Gateway, event: str = "", tournament: str = "") -> list[dict[str, Any]]:
    """The stored games (of one event, or one tournament's tables, when
    named), newest first."""
    games: list[dict[str, Any]] = []
    page = ""
    while len(games) < MAX_GAMES:
        request = pb.ListGamesRequest(
            limit=1000, event=event, tournament_id=tournament, page_token=page
        )
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
    return {"note": STANDINGS_NOTE, "events": listed, "tournaments": await _tournaments(gateway)}


async def _tournaments(gateway: Gateway) -> list[dict[str, Any]]:
    """gamelog's tournaments, newest first, each by its id: two events of
    one name stay two."""
    request = tpb.ListTournamentsRequest(limit=LISTED_TOURNAMENTS)
    try:
        response = await gateway.call_tournaments("ListTournaments", request)
    except GatewayError:
        return []  # the events from the tags still show
    return [
        {
            "tournament_id": t.tournament_id,
            "name": t.name,
            "game": t.game,
            "site": t.site,
            "dates": t.dates,
            "finished": t.finished,
        }
        for t in response.tournaments
    ]


async def event(gateway: Gateway, name: str, tournament: str = "") -> dict[str, Any]:
    """One event's rounds and tables, each table with its game and result:
    the games tagged with its name, or (``tournament``: an id) the tables
    that one tournament seated, and its standings alone."""
    if tournament:
        about = await gateway.call_tournaments(
            "GetTournament", tpb.GetTournamentRequest(tournament_id=tournament)
        )
        tournament, name = about.tournament_id, about.name
    games = await _games(gateway, "" if tournament else name, tournament)
    if not games and not tournament:
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
    # The tournaments with the most tables first: another tournament under the
    # same Event name with a table or two does not push out the one that holds
    # the event. A table's tournament is the one that seated it (by its id
    # here, from the game index), not its Tournament tag: anyone may tag a
    # game, and an imported tournament's tags name where it was created.
    tables = Counter(g["tournament_id"] for g in games if g["tournament_id"])
    named = sorted(sorted(tables, key=lambda t: (-tables[t], t))[:MAX_TOURNAMENTS])
    if tournament:
        named = [tournament]
    return {
        "name": name,
        "tournament_id": tournament,
        "note": STANDINGS_NOTE,
        "standings": list(await asyncio.gather(*(standings(gateway, t) for t in named))) or None,
        "rounds": [
            {"round": key, "tables": sorted(tables, key=lambda t: natural_key(t["table"]))}
            for key, tables in sorted(rounds.items(), key=lambda item: natural_key(item[0]))
        ],
    }


async def _results(games: list[dict[str, Any]], gateway: Gateway) -> dict[str, Any]:
    """The result of each finished game, as a spectator sees it."""

    turns = asyncio.Semaphore(AT_ONCE)

    async def result_of(game_id: str) -> tuple[str, Any]:
        request = pb.GetStateRequest(game_id=game_id)
        try:
            async with turns:
                state = await gateway.call("GetState", request)
        except GatewayError:
            return game_id, None  # a damaged table must not hide the others
        return game_id, json.loads(state.result_json) if state.result_json else None

    return dict(await asyncio.gather(*(result_of(g["game_id"]) for g in games)))


async def standings(gateway: Gateway, tournament_id: str) -> dict[str, Any]:
    """One tournament's standings, as the service computes them from its records."""
    request = tpb.GetStandingsRequest(tournament_id=tournament_id)
    try:
        answer, about = await asyncio.gather(
            gateway.call_tournaments("GetStandings", request),
            gateway.call_tournaments(
                "GetTournament", tpb.GetTournamentRequest(tournament_id=tournament_id)
            ),
        )
    except GatewayError as error:
        return {"tournament_id": tournament_id, "error": error.message, "rows": []}
    rated = await ratings_of(gateway, about.game)
    return {
        "tournament_id": tournament_id,
        "name": about.name,
        "finished": about.finished,
        "rounds": len(about.rounds),
        "tiebreaks": list(answer.tiebreaks),
        "rows": [
            {
                "place": s.place,
                "player": s.player,
                "name": s.name,
                "points": decimal_number(s.points),
                "tiebreaks": [decimal_number(t) for t in s.tiebreaks],
                "by_round": [decimal_number(p) if p else None for p in s.by_round],
                "rating": rated.get(s.player),
            }
            for s in answer.standings
        ],
    }


async def ratings_of(gateway: Gateway, game: str) -> dict[str, float]:
    """Each player's rating at ``game`` (across events; ``ListRatings``), rounded
    to hundredths; an unrated player is not in it. Empty if the service says no."""
    request = tpb.ListRatingsRequest(filter=tpb.RatingFilter(game=game), limit=10_000)
    try:
        found = await gateway.call_tournaments("ListRatings", request)
    except GatewayError:
        return {}  # the standings stand without their ratings
    return {r.player: round(r.rating, 2) for r in found.ratings}
