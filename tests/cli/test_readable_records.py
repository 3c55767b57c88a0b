"""Records people can read, through the real CLI: notation in log, follow,
replay and show; the text export; text views without Python reprs; and the
CLI a person meets (take-backs, tags, connection errors, exports that say
what they are)."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import ApiError, Client
from gamelog.cli.process import GAMELOG, ServerProcess, start_server_process

from support.cli import gamelog, gamelog_json
from support.random_play import GrpcGame, play_random

pytestmark = pytest.mark.e2e


def three_too_many(server: ServerProcess, *extra: str) -> dict[str, Any]:
    return dict(gamelog_json(server, "new", "three-too-many", "--players", "ann,ben", *extra))


def test_log_tells_every_move_in_notation_hiding_only_what_is_hidden(
    sqlite_server: ServerProcess, client: Client
) -> None:
    created = three_too_many(sqlite_server)
    gid, ann = created["game_id"], created["seat_tokens"]["ann"]
    card = client.legal_moves(gid, ann)[0]["card"]
    gamelog(sqlite_server, "play", gid, str(card), "--token", ann)
    spectator = gamelog(sqlite_server, "log", gid).stdout.splitlines()
    assert len(spectator) == 2 and "(hidden)" not in spectator[1]
    assert re.search(rf"\b1\s+ann plays {card} on row [123]", spectator[1]), spectator
    own = gamelog(sqlite_server, "log", gid, "--token", ann).stdout.splitlines()
    hand = client.state(gid, ann)
    assert any(str(c) in own[0] for c in json.loads(hand.view_json)["hand"]), own[0]
    assert "{" not in "".join(spectator) and "'" not in "".join(spectator)


def test_follow_and_replay_show_the_move_that_led_to_each_position(
    sqlite_server: ServerProcess, client: Client
) -> None:
    created = client.create("freeform", ["ann", "ben"])
    client.play(created.game_id, {"text": "1. e4"}, 0, created.seat_tokens["ann"])
    client.play(created.game_id, {"text": "1... c5"}, 1, created.seat_tokens["ben"])
    result = {"result": {"scores": {"ann": 1, "ben": 1}}}
    client.play(created.game_id, result, 2, created.arbiter_token)
    followed = gamelog(sqlite_server, "follow", created.game_id).stdout
    assert "ann: text: 1. e4" in followed and "game over: 1. ann 1, 1. ben 1" in followed
    replay = gamelog(sqlite_server, "replay", created.game_id, input="n\n?\nj 99\nG\nq\n").stdout
    assert "last: ann: text: 1. e4" in replay
    assert "position 99 is beyond the end (4)" in replay
    assert "j N jump to position N" in replay  # the help
    at = gamelog(sqlite_server, "replay", created.game_id, "--at", "2").stdout
    assert "last: ben: text: 1... c5" in at


def test_show_prints_tags_the_last_move_and_places_as_competition_ranking(
    sqlite_server: ServerProcess, client: Client
) -> None:
    created = gamelog_json(
        sqlite_server, "new", "freeform", "--players", "ann,ben,cy", "--tag", "Event=Club"
    )
    gid, arbiter = created["game_id"], created["arbiter_token"]
    client.play(gid, {"result": {"scores": {"ann": 61, "ben": 61, "cy": 40}}}, 0, arbiter)
    shown = gamelog(sqlite_server, "show", gid).stdout
    assert "Event: Club" in shown
    # The move that ended the game, not the end's own line (the table shows the result).
    assert "last: the arbiter enters the result: 1. ann 61, 1. ben 61, 3. cy 40" in shown
    assert "game over" not in shown
    rows = re.findall(r"│\s*(\d+)\s*│\s*(\w+)\s*│\s*(\d+)\s*│", shown)
    assert rows == [("1", "ann", "61"), ("1", "ben", "61"), ("3", "cy", "40")], shown
    assert "{" not in shown and "'" not in shown


def test_a_text_export_has_tags_numbered_moves_and_the_result(
    sqlite_server: ServerProcess, client: Client, tmp_path: Path
) -> None:
    created = client.create("three-too-many", ["ann", "ben"], metadata={"Event": "Club night"})
    play_random(GrpcGame.of(client, created), random.Random(2))
    out = tmp_path / "game.txt"
    gamelog(sqlite_server, "export", created.game_id, "-o", str(out), "--format", "text")
    text = out.read_text()
    assert '[Game "three-too-many"]' in text and '[Event "Club night"]' in text
    result = re.search(r'\[Result "(1\. \w+ -?\d+, \d\. \w+ -?\d+)"\]', text)
    assert result, text[:400]
    assert "\n1. ann plays " in text and text.rstrip().endswith(result.group(1))


def test_a_running_games_export_for_a_seat_says_it_is_redacted_and_why(
    sqlite_server: ServerProcess, tmp_path: Path
) -> None:
    created = three_too_many(sqlite_server)
    out = tmp_path / "seat.json"
    done = gamelog(
        sqlite_server,
        "export",
        created["game_id"],
        "-o",
        str(out),
        "--token",
        created["seat_tokens"]["ann"],
    )
    assert "redacted" in done.stderr and "will not import" in done.stderr
    refused = gamelog(sqlite_server, "import", str(out), check=False)
    assert refused.returncode == 1 and "redacted-record" in refused.stderr


def test_undo_without_to_takes_back_the_askers_own_last_move(
    sqlite_server: ServerProcess, client: Client
) -> None:
    created = client.create("freeform", ["ann", "ben"], undo_policy="free")
    ann, ben = created.seat_tokens["ann"], created.seat_tokens["ben"]
    for position, (token, say) in enumerate([(ann, "a1"), (ben, "b1"), (ann, "a2"), (ben, "b2")]):
        client.play(created.game_id, {"say": say}, position, token)
    gamelog(sqlite_server, "undo", created.game_id, "request", "--token", ann)
    state = client.state(created.game_id)
    assert json.loads(state.view_json)["moves"] == 2, "back to just before ann's a2"
    refused = gamelog(
        sqlite_server,
        "undo",
        created.game_id,
        "request",
        "--token",
        created.arbiter_token,
        check=False,
    )
    assert refused.returncode != 0 and "--to" in refused.stderr


def test_tags_without_a_value_or_with_a_reserved_name_are_refused(
    sqlite_server: ServerProcess,
) -> None:
    for tag in ("Event", "Game=Azul", "=x"):
        refused = gamelog(
            sqlite_server, "new", "freeform", "--players", "ann", "--tag", tag, check=False
        )
        assert refused.returncode != 0, tag
        assert "KEY=VALUE" in refused.stderr or "set by gamelog" in refused.stderr, refused.stderr


def test_connection_errors_name_the_address_and_how_to_start_a_server(tmp_path: Path) -> None:
    refused = gamelog("127.0.0.1:1", "games", check=False)
    assert refused.returncode == 1
    assert "no gamelog server answers at 127.0.0.1:1" in refused.stderr
    assert "gamelog serve" in refused.stderr and "Traceback" not in refused.stderr
    bare = gamelog("127.0.0.1", "games", check=False)
    assert "127.0.0.1:50051" in bare.stderr or bare.returncode == 0


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    running = start_server_process(tmp_path, "--memory")
    try:
        port = running.address.rsplit(":", 1)[1]
        taken = subprocess.run(
            [*GAMELOG, "serve", "--memory", "--port", port],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        running.stop()
    assert taken.returncode == 1
    lines = [line for line in taken.stderr.splitlines() if line.strip()]
    assert lines == [
        f"Error: cannot listen on 127.0.0.1:{port}: the port is in use (another gamelog "
        "server?); stop it, or choose another port with --port"
    ]


def test_any_unique_prefix_of_a_game_id_works_and_listings_print_short_ids(
    sqlite_server: ServerProcess, client: Client
) -> None:
    created = three_too_many(sqlite_server)
    gid, ann = created["game_id"], created["seat_tokens"]["ann"]
    short = gid.replace("-", "")[:10]
    card = client.legal_moves(short, ann)[0]["card"]
    gamelog(sqlite_server, "play", short, str(card), "--token", ann)
    assert gamelog_json(sqlite_server, "show", short)["game_id"] == gid
    assert gid[:8] in gamelog(sqlite_server, "list", "--limit", "5").stdout
    refused = gamelog(sqlite_server, "show", "zz", check=False)
    assert refused.returncode == 1 and "bad-game-id" in refused.stderr


def test_a_log_can_be_asked_for_a_range_of_positions(
    sqlite_server: ServerProcess, client: Client
) -> None:
    """ListEvents' ``to_position`` ends the answer (inclusive), redacted as
    the whole log is; ``show --at`` asks for the one record it prints."""
    created = client.create("three-too-many", ["ann", "ben"])
    ann = created.seat_tokens["ann"]
    play_random(GrpcGame.of(client, created), random.Random(5))
    whole = client.log(created.game_id, ann)
    assert len(whole) > 6

    middle = client.log(created.game_id, ann, 2, 4)
    assert [record["position"] for record, _ in middle] == [2, 3, 4]
    assert middle == whole[2:5]
    assert client.log(created.game_id, ann, 3, 10_000) == whole[3:]
    with pytest.raises(ApiError) as refused:
        client.log(created.game_id, ann, 4, 3)
    assert (refused.value.code, refused.value.reason) == ("INVALID_ARGUMENT", "bad-position")

    lines = gamelog(
        sqlite_server, "log", created.game_id, "--token", ann, "--from", "2", "--to", "3"
    ).stdout
    assert lines.splitlines() == [f"{p:>5}  {whole[p][1]}" for p in (2, 3)]

    shown = gamelog(sqlite_server, "show", created.game_id, "--token", ann, "--at", "3").stdout
    assert f"last: {whole[3][1]}" in shown and "position 3/" in shown
