"""Finding tournaments through gRPC and the CLI (issue 31.4): short ids
wherever a tournament id goes, ``gamelog tournament list``, and an archive
imported again says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamelog.cli.client import ApiError
from gamelog.cli.process import ServerProcess
from gamelog.cli.tournament_client import TournamentClient

from support.cli import gamelog, gamelog_json


def test_a_short_tournament_id_works_wherever_a_tournament_id_does(
    memory_server: ServerProcess,
) -> None:
    created = gamelog_json(
        memory_server, "tournament", "new", "Short ids", "--game", "freeform", "--rounds", "1"
    )
    tid, director = created["tournament_id"], created["director_token"]
    short = tid[:8]
    players = gamelog_json(
        memory_server, "tournament", "register", short, "Ann", "Ben", "--token", director
    )
    assert len(players) == 2
    seated = gamelog_json(memory_server, "tournament", "pair", short, "--token", director)
    first, second = seated["tables"][0]["seats"]
    gamelog(
        memory_server,
        "tournament",
        "result",
        short,
        "1",
        first,
        second,
        "--token",
        director,
        "--reason",
        "on paper",
    )
    assert gamelog_json(memory_server, "tournament", "show", short)["tournament_id"] == tid
    assert len(gamelog_json(memory_server, "tournament", "standings", short)) == 2
    tables = gamelog_json(memory_server, "list", "--tournament", short)
    assert [g["game_id"] for g in tables] == [seated["tables"][0]["game_id"]]
    gamelog_json(memory_server, "tournament", "finish", short, "--token", director)
    assert gamelog_json(memory_server, "tournament", "audit", short)["ok"]
    with TournamentClient(memory_server.address) as client:
        assert client.tournament(tid[:4] + "-" + tid[4:8]).tournament_id == tid
        with pytest.raises(ApiError) as refused:
            client.tournament("zzzz")
        assert refused.value.code == "INVALID_ARGUMENT"
        assert refused.value.reason == "bad-tournament-id"


def test_tournament_list_filters_by_name_status_and_date_newest_first_in_pages(
    memory_server: ServerProcess,
) -> None:
    made = []
    for name, dates in (("Club night", "2031-11-30"), ("Club night", "2031-12-07"), ("Open", "")):
        created = gamelog_json(
            memory_server,
            "tournament",
            "new",
            name,
            "--game",
            "freeform",
            "--rounds",
            "1",
            "--dates",
            dates,
            "--site",
            "Listing hall",
        )
        made.append(created["tournament_id"])
    listed = gamelog_json(memory_server, "tournament", "list", "--name", "club NIGHT")
    ours = [t for t in listed["tournaments"] if t["site"] == "Listing hall"]
    # Two events of one name stay two, by id, newest first.
    assert [t["tournament_id"] for t in ours] == [made[1], made[0]]
    # Its dates, or the day it was created (never November 2031 here).
    november = gamelog_json(memory_server, "tournament", "list", "--date", "2031-11")
    assert made[0] in [t["tournament_id"] for t in november["tournaments"]]
    assert made[1] not in [t["tournament_id"] for t in november["tournaments"]]
    finished = gamelog_json(memory_server, "tournament", "list", "--status", "finished")
    assert not set(made) & {t["tournament_id"] for t in finished["tournaments"]}
    page = gamelog_json(memory_server, "tournament", "list", "--limit", "1")
    assert page["tournaments"][0]["tournament_id"] == made[2] and page["next_page_token"]
    after = gamelog_json(
        memory_server, "tournament", "list", "--limit", "1", "--page", page["next_page_token"]
    )
    assert after["tournaments"][0]["tournament_id"] == made[1]
    text = gamelog(memory_server, "tournament", "list", "--name", "Club night").stdout
    assert made[0][:8] in text and made[1][:8] in text and "more:" not in text
    refused = gamelog(memory_server, "tournament", "list", "--date", "Nov 30", check=False)
    assert refused.returncode == 1 and "bad-filter" in refused.stderr


def test_an_archive_imported_again_says_it_is_stored_already(
    memory_server: ServerProcess, tmp_path: Path
) -> None:
    created = gamelog_json(
        memory_server, "tournament", "new", "Archive", "--game", "freeform", "--rounds", "1"
    )
    tid, director = created["tournament_id"], created["director_token"]
    archive = tmp_path / "event.json"
    gamelog(memory_server, "tournament", "export", tid, "-o", str(archive), "--token", director)
    first = gamelog(memory_server, "import", str(archive)).stdout
    assert f"already imported here as {tid}" in first
    again = gamelog_json(memory_server, "import", str(archive))
    assert again["already_stored"][0] == tid and len(again["already_stored"]) == 2
    assert json.loads(archive.read_text())["tournament"]["tournament_id"] == tid
