"""Record files are untrusted input: checked field by field, audited record by
record, stored whole or not at all, and never breaking other games.

Through the real server and the ``gamelog`` command: export, audit and
import; a malformed or forged file refused while other games keep working;
the limits a creation meets, met by an import too. Elsewhere: a fork or a
graft in a file (test_forks.py), a take-back in a file (test_take_backs.py),
a seed that breaks its commitment (test_commitments.py), files mutated at
random (test_fuzz_record_files.py), and every channel brute-forced for
hidden parts (test_leaks_all_games.py).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import Client
from gamelog.cli.process import ServerProcess

from support.cli import gamelog, gamelog_json
from support.refusals import refused
from support.two_seats import SEATS

pytestmark = pytest.mark.e2e


def count_games(client: Client) -> int:
    return len(client.games(10_000))


def others_still_work(client: Client, game_id: str) -> None:
    """What a malformed or refused import must never break for other games."""
    assert any(g.game_id == game_id for g in client.games(10_000))
    assert client.tree(game_id).root_game_id
    assert client.export(game_id)["games"]


def game_of(export: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(export["games"][0])


def with_games(export: dict[str, Any], *games: dict[str, Any]) -> dict[str, Any]:
    return {**export, "games": list(games)}


def test_a_malformed_import_is_refused_and_breaks_nothing(
    client: Client, finished_export: dict[str, Any]
) -> None:
    bystander = client.create("freeform", SEATS).game_id
    bad_metadata = game_of(finished_export)
    bad_metadata["records"] = bad_metadata["records"][:1]
    bad_metadata["records"][0]["metadata"] = 5
    bad_parent = game_of(finished_export)
    bad_parent["records"] = bad_parent["records"][:1]
    bad_parent["records"][0]["parent"] = {"game_id": "x", "position": 0, "hash": "0" * 64}
    for game in (bad_metadata, bad_parent):
        error = refused(client.import_file, with_games(finished_export, game))
        assert error.code in ("INVALID_ARGUMENT", "FAILED_PRECONDITION"), error
        others_still_work(client, bystander)


def test_an_import_stores_the_whole_file_or_nothing(
    client: Client, finished_export: dict[str, Any]
) -> None:
    good = game_of(finished_export)
    malformed = game_of(finished_export)
    malformed["game_id"] = "second"
    malformed["records"][3]["events"] = "nonsense"
    before = count_games(client)
    error = refused(client.import_file, with_games(finished_export, good, malformed))
    assert error.code == "INVALID_ARGUMENT" and "second" in error.message
    forged = game_of(finished_export)
    forged["game_id"] = "second"
    forged["records"][-1]["result"]["scores"]["ann"] += 1
    refused(client.import_file, with_games(finished_export, good, forged))
    assert count_games(client) == before


@pytest.mark.parametrize("seat", ["#arbiter", "ann\n", "a" * 300, "", "ANN"])
def test_an_import_meets_createGames_seat_names(
    client: Client, finished_export: dict[str, Any], seat: str
) -> None:
    game = game_of(finished_export)
    game["records"][0]["seats"] = [seat, "ann"] if seat == "ANN" else [seat, "ben"]
    error = refused(client.import_file, with_games(finished_export, game))
    assert error.code == "INVALID_ARGUMENT" and "seat" in error.message


def test_an_import_meets_the_limits_on_tags_games_and_records(
    client: Client, finished_export: dict[str, Any]
) -> None:
    game = game_of(finished_export)
    game["records"][0]["metadata"] = {f"Tag{i}": "x" for i in range(20_000)}
    assert "tag" in refused(client.import_file, with_games(finished_export, game)).message
    creation_only = game_of(finished_export)
    creation_only["records"] = creation_only["records"][:1]
    many = [dict(creation_only, game_id=f"g{i}") for i in range(3_000)]
    assert "at most" in refused(client.import_file, with_games(finished_export, *many)).message


# -- through the command line --------------------------------------------------------


def test_audit_export_import_and_a_tampered_file(
    sqlite_server: ServerProcess, tmp_path: Path
) -> None:
    games = gamelog_json(
        sqlite_server, "selfplay", "three-too-many", "--players", "3", "--seed", "9"
    )
    gid = games[0]["game_id"]
    fork = gamelog_json(sqlite_server, "fork", gid, "--at", "20", "--keep-seed")
    with sqlite_server.client() as client:  # play the what-if line to its end
        while not (state := client.state(fork["game_id"])).finished:
            token = fork["seat_tokens"][state.to_act[0]]
            move = client.legal_moves(fork["game_id"], token)[-1]
            client.play(fork["game_id"], move, state.last_position, token)
    exported = tmp_path / "game.json"
    gamelog(sqlite_server, "export", gid, "-o", str(exported))
    data = json.loads(exported.read_text())
    assert [g["game_id"] for g in data["games"]] == [gid, fork["game_id"]]
    assert data["games"][0]["tags"]["Game"] == "three-too-many"
    reports = gamelog_json(sqlite_server, "audit", gid, str(exported))
    assert all(r["ok"] for r in reports) and len(reports) == 3
    imported = gamelog_json(sqlite_server, "import", str(exported))
    assert set(imported["id_map"]) == {gid, fork["game_id"]}
    new_root = imported["id_map"][gid]
    tree = gamelog_json(sqlite_server, "tree", new_root)
    assert len(tree["nodes"]) == 2
    # One changed card in the file: audit and import both refuse it.
    data["games"][0]["records"][12]["move"]["card"] += 1
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    failed = gamelog(sqlite_server, "audit", str(tampered), "--json", check=False)
    assert failed.returncode == 1
    first = json.loads(failed.stdout)[0]["first_difference"]
    assert first["position"] == 12
    refused = gamelog(sqlite_server, "import", str(tampered), check=False)
    assert refused.returncode == 1 and "audit" in refused.stderr
    redacted = tmp_path / "redacted.json"
    gamelog(sqlite_server, "export", gid, "-o", str(redacted), "--redacted")
    assert json.loads(redacted.read_text())["redacted"] is True
    chain_only = gamelog_json(sqlite_server, "audit", str(redacted))
    assert all(r["ok"] and "redacted copy" in r["notes"][0] for r in chain_only)
    refused = gamelog(sqlite_server, "import", str(redacted), check=False)
    assert refused.returncode == 1 and "redacted" in refused.stderr


def test_importing_the_same_file_twice_names_the_copies(
    sqlite_server: ServerProcess, client: Client, tmp_path: Path
) -> None:
    created = client.create("freeform", ["ann", "ben"])
    client.play(
        created.game_id, {"result": {"scores": {"ann": 1, "ben": 0}}}, 0, created.arbiter_token
    )
    out = tmp_path / "game.json"
    gamelog(sqlite_server, "export", created.game_id, "-o", str(out))
    first = gamelog_json(sqlite_server, "import", str(out))
    assert first["already_stored"] == {created.game_id: [created.game_id]}
    again = gamelog(sqlite_server, "import", str(out))
    copy = first["id_map"][created.game_id]
    assert "already stored here as" in again.stderr and copy in again.stderr
