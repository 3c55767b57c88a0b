#!/usr/bin/env python3
"""A three-node PostgreSQL cluster under Patroni on one machine, for trying
gamelog's failover (tests, bench case j, a developer's evening).

    python3 deploy/patroni/local_cluster.py start /tmp/pgha     # prints the DSN
    python3 deploy/patroni/local_cluster.py status /tmp/pgha    # members, roles, pids (--json)
    python3 deploy/patroni/local_cluster.py stop /tmp/pgha

``start`` runs one etcd and three Patroni nodes (PostgreSQL 15), everything
under the folder it is given, on the ports from ``--base-port`` on (etcd
``base``, ``base+1``; PostgreSQL ``base+11..13``; Patroni's REST API
``base+21..23``). It waits until a primary and a synchronous standby are up,
creates the database, writes ``dsn`` and ``patronictl.yml`` into the folder
and prints the multi-host DSN, the line gamelog takes:

    gamelog serve --postgres "$(cat /tmp/pgha/dsn)"

The nodes run ``deploy/patroni/patroni.yml``, the same file an operator puts
on three machines; what differs per node is its environment (``node_env``).
``patronictl -c /tmp/pgha/patronictl.yml list`` (or ``switchover``) talks to
the cluster. ``stop`` ends every process ``start`` began (also when ``start``
fails), and only those: each is named in ``cluster.json`` by its id and
checked against its command line before it is signalled.

PostgreSQL refuses to run as root, so when run as root the cluster runs as
the ``postgres`` user, which then owns the folder. Only the standard library
is used: the script runs under the system's python3, beside Debian's
``patroni`` and ``etcd-server`` packages.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CONFIG = HERE / "patroni.yml"
NODES = ("node1", "node2", "node3")
DEFAULT_BASE_PORT = 15400
DEFAULT_DBNAME = "gamelog"
RUN_AS_ROOT_USER = "postgres"
"""Whom the cluster runs as when this script runs as root."""
STATE_FILE = "cluster.json"
READY_TIMEOUT = 120.0
STOP_TIMEOUT = 30.0


@dataclass(frozen=True)
class Layout:
    """Where everything of one cluster lives: folders and ports."""

    folder: Path
    base_port: int

    @property
    def etcd_client_port(self) -> int:
        return self.base_port

    @property
    def etcd_peer_port(self) -> int:
        return self.base_port + 1

    def pg_port(self, index: int) -> int:
        return self.base_port + 11 + index

    def rest_port(self, index: int) -> int:
        return self.base_port + 21 + index

    def node_dir(self, name: str) -> Path:
        return self.folder / name

    def data_dir(self, name: str) -> Path:
        return self.node_dir(name) / "data"

    @property
    def etcd_dir(self) -> Path:
        return self.folder / "etcd"

    @property
    def logs(self) -> Path:
        return self.folder / "logs"

    def ports(self) -> list[int]:
        return [
            self.etcd_client_port,
            self.etcd_peer_port,
            *(self.pg_port(i) for i in range(len(NODES))),
            *(self.rest_port(i) for i in range(len(NODES))),
        ]


# -- the pieces of a start ----------------------------------------------------------


def node_env(layout: Layout, index: int, secrets_: dict[str, str]) -> dict[str, str]:
    """One node's identity and addresses, as Patroni reads them over patroni.yml."""
    name = NODES[index]
    pg = f"127.0.0.1:{layout.pg_port(index)}"
    rest = f"127.0.0.1:{layout.rest_port(index)}"
    return {
        "PATRONI_NAME": name,
        "PATRONI_RESTAPI_LISTEN": rest,
        "PATRONI_RESTAPI_CONNECT_ADDRESS": rest,
        "PATRONI_RESTAPI_USERNAME": "patroni",
        "PATRONI_RESTAPI_PASSWORD": secrets_["restapi"],
        "PATRONI_POSTGRESQL_LISTEN": pg,
        "PATRONI_POSTGRESQL_CONNECT_ADDRESS": pg,
        "PATRONI_POSTGRESQL_DATA_DIR": str(layout.data_dir(name)),
        "PATRONI_POSTGRESQL_PGPASS": str(layout.node_dir(name) / "pgpass"),
        "PATRONI_ETCD3_HOSTS": f"127.0.0.1:{layout.etcd_client_port}",
        "PATRONI_SUPERUSER_PASSWORD": secrets_["superuser"],
        "PATRONI_REPLICATION_PASSWORD": secrets_["replication"],
    }


def etcd_command(layout: Layout) -> list[str]:
    """One etcd member: enough for one machine (three machines run three)."""
    client = f"http://127.0.0.1:{layout.etcd_client_port}"
    peer = f"http://127.0.0.1:{layout.etcd_peer_port}"
    return [
        _require("etcd"),
        "--name=etcd1",
        f"--data-dir={layout.etcd_dir}",
        f"--listen-client-urls={client}",
        f"--advertise-client-urls={client}",
        f"--listen-peer-urls={peer}",
        f"--initial-advertise-peer-urls={peer}",
        f"--initial-cluster=etcd1={peer}",
        "--initial-cluster-state=new",
        f"--initial-cluster-token=gamelog-{layout.base_port}",
    ]


def dsn(layout: Layout, password: str, dbname: str) -> str:
    """The multi-host DSN: libpq tries the nodes in turn and keeps the one
    that takes writes (``target_session_attrs=read-write``)."""
    hosts = ",".join("127.0.0.1" for _ in NODES)
    ports = ",".join(str(layout.pg_port(i)) for i in range(len(NODES)))
    return (
        f"host={hosts} port={ports} user=postgres password={password} dbname={dbname} "
        "target_session_attrs=read-write connect_timeout=3"
    )


def patronictl_config(layout: Layout, secrets_: dict[str, str]) -> str:
    """What ``patronictl -c`` needs: the scope, etcd, the REST API's login."""
    return (
        "scope: gamelog\n"
        "namespace: /service/\n"
        f"etcd3:\n  hosts: 127.0.0.1:{layout.etcd_client_port}\n"
        "restapi:\n  authentication:\n"
        f"    username: patroni\n    password: {secrets_['restapi']}\n"
    )


# -- processes ---------------------------------------------------------------------


def _require(program: str) -> str:
    path = shutil.which(program)
    if path is None:
        raise SystemExit(
            f"{program} is not installed (Debian: apt-get install -y patroni etcd-server)"
        )
    return path


def _run_as() -> pwd.struct_passwd | None:
    """The user the cluster runs as: postgres when we are root, else nobody else."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(RUN_AS_ROOT_USER)
    except KeyError:
        raise SystemExit(f"running as root needs the {RUN_AS_ROOT_USER} user") from None


def _spawn(
    command: list[str], log: Path, env: dict[str, str], cwd: Path
) -> subprocess.Popen[bytes]:
    user = _run_as()
    with log.open("ab") as out:
        return subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=cwd,
            start_new_session=True,  # a Ctrl-C in the caller's terminal is not theirs
            user=None if user is None else user.pw_uid,
            group=None if user is None else user.pw_gid,
            extra_groups=None if user is None else [],
        )


def _own(path: Path) -> None:
    user = _run_as()
    if user is not None:
        os.chown(path, user.pw_uid, user.pw_gid)


def _base_env() -> dict[str, str]:
    """The environment the cluster's processes start from: no PG*, no PATRONI_*
    of the caller's, so nothing from outside changes where they connect."""
    keep = ("PATH", "LANG", "LC_ALL", "TZ")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    user = _run_as()
    if user is not None:
        env["HOME"] = user.pw_dir
        env["USER"] = env["LOGNAME"] = user.pw_name
    return env


def _ours(pid: int, folder: str) -> bool:
    """Whether process ``pid`` is still one of this cluster's, not a stranger
    that reused the id: each runs in a folder of its own (etcd in the
    cluster's, a Patroni node in its node's, a postmaster in its data)."""
    try:
        return os.readlink(f"/proc/{pid}/cwd") == folder
    except OSError:
        return False


def postmaster_pid(data_dir: Path) -> int | None:
    """The node's postmaster, from its postmaster.pid (None if not running)."""
    try:
        pid = int((data_dir / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None
    return pid if _ours(pid, str(data_dir)) else None


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


# -- the cluster's state, as the REST API tells it -----------------------------------


def _get_json(url: str, timeout: float = 2.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read())


def members(layout: Layout) -> list[dict[str, Any]]:
    """The cluster's members as any node's REST API reports them (``GET /cluster``)."""
    for index in range(len(NODES)):
        try:
            cluster = _get_json(f"http://127.0.0.1:{layout.rest_port(index)}/cluster")
        except (OSError, ValueError, urllib.error.URLError):
            continue
        return list(cluster.get("members", []))
    return []


def ready(layout: Layout) -> bool:
    """A running primary and a streaming synchronous standby."""
    roles = {(m.get("role"), m.get("state")) for m in members(layout)}
    leader = ("leader", "running") in roles
    sync = ("sync_standby", "streaming") in roles or ("sync_standby", "running") in roles
    return leader and sync


# -- the commands ------------------------------------------------------------------


def start(folder: Path, base_port: int, dbname: str, timeout: float) -> str:
    layout = Layout(folder.resolve(), base_port)
    patroni = _require("patroni")
    busy = [port for port in layout.ports() if not _port_free(port)]
    if busy:
        raise SystemExit(f"ports in use: {busy}; choose another --base-port")
    if (layout.folder / STATE_FILE).exists():
        raise SystemExit(f"{layout.folder} holds a cluster already; stop it first")
    layout.folder.mkdir(parents=True, exist_ok=True)
    _own(layout.folder)
    for path in (layout.logs, layout.etcd_dir, *(layout.node_dir(n) for n in NODES)):
        path.mkdir(mode=0o700, exist_ok=True)
        _own(path)
    if not _readable_by_cluster(layout.folder):
        raise SystemExit(
            f"{layout.folder} is not reachable by the {RUN_AS_ROOT_USER} user "
            "(a parent folder closed to it?); give a folder under /tmp or /var/lib"
        )
    passwords = {k: secrets.token_urlsafe(18) for k in ("superuser", "replication", "restapi")}
    state: dict[str, Any] = {"base_port": base_port, "processes": []}
    try:
        etcd = _spawn(etcd_command(layout), layout.logs / "etcd.log", _base_env(), layout.folder)
        _record(layout, state, "etcd", etcd.pid, str(layout.folder))
        _wait_for(lambda: _etcd_up(layout), 30, "etcd to answer", layout)
        for index, name in enumerate(NODES):
            env = {**_base_env(), **node_env(layout, index, passwords)}
            node = _spawn(
                [patroni, str(CONFIG)],
                layout.logs / f"{name}.log",
                env,
                layout.node_dir(name),
            )
            _record(layout, state, name, node.pid, str(layout.node_dir(name)))
        _wait_for(lambda: ready(layout), timeout, "a primary and a synchronous standby", layout)
        url = dsn(layout, passwords["superuser"], "postgres")
        _create_database(url, dbname)
        line = dsn(layout, passwords["superuser"], dbname)
        _write_private(layout.folder / "dsn", line + "\n")
        _write_private(layout.folder / "patronictl.yml", patronictl_config(layout, passwords))
        return line
    except BaseException:
        stop(layout.folder)
        raise


def _readable_by_cluster(folder: Path) -> bool:
    user = _run_as()
    if user is None:
        return os.access(folder, os.W_OK | os.X_OK)
    probe = subprocess.run(
        ["test", "-w", str(folder), "-a", "-x", str(folder)], user=user.pw_uid, check=False
    )
    return probe.returncode == 0


def _record(layout: Layout, state: dict[str, Any], name: str, pid: int, folder: str) -> None:
    state["processes"].append({"name": name, "pid": pid, "folder": folder})
    _write_private(layout.folder / STATE_FILE, json.dumps(state, indent=2) + "\n")


def _write_private(path: Path, text: str) -> None:
    path.touch(mode=0o600, exist_ok=True)
    path.chmod(0o600)
    path.write_text(text)


def _etcd_up(layout: Layout) -> bool:
    try:
        _get_json(f"http://127.0.0.1:{layout.etcd_client_port}/health")
    except (OSError, ValueError, urllib.error.URLError):
        return False
    return True


def _wait_for(check: Any, timeout: float, what: str, layout: Layout) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.5)
    raise SystemExit(f"gave up waiting for {what} after {timeout:.0f} s; logs in {layout.logs}")


def _create_database(url: str, dbname: str) -> None:
    psql = _require("psql")
    exists = subprocess.run(
        [psql, url, "-Atc", f"SELECT 1 FROM pg_database WHERE datname = '{dbname}'"],
        capture_output=True,
        text=True,
        check=True,
    )
    if exists.stdout.strip() != "1":
        subprocess.run(
            [psql, url, "-qc", f'CREATE DATABASE "{dbname}"'], capture_output=True, check=True
        )


def stop(folder: Path) -> None:
    """End every process of the cluster: Patroni nodes first (each stops its
    PostgreSQL), then etcd; whatever is left after a while is killed, and
    the nodes' postmasters with it."""
    layout = Layout(folder.resolve(), 0)
    state_path = layout.folder / STATE_FILE
    if not state_path.exists():
        return
    state = json.loads(state_path.read_text())
    processes = state.get("processes", [])
    nodes = [p for p in processes if p["name"] != "etcd"]
    others = [p for p in processes if p["name"] == "etcd"]
    _end(nodes, layout)
    for name in NODES:
        pid = postmaster_pid(layout.data_dir(name))
        if pid is not None:
            _signal(pid, signal.SIGQUIT)  # PostgreSQL's immediate shutdown
    _end(others, layout)
    state_path.unlink()


def _end(processes: list[dict[str, Any]], layout: Layout) -> None:
    alive = [p for p in processes if _ours(p["pid"], p["folder"])]
    for process in alive:
        _signal(process["pid"], signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    while time.monotonic() < deadline and any(_ours(p["pid"], p["folder"]) for p in alive):
        _reap()
        time.sleep(0.2)
    for process in alive:
        if _ours(process["pid"], process["folder"]):
            _signal(process["pid"], signal.SIGKILL)
    _reap()


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def _reap() -> None:
    """Collect our own children that ended (a start that failed started them)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def status(folder: Path) -> dict[str, Any]:
    """Every member with its role and state, its Patroni's and its
    postmaster's process ids, and the DSN."""
    layout = Layout(folder.resolve(), 0)
    state_path = layout.folder / STATE_FILE
    if not state_path.exists():
        raise SystemExit(f"no cluster in {layout.folder}")
    state = json.loads(state_path.read_text())
    layout = Layout(layout.folder, int(state["base_port"]))
    pids = {p["name"]: p for p in state["processes"]}
    by_name = {m["name"]: m for m in members(layout)}
    nodes = []
    for index, name in enumerate(NODES):
        member = by_name.get(name, {})
        patroni = pids.get(name)
        nodes.append(
            {
                "name": name,
                "role": member.get("role", "unknown"),
                "state": member.get("state", "unknown"),
                "port": layout.pg_port(index),
                "patroni_pid": patroni["pid"]
                if patroni and _ours(patroni["pid"], patroni["folder"])
                else None,
                "postmaster_pid": postmaster_pid(layout.data_dir(name)),
                "timeline": member.get("timeline"),
                "lag": member.get("lag"),
            }
        )
    dsn_path = layout.folder / "dsn"
    return {
        "dsn": dsn_path.read_text().strip() if dsn_path.exists() else "",
        "patronictl_config": str(layout.folder / "patronictl.yml"),
        "nodes": nodes,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    begin = commands.add_parser("start", help="start the cluster; print its DSN")
    begin.add_argument("folder", type=Path)
    begin.add_argument("--base-port", type=int, default=DEFAULT_BASE_PORT)
    begin.add_argument("--dbname", default=DEFAULT_DBNAME)
    begin.add_argument("--timeout", type=float, default=READY_TIMEOUT)
    end = commands.add_parser("stop", help="stop everything start began")
    end.add_argument("folder", type=Path)
    show = commands.add_parser("status", help="members, roles and process ids")
    show.add_argument("folder", type=Path)
    show.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "start":
        print(start(args.folder, args.base_port, args.dbname, args.timeout), flush=True)
    elif args.command == "stop":
        stop(args.folder)
    else:
        report = status(args.folder)
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            for node in report["nodes"]:
                print(
                    f"{node['name']}  {node['role']:<12} {node['state']:<10} "
                    f"port {node['port']}  patroni {node['patroni_pid']}  "
                    f"postmaster {node['postmaster_pid']}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
