"""The event view's standings, against a stand-in gateway (no server)."""

from __future__ import annotations

import asyncio
from typing import Any

from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import tournaments_pb2 as tpb
from gamelog.web import tournaments


class FakeGateway:
    """ListGames answers ``games``; every Tournaments call is counted."""

    def __init__(self, games: list[Any]) -> None:
        self.games = games
        self.standings_asked: list[str] = []

    async def call(self, name: str, request: Any, token: str | None = None) -> Any:
        assert name == "ListGames"
        wanted = request.tournament_id
        return pb.ListGamesResponse(
            games=[g for g in self.games if not wanted or g.tournament_id == wanted]
        )

    async def call_tournaments(self, name: str, request: Any, token: str | None = None) -> Any:
        if name == "ListTournaments":
            return tpb.ListTournamentsResponse(
                tournaments=[
                    tpb.TournamentSummary(tournament_id=t, name="Open")
                    for t in sorted({g.tournament_id for g in self.games if g.tournament_id})
                ]
            )
        if name == "GetStandings":
            self.standings_asked.append(request.tournament_id)
            return tpb.GetStandingsResponse()
        if name == "ListRatings":
            return tpb.ListRatingsResponse()
        return tpb.Tournament(tournament_id=request.tournament_id, name="x")


def game(number: int, tournament: str, tag: str | None = None) -> Any:
    """A table of ``tournament`` (its id here, as the game index has it),
    tagged with ``tag`` (default: the same id)."""
    tags = {"Event": "Open", "Round": "1", "Table": str(number)}
    tags["Tournament"] = tournament if tag is None else tag
    return pb.GameSummary(
        game_id=f"g{number}",
        game="freeform",
        seats=["a", "b"],
        metadata=tags,
        tournament_id=tournament,
    )


def test_other_tournaments_under_the_name_do_not_fan_out_or_push_out_the_real_one() -> None:
    real = [game(n, "real") for n in range(3)]
    stray = [game(100 + n, f"a-stray-{n:03}") for n in range(50)]
    gateway = FakeGateway(real + stray)
    found = asyncio.run(tournaments.event(gateway, "Open"))  # type: ignore[arg-type]
    assert len(gateway.standings_asked) == tournaments.MAX_TOURNAMENTS
    assert "real" in gateway.standings_asked
    assert [s["tournament_id"] for s in found["standings"]] == sorted(gateway.standings_asked)


def test_standings_come_from_the_tournament_that_seated_the_tables_not_their_tags() -> None:
    """An imported tournament's tables name where it was created in their
    tag; a game anyone tagged names a tournament that never seated it.
    Only the tournament here that seated a table (the game index's) is asked."""
    imported = [game(n, "here", tag="where-it-was-created") for n in range(3)]
    tagged = game(9, "", tag="here")
    gateway = FakeGateway([*imported, tagged])
    found = asyncio.run(tournaments.event(gateway, "Open"))  # type: ignore[arg-type]
    assert gateway.standings_asked == ["here"]
    assert [s["tournament_id"] for s in found["standings"]] == ["here"]


def test_a_round_tag_int_refuses_does_not_break_the_event_list() -> None:
    """Anyone may tag a game: a Round of "²" (a digit to str.isdigit, not to
    int) is sorted as a word, and every event is still listed."""
    gateway = FakeGateway([game(1, "real"), game(2, "real")])
    gateway.games[1].metadata["Round"] = "²"
    listed = asyncio.run(tournaments.events(gateway))  # type: ignore[arg-type]
    assert listed["events"][0]["rounds"] == ["1", "²"]
    found = asyncio.run(tournaments.event(gateway, "Open"))  # type: ignore[arg-type]
    assert [r["round"] for r in found["rounds"]] == ["1", "²"]


def test_two_tournaments_of_one_name_are_listed_and_shown_apart_by_id() -> None:
    gateway = FakeGateway([game(1, "first"), game(2, "first"), game(3, "second")])
    listed = asyncio.run(tournaments.events(gateway))  # type: ignore[arg-type]
    assert [t["tournament_id"] for t in listed["tournaments"]] == ["first", "second"]
    assert {t["name"] for t in listed["tournaments"]} == {"Open"}
    second = asyncio.run(tournaments.event(gateway, "", "second"))  # type: ignore[arg-type]
    assert second["tournament_id"] == "second"
    assert [t["game_id"] for r in second["rounds"] for t in r["tables"]] == ["g3"]
    assert gateway.standings_asked == ["second"]
