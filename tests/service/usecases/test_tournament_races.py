"""Two servers on one PostgreSQL database, two tables ending at the same moment.

The tournament lock is a process's: across processes only the store's unique
key on (aggregate, position) decides. Every save that ends a tournament's
table writes the tournament (a result, or the record that a duplicate
round's table is over with its end held), so two such saves at once meet on
the tournament's next position, and the one that loses is made again from
the tournament as the other left it: no duplicate round stalls with its
tables over and its ends held, and no final move is refused for a clash that
was never about its game.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc
from gamelog.v1 import tournaments_pb2 as tpb
from gamelog.v1 import tournaments_pb2_grpc as tpb_grpc

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]

TRIALS = 50


@pytest.fixture(scope="module")
def racing_servers(
    postgres_dsn: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    folder = tmp_path_factory.mktemp("races")
    servers = [start_server_process(folder, "--postgres", postgres_dsn) for _ in range(2)]
    yield servers
    for server in servers:
        server.stop()


def _tournament(stub: Any, duplicate: str) -> tuple[str, Any, list[tuple[str, list[str]]]]:
    """A 4-player freeform tournament with its round 1 paired: its id, the
    director's metadata, and each table's game id with its seats."""
    created = stub.CreateTournament(
        tpb.CreateTournamentRequest(name="Race", game="freeform", rounds=1, duplicate=duplicate)
    )
    director = (("authorization", f"Bearer {created.director_token}"),)
    stub.RegisterPlayers(
        tpb.RegisterPlayersRequest(
            tournament_id=created.tournament_id,
            players=[tpb.PlayerToRegister(name=name) for name in ("Ann", "Ben", "Cy", "Di")],
        ),
        metadata=director,
    )
    paired = stub.PairRound(
        tpb.PairRoundRequest(tournament_id=created.tournament_id), metadata=director
    )
    tables = [(t.game_id, list(t.seats)) for t in paired.tables]
    return created.tournament_id, director, tables


def _end_both_at_once(
    servers: list[ServerProcess], director: Any, tables: list[tuple[str, list[str]]]
) -> list[Any]:
    """The director's result move at each table, through a server each, at once."""
    start = threading.Barrier(len(tables))
    answers: list[Any] = [None] * len(tables)

    def end(index: int) -> None:
        game_id, seats = tables[index]
        result = {"result": {"scores": {seats[0]: 1, seats[1]: 0}}}
        with grpc.insecure_channel(servers[index % len(servers)].address) as channel:
            stub = pb_grpc.GameLogStub(channel)
            request = pb.PlayMoveRequest(
                game_id=game_id, move_json=json.dumps(result), at_position=0
            )
            start.wait()
            try:
                answers[index] = stub.PlayMove(request, metadata=director, timeout=60)
            except grpc.RpcError as refused:
                answers[index] = refused

    threads = [threading.Thread(target=end, args=(n,)) for n in range(len(tables))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    return answers


@pytest.mark.parametrize("duplicate", ["seed", "none"])
def test_two_tables_ending_at_once_on_two_servers_both_count(
    racing_servers: list[ServerProcess], duplicate: str
) -> None:
    stalled, refused = [], []
    with (
        grpc.insecure_channel(racing_servers[0].address) as channel,
        grpc.insecure_channel(racing_servers[1].address) as other,
    ):
        stub = tpb_grpc.TournamentsStub(channel)
        games = pb_grpc.GameLogStub(other)
        for trial in range(TRIALS):
            tournament_id, director, tables = _tournament(stub, duplicate)
            assert len(tables) == 2
            answers = _end_both_at_once(racing_servers, director, tables)
            refused += [a.details() for a in answers if isinstance(a, grpc.RpcError)]
            summary = stub.GetTournament(tpb.GetTournamentRequest(tournament_id=tournament_id))
            results = [t.result_json for t in summary.rounds[0].tables]
            finished = [
                games.GetState(pb.GetStateRequest(game_id=g), metadata=director).finished
                for g, _ in tables
            ]
            if not (all(results) and all(finished)):
                stalled.append((trial, results, finished))
            audit = stub.AuditTournament(tpb.AuditTournamentRequest(tournament_id=tournament_id))
            assert audit.ok, audit.problem
    assert refused == []
    assert stalled == []


@pytest.mark.parametrize("duplicate", ["seed"])
def test_a_round_held_when_its_last_table_ended_is_released_at_start_up(
    postgres_dsn: str, tmp_path: Path, duplicate: str
) -> None:
    """A round stalled before this was mended (or whose last table's server
    went away before it ended the round) is ended by the next server's
    start-up sweep."""
    import psycopg

    from gamelog.service.storage.settings import postgres_env
    from gamelog.service.usecases.application import GameLog

    app = GameLog(env=postgres_env(postgres_dsn))
    try:
        created = app.tournaments.create_tournament(
            "Stalled", "freeform", 1, (2, 2), duplicate=duplicate
        )
        app.tournaments.register_players(
            created.tournament_id,
            created.director_token,
            [{"name": name} for name in ("Ann", "Ben", "Cy", "Di")],
        )
        seated, tables = app.tournaments.pair_round(created.tournament_id, created.director_token)
        for table in seated.tables:
            game_id = tables[table.number]
            result = {"result": {"scores": {table.seats[0]: 1, table.seats[1]: 0}}}
            app.games.play(game_id, created.director_token, result, 0)
    finally:
        app.close()
    # As a round stalled: both tables over, their ends and results not stored.
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        for game_id in tables.values():
            connection.execute(
                "DELETE FROM gamelog_events WHERE originator_id = %s AND originator_version > 2",
                (game_id,),
            )
        connection.execute(
            "DELETE FROM gamelog_events WHERE originator_id = %s AND topic NOT LIKE %s"
            " AND topic NOT LIKE %s AND topic NOT LIKE %s",
            (created.tournament_id, "%Created", "%PlayerRegistered", "%RoundPaired"),
        )
        connection.execute("DELETE FROM gamelog_snapshots")
        connection.execute(
            "UPDATE gamelog_index SET finished = FALSE WHERE game_id = ANY(%s)",
            ([game_id.hex for game_id in tables.values()],),
        )
    server = start_server_process(tmp_path, "--postgres", postgres_dsn)
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = tpb_grpc.TournamentsStub(channel)
            for _ in range(600):
                summary = stub.GetTournament(
                    tpb.GetTournamentRequest(tournament_id=str(created.tournament_id))
                )
                if all(t.result_json for t in summary.rounds[0].tables):
                    break
                threading.Event().wait(0.1)
            assert all(t.result_json for t in summary.rounds[0].tables)
    finally:
        server.stop()
