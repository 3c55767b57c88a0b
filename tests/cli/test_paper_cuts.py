"""What a new user of the ``gamelog`` command runs into (issue 33.4): each
answer says what happened and what to do next."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gamelog.cli.process import ServerProcess

from support.cli import gamelog, gamelog_json

pytestmark = pytest.mark.e2e

SEATS = ["zoe", "amy", "max", "bea", "kim"]
"""Seats in no alphabetical order: a table in seat order shows them so."""


def test_moves_for_a_seat_not_to_act_says_whose_turn_it_is(sqlite_server: ServerProcess) -> None:
    created = gamelog_json(sqlite_server, "new", "three-too-many", "--players", "ann,ben")
    gid, ben = created["game_id"], created["seat_tokens"]["ben"]
    listed = gamelog(sqlite_server, "moves", gid, "--token", ben, check=False)
    played = gamelog(sqlite_server, "play", gid, '{"card": 1}', "--token", ben, check=False)
    assert listed.returncode == played.returncode == 1
    assert "not-your-turn" in listed.stderr and "to act: ann" in listed.stderr
    assert listed.stdout == ""


def test_token_tables_list_seats_in_seat_order(sqlite_server: ServerProcess) -> None:
    players = ",".join(SEATS)
    created = gamelog_json(sqlite_server, "new", "freeform", "--players", players)
    assert list(created["seat_tokens"]) == SEATS
    table = gamelog(sqlite_server, "new", "freeform", "--players", players).stdout
    assert rows_in_order(table, [*SEATS, "arbiter"])
    gid = created["game_id"]
    forked = gamelog(
        sqlite_server, "fork", gid, "--at", "0", "--token", created["arbiter_token"]
    ).stdout
    assert rows_in_order(forked, [*SEATS, "arbiter"])


def rows_in_order(table: str, names: list[str]) -> bool:
    """Whether the table's rows name ``names``, in that order."""
    found = [
        name for line in table.splitlines() for name in names if re.search(rf"\b{name}\b", line)
    ]
    return found == names


def test_show_svg_says_where_it_wrote(sqlite_server: ServerProcess, tmp_path: Path) -> None:
    created = gamelog_json(sqlite_server, "new", "three-too-many", "--players", "ann,ben")
    picture = tmp_path / "table.svg"
    shown = gamelog(sqlite_server, "show", created["game_id"], "--svg", str(picture))
    assert picture.read_text().startswith("<svg")
    assert f"wrote the table's picture to {picture}" in shown.stderr
    as_json = gamelog(sqlite_server, "show", created["game_id"], "--svg", str(picture), "--json")
    assert json.loads(as_json.stdout)["game_id"] == created["game_id"]


def test_selfplay_prints_each_seats_score_in_seat_order(sqlite_server: ServerProcess) -> None:
    printed = gamelog(
        sqlite_server, "selfplay", "three-too-many", "--players", "3", "--games", "2"
    ).stdout
    assert "{" not in printed, "scores as a table, not a JSON dict"
    header = next(line for line in printed.splitlines() if "game id" in line)
    assert header.index("p1") < header.index("p2") < header.index("p3")
    rows = [line for line in printed.splitlines() if re.search(r"[0-9a-f]{8}-", line)]
    assert len(rows) == 2


def test_a_half_point_is_refused_with_how_a_draw_is_recorded(
    sqlite_server: ServerProcess,
) -> None:
    created = gamelog_json(sqlite_server, "new", "freeform", "--players", "ann,ben")
    half = json.dumps({"result": {"scores": {"ann": 0.5, "ben": 0.5}}})
    arbiter = created["arbiter_token"]
    refused = gamelog(
        sqlite_server, "play", created["game_id"], half, "--token", arbiter, check=False
    )
    assert refused.returncode == 1 and "a draw is equal scores" in refused.stderr
    draw = json.dumps({"result": {"scores": {"ann": 1, "ben": 1}}})
    gamelog(sqlite_server, "play", created["game_id"], draw, "--token", arbiter)
    shown = gamelog_json(sqlite_server, "show", created["game_id"])
    assert shown["result"]["ranking"] == [["ann", "ben"]]


def test_undo_refused_by_the_policy_says_the_arbiter_still_can(
    sqlite_server: ServerProcess,
) -> None:
    created = gamelog_json(sqlite_server, "new", "three-too-many", "--players", "ann,ben")
    gid, ann = created["game_id"], created["seat_tokens"]["ann"]
    move = gamelog_json(sqlite_server, "moves", gid, "--token", ann)[0]
    gamelog(sqlite_server, "play", gid, json.dumps(move), "--token", ann)
    refused = gamelog(sqlite_server, "undo", gid, "request", "--token", ann, check=False)
    assert refused.returncode == 1 and "undo-not-allowed" in refused.stderr
    assert "the arbiter can still take moves back" in refused.stderr
    assert "--to N" in refused.stderr
    arbiter = created["arbiter_token"]
    gamelog(sqlite_server, "undo", gid, "request", "--to", "0", "--token", arbiter)
    assert gamelog_json(sqlite_server, "show", gid)["last_position"] == 2


def test_diff_shows_what_the_token_may_see_and_takes_the_forks_arbiter_token(
    sqlite_server: ServerProcess,
) -> None:
    created = gamelog_json(sqlite_server, "new", "three-too-many", "--players", "ann,ben")
    gid, arbiter = created["game_id"], created["arbiter_token"]
    fork = gamelog_json(sqlite_server, "fork", gid, "--at", "0", "--token", arbiter)
    ann = created["seat_tokens"]["ann"]
    move = gamelog_json(sqlite_server, "moves", gid, "--token", ann)[0]
    gamelog(sqlite_server, "play", gid, json.dumps(move), "--token", ann)
    shown = gamelog(sqlite_server, "diff", gid, fork["game_id"], "--token", fork["arbiter_token"])
    assert f"ann plays {move['card']}" in shown.stdout
    assert "hidden until both games end" not in shown.stdout
    stranger = gamelog_json(sqlite_server, "new", "three-too-many", "--players", "ann,ben")
    refused = gamelog(
        sqlite_server,
        "diff",
        gid,
        fork["game_id"],
        "--token",
        stranger["arbiter_token"],
        check=False,
    )
    assert refused.returncode == 1 and f"game {gid}" in refused.stderr
    show_refused = gamelog(
        sqlite_server, "show", gid, "--token", stranger["arbiter_token"], check=False
    )
    assert f"belongs to no seat of game {gid}" in show_refused.stderr


def test_hadaras_text_and_log_say_what_a_card_gives(sqlite_server: ServerProcess) -> None:
    created = gamelog_json(sqlite_server, "new", "hadara", "--players", "ann,bob")
    gid, tokens = created["game_id"], created["seat_tokens"]
    seat = gamelog_json(sqlite_server, "show", gid)["to_act"][0]
    move = gamelog_json(sqlite_server, "moves", gid, "--token", tokens[seat])[0]
    gamelog(sqlite_server, "play", gid, json.dumps(move), "--token", tokens[seat])
    # A card as the board names it: "I-red-02 (+2 military, +1 food; 0 points)".
    card = re.compile(r"I-[a-z]+-\d\d \((?!price)[^)]*\d points?\)")
    board = gamelog(sqlite_server, "show", gid, "--token", tokens["ann"]).stdout
    draw = next(line for line in board.splitlines() if line.strip().startswith("draw:"))
    assert card.search(draw), draw
    log = gamelog(sqlite_server, "log", gid, "--token", tokens["ann"]).stdout
    drawn = next(line for line in log.splitlines() if "draws 2 cards" in line)
    assert card.search(drawn), drawn
