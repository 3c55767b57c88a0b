"""Shared pieces of the benchmark cases: results, timing, server processes."""

from __future__ import annotations

import os
import re
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PG_ADMIN_DSN = os.environ.get(
    "GAMELOG_BENCH_PG", "host=127.0.0.1 port=5432 user=postgres dbname=test"
)


@dataclass
class Settings:
    """Sizes for one run; ``quick`` shrinks every case to a smoke test."""

    quick: bool = False
    workdir: Path = Path(".")

    def pick(self, full: Any, quick: Any) -> Any:
        return quick if self.quick else full


@dataclass
class Row:
    """One line of the printed table: a measurement beside its baseline."""

    label: str
    value: float
    baseline: float
    unit: str
    ratio: float
    """value / baseline, or as ``ratio_meaning`` says."""
    ratio_meaning: str
    goal: str = ""
    met: bool | None = None
    context: dict[str, Any] = field(default_factory=dict)


@dataclass
class CaseResult:
    case: str
    title: str
    baseline: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: str = ""
    seconds: float = 0.0

    def headline_ratio(self) -> float | None:
        """The ratio that the case's goal is about (the last row's)."""
        return self.rows[-1].ratio if self.rows else None


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), nearest-rank on sorted data."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[rank]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def rss_kib(pid: int) -> int:
    """Resident set size of a process in KiB, from /proc/<pid>/status VmRSS."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


@dataclass
class ServerProcess:
    """A ``gamelog serve`` child process on a free port."""

    process: subprocess.Popen[str]
    address: str
    log_path: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self, timeout: float = 20) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


def start_server(log_dir: Path, *args: str, timeout: float = 30) -> ServerProcess:
    """Start ``python -m gamelog.cli.main serve --port 0 ...``; wait for its address."""
    log_path = log_dir / f"server-{uuid.uuid4().hex[:8]}.log"
    with log_path.open("w") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "gamelog.cli.main", "serve", "--port", "0", *args],
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


def serve_help() -> str:
    result = subprocess.run(
        [sys.executable, "-m", "gamelog.cli.main", "serve", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout
