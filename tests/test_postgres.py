"""PostgreSQL scale-out: several service processes share one database.

Marked ``postgres``: skipped where no PostgreSQL is reachable, and required
(a failure, not a skip) under .ci/run, which sets GAMELOG_REQUIRE_POSTGRES=1.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import ApiError

from conftest import ServerProcess, start_server_process

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def two_servers(
    postgres_dsn: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    folder = tmp_path_factory.mktemp("pg")
    first = start_server_process(folder, "--postgres", postgres_dsn)
    second = start_server_process(folder, "--postgres", postgres_dsn)
    yield first, second
    first.stop()
    second.stop()


def test_a_move_on_one_process_is_seen_at_once_by_the_other(
    two_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_servers
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
    two_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_servers
    for round_ in range(6):
        with a.client() as setup:
            created = setup.create("three-too-many", ["ann", "ben"])
            moves = setup.legal_moves(created.game_id, created.seat_tokens["ann"])
        outcomes: list[str] = []
        barrier = threading.Barrier(2)

        def racer(
            server: ServerProcess,
            move: Any,
            gid: str = created.game_id,
            token: str = created.seat_tokens["ann"],
            out: list[str] = outcomes,
            barrier: threading.Barrier = barrier,
        ) -> None:
            with server.client() as mine:
                barrier.wait()
                try:
                    mine.play(gid, move, 0, token)
                    out.append("won")
                except ApiError as error:
                    out.append(error.code)

        threads = [
            threading.Thread(target=racer, args=(server, move))
            for server, move in zip((a, b), moves[:2])
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes) == ["ABORTED", "won"], round_
        with b.client() as check:
            assert len(check.records(created.game_id)) == 2


def test_a_follower_on_one_process_sees_moves_stored_by_the_other(
    two_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_servers
    with a.client() as on_a:
        created = on_a.create("three-too-many", ["ann", "ben"])
    gid = created.game_id
    seen: list[dict[str, Any]] = []
    started = threading.Event()

    def follow() -> None:
        with a.client() as watcher:
            for record in watcher.follow(gid, None, 0, timeout=120):
                seen.append(record)
                started.set()

    thread = threading.Thread(target=follow)
    thread.start()
    assert started.wait(10)
    with b.client() as on_b:
        while not (state := on_b.state(gid)).finished:
            token = created.seat_tokens[state.to_act[0]]
            on_b.play(gid, on_b.legal_moves(gid, token)[-1], state.last_position, token)
    thread.join(60)
    assert not thread.is_alive()
    assert [r["position"] for r in seen] == list(range(state.last_position + 1))


def test_the_cli_serves_postgres(postgres_dsn: str, tmp_path: Path) -> None:
    server = start_server_process(tmp_path, "--postgres", postgres_dsn)
    try:
        with server.client() as client:
            assert {t.name for t in client.game_types()} >= {"three-too-many"}
    finally:
        assert server.stop() == 0
