"""Case j: a primary lost under load. Nothing acknowledged lost or doubled,
and how long writes stop.

For each kind of fault a fresh three-node Patroni cluster
(``deploy/patroni/local_cluster.py``) and one ``gamelog serve --postgres
<multi-host DSN>`` start. Eight clients (threads, one gRPC channel each)
each play their own freeform game, move after move, every move with a request
id of its own (``<client>-<n>``) and the move ``{"n": n}``. A move refused
``UNAVAILABLE`` (or not answered in time) is sent again, same request id,
until it is acknowledged; a client waits ``CALL_TIMEOUT_S`` (4 s) for an answer, so
through a failover it sends its move again while the server still holds the
first attempt. After ``before`` acknowledged moves the fault comes:

- ``node-lost``: the primary's Patroni and its postmaster are killed (kill -9),
  as if its machine were gone; the synchronous standby is promoted once the
  leader key lapses;
- ``postmaster-killed``: only the primary's postmaster is killed (kill -9);
  its Patroni starts it again and it stays the primary;
- ``switchover``: ``patronictl switchover`` to the synchronous standby.

The clients play on for ``after`` seconds. Then every game is read back and
audited through the server:

- ``acknowledged``: moves acknowledged in all;
- ``lost_acknowledged``: acknowledged moves missing from the store;
- ``duplicates``: moves stored more than once;
- ``write_outage_s``: the longest stretch, ending after the fault, in which no
  client's move was acknowledged: from the last acknowledgement the old
  primary gave (the first move after it is the first that failed or was held)
  to the first acknowledged by the new one;
- ``audit_failures``: games whose audit is not ok.

Baseline: the same cluster's own write outage, measured in the same run by a
plain psycopg client beside the clients (single-row INSERTs through the same
DSN, reconnecting every 50 ms while it cannot write). The ratio is
gamelog's outage over the cluster's: what gamelog adds to the failover.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import CaseResult, Row, Settings
from gamelog.cli.client import Client
from gamelog.cli.process import ServerProcess, start_server_process

ROOT = Path(__file__).resolve().parent.parent
CLUSTER_SCRIPT = ROOT / "deploy" / "patroni" / "local_cluster.py"
FAULTS = ("node-lost", "postmaster-killed", "switchover")
GOAL_OUTAGE_S = {"node-lost": 15.0, "postmaster-killed": 15.0, "switchover": 3.0}
CLIENTS = 8
RETRY_PAUSE_S = 0.05
CALL_TIMEOUT_S = 4.0
"""A client's deadline for one move: shorter than a failover, so that moves
held through one are also sent again (same request id) while the first
attempt still waits in the server."""
PROBE_TABLE = "bench_failover_probe"


# -- the cluster -------------------------------------------------------------------


def cluster_problem() -> str | None:
    """Why no local Patroni cluster can run here, or None."""
    missing = [p for p in ("patroni", "patronictl", "etcd", "psql") if shutil.which(p) is None]
    if missing:
        return (
            f"no {', '.join(missing)} on this machine "
            "(Debian: apt-get install -y patroni etcd-server postgresql)"
        )
    if not Path("/usr/lib/postgresql/15/bin/postgres").exists():
        return "no PostgreSQL 15 in /usr/lib/postgresql/15/bin"
    if os.geteuid() != 0:
        # The cluster runs as whoever starts it; only root can also kill it
        # at will and read its files whatever the user. Tests run as root in CI.
        return "the local Patroni cluster is started as root (it runs as the postgres user)"
    return None


@dataclass
class LocalCluster:
    """A running ``local_cluster.py`` cluster: its folder and DSN."""

    folder: Path
    dsn: str

    @classmethod
    def start(cls, attempts: int = 5) -> LocalCluster:
        """Start one in a fresh folder under the system's temporary folder (the
        postgres user must reach it), on ports nobody uses."""
        for _ in range(attempts):
            folder = Path(tempfile.mkdtemp(prefix="gamelog-pgha-"))
            base = random.randrange(20_000, 60_000, 100)
            started = subprocess.run(
                [
                    sys.executable,
                    str(CLUSTER_SCRIPT),
                    "start",
                    str(folder),
                    "--base-port",
                    str(base),
                ],
                capture_output=True,
                text=True,
                check=False,
            )
            if started.returncode == 0:
                return cls(folder, started.stdout.strip().splitlines()[-1])
            shutil.rmtree(folder, ignore_errors=True)
            if "ports in use" not in started.stderr + started.stdout:
                raise RuntimeError(f"the cluster did not start: {started.stderr}{started.stdout}")
        raise RuntimeError("no free ports for a cluster")

    def _script(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, str(CLUSTER_SCRIPT), *args, str(self.folder)],
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    def status(self) -> dict[str, Any]:
        status: dict[str, Any] = json.loads(self._script("status", "--json"))
        return status

    def member(self, role: str) -> dict[str, Any]:
        for node in self.status()["nodes"]:
            if node["role"] == role:
                return dict(node)
        raise RuntimeError(f"no {role} in the cluster")

    def wait_for(self, check: Callable[[dict[str, Any]], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check(self.status()):
                return
            time.sleep(0.5)
        raise RuntimeError(f"the cluster did not settle: {self.status()}")

    def fault(self, kind: str) -> dict[str, Any]:
        """Bring about one of ``FAULTS`` to the current primary; what it was."""
        primary = self.member("leader")
        if kind == "node-lost":
            os.kill(primary["patroni_pid"], signal.SIGKILL)
            os.kill(primary["postmaster_pid"], signal.SIGKILL)
        elif kind == "postmaster-killed":
            os.kill(primary["postmaster_pid"], signal.SIGKILL)
        elif kind == "switchover":
            candidate = self.member("sync_standby")
            subprocess.run(
                [
                    "patronictl",
                    "-c",
                    str(self.folder / "patronictl.yml"),
                    "switchover",
                    "--leader",
                    primary["name"],
                    "--candidate",
                    candidate["name"],
                    "--force",
                ],
                capture_output=True,
                check=True,
            )
        else:
            raise ValueError(kind)
        return primary

    def stop(self) -> None:
        subprocess.run(
            [sys.executable, str(CLUSTER_SCRIPT), "stop", str(self.folder)],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


# -- the clients -------------------------------------------------------------------


@dataclass
class Player:
    """One client's game and what it was told."""

    game_id: str
    seat_token: str
    arbiter_token: str
    acks: list[tuple[float, int, bool]] = field(default_factory=list)
    """(when, move number, answered as already stored)."""
    errors: list[tuple[float, str, str]] = field(default_factory=list)
    """(when, status code, reason) of every move answered with an error."""


def play(client: Client, player: Player, stop: threading.Event) -> None:
    """Moves ``{"n": 1}``, ``{"n": 2}``... each sent until acknowledged."""
    position = 0
    number = 0
    while not stop.is_set():
        number += 1
        request_id = f"{player.game_id[:8]}-{number}"
        while True:
            try:
                answer = client.stub.PlayMove(
                    _play_request(player.game_id, number, position, request_id),
                    metadata=(("authorization", f"Bearer {player.seat_token}"),),
                    timeout=CALL_TIMEOUT_S,
                )
            except Exception as error:  # grpc.RpcError: the same move again
                code, reason = _status(error)
                player.errors.append((time.monotonic(), code, reason))
                if code not in ("UNAVAILABLE", "DEADLINE_EXCEEDED"):
                    raise RuntimeError(f"move {request_id} refused: {code} {reason}") from None
                time.sleep(RETRY_PAUSE_S)
                continue
            position = answer.position
            player.acks.append((time.monotonic(), number, answer.replayed))
            break


def _play_request(game_id: str, number: int, position: int, request_id: str) -> Any:
    from gamelog.v1 import gamelog_pb2 as pb

    return pb.PlayMoveRequest(
        game_id=game_id,
        move_json=json.dumps({"n": number}),
        at_position=position,
        request_id=request_id,
    )


def _status(error: Exception) -> tuple[str, str]:
    from gamelog.cli.client import api_error

    if hasattr(error, "code"):
        refusal = api_error(error)  # type: ignore[arg-type]
        return refusal.code, refusal.reason
    return type(error).__name__, ""


def new_players(client: Client, count: int) -> list[Player]:
    players = []
    for _ in range(count):
        created = client.create("freeform", ["a", "b"])
        players.append(
            Player(created.game_id, dict(created.seat_tokens)["a"], created.arbiter_token)
        )
    return players


# -- the baseline: the cluster's own outage -------------------------------------------


class DirectWriter:
    """Single-row INSERTs through the DSN, as fast as they go; while it cannot
    write, a new connection every 50 ms. Its acknowledgements time the
    cluster's own outage."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.acks: list[float] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="direct-writer", daemon=True)

    def start(self) -> None:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(f"CREATE TABLE IF NOT EXISTS {PROBE_TABLE} (n bigint)")
        self.thread.start()

    def _run(self) -> None:
        import psycopg

        count = 0
        while not self.stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True, connect_timeout=2) as conn:
                    while not self.stop.is_set():
                        # Paced, so that it measures the cluster without loading it.
                        conn.execute(f"INSERT INTO {PROBE_TABLE} VALUES (%s)", (count,))
                        self.acks.append(time.monotonic())
                        count += 1
                        time.sleep(0.01)
            except psycopg.Error:
                time.sleep(0.05)

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(30)


# -- one run -----------------------------------------------------------------------


@dataclass
class FailoverRun:
    """What one fault did to the clients and to the store."""

    fault: str
    acknowledged: int
    lost_acknowledged: int
    duplicates: int
    write_outage_s: float
    audit_failures: int
    cluster_outage_s: float
    first_error_s: float | None
    errors: dict[str, int]
    replayed: int
    primary_before: str
    primary_after: str
    games: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def outage_after(acks: list[float], since: float, end: float) -> float:
    """The longest stretch without an acknowledgement that ends after
    ``since`` (a stretch still open at ``end`` ends there):

    >>> outage_after([1.0, 1.1, 1.2, 4.2, 4.3], since=1.15, end=5.0)
    3.0
    """
    times = sorted(acks)
    gaps = [later - earlier for earlier, later in itertools.pairwise(times) if later > since]
    if times:
        gaps.append(end - max(times[-1], since))
    return round(max(gaps, default=end - since), 3)


def run_fault(
    fault: str,
    workdir: Path,
    clients: int,
    before: int,
    after: float,
    servers: int = 1,
) -> FailoverRun:
    """One fault under load on a fresh cluster (see the module's description)."""
    cluster = LocalCluster.start()
    running: list[ServerProcess] = []
    direct = DirectWriter(cluster.dsn)
    stop = threading.Event()
    try:
        running = [start_server_process(workdir, "--postgres", cluster.dsn) for _ in range(servers)]
        channels = [running[i % len(running)].client() for i in range(clients)]
        players = [new_players(channel, 1)[0] for channel in channels]
        direct.start()
        threads = [
            threading.Thread(target=play, args=(channel, player, stop), daemon=True)
            for channel, player in zip(channels, players)
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 120
        while sum(len(p.acks) for p in players) < before:
            if time.monotonic() > deadline or not any(t.is_alive() for t in threads):
                raise RuntimeError(f"the clients did not reach {before} moves; see {workdir}")
            time.sleep(0.05)
        fault_at = time.monotonic()
        primary = cluster.fault(fault)
        time.sleep(after)
        stop.set()
        for thread in threads:
            thread.join(CALL_TIMEOUT_S + 5)
        end = time.monotonic()
        direct.finish()
        cluster.wait_for(lambda s: any(n["role"] == "leader" for n in s["nodes"]), 60)
        after_primary = cluster.member("leader")["name"]
        checked = check_store(channels[0], players)
        for channel in channels:
            channel.close()
        acks = [when for p in players for when, _, _ in p.acks]
        errors = sorted(when for p in players for when, _, _ in p.errors if when >= fault_at)
        reasons = Counter(f"{code} {why}".strip() for p in players for _, code, why in p.errors)
        return FailoverRun(
            fault=fault,
            acknowledged=len(acks),
            lost_acknowledged=checked["lost"],
            duplicates=checked["duplicates"],
            write_outage_s=outage_after(acks, fault_at, end),
            audit_failures=checked["audit_failures"],
            cluster_outage_s=outage_after(direct.acks, fault_at, end),
            first_error_s=round(errors[0] - fault_at, 3) if errors else None,
            errors=dict(reasons),
            replayed=sum(1 for p in players for _, _, replayed in p.acks if replayed),
            primary_before=primary["name"],
            primary_after=after_primary,
            games=len(players),
        )
    finally:
        stop.set()
        direct.stop.set()
        for server in running:
            server.stop()
        cluster.stop()


def check_store(client: Client, players: list[Player]) -> dict[str, int]:
    """Every game read back: acknowledged moves missing, moves stored twice,
    games whose audit fails."""
    lost = duplicates = audit_failures = 0
    for player in players:
        records = client.records(player.game_id, player.arbiter_token)
        moves = [r["move"] for r in records if r["kind"] == "move"]
        stored = Counter(move["n"] for move in moves if "n" in move)  # not the arbiter's
        acknowledged = {number for _, number, _ in player.acks}
        lost += sum(1 for number in acknowledged if number not in stored)
        duplicates += sum(count - 1 for count in stored.values() if count > 1)
        if not client.audit(player.game_id, player.arbiter_token).ok:
            audit_failures += 1
    return {"lost": lost, "duplicates": duplicates, "audit_failures": audit_failures}


# -- the case ----------------------------------------------------------------------


def case_j(settings: Settings) -> CaseResult:
    result = CaseResult(
        "j",
        "failover under load: 8 clients, one gamelog server, a 3-node Patroni cluster",
        "the same cluster's own write outage, seen by a plain psycopg writer in the same run",
    )
    if settings.quick:
        result.skipped = (
            "--quick starts no cluster (three take minutes); run `python -m bench --only j` "
            "(tests/test_failover_patroni.py runs one failover end to end)"
        )
        return result
    problem = cluster_problem()
    if problem is not None:
        result.skipped = problem
        return result
    before, after = 400, 25.0
    for fault in FAULTS:
        run = run_fault(fault, settings.workdir, CLIENTS, before, after)
        goal = GOAL_OUTAGE_S[fault]
        clean = run.lost_acknowledged == 0 and run.duplicates == 0 and run.audit_failures == 0
        result.rows.append(
            Row(
                label=f"{fault}: write outage (lost/doubled/audit: "
                f"{run.lost_acknowledged}/{run.duplicates}/{run.audit_failures} "
                f"of {run.acknowledged})",
                value=run.write_outage_s,
                baseline=run.cluster_outage_s,
                unit="s",
                ratio=run.write_outage_s / run.cluster_outage_s,
                ratio_meaning="gamelog's write outage / the cluster's own (lower is better, >= 1)",
                goal=f"outage < {goal:g} s; nothing lost, doubled or failing audit",
                met=clean and run.write_outage_s < goal,
                context=run.to_json(),
            )
        )
    result.notes.append(
        f"{CLIENTS} client threads, one freeform game each, a request id per move; the fault "
        f"after {before} acknowledged moves, then {after:g} s more; a fresh cluster per fault"
    )
    return result
