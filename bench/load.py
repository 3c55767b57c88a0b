"""Client load for the throughput cases (a and b), run in worker processes.

Each worker is its own process (one Python interpreter, so one client's GIL
never limits another's) with its own gRPC channel. It prepares its games before
the clock starts, then runs each phase after every worker reached a barrier:

- ``echo``: the trivial Echo RPC (the transport baseline);
- ``play``: PlayMove calls through whole ``three-too-many`` games. A worker
  holds both seats' tokens of its own games, so no two clients ever touch one
  game. It learns each hand once (one GetState per seat at set-up) and then
  follows the hand from PlayMove's own answers (the cards placed and drawn),
  so it picks a legal move with no extra RPC per turn;
- ``insert``: single-row INSERTs with psycopg, one transaction each (the
  PostgreSQL baseline);
- ``stream`` and ``stream_echo``: moves over gamelog's ``Play`` stream, and
  grpcio's own streaming echo (``bench.stream_load``).

With ``rounds`` above 1, each phase's calls are split into that many visits,
taken in counterbalanced (ABBA) order: the phases in order, then reversed,
then in order again. This machine's speed drifts by a third within minutes;
one echo phase followed by one play phase would credit the drift to the ratio
between them, while visits in ABBA order put every phase's visits around the
same middle in time, so a steady drift falls on all of them alike. A phase's
figures pool its visits: all its calls over the sum of its visits' wall times.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import random
import time
from dataclasses import dataclass, field
from typing import Any

GAME = "three-too-many"
SEATS = ("p1", "p2")
MOVES_PER_GAME = 36
"""Two seats play every card of their hand and pile but the last two."""
ECHO_PAYLOAD = b"x" * 64
INSERT_TABLE = "bench_inserts"
BARRIER_TIMEOUT = 600.0


@dataclass
class WorkerSpec:
    index: int
    address: str
    phases: list[str]
    calls: int
    """Calls per phase for this worker."""
    dsn: str = ""
    seed: int = 0
    server_pids: list[int] = field(default_factory=list)
    """Worker 0 samples these processes' CPU time around each phase."""
    rounds: int = 1
    """Visits per phase, in ABBA order (``visits``)."""


def visits(phases: list[str], rounds: int) -> list[str]:
    """The phases in counterbalanced order, ``rounds`` visits each:

    >>> visits(["echo", "play"], 4)
    ['echo', 'play', 'play', 'echo', 'echo', 'play', 'play', 'echo']
    """
    return [p for r in range(rounds) for p in (phases if r % 2 == 0 else phases[::-1])]


@dataclass
class PhaseResult:
    index: int
    phase: str
    visit: int
    """Which of the worker's visits (``visits``) this was."""
    start: float
    end: float
    latencies: list[float]
    errors: int = 0
    setup_rpcs: int = 0
    games_finished: int = 0
    server_cpu: float | None = None
    """CPU seconds the server processes spent in the phase (worker 0 only)."""
    client_cpu: float = 0.0
    """CPU seconds this client process spent in the phase (it shares the
    cores with the server, so a costly answer to parse slows the server too)."""


@dataclass
class TrackedGame:
    """A game seen from both seats: hands and position followed from answers."""

    game_id: str
    tokens: dict[str, str]
    hands: dict[str, list[int]]
    position: int = 0
    turn: int = 0
    finished: bool = False


def prepare_game(client: Any) -> tuple[TrackedGame, int]:
    """Create one game and read each seat's hand: (game, RPCs used)."""
    created = client.create(GAME, list(SEATS))
    tokens = dict(created.seat_tokens)
    hands = {}
    for seat in SEATS:
        view = json.loads(client.state(created.game_id, tokens[seat]).view_json)
        hands[seat] = list(view["hand"])
    return TrackedGame(created.game_id, tokens, hands), 1 + len(SEATS)


def follow(game: TrackedGame, response: Any) -> None:
    """Update hands, turn, position and end from a PlayMove answer."""
    game.position = response.position
    for message in response.records:
        record = json.loads(message.record_json)
        if record["kind"] == "finished":
            game.finished = True
        for event in record.get("events", ()):
            kind = event.get("type")
            if kind == "CardPlaced":
                game.hands[event["seat"]].remove(event["card"])
                game.turn = (SEATS.index(event["seat"]) + 1) % len(SEATS)
            elif kind == "CardsDrawn" and "cards" in event:
                game.hands[event["seat"]].extend(event["cards"])
            elif kind == "GameEnded":
                game.finished = True


def resync(client: Any, game: TrackedGame) -> None:
    """Reload a game from the server after a refused move."""
    for seat in SEATS:
        state = client.state(game.game_id, game.tokens[seat])
        view = json.loads(state.view_json)
        game.hands[seat] = list(view.get("hand", []))
        game.position = state.position
        game.finished = state.finished
        if state.to_act:
            game.turn = SEATS.index(state.to_act[0])


def _echo(client: Any, calls: int) -> tuple[list[float], int]:
    latencies = []
    for _ in range(calls):
        t0 = time.perf_counter()
        client.echo(ECHO_PAYLOAD)
        latencies.append(time.perf_counter() - t0)
    return latencies, 0


def _play(
    client: Any, games: list[TrackedGame], calls: int, rng: random.Random
) -> tuple[list[float], int, int]:
    from gamelog.cli.client import ApiError

    latencies: list[float] = []
    errors = 0
    finished = 0
    pending = games  # finished games leave it, so a later visit goes on where this one ends
    while len(latencies) < calls and pending:
        game = pending[0]
        if game.finished:
            pending.pop(0)
            finished += 1
            continue
        seat = SEATS[game.turn]
        card = rng.choice(game.hands[seat])
        t0 = time.perf_counter()
        try:
            response = client.play(game.game_id, {"card": card}, game.position, game.tokens[seat])
        except ApiError:
            errors += 1
            resync(client, game)
            continue
        latencies.append(time.perf_counter() - t0)
        follow(game, response)
    return latencies, errors, finished


def _insert(conn: Any, calls: int, worker: int) -> tuple[list[float], int]:
    """Single-row INSERTs on an autocommit connection: one transaction each."""
    payload = json.dumps({"seat": "p1", "move": {"card": 42}, "pad": "x" * 160})
    latencies = []
    for seq in range(calls):
        t0 = time.perf_counter()
        conn.execute(
            f"INSERT INTO {INSERT_TABLE} (worker, seq, payload) VALUES (%s, %s, %s)",
            (worker, seq, payload),
        )
        latencies.append(time.perf_counter() - t0)
    return latencies, 0


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of processes, from /proc/<pid>/stat."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


_STREAM_PHASES = {"stream", "stream_floor", "stream_floor_2", "stream_echo", "stream_echo_2"}


def _open_streams(spec: WorkerSpec, games: list[TrackedGame]) -> Any:
    """The worker's streams (``bench.stream_load``), open before the clock runs."""
    from bench.stream_load import WorkerStreams

    return WorkerStreams.open(spec.address, spec.phases, games, spec.seed)


def worker_main(spec: WorkerSpec, barrier: Any, results: Any) -> None:
    """The body of one client process."""
    from gamelog.cli.client import Client

    rng = random.Random(spec.seed)
    client = Client(spec.address)
    games: list[TrackedGame] = []
    setup_rpcs = 0
    if {"play", "stream", "stream_floor", "stream_floor_2"} & set(spec.phases):
        for _ in range(spec.calls // MOVES_PER_GAME + 2):
            game, used = prepare_game(client)
            games.append(game)
            setup_rpcs += used
    streams = _open_streams(spec, games) if _STREAM_PHASES & set(spec.phases) else None
    if not {"stream_echo", "stream_echo_2"} & set(spec.phases):
        client.echo(ECHO_PAYLOAD)  # the channel is connected before the clock runs
    conn: Any = None
    if "insert" in spec.phases:
        import psycopg

        conn = psycopg.connect(spec.dsn, autocommit=True)  # connected before the clock runs
    per_visit = max(1, spec.calls // spec.rounds)
    for visit, phase in enumerate(visits(spec.phases, spec.rounds)):
        barrier.wait(BARRIER_TIMEOUT)
        sampling = spec.index == 0 and bool(spec.server_pids)
        cpu_before = cpu_seconds(spec.server_pids) if sampling else 0.0
        start = time.perf_counter()
        own_cpu = time.process_time()
        errors = finished = 0
        if phase == "echo":
            latencies, errors = _echo(client, per_visit)
        elif phase == "play":
            latencies, errors, finished = _play(client, games, per_visit, rng)
        elif phase == "insert":
            latencies, errors = _insert(conn, per_visit, spec.index)
        elif phase in _STREAM_PHASES and streams is not None:
            latencies, errors, finished = streams.visit(phase, per_visit)
        else:
            raise ValueError(f"unknown phase {phase!r}")
        end = time.perf_counter()
        own_cpu = time.process_time() - own_cpu
        barrier.wait(BARRIER_TIMEOUT)  # every worker is done: the phase is over
        cpu = cpu_seconds(spec.server_pids) - cpu_before if sampling else None
        setup = setup_rpcs if visit == 0 else 0  # counted once, however many visits
        results.put(
            PhaseResult(
                spec.index,
                phase,
                visit,
                start,
                end,
                latencies,
                errors,
                setup,
                finished,
                cpu,
                own_cpu,
            )
        )
    client.close()
    if conn is not None:
        conn.close()
    if streams is not None:
        streams.close()


@dataclass
class PhaseSummary:
    phase: str
    clients: int
    calls: int
    seconds: float
    rate: float
    p50_ms: float
    p99_ms: float
    errors: int
    setup_rpcs: int
    games_finished: int
    server_cpu_ms_per_call: float | None
    """Server CPU (all server processes) per call in the phase: where it is
    near the wall time per call divided by the cores, the server is the limit."""
    client_cpu_ms_per_call: float = 0.0
    """The client processes' own CPU per call in the phase."""
    visit_rates: list[float] = field(default_factory=list)
    """Each visit's rate, in the order taken (one visit: empty)."""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def summarize(phase: str, parts: list[PhaseResult], seconds: float | None = None) -> PhaseSummary:
    """One phase's figures from its workers' results; ``seconds``: its wall
    time, if not the span from the first start to the last end."""
    from bench.common import percentile

    latencies = [x for p in parts for x in p.latencies]
    if seconds is None:
        seconds = max(p.end for p in parts) - min(p.start for p in parts)
    cpus = [p.server_cpu for p in parts if p.server_cpu is not None]
    return PhaseSummary(
        phase=phase,
        clients=len({p.index for p in parts}),
        calls=len(latencies),
        seconds=seconds,
        rate=len(latencies) / seconds if seconds > 0 else float("nan"),
        p50_ms=percentile(latencies, 50) * 1000,
        p99_ms=percentile(latencies, 99) * 1000,
        errors=sum(p.errors for p in parts),
        setup_rpcs=sum(p.setup_rpcs for p in parts),
        games_finished=sum(p.games_finished for p in parts),
        # Worker 0 samples the servers around each visit.
        server_cpu_ms_per_call=sum(cpus) / len(latencies) * 1000 if cpus else None,
        client_cpu_ms_per_call=sum(p.client_cpu for p in parts) / len(latencies) * 1000
        if latencies
        else 0.0,
    )


def run_load(
    addresses: list[str],
    clients: int,
    phases: list[str],
    calls: int,
    dsn: str = "",
    server_pids: list[int] | None = None,
    rounds: int = 1,
) -> dict[str, PhaseSummary]:
    """Start ``clients`` worker processes (spread over ``addresses``), run the
    phases in order (``rounds`` visits each, in ABBA order), all workers
    together; summarize each phase, pooling its visits."""
    order = visits(phases, rounds)
    collected = run_visits(addresses, clients, phases, calls, dsn, server_pids, rounds)
    return {
        phase: pool(phase, [collected[v] for v, p in enumerate(order) if p == phase])
        for phase in phases
    }


def run_visits(
    addresses: list[str],
    clients: int,
    phases: list[str],
    calls: int,
    dsn: str = "",
    server_pids: list[int] | None = None,
    rounds: int = 1,
) -> dict[int, list[PhaseResult]]:
    """``run_load``'s work: every worker's results of each visit, by visit
    (in ``visits(phases, rounds)`` order), not yet pooled."""
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(clients)
    results = ctx.Queue()
    specs = [
        WorkerSpec(
            i,
            addresses[i % len(addresses)],
            phases,
            calls,
            dsn,
            1000 + i,
            server_pids or [],
            rounds,
        )
        for i in range(clients)
    ]
    order = visits(phases, rounds)
    processes = [ctx.Process(target=worker_main, args=(s, barrier, results)) for s in specs]
    for process in processes:
        process.start()
    collected: dict[int, list[PhaseResult]] = {visit: [] for visit in range(len(order))}
    wanted = clients * len(order)
    deadline = time.monotonic() + BARRIER_TIMEOUT * len(order)
    try:
        while sum(len(parts) for parts in collected.values()) < wanted:
            if time.monotonic() > deadline:
                raise TimeoutError("client processes took too long")
            try:
                part: PhaseResult = results.get(timeout=1.0)
            except queue.Empty:
                crashed = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
                if crashed:
                    barrier.abort()
                    raise RuntimeError(f"a client process failed (exit codes {crashed})") from None
                continue
            collected[part.visit].append(part)
    finally:
        for process in processes:
            process.join(30)
            if process.is_alive():
                process.terminate()
    failed = [p.exitcode for p in processes if p.exitcode]
    if failed:
        raise RuntimeError(f"client processes failed with exit codes {failed}")
    return collected


def pool(phase: str, visited: list[list[PhaseResult]]) -> PhaseSummary:
    """One phase's figures over all its visits (each the workers' results of
    one visit): every call of every visit over the sum of the visits' wall
    times, and the servers' and clients' CPU over all those calls."""
    if len(visited) == 1:
        return summarize(phase, visited[0])
    each = [summarize(phase, parts) for parts in visited]
    every = [part for parts in visited for part in parts]
    pooled = summarize(phase, every, seconds=sum(v.seconds for v in each))
    pooled.visit_rates = [v.rate for v in each]
    return pooled
