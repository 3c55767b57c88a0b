"""Where a server's CPU goes under case a's load: one server, 8 clients.

    .venv/bin/python -m bench.profile_server                    # echo, then play
    .venv/bin/python -m bench.profile_server --phases play --calls 4000 \\
        --attach "/path/to/py-spy record --gil --rate 500 -f raw -o /tmp/{phase}.txt --pid {pid}"
    .venv/bin/python -m bench.profile_server --attach "strace -c -f -o /tmp/{phase}.strace -p {pid}"

Starts ``gamelog serve --db`` on a fresh SQLite file in a temporary
directory (or ``--memory``, or ``--postgres DSN`` on a database the caller
made for it), runs the phases of case a (``bench.load``) with ``--clients``
client processes, and prints each phase's rate, server CPU per call and the
clients' own CPU per call (they share the cores with the server), then the
busiest server threads' CPU per call (``thread_cpu``).
With ``--attach``, that command runs during each phase's calls (from the
clients' start, set-up included, to their end; it is then sent SIGINT), with
``{pid}`` replaced by the server's pid and ``{phase}`` by the phase's name.
py-spy is a measuring tool, not a dependency: give the path of one
installed elsewhere.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import tempfile
from pathlib import Path

from bench.load import run_load


def thread_cpu(pid: int) -> dict[str, tuple[float, float]]:
    """User and system CPU seconds of each of a process's threads, by thread
    id and name (Python's threads are all called python to the system)."""
    ticks = os.sysconf("SC_CLK_TCK")
    totals: dict[str, tuple[float, float]] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended meanwhile
        name = f"{task.name} {name}"
        user, system = totals.get(name, (0.0, 0.0))
        totals[name] = (user + int(fields[11]) / ticks, system + int(fields[12]) / ticks)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--calls", type=int, default=2000, help="calls per client per phase")
    parser.add_argument("--phases", default="echo,play")
    parser.add_argument("--memory", action="store_true", help="serve --memory instead of --db")
    parser.add_argument("--postgres", default="", help="serve --postgres DSN instead of --db")
    parser.add_argument("--attach", default="", help="a command run on the server per phase")
    args = parser.parse_args()
    from gamelog.cli.process import start_server_process

    with tempfile.TemporaryDirectory(prefix="gamelog-profile-") as tmp:
        workdir = Path(tmp)
        store = ("--memory",) if args.memory else ("--db", str(workdir / "p.sqlite"))
        if args.postgres:
            store = ("--postgres", args.postgres)
        server = start_server_process(workdir, *store)
        print(f"server pid {server.pid} at {server.address}", flush=True)
        try:
            for phase in args.phases.split(","):
                spy = None
                if args.attach:
                    command = args.attach.replace("{phase}", phase)
                    spy = subprocess.Popen(shlex.split(command.replace("{pid}", str(server.pid))))
                threads_before = thread_cpu(server.pid)
                summary = run_load(
                    [server.address], args.clients, [phase], args.calls, server_pids=[server.pid]
                )[phase]
                threads_after = thread_cpu(server.pid)
                if spy is not None:
                    spy.send_signal(2)  # py-spy and strace write what they saw on SIGINT
                    spy.wait(60)
                print(
                    f"{phase}: {summary.rate:,.0f} calls/s, p50 {summary.p50_ms:.2f} ms, "
                    f"server CPU {summary.server_cpu_ms_per_call or 0:.3f} ms/call, "
                    f"clients' CPU {summary.client_cpu_ms_per_call:.3f} ms/call, "
                    f"errors {summary.errors}",
                    flush=True,
                )
                # Per thread, set-up included (moves: game creation, one read per
                # seat), the busiest first.
                per_call = 1000 / summary.calls
                spent = {
                    name: (user - threads_before.get(name, (0.0, 0.0))[0],
                           system - threads_before.get(name, (0.0, 0.0))[1])
                    for name, (user, system) in threads_after.items()
                }  # fmt: skip
                for name, (user, system) in sorted(spent.items(), key=lambda i: -sum(i[1]))[:6]:
                    if user + system > 0:
                        print(
                            f"    thread {name}: user {user * per_call:.3f} "
                            f"system {system * per_call:.3f} ms/call"
                        )
        finally:
            server.stop()


if __name__ == "__main__":
    main()
