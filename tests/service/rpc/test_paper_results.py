"""A result entered from paper ends its table's game (issue 31.3), through gRPC and the CLI.

The game's end is a ``finished`` record marked ``by_director`` with the
director's reason; the game audits clean, lists as finished, takes no more
moves, and the tournament, its archive and ``tournament show`` agree.
"""

from __future__ import annotations

import random

import pytest

from gamelog.cli.client import ApiError
from gamelog.cli.process import ServerProcess
from gamelog.cli.tournament_client import TournamentClient
from gamelog.cli.tournament_selfplay import play_table

from support.cli import gamelog, gamelog_json

SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


def test_a_paper_result_ends_the_running_game_with_the_directors_reason(
    memory_server: ServerProcess,
) -> None:
    created = gamelog_json(
        memory_server,
        "tournament",
        "new",
        "Paper night",
        "--game",
        "three-too-many",
        "--table-size",
        "3-4",
        "--rounds",
        "1",
        "--seed",
        "11",
    )
    tid, director = created["tournament_id"], created["director_token"]
    gamelog_json(memory_server, "tournament", "register", tid, *SEVEN, "--token", director)
    seated = gamelog_json(memory_server, "tournament", "pair", tid, "--token", director)
    paper, other = seated["tables"]
    tokens = gamelog_json(memory_server, "tournament", "tokens", tid, "--token", director)
    with TournamentClient(memory_server.address) as client:
        # A few moves on the server, then the table finishes on paper.
        play_table(client, paper["game_id"], tokens, director, random.Random(1), 3)
    places = [paper["seats"][1], "=".join(paper["seats"][2:]), paper["seats"][0]]
    said = gamelog(
        memory_server,
        "tournament",
        "result",
        tid,
        "1",
        *places,
        "--token",
        director,
        "--reason",
        "the laptop ran out of battery",
    ).stdout
    assert "result-entered" in said and "ended with this result" in said
    with TournamentClient(memory_server.address) as client:
        end = client.records(paper["game_id"])[-1]
        assert end["kind"] == "finished" and end["by_director"] is True
        assert end["reason"] == "the laptop ran out of battery"
        assert end["result"]["ranking"] == [[p for p in place.split("=")] for place in places]
        assert client.audit(paper["game_id"]).ok
        assert client.state(paper["game_id"]).finished
        with pytest.raises(ApiError) as refused:
            legal = client.legal_moves(paper["game_id"], tokens[paper["seats"][0]])
            client.play(paper["game_id"], legal[0] if legal else {}, 99, tokens[paper["seats"][0]])
        assert refused.value.code in ("FAILED_PRECONDITION", "ABORTED", "INVALID_ARGUMENT")
    running = gamelog_json(memory_server, "list", "--tournament", tid, "--status", "running")
    finished = gamelog_json(memory_server, "list", "--tournament", tid, "--status", "finished")
    assert [g["game_id"] for g in running] == [other["game_id"]]
    assert [g["game_id"] for g in finished] == [paper["game_id"]]
    listed = gamelog(memory_server, "list", "--tournament", tid).stdout
    assert "finished" in listed and "running" in listed
    shown = gamelog(memory_server, "tournament", "show", tid).stdout
    assert f"{places[0]}, {places[1]}, {places[2]} (director)" in shown
    assert "playing" in shown
    gamelog_json(memory_server, "tournament", "selfplay", tid, "--token", director)
    shown = gamelog(memory_server, "tournament", "show", tid).stdout
    assert "(game)" in shown and "playing" not in shown
    gamelog_json(memory_server, "tournament", "finish", tid, "--token", director)
    assert gamelog_json(memory_server, "tournament", "audit", tid)["ok"]
    with TournamentClient(memory_server.address) as client:
        imported = client.import_tournament(client.export_tournament(tid, director))
        assert client.audit_tournament(imported.tournament_id).ok


def test_a_forfeit_ends_the_game_and_a_correction_leaves_a_finished_game_alone(
    memory_server: ServerProcess,
) -> None:
    with TournamentClient(memory_server.address) as client:
        created = client.create_tournament("Forfeits", "freeform", 1, (2, 2))
        tid, director = created.tournament_id, created.director_token
        client.register(tid, ["Ann", "Ben"], director)
        table = client.pair(tid, director).tables[0]
        first, second = table.seats
        client.enter_result(tid, 1, 1, [[first], [second]], "no show", director, forfeited=[second])
        end = client.records(table.game_id)[-1]
        assert end["by_director"] and end["result"]["details"] == {"forfeited": [second]}
        client.enter_result(tid, 1, 1, [[second], [first]], "wrong slip", director)
        records = client.records(table.game_id)
        assert records[-1] == end  # the game ended once; the correction is the tournament's
        assert client.audit(table.game_id).ok
        assert client.audit_tournament(tid).ok
