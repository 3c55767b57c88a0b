"""The ``gamelog`` command against a real server process."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.process import GAMELOG, ServerProcess


def gamelog(
    server: ServerProcess, *args: str, input: str | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [*GAMELOG, *args, "--server", server.address],
        capture_output=True,
        text=True,
        input=input,
        timeout=300,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"gamelog {' '.join(args)} failed: {result.stderr}{result.stdout}")
    return result


def as_json(server: ServerProcess, *args: str) -> Any:
    return json.loads(gamelog(server, *args, "--json").stdout)


def test_selfplay_finishes_every_game_with_a_result(server: ServerProcess) -> None:
    games = as_json(server, "selfplay", "three-too-many", "--players", "4", "--games", "20")
    assert len(games) == 20
    for game in games:
        assert game["finished"] and game["result"]["winners"]
        assert game["moves"] == 4 * 18


def test_new_play_show_moves_log(server: ServerProcess) -> None:
    created = as_json(
        server, "new", "three-too-many", "--players", "ann,ben", "--tag", "Event=Club night"
    )
    gid, ann = created["game_id"], created["seat_tokens"]["ann"]
    moves = as_json(server, "moves", gid, "--token", ann)
    assert moves and all("card" in m for m in moves)
    played = as_json(server, "play", gid, json.dumps(moves[0]), "--token", ann)
    assert played["position"] == 1
    shown = as_json(server, "show", gid, "--token", ann)
    assert shown["position"] == 1 and shown["viewer"] == "ann" and shown["to_act"] == ["ben"]
    board = gamelog(server, "show", gid).stdout
    assert "row" in board and "to act: ben" in board
    log = as_json(server, "log", gid)
    assert [r["kind"] for r in log] == ["created", "move"]
    assert log[1]["move"] is None, "a spectator's log hides the move; the events tell"
    refused = gamelog(server, "play", gid, '{"card": 1}', "--token", ann, check=False)
    assert refused.returncode == 1 and "PERMISSION_DENIED" in refused.stderr
    listed = as_json(server, "list")
    assert any(g["game_id"] == gid and g["metadata"]["Event"] == "Club night" for g in listed)
    types = as_json(server, "games")
    assert {"three-too-many", "freeform"} <= {t["name"] for t in types}


def _play_until_a_move(server: ServerProcess, created: dict[str, Any], draws: bool) -> int:
    """Play each seat's first legal move (through the API, for speed) until a
    move draws cards (``draws``) or draws none; returns its position."""
    gid = created["game_id"]
    with server.client() as client:
        while True:
            state = client.state(gid)
            token = created["seat_tokens"][state.to_act[0]]
            move = client.legal_moves(gid, token)[0]
            played = client.play(gid, move, state.last_position, token)
            record = json.loads(played.records[0].record_json)
            if any(e["type"] == "CardsDrawn" for e in record["events"]) == draws:
                return int(played.position)


def _drawing_game(server: ServerProcess, undo: str) -> tuple[str, dict[str, Any], int]:
    """A two-player game played until a move draws cards; returns its position."""
    created = as_json(
        server, "new", "three-too-many", "--players", "ann,ben", "--undo", undo, "--seed", "5"
    )
    return created["game_id"], created, _play_until_a_move(server, created, draws=True)


@pytest.mark.parametrize("policy", ["none", "consent", "arbiter", "free"])
def test_undo_by_policy_and_never_across_a_draw(server: ServerProcess, policy: str) -> None:
    gid, created, drew_at = _drawing_game(server, policy)
    ann, ben = created["seat_tokens"]["ann"], created["seat_tokens"]["ben"]
    across = gamelog(
        server, "undo", gid, "request", "--to", str(drew_at - 1), "--token", ann, check=False
    )
    assert across.returncode == 1
    expected = {
        "none": "undo-not-allowed",
        "consent": "takeback-across-hidden",
        "arbiter": "arbiter-only",
        "free": "takeback-across-hidden",
    }[policy]
    assert expected in across.stderr
    # Play on until a move draws nothing: taking that one back crosses no draw.
    target = str(_play_until_a_move(server, created, draws=False) - 1)
    if policy == "none":
        refused = gamelog(
            server, "undo", gid, "request", "--to", target, "--token", ann, check=False
        )
        assert refused.returncode == 1 and "undo-not-allowed" in refused.stderr
    elif policy == "consent":
        asked = as_json(server, "undo", gid, "request", "--to", target, "--token", ann)
        assert not asked["taken_back"]
        approved = as_json(server, "undo", gid, "approve", "--token", ben)
        assert approved["taken_back"]
    elif policy == "arbiter":
        refused = gamelog(
            server, "undo", gid, "request", "--to", target, "--token", ann, check=False
        )
        assert refused.returncode == 1 and "arbiter-only" in refused.stderr
        done = as_json(
            server, "undo", gid, "request", "--to", target, "--token", created["arbiter_token"]
        )
        assert done["taken_back"]
    else:
        done = as_json(server, "undo", gid, "request", "--to", target, "--token", ben)
        assert done["taken_back"]
    if policy != "none":
        assert (
            as_json(server, "show", gid)["ply"]
            == as_json(server, "show", gid, "--at", target)["ply"]
        )
    # The arbiter may order a take-back across the draw under any policy.
    ordered = as_json(
        server,
        "undo",
        gid,
        "request",
        "--to",
        str(drew_at - 1),
        "--token",
        created["arbiter_token"],
    )
    assert ordered["taken_back"]
    assert gamelog(server, "audit", gid).returncode == 0


def test_replay_steps_and_prints_one_position(server: ServerProcess) -> None:
    games = as_json(server, "selfplay", "three-too-many", "--players", "2", "--seed", "3")
    gid = games[0]["game_id"]
    one = as_json(server, "replay", gid, "--at", "5")
    assert one["position"] == 5 and one["ply"] == 5
    stepped = gamelog(server, "replay", gid, input="n\nn\np\nj 30\nq\n").stdout
    for position in ("[0/", "[1/", "[2/", "[30/"):
        assert position in stepped
    assert "position 30/" in stepped


def test_audit_export_import_and_a_tampered_file(server: ServerProcess, tmp_path: Path) -> None:
    games = as_json(server, "selfplay", "three-too-many", "--players", "3", "--seed", "9")
    gid = games[0]["game_id"]
    fork = as_json(server, "fork", gid, "--at", "20", "--keep-seed")
    with server.client() as client:  # play the what-if line to its end
        while not (state := client.state(fork["game_id"])).finished:
            token = fork["seat_tokens"][state.to_act[0]]
            move = client.legal_moves(fork["game_id"], token)[-1]
            client.play(fork["game_id"], move, state.last_position, token)
    exported = tmp_path / "game.json"
    gamelog(server, "export", gid, "-o", str(exported))
    data = json.loads(exported.read_text())
    assert [g["game_id"] for g in data["games"]] == [gid, fork["game_id"]]
    assert data["games"][0]["tags"]["Game"] == "three-too-many"
    reports = as_json(server, "audit", gid, str(exported))
    assert all(r["ok"] for r in reports) and len(reports) == 3
    imported = as_json(server, "import", str(exported))
    assert set(imported["id_map"]) == {gid, fork["game_id"]}
    new_root = imported["id_map"][gid]
    tree = as_json(server, "tree", new_root)
    assert len(tree["nodes"]) == 2
    # One changed card in the file: audit and import both refuse it.
    data["games"][0]["records"][12]["move"]["card"] += 1
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    failed = gamelog(server, "audit", str(tampered), "--json", check=False)
    assert failed.returncode == 1
    first = json.loads(failed.stdout)[0]["first_difference"]
    assert first["position"] == 12
    refused = gamelog(server, "import", str(tampered), check=False)
    assert refused.returncode == 1 and "audit" in refused.stderr
    redacted = tmp_path / "redacted.json"
    gamelog(server, "export", gid, "-o", str(redacted), "--redacted")
    assert json.loads(redacted.read_text())["redacted"] is True
    chain_only = as_json(server, "audit", str(redacted))
    assert all(r["ok"] and "redacted copy" in r["notes"][0] for r in chain_only)
    refused = gamelog(server, "import", str(redacted), check=False)
    assert refused.returncode == 1 and "redacted" in refused.stderr


def test_follow_prints_records_until_the_end(server: ServerProcess) -> None:
    games = as_json(server, "selfplay", "three-too-many", "--players", "2", "--seed", "1")
    gid = games[0]["game_id"]
    lines = gamelog(server, "follow", gid, "--json").stdout.splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["position"] for r in records] == list(range(len(records)))
    assert records[-1]["kind"] == "finished"


def test_diff_two_lines(server: ServerProcess) -> None:
    games = as_json(server, "selfplay", "three-too-many", "--players", "2", "--seed", "2")
    gid = games[0]["game_id"]
    fork = as_json(server, "fork", gid, "--at", "10", "--keep-seed")
    same = as_json(server, "diff", gid, fork["game_id"])
    assert not same["identical"] and same["common_plies"] == 10


def test_show_draws_a_carcassonne_map_as_svg(server: ServerProcess, tmp_path: Path) -> None:
    games = as_json(
        server, "selfplay", "carcassonne-hg", "--players", "2", "--seed", "1", "--max-moves", "30"
    )
    picture = tmp_path / "map.svg"
    gamelog(server, "show", games[0]["game_id"], "--at", "20", "--svg", str(picture))
    svg = picture.read_text()
    assert svg.startswith("<svg") or "<svg" in svg[:200]
    text = gamelog(server, "show", games[0]["game_id"], "--at", "20").stdout
    assert "position 20/" in text
    refused = gamelog(
        server, "show", games[0]["game_id"], "--svg", str(tmp_path / "x.svg"), check=False
    )
    assert refused.returncode == 0
    cards = as_json(server, "selfplay", "three-too-many", "--players", "2")
    gamelog(server, "show", cards[0]["game_id"], "--svg", str(tmp_path / "y.svg"))
    assert '<g class="row" data-row="1"' in (tmp_path / "y.svg").read_text()


@pytest.mark.parametrize(
    ("game", "players", "count"),
    [("panem", 4, 20), ("carcassonne-hg", 5, 10), ("hadara", 5, 10)],
)
def test_selfplay_finishes_every_game_of_each_game(
    server: ServerProcess, game: str, players: int, count: int
) -> None:
    games = as_json(
        server, "selfplay", game, "--players", str(players), "--games", str(count), "--seed", "17"
    )
    assert len(games) == count
    for played in games:
        assert played["finished"], played
        result = played["result"]
        assert set(result["scores"]) == {f"p{i + 1}" for i in range(players)}
        assert result["winners"]


def test_show_prints_the_hadara_score_sheet_as_a_table(server: ServerProcess) -> None:
    games = as_json(server, "selfplay", "hadara", "--players", "2", "--seed", "4")
    shown = gamelog(server, "show", games[0]["game_id"]).stdout
    sheet = shown[shown.index("score sheet") :]
    result = games[0]["result"]
    for label in ("Colonies", "Busts", "Silver seals", "Golden seals", "Cards", "Total"):
        assert label in sheet
    total_line = next(line for line in sheet.splitlines() if "Total" in line)
    assert [int(x) for x in re.findall(r"\d+", total_line)] == [
        result["scores"]["p1"],
        result["scores"]["p2"],
    ]


def test_selfplay_of_freeform_ends_with_the_arbiters_result(server: ServerProcess) -> None:
    games = as_json(server, "selfplay", "freeform", "--players", "3", "--max-moves", "12")
    assert games[0]["finished"] and games[0]["moves"] == 12
    assert set(games[0]["result"]["scores"]) == {"p1", "p2", "p3"}


def test_the_server_audits_a_running_game_with_its_secret_seed(
    server: ServerProcess, tmp_path: Path
) -> None:
    created = as_json(server, "new", "three-too-many", "--players", "ann,ben")
    with server.client() as client:
        token = created["seat_tokens"]["ann"]
        client.play(created["game_id"], client.legal_moves(created["game_id"], token)[0], 0, token)
    for token_args in ([], ["--token", created["arbiter_token"]]):
        report = as_json(server, "audit", created["game_id"], *token_args)[0]
        assert report["ok"] and report["seed_checked"] and not report["deferred_positions"]
    # A copy without the seed (a seat's export) can only defer the seed checks.
    export = tmp_path / "ann.json"
    gamelog(server, "export", created["game_id"], "-o", str(export), "--token", token)
    report = as_json(server, "audit", str(export))[0]
    assert report["ok"] and not report["seed_checked"]


def test_list_prints_a_tag_as_written_not_as_markup(server: ServerProcess) -> None:
    """Tags are anyone's text: one that looks like rich markup neither breaks
    the list for others nor styles it."""
    as_json(server, "new", "freeform", "--players", "ann,ben", "--tag", "Event=[/bold][red]x")
    listed = gamelog(server, "list").stdout
    assert "Event=[/bold][red]x" in listed


def test_tournament_names_print_as_written_not_as_markup(server: ServerProcess) -> None:
    """A tournament's and a player's names are anyone's text, too."""
    created = as_json(
        server, "tournament", "new", "[/bold]Open", "--game", "three-too-many", "--rounds", "1"
    )
    tid, director = created["tournament_id"], created["director_token"]
    registered = gamelog(
        server, "tournament", "register", tid, "[red]x[/red]", "Ben", "--token", director
    )
    assert "[red]x[/red]" in registered.stdout
    assert "[/bold]Open" in gamelog(server, "tournament", "show", tid).stdout
    assert "[red]x[/red]" in gamelog(server, "tournament", "standings", tid).stdout
