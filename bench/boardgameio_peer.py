"""boardgame.io, the peer of case a: its own server and client from npm,
driven from Python.

``bench/boardgameio/`` holds the Node side (``npm ci`` installs it from its
lockfile; nothing is vendored): ``server.js`` runs boardgame.io's ``Server``
with its in-memory storage, serving ``game.js``, a card game of the same
weight as three-too-many's card play; ``clients.js`` is one client process
that plays its own games through the server's socket.io transport with
boardgame.io's own ``Client``, one per seat. This module starts the server,
starts the client processes of one visit, starts them together and reads
each one's JSON line back as a ``bench.load.PhaseResult``, so that the
visit pools with gamelog's (``bench.load.pool``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from bench.load import PhaseResult, cpu_seconds

NODE_DIR = Path(__file__).parent / "boardgameio"
READY_TIMEOUT = 120.0
PHASE = "boardgameio"


def problem() -> str | None:
    """Why the peer cannot run here (no node or npm), else None. Installs
    the Node packages from the lockfile (``npm ci``) when they are missing."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return "boardgame.io needs node and npm (apt-get install nodejs npm)"
    if not (NODE_DIR / "node_modules" / "boardgame.io").is_dir():
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=NODE_DIR,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            return f"npm ci in {NODE_DIR} failed: {done.stderr[-500:]}"
    return None


def _node_env() -> dict[str, str]:
    # boardgame.io logs every action unless it runs in production mode.
    return {**os.environ, "NODE_ENV": "production"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class NodeServer:
    process: subprocess.Popen[str]
    url: str

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_server(log_dir: Path) -> NodeServer:
    """``node server.js PORT``, once it says it listens."""
    port = _free_port()
    with (log_dir / "boardgameio-server.log").open("w") as log:
        process = subprocess.Popen(
            ["node", "server.js", str(port)],
            cwd=NODE_DIR,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            env=_node_env(),
        )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("{"):
        process.kill()
        raise RuntimeError(f"boardgame.io server did not start: {line!r}")
    return NodeServer(process, f"http://127.0.0.1:{json.loads(line)['port']}")


def visit(
    server: NodeServer, clients: int, moves: int, visit_index: int, seed: int = 1000
) -> list[PhaseResult]:
    """One visit: ``clients`` client processes, each playing ``moves`` moves
    of its own games, started together once every one is connected; the
    server's CPU time is read before the start and after the last client
    ended (on client 0's result, as ``bench.load`` does)."""
    processes = [
        subprocess.Popen(
            ["node", "clients.js", server.url, str(moves), str(seed + i)],
            cwd=NODE_DIR,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=_node_env(),
        )
        for i in range(clients)
    ]
    try:
        deadline = time.monotonic() + READY_TIMEOUT
        for process in processes:
            assert process.stdout is not None
            if json.loads(process.stdout.readline() or "{}").get("ready") is not True:
                raise RuntimeError("a boardgame.io client did not get ready")
            if time.monotonic() > deadline:
                raise TimeoutError("boardgame.io clients took too long to connect")
        cpu_before = cpu_seconds([server.pid])
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        answers = []
        for process in processes:
            assert process.stdout is not None
            answers.append(json.loads(process.stdout.readline()))
        cpu = cpu_seconds([server.pid]) - cpu_before
    finally:
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
    return [
        PhaseResult(
            index=i,
            phase=PHASE,
            visit=visit_index,
            start=int(answer["start_ns"]) / 1e9,
            end=int(answer["end_ns"]) / 1e9,
            latencies=[ms / 1000 for ms in answer["latencies_ms"]],
            errors=answer["errors"],
            server_cpu=cpu if i == 0 else None,
            client_cpu=answer["cpu_s"],
        )
        for i, answer in enumerate(answers)
    ]
