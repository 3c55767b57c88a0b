"""The director's guarded mistakes, through gRPC and the CLI (issue 31.1).

A pairing with too few players is refused; a round paired but not started is
withdrawn (an event, kept in the record) and paired anew; a played round is
refused, its results are corrected instead.
"""

from __future__ import annotations

import pytest

from gamelog.cli.client import ApiError
from gamelog.cli.process import ServerProcess
from gamelog.cli.tournament_client import TournamentClient

from support.cli import gamelog, gamelog_json

SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


def test_pairing_before_enough_players_are_registered_is_refused_saying_how_many(
    memory_server: ServerProcess,
) -> None:
    with TournamentClient(memory_server.address) as client:
        created = client.create_tournament("Too early", "three-too-many", 2, (3, 4))
        tid, director = created.tournament_id, created.director_token
        with pytest.raises(ApiError) as refused:
            client.pair(tid, director)
        assert refused.value.code == "FAILED_PRECONDITION"
        assert refused.value.reason == "too-few-players"
        assert "needs at least 3" in refused.value.message
        client.register(tid, ["Ann", "Ben"], director)
        with pytest.raises(ApiError) as refused:
            client.pair(tid, director)
        assert refused.value.reason == "too-few-players"
        assert "register 1 more" in refused.value.message
        assert not client.tournament(tid).rounds
        client.register(tid, ["Cy"], director)
        assert client.pair(tid, director).number == 1


def test_an_unplayed_round_is_withdrawn_with_a_reason_and_paired_anew(
    memory_server: ServerProcess,
) -> None:
    created = gamelog_json(
        memory_server,
        "tournament",
        "new",
        "Withdrawn round",
        "--game",
        "three-too-many",
        "--table-size",
        "3-4",
        "--rounds",
        "2",
        "--seed",
        "7",
    )
    tid, director = created["tournament_id"], created["director_token"]
    gamelog_json(memory_server, "tournament", "register", tid, *SEVEN[:6], "--token", director)
    first = gamelog_json(memory_server, "tournament", "pair", tid, "--token", director)
    # Gus arrives late: the director takes the round back and pairs it with him.
    said = gamelog(
        memory_server,
        "tournament",
        "withdraw-round",
        tid,
        "--token",
        director,
        "--reason",
        "Gus was not registered",
    ).stdout
    assert "round 1 withdrawn" in said and "pair round 1 again" in said
    records = gamelog_json(memory_server, "tournament", "show", tid)
    assert records["rounds"] == []
    with TournamentClient(memory_server.address) as client:
        kinds = [r["kind"] for r in client.tournament_records(tid)]
        assert kinds[-1] == "round-withdrawn"
        withdrawn = client.tournament_records(tid)[-1]
        assert withdrawn["round"] == 1 and withdrawn["reason"] == "Gus was not registered"
    old_games = {t["game_id"] for t in first["tables"]}
    running = gamelog_json(memory_server, "list", "--tournament", tid, "--status", "running")
    assert not old_games & {g["game_id"] for g in running}
    gamelog_json(memory_server, "tournament", "register", tid, "Gus", "--token", director)
    again = gamelog_json(memory_server, "tournament", "pair", tid, "--token", director)
    assert again["round"] == 1
    assert sum(len(t["seats"]) for t in again["tables"]) + len(again["byes"]) == 7
    assert not old_games & {t["game_id"] for t in again["tables"]}
    tokens = gamelog_json(memory_server, "tournament", "tokens", tid, "--token", director)
    with TournamentClient(memory_server.address) as client:
        # A withdrawn round's game takes no move from its players.
        old = first["tables"][0]
        legal_seat = old["seats"][0]
        with pytest.raises(ApiError):
            client.legal_moves(old["game_id"], tokens[legal_seat])
    for _ in range(2):
        gamelog_json(memory_server, "tournament", "selfplay", tid, "--token", director)
        if len(gamelog_json(memory_server, "tournament", "show", tid)["rounds"]) < 2:
            gamelog_json(memory_server, "tournament", "pair", tid, "--token", director)
    gamelog_json(memory_server, "tournament", "finish", tid, "--token", director)
    report = gamelog_json(memory_server, "tournament", "audit", tid)
    assert report["ok"], report
    # The archive, withdrawn round and all, imports and audits on its own.
    with TournamentClient(memory_server.address) as client:
        archive = client.export_tournament(tid, director)
        imported = client.import_tournament(archive)
        assert client.audit_tournament(imported.tournament_id).ok


def test_a_played_round_is_not_withdrawn_its_results_are_corrected(
    memory_server: ServerProcess,
) -> None:
    with TournamentClient(memory_server.address) as client:
        created = client.create_tournament("Played", "freeform", 2, (2, 2))
        tid, director = created.tournament_id, created.director_token
        client.register(tid, ["Ann", "Ben", "Cy", "Dee"], director)
        seated = client.pair(tid, director)
        table = seated.tables[0]
        client.enter_result(
            tid, 1, table.number, [[table.seats[0]], [table.seats[1]]], "paper", director
        )
        with pytest.raises(ApiError) as refused:
            client.withdraw_round(tid, "oops", director)
        assert refused.value.code == "FAILED_PRECONDITION"
        assert refused.value.reason == "round-played"
        assert "correct" in refused.value.message
        with pytest.raises(ApiError) as refused:
            client.withdraw_round(tid, "oops", director, round_number=2)
        assert refused.value.reason == "bad-round"
        with pytest.raises(ApiError) as refused:
            client.withdraw_round(tid, "", director)
        assert refused.value.code == "INVALID_ARGUMENT"
        assert [r["kind"] for r in client.tournament_records(tid)][-1] == "result-entered"
