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
import signal
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from bench import node_clients
from bench.load import PhaseResult
from bench.node_clients import node_env, npm_problem

NODE_DIR = Path(__file__).parent / "boardgameio"
PHASE = "boardgameio"


def problem() -> str | None:
    """Why the peer cannot run here (no node or npm), else None."""
    return npm_problem(NODE_DIR, "boardgame.io")


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
            env=node_env(),
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
    """One visit of ``clients`` boardgame.io client processes (``bench.node_clients``)."""
    return node_clients.visit(
        NODE_DIR, "clients.js", server.url, server.pid, PHASE, clients, moves, visit_index, seed
    )
