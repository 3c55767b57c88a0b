"""Cases a and b: moves per second through gRPC, beside their baselines.

a) One ``gamelog serve --db <tmp sqlite>`` process; 1 and 8 client processes
   playing ``three-too-many`` (PlayMove), beside the trivial Echo RPC on the
   same server at the same concurrency: the transport limit. Then the peer
   rows (``bench.peers``): boardgame.io in memory, unary PlayMove and the
   Play stream, and grpcio's own streaming echo, in one run.
b) Two ``gamelog serve --postgres DSN`` processes sharing one throw-away
   database, clients split between them, beside single-row psycopg INSERTs
   (one transaction each) into a plain table of the same database.
"""

from __future__ import annotations

import time
import uuid

from bench.common import PG_ADMIN_DSN, CaseResult, Row, Settings
from bench.inprocess import AppAlone, play_alone
from bench.load import INSERT_TABLE, PhaseSummary, run_load
from bench.peers import peer_rows
from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.service.storage.settings import postgres_env, store_env

CONCURRENCY = (1, 8)
ROUNDS = 4
"""Visits per phase (``bench.load.visits``): this machine's speed drifts
within minutes, and one visit each would credit that drift to the ratio."""
GOAL_A = 0.5
GOAL_B = 0.5


def _row(
    label: str,
    moves: PhaseSummary,
    base: PhaseSummary,
    goal: float | None,
    base_on_server: bool = True,
) -> Row:
    ratio = moves.rate / base.rate
    return Row(
        label=label,
        value=moves.rate,
        baseline=base.rate,
        unit="calls/s",
        ratio=ratio,
        ratio_meaning="PlayMove rate / baseline rate (higher is better)",
        goal=f">= {goal}" if goal is not None else "",
        met=None if goal is None else ratio >= goal,
        context={
            "moves": moves.to_json(),
            "baseline": base.to_json(),
            "p50_ms": moves.p50_ms,
            "p99_ms": moves.p99_ms,
            "baseline_p50_ms": base.p50_ms,
            "baseline_p99_ms": base.p99_ms,
            "server_cpu_ms_per_call": moves.server_cpu_ms_per_call,
            "baseline_server_cpu_ms_per_call": base.server_cpu_ms_per_call
            if base_on_server
            else None,
        },
    )


def _limit_rows(
    alone: AppAlone, echo: PhaseSummary, base: PhaseSummary, processes: int
) -> list[Row]:
    """Two rows that bound the move rate, measured in the same run.

    - the application alone: ``GameLog.play`` in one thread of one process,
      no gRPC, on the same kind of store;
    - the ceiling: what ``processes`` server processes could serve if a move
      cost only the Echo's server CPU plus the application's own CPU, each
      process running its Python on one core under its GIL (and nothing left
      for the clients, who share the cores).
    """
    echo_cpu = echo.server_cpu_ms_per_call or 0.0
    ceiling = processes * 1000 / (echo_cpu + alone.cpu_ms_per_move)
    meaning = "rate / baseline rate (a bound, not a goal)"
    return [
        Row(
            label="the application alone: GameLog.play, 1 thread, no gRPC",
            value=alone.rate,
            baseline=base.rate,
            unit="calls/s",
            ratio=alone.rate / base.rate,
            ratio_meaning=meaning,
            context={"app_alone": alone.to_json()},
        ),
        Row(
            label=f"ceiling: {processes} process(es) x 1000 ms / (Echo server CPU + app CPU)",
            value=ceiling,
            baseline=base.rate,
            unit="calls/s",
            ratio=ceiling / base.rate,
            ratio_meaning=meaning,
            context={
                "echo_server_cpu_ms_per_call": echo_cpu,
                "app_cpu_ms_per_move": alone.cpu_ms_per_move,
                "processes": processes,
            },
        ),
    ]


def _latencies(phase: PhaseSummary) -> dict[str, float | None]:
    return {
        "p50_ms": phase.p50_ms,
        "p99_ms": phase.p99_ms,
        "server_cpu_ms_per_call": phase.server_cpu_ms_per_call,
    }


def _echo_and_play(server: ServerProcess, clients: int, calls: int) -> dict[str, PhaseSummary]:
    """Case a's load on one server: Echo and PlayMove, in ABBA visits."""
    return run_load(
        [server.address], clients, ["echo", "play"], calls, server_pids=[server.pid], rounds=ROUNDS
    )


def case_a(settings: Settings) -> CaseResult:
    result = CaseResult(
        "a",
        "moves/s through gRPC (SQLite)",
        "Echo RPC on the same server, same concurrency",
    )
    calls = settings.pick(1500, 60)
    server = start_server_process(settings.workdir, "--db", str(settings.workdir / "a.sqlite"))
    try:
        for clients in CONCURRENCY:
            phases = _echo_and_play(server, clients, calls)
            goal = GOAL_A if clients == max(CONCURRENCY) else None
            result.rows.append(_row(f"{clients} client(s)", phases["play"], phases["echo"], goal))
    finally:
        server.stop()
    echo = phases["echo"]
    # The same server with no store at all: how much of the gap is storage.
    clients = max(CONCURRENCY)
    memory = start_server_process(settings.workdir, "--memory")
    try:
        unstored = _echo_and_play(memory, clients, calls)
    finally:
        memory.stop()
    row = _row(
        f"no storage (serve --memory), {clients} clients, against its own Echo",
        unstored["play"],
        unstored["echo"],
        None,
    )
    row.ratio_meaning = "rate / baseline rate (a bound, not a goal)"
    result.rows.append(row)
    alone = play_alone(store_env(db=str(settings.workdir / "alone.sqlite")), calls)
    result.rows.extend(_limit_rows(alone, echo, echo, processes=1))
    peers, notes = peer_rows(settings)
    result.rows.extend(peers)
    result.notes.extend(notes)
    result.notes.append(
        f"clients are processes (one gRPC channel each); {calls} calls per client per phase; "
        f"each phase in {ROUNDS} visits in ABBA order (Echo, PlayMove, PlayMove, Echo, ...), "
        "so that the machine's drift falls on both alike; rate = all calls of a phase / "
        "the sum of its visits' wall times"
    )
    result.notes.append(
        "moves are picked with no extra RPC: one GetState per seat at set-up, then hands "
        "are followed from PlayMove answers, so PlayMove is the only call while timed"
    )
    return result


def _create_database() -> tuple[str, str]:
    import psycopg

    name = f"gamelog_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    dsn = f"host=127.0.0.1 port=5432 user=postgres dbname={name}"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(
            f"CREATE TABLE {INSERT_TABLE} (id bigserial PRIMARY KEY, worker int NOT NULL, "
            "seq int NOT NULL, payload text NOT NULL, "
            "created_at timestamptz NOT NULL DEFAULT now())"
        )
    return name, dsn


def _drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _postgres_problem() -> str | None:
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_DSN, connect_timeout=3):
            pass
    except Exception as error:  # any failure means: no server here
        return f"no PostgreSQL reachable at {PG_ADMIN_DSN!r}: {error}"
    return None


def case_b(settings: Settings) -> CaseResult:
    result = CaseResult(
        "b",
        "moves/s through gRPC (PostgreSQL, 2 servers)",
        "psycopg single-row INSERT, one transaction each, same concurrency",
    )
    problem = _postgres_problem()
    if problem is not None:
        result.skipped = problem
        return result
    calls = settings.pick(1000, 40)
    name, dsn = _create_database()
    servers: list[ServerProcess] = []
    try:
        servers = [start_server_process(settings.workdir, "--postgres", dsn) for _ in range(2)]
        addresses = [s.address for s in servers]  # each created its tables on start
        for clients in CONCURRENCY:
            pids = [s.pid for s in servers]
            phases = run_load(
                addresses, clients, ["insert", "echo", "play"], calls, dsn, pids, ROUNDS
            )
            # The INSERT rows are context: the goal is against the transport.
            row = _row(f"{clients} client(s)", phases["play"], phases["insert"], None, False)
            result.rows.append(row)
            time.sleep(0.2)
        echo, insert = phases["echo"], phases["insert"]
        goal_row = _row(
            f"moves / Echo through the same 2 servers, {clients} clients",
            phases["play"],
            echo,
            GOAL_B,
        )
        goal_row.ratio_meaning = "PlayMove rate / Echo rate through the same servers"
        result.rows.append(goal_row)
        result.rows.append(
            Row(
                label=f"Echo through the 2 servers, {clients} clients (the transport alone)",
                value=echo.rate,
                baseline=insert.rate,
                unit="calls/s",
                ratio=echo.rate / insert.rate,
                ratio_meaning="rate / baseline rate (a bound, not a goal)",
                context={"echo": echo.to_json(), **_latencies(echo)},
            )
        )
        alone = play_alone(postgres_env(dsn), calls)
        result.rows.extend(_limit_rows(alone, echo, insert, processes=2))
    finally:
        for server in servers:
            server.stop()
        _drop_database(name)
    result.notes.append(
        f"database {name} created and dropped; {calls} calls per client per phase; "
        "clients are processes split round-robin over the 2 servers (1 client uses one); "
        f"each phase in {ROUNDS} visits in ABBA order (INSERT, Echo, PlayMove, PlayMove, "
        "Echo, INSERT, ...), so that the machine's drift falls on all three alike"
    )
    return result
