"""PostgreSQL scale-out: several service processes share one database.

Marked ``postgres``: skipped where no PostgreSQL is reachable, and required
(a failure, not a skip) under .ci/run, which sets GAMELOG_REQUIRE_POSTGRES=1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gamelog.cli.process import ServerProcess, start_server_process

from support.races import race_for_the_first_move

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]


def test_a_move_on_one_process_is_seen_at_once_by_the_other(
    two_postgres_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_postgres_servers
    with a.client() as on_a, b.client() as on_b:
        created = on_a.create("three-too-many", ["ann", "ben"])
        gid = created.game_id
        for _ in range(6):
            state = on_b.state(gid)
            seat = state.to_act[0]
            token = created.seat_tokens[seat]
            mover, reader = (on_a, on_b) if state.last_position % 2 else (on_b, on_a)
            move = mover.legal_moves(gid, token)[0]
            played = mover.play(gid, move, state.last_position, token)
            assert reader.state(gid).last_position == played.position
            assert len(reader.records(gid, created.arbiter_token)) == played.position + 1
        assert {g.game_id for g in on_b.games()} >= {gid}
        assert on_b.audit(gid).ok


def test_processes_racing_for_one_position_yield_one_winner(
    two_postgres_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    for round_ in range(6):
        assert race_for_the_first_move(two_postgres_servers) == ["ABORTED", "won"], round_


def test_the_cli_serves_postgres(postgres_dsn: str, tmp_path: Path) -> None:
    server = start_server_process(tmp_path, "--postgres", postgres_dsn)
    try:
        with server.client() as client:
            assert {t.name for t in client.game_types()} >= {"three-too-many"}
    finally:
        assert server.stop() == 0


def test_moves_are_stored_through_the_insert_function_without_a_table_lock(
    two_postgres_servers: tuple[ServerProcess, ServerProcess], postgres_dsn: str
) -> None:
    """The store is set up for eventsourcing's one-round-trip insert function
    (docs/service-decisions.md), so a move does not wait for LOCK TABLE: a
    move is stored while another session holds a lock that LOCK TABLE ... IN
    EXCLUSIVE MODE would have to wait for."""
    import psycopg

    a, _ = two_postgres_servers
    with a.client() as client:
        created = client.create("freeform", ["ann", "ben"])
        with psycopg.connect(postgres_dsn) as blocker:
            tables = [
                row[0]
                for row in blocker.execute(
                    "SELECT tablename FROM pg_tables WHERE tablename LIKE '%events'"
                )
            ]
            assert tables
            for table in tables:
                # ROW EXCLUSIVE: what any writer holds; it conflicts with EXCLUSIVE.
                blocker.execute(f'LOCK TABLE "{table}" IN ROW EXCLUSIVE MODE')
            played = client.play(
                created.game_id, {"note": "no wait"}, 0, created.seat_tokens["ann"]
            )
            assert played.position == 1
            blocker.rollback()
        with psycopg.connect(postgres_dsn) as conn:
            functions = conn.execute(
                "SELECT count(*) FROM pg_proc WHERE proname LIKE 'es_insert_events_%'"
            ).fetchone()
        assert functions == (1,)
