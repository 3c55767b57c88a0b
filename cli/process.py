"""``gamelog serve`` (and ``gamelog web``) as child processes on free ports, for
tests and benchmarks.

>>> # server = start_server_process(Path("/tmp"), "--memory")
>>> # with server.client() as client: ...
>>> # server.stop()
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from gamelog.cli.client import Client

GAMELOG = [sys.executable, "-m", "gamelog.cli.main"]
"""The ``gamelog`` command, run by this interpreter."""


@dataclass
class ServerProcess:
    process: subprocess.Popen[str]
    address: str
    log_path: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def client(self, ca: str | None = None) -> Client:
        return Client(self.address, ca)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> int:
        """Signal the server (SIGTERM: a graceful stop) and wait; its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            status = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        return status


def start_server_process(log_dir: Path, *args: str, timeout: float = 30) -> ServerProcess:
    """Start ``gamelog serve --port 0 ARGS``; wait until it says where it listens."""
    log_path = log_dir / f"server-{uuid.uuid4().hex[:8]}.log"
    with log_path.open("w") as log_file:
        process = subprocess.Popen(
            [*GAMELOG, "serve", "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=log_file,
            text=True,
        )
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                raise RuntimeError(f"server exited: {log_path.read_text()}")
            continue
        match = re.search(r"serving on ([\d.]+:\d+)", line)
        if match:
            return ServerProcess(process, match.group(1), log_path)
    process.kill()
    raise RuntimeError(f"server did not start: {log_path.read_text()}")


@dataclass
class WebProcess:
    """``gamelog web`` as a child process: the page at ``url``."""

    process: subprocess.Popen[str]
    url: str
    log_path: Path

    def stop(self, timeout: float = 20) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        return status


def start_web_process(log_dir: Path, server: str, *args: str, timeout: float = 30) -> WebProcess:
    """Start ``gamelog web --server SERVER --port 0 ARGS``; wait until it says where.
    Its log (uvicorn's, access log included) goes to a file beside the others."""
    log_path = log_dir / f"web-{uuid.uuid4().hex[:8]}.log"
    with log_path.open("w") as log_file:
        process = subprocess.Popen(
            [*GAMELOG, "web", "--server", server, "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=log_file,
            text=True,
        )
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                raise RuntimeError(f"gamelog web exited: {log_path.read_text()}")
            continue
        match = re.search(r"serving on (http://[\d.]+:\d+/)", line)
        if match:
            return WebProcess(process, match.group(1), log_path)
    process.kill()
    raise RuntimeError(f"gamelog web did not start: {log_path.read_text()}")
