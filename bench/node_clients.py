"""Client processes written for Node, driven from Python: boardgame.io's
(``bench/boardgameio/clients.js``) and gamelog's own over the Play stream
(``bench/gamelog_node/clients.mjs``).

Each client process takes ``TARGET MOVES SEED``, prints ``{"ready": true}``
once connected and warmed up, waits for a line on stdin, plays, and prints
one JSON line (moves, errors, start_ns, end_ns, latencies_ms, cpu_s). A
visit starts them together and reads them back as ``bench.load.PhaseResult``s,
so that its figures pool with the Python clients' (``bench.load.pool``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from bench.load import PhaseResult, cpu_seconds

READY_TIMEOUT = 120.0


def npm_problem(package_dir: Path, installed: str) -> str | None:
    """Why Node clients in ``package_dir`` cannot run here (no node or npm),
    else None. Installs the packages from the lockfile (``npm ci``) when
    ``node_modules/<installed>`` is missing."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return "Node clients need node and npm (apt-get install nodejs npm)"
    if not (package_dir / "node_modules" / installed).is_dir():
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=package_dir,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            return f"npm ci in {package_dir} failed: {done.stderr[-500:]}"
    return None


def node_env() -> dict[str, str]:
    # boardgame.io logs every action unless it runs in production mode.
    return {**os.environ, "NODE_ENV": "production"}


def visit(
    package_dir: Path,
    script: str,
    target: str,
    server_pid: int,
    phase: str,
    clients: int,
    moves: int,
    visit_index: int,
    seed: int = 1000,
) -> list[PhaseResult]:
    """One visit: ``clients`` processes of ``node script target moves seed``,
    started together once every one is ready; the server's CPU time is read
    before the start and after the last client ended (on client 0's result,
    as ``bench.load`` does)."""
    processes = [
        subprocess.Popen(
            ["node", script, target, str(moves), str(seed + i)],
            cwd=package_dir,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=node_env(),
        )
        for i in range(clients)
    ]
    try:
        deadline = time.monotonic() + READY_TIMEOUT
        for process in processes:
            assert process.stdout is not None
            if json.loads(process.stdout.readline() or "{}").get("ready") is not True:
                raise RuntimeError(f"a {phase} client did not get ready")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{phase} clients took too long to connect")
        cpu_before = cpu_seconds([server_pid])
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        answers = []
        for process in processes:
            assert process.stdout is not None
            line = process.stdout.readline()
            if not line:
                raise RuntimeError(f"a {phase} client failed")
            answers.append(json.loads(line))
        cpu = cpu_seconds([server_pid]) - cpu_before
    finally:
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
    return [
        PhaseResult(
            index=i,
            phase=phase,
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
