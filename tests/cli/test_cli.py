"""The ``gamelog`` command against a real server process."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gamelog.cli.process import ServerProcess

from support.cli import gamelog, gamelog_json

pytestmark = pytest.mark.e2e


def test_selfplay_finishes_every_game_with_a_result(sqlite_server: ServerProcess) -> None:
    games = gamelog_json(
        sqlite_server, "selfplay", "three-too-many", "--players", "4", "--games", "20"
    )
    assert len(games) == 20
    for game in games:
        assert game["finished"] and game["result"]["winners"]
        assert game["moves"] == 4 * 18


def test_new_play_show_moves_log(sqlite_server: ServerProcess) -> None:
    created = gamelog_json(
        sqlite_server, "new", "three-too-many", "--players", "ann,ben", "--tag", "Event=Club night"
    )
    gid, ann = created["game_id"], created["seat_tokens"]["ann"]
    moves = gamelog_json(sqlite_server, "moves", gid, "--token", ann)
    assert moves and all("card" in m for m in moves)
    played = gamelog_json(sqlite_server, "play", gid, json.dumps(moves[0]), "--token", ann)
    assert played["position"] == 1
    shown = gamelog_json(sqlite_server, "show", gid, "--token", ann)
    assert shown["position"] == 1 and shown["viewer"] == "ann" and shown["to_act"] == ["ben"]
    board = gamelog(sqlite_server, "show", gid).stdout
    assert "row" in board and "to act: ben" in board
    log = gamelog_json(sqlite_server, "log", gid)
    assert [r["kind"] for r in log] == ["created", "move"]
    assert log[1]["move"] is None, "a spectator's log hides the move; the events tell"
    refused = gamelog(sqlite_server, "play", gid, '{"card": 1}', "--token", ann, check=False)
    assert refused.returncode == 1 and "PERMISSION_DENIED" in refused.stderr
    listed = gamelog_json(sqlite_server, "list")
    assert any(g["game_id"] == gid and g["metadata"]["Event"] == "Club night" for g in listed)
    types = gamelog_json(sqlite_server, "games")
    assert {"three-too-many", "freeform"} <= {t["name"] for t in types}


def test_replay_steps_and_prints_one_position(sqlite_server: ServerProcess) -> None:
    games = gamelog_json(
        sqlite_server, "selfplay", "three-too-many", "--players", "2", "--seed", "3"
    )
    gid = games[0]["game_id"]
    one = gamelog_json(sqlite_server, "replay", gid, "--at", "5")
    assert one["position"] == 5 and one["ply"] == 5
    stepped = gamelog(sqlite_server, "replay", gid, input="n\nn\np\nj 30\nq\n").stdout
    for position in ("[0/", "[1/", "[2/", "[30/"):
        assert position in stepped
    assert "position 30/" in stepped


def test_follow_prints_records_until_the_end(sqlite_server: ServerProcess) -> None:
    games = gamelog_json(
        sqlite_server, "selfplay", "three-too-many", "--players", "2", "--seed", "1"
    )
    gid = games[0]["game_id"]
    lines = gamelog(sqlite_server, "follow", gid, "--json").stdout.splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["position"] for r in records] == list(range(len(records)))
    assert records[-1]["kind"] == "finished"


def test_show_draws_a_carcassonne_map_as_svg(sqlite_server: ServerProcess, tmp_path: Path) -> None:
    games = gamelog_json(
        sqlite_server,
        "selfplay",
        "carcassonne-hg",
        "--players",
        "2",
        "--seed",
        "1",
        "--max-moves",
        "30",
    )
    picture = tmp_path / "map.svg"
    gamelog(sqlite_server, "show", games[0]["game_id"], "--at", "20", "--svg", str(picture))
    svg = picture.read_text()
    assert svg.startswith("<svg") or "<svg" in svg[:200]
    text = gamelog(sqlite_server, "show", games[0]["game_id"], "--at", "20").stdout
    assert "position 20/" in text
    refused = gamelog(
        sqlite_server, "show", games[0]["game_id"], "--svg", str(tmp_path / "x.svg"), check=False
    )
    assert refused.returncode == 0
    cards = gamelog_json(sqlite_server, "selfplay", "three-too-many", "--players", "2")
    gamelog(sqlite_server, "show", cards[0]["game_id"], "--svg", str(tmp_path / "y.svg"))
    assert '<g class="row" data-row="1"' in (tmp_path / "y.svg").read_text()


@pytest.mark.parametrize(
    ("game", "players", "count"),
    [("panem", 4, 20), ("carcassonne-hg", 5, 10), ("hadara", 5, 10)],
)
def test_selfplay_finishes_every_game_of_each_game(
    sqlite_server: ServerProcess, game: str, players: int, count: int
) -> None:
    games = gamelog_json(
        sqlite_server,
        "selfplay",
        game,
        "--players",
        str(players),
        "--games",
        str(count),
        "--seed",
        "17",
    )
    assert len(games) == count
    for played in games:
        assert played["finished"], played
        result = played["result"]
        assert set(result["scores"]) == {f"p{i + 1}" for i in range(players)}
        assert result["winners"]


def test_show_prints_the_hadara_score_sheet_as_a_table(sqlite_server: ServerProcess) -> None:
    games = gamelog_json(sqlite_server, "selfplay", "hadara", "--players", "2", "--seed", "4")
    shown = gamelog(sqlite_server, "show", games[0]["game_id"]).stdout
    sheet = shown[shown.index("score sheet") :]
    result = games[0]["result"]
    for label in ("Colonies", "Busts", "Silver seals", "Golden seals", "Cards", "Total"):
        assert label in sheet
    total_line = next(line for line in sheet.splitlines() if "Total" in line)
    assert [int(x) for x in re.findall(r"\d+", total_line)] == [
        result["scores"]["p1"],
        result["scores"]["p2"],
    ]


def test_selfplay_of_freeform_ends_with_the_arbiters_result(sqlite_server: ServerProcess) -> None:
    games = gamelog_json(
        sqlite_server, "selfplay", "freeform", "--players", "3", "--max-moves", "12"
    )
    assert games[0]["finished"] and games[0]["moves"] == 12
    assert set(games[0]["result"]["scores"]) == {"p1", "p2", "p3"}


def test_list_prints_a_tag_as_written_not_as_markup(sqlite_server: ServerProcess) -> None:
    """Tags are anyone's text: one that looks like rich markup neither breaks
    the list for others nor styles it."""
    gamelog_json(
        sqlite_server, "new", "freeform", "--players", "ann,ben", "--tag", "Event=[/bold][red]x"
    )
    listed = gamelog(sqlite_server, "list").stdout
    assert "Event=[/bold][red]x" in listed


def test_tournament_names_print_as_written_not_as_markup(sqlite_server: ServerProcess) -> None:
    """A tournament's and a player's names are anyone's text, too."""
    created = gamelog_json(
        sqlite_server,
        "tournament",
        "new",
        "[/bold]Open",
        "--game",
        "three-too-many",
        "--rounds",
        "1",
    )
    tid, director = created["tournament_id"], created["director_token"]
    registered = gamelog(
        sqlite_server, "tournament", "register", tid, "[red]x[/red]", "Ben", "--token", director
    )
    assert "[red]x[/red]" in registered.stdout
    assert "[/bold]Open" in gamelog(sqlite_server, "tournament", "show", tid).stdout
    assert "[red]x[/red]" in gamelog(sqlite_server, "tournament", "standings", tid).stdout


def test_selfplay_plays_each_seat_over_a_play_stream_of_its_own(
    sqlite_server: ServerProcess,
) -> None:
    games = gamelog_json(
        sqlite_server, "selfplay", "three-too-many", "--players", "3", "--games", "2"
    )
    seat_of_stream: dict[str, set[str]] = {}
    with sqlite_server.client() as client:
        for game in games:
            moves = [r for r in client.records(game["game_id"]) if r["kind"] == "move"]
            assert len(moves) == game["moves"] > 0
            for move in moves:
                # A stream's client names each request: its stream's prefix, a count.
                stream = move["request_id"].rsplit("-", 1)[0]
                seat_of_stream.setdefault(stream, set()).add(move["seat"])
    # Three streams for the whole run, each one seat's in both games.
    assert sorted(seat_of_stream.values()) == [{"p1"}, {"p2"}, {"p3"}]
