"""Registering players from a director's CSV file (issue 31.5), through the CLI."""

from __future__ import annotations

from pathlib import Path

from gamelog.cli.process import ServerProcess
from gamelog.cli.tournament_client import TournamentClient

from support.cli import gamelog, gamelog_json


def _tournament(server: ServerProcess) -> tuple[str, str]:
    created = gamelog_json(
        server, "tournament", "new", "CSV night", "--game", "freeform", "--rounds", "1"
    )
    return created["tournament_id"], created["director_token"]


def test_players_register_from_a_csv_file_with_club_and_rating(
    memory_server: ServerProcess, tmp_path: Path
) -> None:
    tid, director = _tournament(memory_server)
    sheet = tmp_path / "players.csv"
    sheet.write_text("Name,Rating,Club\nAnn Smith,1850,Oslo SK\nBen Jones,,\n\nCy Young,1400,\n")
    rows = gamelog_json(
        memory_server, "tournament", "register", tid, "--csv", str(sheet), "--token", director
    )
    assert [(r["name"], r["club"], r["rating"]) for r in rows] == [
        ("Ann Smith", "Oslo SK", 1850),
        ("Ben Jones", None, None),
        ("Cy Young", None, 1400),
    ]
    with TournamentClient(memory_server.address) as client:
        players = {p.name: p for p in client.tournament(tid).players}
        assert players["Ann Smith"].club == "Oslo SK" and players["Ann Smith"].rating == 1850
        assert not players["Ben Jones"].HasField("rating")
        registered = client.tournament_records(tid)[1]["player"]
        assert registered == {
            "id": "ann-smith",
            "name": "Ann Smith",
            "rating": 1850,
            "club": "Oslo SK",
        }
    said = gamelog(
        memory_server, "tournament", "register", tid, "--csv", str(sheet), "--token", director
    ).stdout
    assert "registered 3 player(s)" in said  # the same names again: new ids


def test_a_bad_row_names_its_line_and_registers_nobody(
    memory_server: ServerProcess, tmp_path: Path
) -> None:
    tid, director = _tournament(memory_server)
    bad = {
        "rating.csv": ("name,rating\nAnn,1850\nBen,strong\n", "line 3: rating 'strong'"),
        "name.csv": ("name,club\nAnn,Oslo\n,Bergen\n", "line 3: the name is empty"),
        "header.csv": ("player,club\nAnn,Oslo\n", "line 1: the header"),
        "cells.csv": ("name\nAnn,extra\n", "line 2: 2 cells"),
    }
    for file_name, (text, problem) in bad.items():
        sheet = tmp_path / file_name
        sheet.write_text(text)
        refused = gamelog(
            memory_server,
            "tournament",
            "register",
            tid,
            "--csv",
            str(sheet),
            "--token",
            director,
            check=False,
        )
        assert refused.returncode != 0 and problem in refused.stderr, refused.stderr
        assert "nobody was registered" in refused.stderr
    with TournamentClient(memory_server.address) as client:
        assert not client.tournament(tid).players
