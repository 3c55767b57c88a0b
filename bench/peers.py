"""Case a's peer rows (issue 33.2): gamelog's moves beside boardgame.io's,
and beside grpcio's own streaming echo, in one run on the same cores.

Loads of 8 clients on 8 games (or 8 streams), each split into visits taken
in ABBA order (``bench.load.visits``) so the machine's drift falls on all of
them alike:

- ``boardgameio``: boardgame.io's own server from npm, in memory
  (``bench.boardgameio_peer``), behind its own Node clients;
- ``play``: gamelog's unary PlayMove, durable on SQLite (fsync'd commits,
  ``gamelog serve --db``), case a's machinery;
- ``stream``: the same server, moves over the ``Play`` stream
  (``bench.stream_load``), when the server has it;
- ``stream_node``: the same stream driven by Node clients (grpc-js,
  ``bench/gamelog_node``), as boardgame.io's are: the same kind of client
  in front of both servers;
- ``stream_floor`` and ``stream_floor_2``: the floor prototypes
  (``bench.stream_floor``): the durable move over a stream and nothing
  else, with one message a move, and with the second seat's message too.
  What any play stream on this stack costs at least;
- ``stream_echo``: grpcio's bidirectional streaming echo
  (``bench.stream_echo``): gRPC Python's per-message cost; and
  ``stream_echo_2``, two answers per message: a stream move's shape (its
  ack, which carries its record, and its record on the other seat's
  stream), whose server CPU with the
  application's own CPU per move gives the ceiling of one server process.

Server CPU is each server process's utime + stime (``/proc``) around each
visit. ``python -m bench.peers [--quick]`` runs the rows alone and prints them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from bench import boardgameio_peer, node_clients
from bench.common import Row, Settings
from bench.inprocess import play_alone
from bench.load import PhaseResult, PhaseSummary, pool, run_visits, visits
from bench.node_clients import npm_problem
from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.service.storage.settings import store_env

CLIENTS = 8
ROUNDS = 4
GOAL_STREAM_OVER_BOARDGAMEIO = 1.0
GOAL_CPU_STREAM_OVER_UNARY = 0.5
GAMELOG_NODE_DIR = Path(__file__).parent / "gamelog_node"
NODE_STREAM = "stream_node"
"""The Play stream driven by Node clients (grpc-js), as boardgame.io's own
clients drive its server: the like-for-like comparison of the two servers."""


def has_play_stream() -> bool:
    """Whether this checkout's API has the ``Play`` stream."""
    from gamelog.v1 import gamelog_pb2 as pb

    return "Play" in pb.DESCRIPTOR.services_by_name["GameLog"].methods_by_name


def start_echo_server(log_dir: Path) -> ServerProcess:
    """``python -m bench.stream_echo``, once it says where it listens."""
    return _start_bench_server(log_dir, "stream_echo", "stream-echo")


def start_floor_server(log_dir: Path, second: bool = False) -> ServerProcess:
    """``python -m bench.stream_floor`` on a SQLite file of its own (with
    ``second``, each move's records also go to the other seat's stream)."""
    name = "floor-2" if second else "floor"
    args = ("--second",) if second else ()
    return _start_bench_server(
        log_dir, "stream_floor", name, *args, "--db", str(log_dir / f"{name}.sqlite")
    )


def _start_bench_server(log_dir: Path, module: str, name: str, *args: str) -> ServerProcess:
    """``python -m bench.MODULE ARGS``, once it says where it listens (its
    errors in ``NAME.log``)."""
    log_path = log_dir / f"{name}.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", f"bench.{module}", *args],
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            cwd=Path(__file__).parents[1],
        )
    assert process.stdout is not None
    line = process.stdout.readline()
    if "serving on " not in line:
        process.kill()
        raise RuntimeError(f"{module} did not start: {line!r} {log_path.read_text()}")
    address = line.split("serving on ", 1)[1].split()[0]
    return ServerProcess(process, address, log_path)


def measure(settings: Settings) -> tuple[dict[str, PhaseSummary], list[str]]:
    """Every available load, visits in ABBA order: the pooled figures of
    each, and notes on what could not run."""
    notes: list[str] = []
    calls = settings.pick(1200, 36)
    rounds = settings.pick(ROUNDS, 1)
    kinds = ["play"]
    reason = boardgameio_peer.problem()
    if reason is None:
        kinds.insert(0, boardgameio_peer.PHASE)
    else:
        notes.append(f"boardgame.io skipped: {reason}")
    if has_play_stream():
        kinds.extend(("stream", "stream_floor", "stream_floor_2"))
        node_reason = npm_problem(GAMELOG_NODE_DIR, "@grpc/grpc-js")
        if node_reason is None:
            kinds.append(NODE_STREAM)
        else:
            notes.append(f"the Play stream's Node clients skipped: {node_reason}")
    else:
        notes.append("the play stream skipped: this server has no Play RPC")
    kinds.extend(("stream_echo", "stream_echo_2"))
    workdir = settings.workdir
    servers: dict[str, Any] = {}
    try:
        gamelog = start_server_process(workdir, "--db", str(workdir / "peers.sqlite"))
        servers["play"] = servers["stream"] = servers[NODE_STREAM] = gamelog
        servers["stream_echo"] = servers["stream_echo_2"] = start_echo_server(workdir)
        if "stream_floor" in kinds:
            servers["stream_floor"] = start_floor_server(workdir)
            servers["stream_floor_2"] = start_floor_server(workdir, second=True)
        if boardgameio_peer.PHASE in kinds:
            servers[boardgameio_peer.PHASE] = boardgameio_peer.start_server(workdir)
        collected: dict[str, list[list[PhaseResult]]] = {kind: [] for kind in kinds}
        per_visit = max(1, calls // rounds)
        for index, kind in enumerate(visits(kinds, rounds)):
            server = servers[kind]
            if kind == boardgameio_peer.PHASE:
                parts = boardgameio_peer.visit(server, CLIENTS, per_visit, index)
            elif kind == NODE_STREAM:
                parts = node_clients.visit(
                    GAMELOG_NODE_DIR,
                    "clients.mjs",
                    server.address,
                    server.pid,
                    NODE_STREAM,
                    CLIENTS,
                    per_visit,
                    index,
                )
            else:
                address, pid = server.address, server.pid
                parts = run_visits([address], CLIENTS, [kind], per_visit, "", [pid])[0]
            collected[kind].append(parts)
    finally:
        for server in {id(s): s for s in servers.values()}.values():
            server.stop()
    notes.append(
        f"{CLIENTS} client processes on their own games (or streams) per load; "
        f"{calls} moves or messages per client per load in {rounds} visit(s), ABBA order "
        f"({', '.join(kinds)}, then reversed); server CPU = utime + stime from /proc"
    )
    return {kind: pool(kind, parts) for kind, parts in collected.items()}, notes


def _context(phase: PhaseSummary) -> dict[str, Any]:
    return {
        "phase": phase.to_json(),
        "p50_ms": phase.p50_ms,
        "p99_ms": phase.p99_ms,
        "server_cpu_ms_per_call": phase.server_cpu_ms_per_call,
    }


def _rate_row(label: str, phase: PhaseSummary, base: PhaseSummary, goal: float | None) -> Row:
    ratio = phase.rate / base.rate
    return Row(
        label=label,
        value=phase.rate,
        baseline=base.rate,
        unit="moves/s",
        ratio=ratio,
        ratio_meaning=f"rate / {base.phase} rate, same run (higher is better)",
        goal=f">= {goal}" if goal is not None else "",
        met=None if goal is None else ratio >= goal,
        context={
            **_context(phase),
            "baseline_p50_ms": base.p50_ms,
            "baseline_p99_ms": base.p99_ms,
            "baseline_server_cpu_ms_per_call": base.server_cpu_ms_per_call,
            "baseline_phase": base.to_json(),
        },
    )


def peer_rows(settings: Settings) -> tuple[list[Row], list[str]]:
    """Case a's rows against boardgame.io and the echo ceiling (see module)."""
    phases, notes = measure(settings)
    unary, echo = phases["play"], phases["stream_echo"]
    base = phases.get(boardgameio_peer.PHASE, unary)
    rows: list[Row] = []
    if boardgameio_peer.PHASE in phases:
        rows.append(
            _rate_row(
                f"unary PlayMove, durable (SQLite), {CLIENTS} clients on {CLIENTS} games, "
                "against boardgame.io in memory (socket.io)",
                unary,
                base,
                None,
            )
        )
    shaped = phases["stream_echo_2"]
    alone = play_alone(store_env(db=str(settings.workdir / "peers-alone.sqlite")), 300)
    shaped_cpu = shaped.server_cpu_ms_per_call or float("nan")
    ceiling = 1000 / (shaped_cpu + alone.cpu_ms_per_move)
    for label, phase in (
        (f"grpcio's own streaming echo, {CLIENTS} streams, one answer a message", echo),
        (f"grpcio's own streaming echo, {CLIENTS} streams, two answers a message", shaped),
    ):
        rows.append(
            Row(
                label=label,
                value=phase.rate,
                baseline=base.rate,
                unit="calls/s",
                ratio=phase.rate / base.rate,
                ratio_meaning=f"rate / {base.phase} rate (a bound, not a goal)",
                context=_context(phase),
            )
        )
    rows.append(
        Row(
            label="ceiling of one server process: 1000 ms / (the two-answer echo's server "
            "CPU + the application's CPU per move)",
            value=ceiling,
            baseline=base.rate,
            unit="moves/s",
            ratio=ceiling / base.rate,
            ratio_meaning=f"rate / {base.phase} rate (a bound, not a goal)",
            context={
                "echo_server_cpu_ms_per_message": echo.server_cpu_ms_per_call,
                "echo_2_server_cpu_ms_per_message": shaped_cpu,
                "app_alone": alone.to_json(),
                "grpc_only_ceiling_moves_per_s": 1000 / shaped_cpu,
            },
        )
    )
    stream = phases.get("stream")
    if stream is not None:
        unary_cpu = unary.server_cpu_ms_per_call or float("nan")
        stream_cpu = stream.server_cpu_ms_per_call or float("nan")
        cpu_ratio = stream_cpu / unary_cpu
        rows.append(
            Row(
                label="server CPU per move: the Play stream / unary PlayMove",
                value=stream_cpu,
                baseline=unary_cpu,
                unit="ms",
                ratio=cpu_ratio,
                ratio_meaning="stream CPU per move / unary CPU per move (lower is better)",
                goal=f"< {GOAL_CPU_STREAM_OVER_UNARY}",
                met=cpu_ratio < GOAL_CPU_STREAM_OVER_UNARY,
                context={"stream": stream.to_json(), "unary": unary.to_json()},
            )
        )
        floor = phases.get("stream_floor")
        if floor is not None:
            # The prototype goes before the goal rows: the headline ratio is
            # the last row's.
            floor_cpu = floor.server_cpu_ms_per_call or float("nan")
            rows.append(
                Row(
                    label="the floor prototype (bench.stream_floor: the durable move "
                    "and one ack a move, nothing else): server CPU per move / unary PlayMove",
                    value=floor_cpu,
                    baseline=unary_cpu,
                    unit="ms",
                    ratio=floor_cpu / unary_cpu,
                    ratio_meaning="floor CPU per move / unary CPU per move (a bound, not a goal)",
                    context={"floor": floor.to_json(), "unary": unary.to_json()},
                )
            )
            rows.append(
                _rate_row(
                    f"the floor prototype, durable (SQLite), {CLIENTS} clients on {CLIENTS} "
                    "games, against boardgame.io in memory (a bound, not a goal)",
                    floor,
                    base,
                    None,
                )
            )
        floor_2 = phases.get("stream_floor_2")
        if floor_2 is not None:
            rows.append(
                _rate_row(
                    "the floor prototype with the second seat's message (bench.stream_floor "
                    "--second), durable (SQLite), against boardgame.io in memory "
                    "(a bound, not a goal)",
                    floor_2,
                    base,
                    None,
                )
            )
        node = phases.get(NODE_STREAM)
        if node is not None:
            rows.append(
                _rate_row(
                    f"the Play stream driven by {CLIENTS} Node clients (grpc-js, a move counted "
                    "once both seats hold it, as boardgame.io's clients count), against "
                    "boardgame.io in memory",
                    node,
                    base,
                    None,
                )
            )
        rows.append(
            _rate_row(
                f"the Play stream, durable (SQLite), {CLIENTS} clients on {CLIENTS} games, "
                "against boardgame.io in memory",
                stream,
                base,
                GOAL_STREAM_OVER_BOARDGAMEIO if base is not unary else None,
            )
        )
    return rows, notes


def main() -> None:
    import tempfile

    quick = "--quick" in sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix="gamelog-peers-") as tmp:
        rows, notes = peer_rows(Settings(quick=quick, workdir=Path(tmp)))
    for row in rows:
        cpu = row.context.get("server_cpu_ms_per_call")
        print(
            f"{row.label}\n    {row.value:,.2f} {row.unit} vs {row.baseline:,.2f}: "
            f"ratio {row.ratio:.3f} {row.goal} {'' if row.met is None else row.met}"
            + (f"; server CPU/call {cpu:.3f} ms" if cpu is not None else "")
        )
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
