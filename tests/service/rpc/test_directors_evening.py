"""A director's whole evening through the CLI (issue 31): 40 players registered
from a CSV file, five Swiss rounds played by selfplay (three-too-many at
tables of 3 and 4; Carcassonne at tables of 2), one round withdrawn and
paired again, two results entered from paper, finished, audited clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamelog.cli.process import ServerProcess

from support.cli import gamelog, gamelog_json


@pytest.mark.parametrize(
    ("game", "table_size"), [("three-too-many", "3-4"), ("carcassonne-hg", "2")]
)
def test_a_40_player_evening_from_csv_to_a_clean_audit(
    memory_server: ServerProcess, tmp_path: Path, game: str, table_size: str
) -> None:
    created = gamelog_json(
        memory_server,
        "tournament",
        "new",
        "Forty at the club",
        "--game",
        game,
        "--table-size",
        table_size,
        "--rounds",
        "5",
        "--system",
        "swiss",
        "--seed",
        "40",
    )
    tid, director = created["tournament_id"], created["director_token"]
    sheet = tmp_path / "players.csv"
    rows = [f"Player {n:02},Club {n % 4},{1200 + n * 10}" for n in range(1, 41)]
    sheet.write_text("name,club,rating\n" + "\n".join(rows) + "\n")
    players = gamelog_json(
        memory_server, "tournament", "register", tid[:8], "--csv", str(sheet), "--token", director
    )
    assert len(players) == 40
    paper_done = 0
    for number in range(1, 6):
        seated = gamelog_json(memory_server, "tournament", "pair", tid, "--token", director)
        assert seated["round"] == number
        if number == 2:
            gamelog(
                memory_server,
                "tournament",
                "withdraw-round",
                tid,
                "--token",
                director,
                "--reason",
                "paired before the late entries were checked",
            )
            seated = gamelog_json(memory_server, "tournament", "pair", tid, "--token", director)
            assert seated["round"] == 2
        if number == 3:
            for table in seated["tables"][:2]:
                gamelog(
                    memory_server,
                    "tournament",
                    "result",
                    tid,
                    str(table["table"]),
                    *table["seats"],
                    "--token",
                    director,
                    "--reason",
                    "played on paper",
                )
                paper_done += 1
        gamelog_json(
            memory_server,
            "tournament",
            "selfplay",
            tid,
            "--token",
            director,
            "--seed",
            str(number),
            "--parallel",
            "4",
        )
    assert paper_done == 2
    running = gamelog_json(memory_server, "list", "--tournament", tid, "--status", "running")
    assert running == []
    gamelog_json(memory_server, "tournament", "finish", tid, "--token", director)
    assert gamelog_json(memory_server, "tournament", "audit", tid)["ok"]
    standings = gamelog_json(memory_server, "tournament", "standings", tid)
    assert len(standings) == 40 and all(isinstance(r["points"], (int, float)) for r in standings)
