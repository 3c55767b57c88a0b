"""Where a server's CPU goes under case a's load: one server, 8 clients.

    .venv/bin/python -m bench.profile_server --postgres "host=... dbname=..." --servers 2

    .venv/bin/python -m bench.profile_server                    # echo, then play
    .venv/bin/python -m bench.profile_server --phases play --calls 4000 \\
        --attach "/path/to/py-spy record --gil --rate 500 -f raw -o /tmp/{phase}.txt --pid {pid}"
    .venv/bin/python -m bench.profile_server --attach "strace -c -f -o /tmp/{phase}.strace -p {pid}"

Starts ``gamelog serve --db`` on a fresh SQLite file in a temporary
directory (or ``--memory``, or ``--postgres DSN`` on a database the caller
made for it), runs the phases of case a (``bench.load``) with ``--clients``
client processes, and prints each phase's rate, server CPU per call and the
clients' own CPU per call (they share the cores with the server), then the
busiest threads' CPU per call of the first server (``thread_cpu``). With
``--servers 2`` and ``--postgres`` it is case b's set-up (the clients split
over two servers on one database), and each phase also reports PostgreSQL's
own CPU per call (every process of the PostgreSQL server, so run nothing
else on it meanwhile) and its commits per call.
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


def machine_jiffies() -> tuple[int, int, int]:
    """The whole machine's CPU time since boot, in clock ticks, from
    /proc/stat's first line: (busy, of which softirq and irq, idle). Busy
    counts what no process is charged with (the loopback's softirqs, steal),
    so it says whether the cores, not one process's GIL, are the limit."""
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = fields[:8]
    return user + nice + system + irq + softirq + steal, irq + softirq, idle + iowait


def database_cpu_and_commits(dsn: str) -> tuple[float, int] | None:
    """CPU seconds of every PostgreSQL process (by the name the server gives
    them), and the commits of ``dsn``'s database so far; None without one."""
    if not dsn:
        return None
    import psycopg

    ticks = os.sysconf("SC_CLK_TCK")
    cpu = 0.0
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().startswith("postgres"):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cpu += (int(fields[11]) + int(fields[12])) / ticks
        except OSError:
            continue  # the process ended meanwhile
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return cpu, int(row[0]) if row else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--calls", type=int, default=2000, help="calls per client per phase")
    parser.add_argument("--phases", default="echo,play")
    parser.add_argument("--memory", action="store_true", help="serve --memory instead of --db")
    parser.add_argument("--postgres", default="", help="serve --postgres DSN instead of --db")
    parser.add_argument("--attach", default="", help="a command run on the server per phase")
    parser.add_argument("--servers", type=int, default=1, help="server processes on the store")
    args = parser.parse_args()
    from gamelog.cli.process import start_server_process

    with tempfile.TemporaryDirectory(prefix="gamelog-profile-") as tmp:
        workdir = Path(tmp)
        store = ("--memory",) if args.memory else ("--db", str(workdir / "p.sqlite"))
        if args.postgres:
            store = ("--postgres", args.postgres)
        servers = [start_server_process(workdir, *store) for _ in range(args.servers)]
        server = servers[0]
        print(f"server pids {[s.pid for s in servers]}", flush=True)
        try:
            for phase in args.phases.split(","):
                spy = None
                if args.attach:
                    command = args.attach.replace("{phase}", phase)
                    spy = subprocess.Popen(shlex.split(command.replace("{pid}", str(server.pid))))
                threads_before = thread_cpu(server.pid)
                machine_before = machine_jiffies()
                database_before = database_cpu_and_commits(args.postgres)
                summary = run_load(
                    [s.address for s in servers],
                    args.clients,
                    [phase],
                    args.calls,
                    server_pids=[s.pid for s in servers],
                )[phase]
                threads_after = thread_cpu(server.pid)
                machine_after = machine_jiffies()
                database_after = database_cpu_and_commits(args.postgres)
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
                busy, interrupts, idle = (a - b for a, b in zip(machine_after, machine_before))
                irq_ms = interrupts * 1000 / os.sysconf("SC_CLK_TCK") / summary.calls
                print(
                    f"    machine: {busy / max(busy + idle, 1):.0%} of all cores busy "
                    f"(set-up included), {irq_ms:.3f} ms/call in irq and softirq"
                )
                if database_before is not None and database_after is not None:
                    cpu = database_after[0] - database_before[0]
                    commits = database_after[1] - database_before[1]
                    print(
                        f"    PostgreSQL: CPU {cpu * 1000 / summary.calls:.3f} ms/call, "
                        f"{commits / summary.calls:.2f} commits/call (set-up included)"
                    )
                # Per thread, set-up included (moves: game creation, one read per
                # seat), the busiest first.
                per_call = 1000 * len(servers) / summary.calls
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
            for each in servers:
                each.stop()


if __name__ == "__main__":
    main()
