"""Case g: live follow at scale, delivery from acknowledgement to the last follower.

For each configuration a fresh ``gamelog serve --db <tmp sqlite>`` process
(or two ``--postgres`` processes) gets freeform games; follower processes
(asyncio, ``grpc.aio`` channels of at most ``STREAMS_PER_CHANNEL`` streams,
each channel its own connection) open one FollowGame stream per follower, as
spectators, and wait until every stream has its game's creation record. Then
one mover in this process plays one move per second on every game, the games'
moves spread evenly over each second, for ``seconds`` seconds.

- **delivery** of a move: from the moment its PlayMove answer arrived at the
  mover to the moment the *last* of that game's followers received the record
  (all processes read one system-wide monotonic clock); p50/p99 over moves.
  Every follower must receive every move; missing ones are counted.
- **baseline**: the same, with one follower of one game, in the same run.
- **memory**: the server's RSS with all streams open minus its RSS with the
  games created and no stream yet, per follower.
- While the moves run, the mover also checks health every half second and
  keeps PlayMove's own latency.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import os
import queue
import time
from dataclasses import dataclass, field
from typing import Any

from bench.common import CaseResult, Row, Settings, percentile, rss_kib
from gamelog.cli.process import ServerProcess, start_server_process

STREAMS_PER_CHANNEL = 500
GOAL_P99_MS = 100.0
GOAL_KB_PER_FOLLOWER = 50.0
SETUP_TIMEOUT = 300.0


@dataclass
class Layout:
    label: str
    followers: int
    games: int
    processes: int
    postgres: bool = False


@dataclass
class Outcome:
    """What one configuration measured."""

    layout: Layout
    delivery_ms: list[float]
    missing: int
    moves: int
    rss_idle_kib: int
    rss_open_kib: int
    rss_peak_kib: int
    play_ms: list[float]
    health: set[str]
    server_cpu_s: float
    seconds: float
    setup_s: float
    refused: int
    load: tuple[float, float]
    """The machine's 1-minute load average before and after the moves."""

    @property
    def kib_per_follower(self) -> float:
        return (self.rss_open_kib - self.rss_idle_kib) / self.layout.followers

    def context(self) -> dict[str, Any]:
        return {
            "followers": self.layout.followers,
            "games": self.layout.games,
            "client_processes": self.layout.processes,
            "moves": self.moves,
            "deliveries_missing": self.missing,
            "streams_refused": self.refused,
            "p50_ms": percentile(self.delivery_ms, 50),
            "p99_ms": percentile(self.delivery_ms, 99),
            "max_ms": max(self.delivery_ms, default=math.nan),
            "rss_idle_mb": self.rss_idle_kib / 1024,
            "rss_open_mb": self.rss_open_kib / 1024,
            "rss_peak_mb": self.rss_peak_kib / 1024,
            "kb_per_follower": self.kib_per_follower,
            "play_p50_ms": percentile(self.play_ms, 50),
            "play_p99_ms": percentile(self.play_ms, 99),
            "health_seen": sorted(self.health),
            "server_cpu_share": self.server_cpu_s / self.seconds,
            "server_cpu_us_per_delivery": self.server_cpu_s
            / max(1, self.moves * self.layout.followers // self.layout.games)
            * 1e6,
            "stream_setup_s": self.setup_s,
            "load_average": self.load,
        }


# -- follower processes ------------------------------------------------------------


@dataclass
class FollowerSpec:
    index: int
    address: str
    game_ids: list[str]
    """One stream per entry."""
    received: dict[str, tuple[int, float]] = field(default_factory=dict)


def follower_main(spec: FollowerSpec, ready: Any, stop: Any, results: Any) -> None:
    asyncio.run(_follow_all(spec, ready, stop, results))


async def _follow_all(spec: FollowerSpec, ready: Any, stop: Any, results: Any) -> None:
    import grpc

    from gamelog.v1 import gamelog_pb2 as pb
    from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

    count = len(spec.game_ids)
    channels = [
        grpc.aio.insecure_channel(spec.address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(max(1, math.ceil(count / STREAMS_PER_CHANNEL)))
    ]
    stubs = [pb_grpc.GameLogStub(c) for c in channels]
    # (game, position) -> deliveries, last arrival
    seen: dict[tuple[str, int], list[float]] = {}
    started = 0
    refused = 0
    all_started = asyncio.Event()

    async def one(i: int, game_id: str) -> None:
        nonlocal started, refused
        call = stubs[i % len(stubs)].FollowGame(pb.FollowGameRequest(game_id=game_id))
        first = True
        try:
            async for message in call:
                now = time.monotonic()
                key = (game_id, message.position)
                entry = seen.get(key)
                if entry is None:
                    seen[key] = [1, now]
                else:
                    entry[0] += 1
                    entry[1] = now
                if first:
                    first = False
                    started += 1
                    if started + refused == count:
                        all_started.set()
        except grpc.aio.AioRpcError as error:
            if first and error.code() != grpc.StatusCode.CANCELLED:
                refused += 1
                if started + refused == count:
                    all_started.set()

    tasks = []
    for i, game_id in enumerate(spec.game_ids):
        tasks.append(asyncio.create_task(one(i, game_id)))
        if i % 200 == 199:
            await asyncio.sleep(0.05)  # no thundering herd of stream starts
    await all_started.wait()
    ready.put((spec.index, refused))
    while not stop.is_set():
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    results.put(
        (spec.index, {f"{g} {p}": (int(v[0]), v[1]) for (g, p), v in seen.items()}, refused)
    )


# -- the mover ---------------------------------------------------------------------


async def _move(
    address: str, games: list[tuple[str, str]], seconds: int
) -> tuple[dict[tuple[str, int], float], list[float], set[str]]:
    """One move per second on every game; (acknowledgement times, PlayMove
    latencies in ms, health statuses seen)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from gamelog.v1 import gamelog_pb2 as pb
    from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

    acks: dict[tuple[str, int], float] = {}
    latencies: list[float] = []
    statuses: set[str] = set()
    async with grpc.aio.insecure_channel(address) as channel:
        stub = pb_grpc.GameLogStub(channel)
        health = health_pb2_grpc.HealthStub(channel)
        start = time.monotonic() + 0.5
        done = asyncio.Event()

        async def play(index: int, game_id: str, token: str) -> None:
            for k in range(seconds):
                when = start + k + index / len(games)
                await asyncio.sleep(max(0.0, when - time.monotonic()))
                sent = time.monotonic()
                played = await stub.PlayMove(
                    pb.PlayMoveRequest(
                        game_id=game_id, move_json=f'{{"text": "move {k}"}}', at_position=k
                    ),
                    metadata=(("authorization", f"Bearer {token}"),),
                    timeout=30,
                )
                acks[game_id, played.position] = time.monotonic()
                latencies.append((acks[game_id, played.position] - sent) * 1000)

        async def check_health() -> None:
            while not done.is_set():
                response = await health.Check(health_pb2.HealthCheckRequest(), timeout=10)
                statuses.add(health_pb2.HealthCheckResponse.ServingStatus.Name(response.status))
                await asyncio.sleep(0.5)

        checker = asyncio.create_task(check_health())
        await asyncio.gather(*(play(i, g, t) for i, (g, t) in enumerate(games)))
        done.set()
        await checker
    return acks, latencies, statuses


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_layout(
    layout: Layout, servers: list[ServerProcess], seconds: int, pause: float = 2.0
) -> Outcome:
    """Create the games, open the streams (on the last server), move (on the
    first), and measure."""
    from gamelog.cli.client import Client

    mover, host = servers[0], servers[-1]
    with Client(mover.address) as client:
        created = [client.create("freeform", ["ann"]) for _ in range(layout.games)]
        client.echo(b"warm")
    games = [(c.game_id, c.seat_tokens["ann"]) for c in created]
    time.sleep(0.3)
    rss_idle = rss_kib(host.pid)
    game_of = [games[i % layout.games][0] for i in range(layout.followers)]
    ctx = multiprocessing.get_context("spawn")
    ready, results, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
    specs = [
        FollowerSpec(p, host.address, game_of[p :: layout.processes])
        for p in range(layout.processes)
    ]
    processes = [ctx.Process(target=follower_main, args=(s, ready, stop, results)) for s in specs]
    t0 = time.monotonic()
    for process in processes:
        process.start()
    refused = 0
    try:
        for _ in processes:
            refused += _get(ready, processes, SETUP_TIMEOUT)[1]
        setup = time.monotonic() - t0
        time.sleep(0.5)
        rss_open = rss_kib(host.pid)
        cpu0 = sum(_cpu_seconds(s.pid) for s in servers)
        load0 = os.getloadavg()[0]
        m0 = time.monotonic()
        acks, play_ms, health = asyncio.run(_move(mover.address, games, seconds))
        time.sleep(pause)  # the last deliveries
        moved = time.monotonic() - m0
        cpu = sum(_cpu_seconds(s.pid) for s in servers) - cpu0
        rss_peak = rss_kib(host.pid)
        stop.set()
        merged: dict[str, tuple[int, float]] = {}
        for _ in processes:
            _, received, _ = _get(results, processes, 120)
            for key, (count, last) in received.items():
                before = merged.get(key, (0, 0.0))
                merged[key] = (before[0] + count, max(before[1], last))
    finally:
        stop.set()
        for process in processes:
            process.join(30)
            if process.is_alive():
                process.terminate()
    per_game = layout.followers // layout.games
    delivery, missing = [], 0
    for (game_id, position), acknowledged in acks.items():
        count, last = merged.get(f"{game_id} {position}", (0, 0.0))
        missing += per_game - count
        if count:
            delivery.append((last - acknowledged) * 1000)
    return Outcome(
        layout,
        delivery,
        missing,
        len(acks),
        rss_idle,
        rss_open,
        max(rss_open, rss_peak),
        play_ms,
        health,
        cpu,
        moved,
        setup,
        refused,
        (load0, os.getloadavg()[0]),
    )


def _get(source: Any, processes: list[Any], timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            return source.get(timeout=1.0)
        except queue.Empty:
            crashed = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
            if crashed:
                raise RuntimeError(f"a follower process failed (exit codes {crashed})") from None
    raise TimeoutError("follower processes took too long")


# -- the case ----------------------------------------------------------------------


def _row(outcome: Outcome, baseline: Outcome, goal: bool = True) -> Row:
    p99 = percentile(outcome.delivery_ms, 99)
    base = percentile(baseline.delivery_ms, 99)
    healthy = outcome.health == {"SERVING"} and not outcome.missing and not outcome.refused
    return Row(
        label=outcome.layout.label,
        value=p99,
        baseline=base,
        unit="ms",
        ratio=p99 / base,
        ratio_meaning="delivery p99 / one follower's delivery p99 (lower is better)",
        goal=f"p99 < {GOAL_P99_MS:.0f} ms" if goal else "",
        met=(p99 < GOAL_P99_MS and healthy) if goal else None,
        context={**outcome.context(), "baseline_p50_ms": percentile(baseline.delivery_ms, 50),
                 "baseline_p99_ms": base},
    )  # fmt: skip


def _memory_row(outcome: Outcome) -> Row:
    kib = outcome.kib_per_follower
    return Row(
        label=f"{outcome.layout.label}: server memory per follower",
        value=kib,
        baseline=outcome.rss_idle_kib / 1024,
        unit="KB",
        ratio=outcome.rss_open_kib / outcome.rss_idle_kib,
        ratio_meaning="RSS with the streams open / RSS before (baseline column: MB before)",
        goal=f"< {GOAL_KB_PER_FOLLOWER:.0f} KB",
        met=kib < GOAL_KB_PER_FOLLOWER,
        context=outcome.context(),
    )


def case_g(settings: Settings) -> CaseResult:
    from bench.throughput import _create_database, _drop_database, _postgres_problem

    result = CaseResult(
        "g",
        "live follow: delivery to the last follower, one move/s per game",
        "the same run's delivery to one follower of one game",
    )
    seconds = settings.pick(20, 2)
    pause = settings.pick(2.0, 0.5)
    counts = settings.pick((100, 1_000, 10_000), (20,))
    games = settings.pick(100, 4)
    single = [Layout("1 follower, 1 game", 1, 1, 1)]
    layouts = [
        Layout(f"{n:,} followers over {min(games, n)} games", n, min(games, n), _procs(n))
        for n in counts
    ] + [Layout(f"{n:,} followers on 1 game", n, 1, _procs(n)) for n in counts[1:]]
    outcomes: list[Outcome] = []
    # A fresh server per row, so that each row's memory is its own (the quick
    # smoke run shares one).
    shared: ServerProcess | None = None
    try:
        for layout in single + layouts:
            server = shared or start_server_process(
                settings.workdir, "--db", str(settings.workdir / f"g-{len(outcomes)}.sqlite")
            )
            if settings.quick:
                shared = server
            try:
                outcomes.append(run_layout(layout, [server], seconds, pause))
            finally:
                if server is not shared:
                    server.stop()
    finally:
        if shared is not None:
            shared.stop()
    baseline = outcomes[0]
    result.rows.extend(_row(o, baseline) for o in outcomes[1:])
    result.rows.extend(_memory_row(o) for o in outcomes[1:] if o.layout.followers == max(counts))
    problem = _postgres_problem()
    pg_followers = settings.pick(1_000, 20)
    if problem is None:
        name, dsn = _create_database()
        servers: list[ServerProcess] = []
        try:
            servers = [start_server_process(settings.workdir, "--postgres", dsn) for _ in range(2)]
            layout = Layout(
                f"{pg_followers:,} followers over {games} games, on the other of 2 "
                "PostgreSQL processes",
                pg_followers,
                games,
                _procs(pg_followers),
                postgres=True,
            )
            result.rows.append(_row(run_layout(layout, servers, seconds, pause), baseline))
        finally:
            for server in servers:
                server.stop()
            _drop_database(name)
    else:
        result.notes.append(f"the PostgreSQL row was skipped: {problem}")
    result.notes.append(
        f"{seconds} s of moves per row, one move per second per game; followers are "
        "spectators in client processes with grpc.aio channels of at most "
        f"{STREAMS_PER_CHANNEL} streams; delivery = last follower's receipt - the mover's "
        "PlayMove acknowledgement, one system-wide monotonic clock; a fresh server per row"
    )
    return result


def _procs(followers: int) -> int:
    return 1 if followers <= 100 else 2 if followers <= 1000 else 4
