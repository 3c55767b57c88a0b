"""Shared pieces of the benchmark cases: results, timing, server processes."""

from __future__ import annotations

import os
import statistics
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
        """The ratio that the case's goal is about: the last row with a goal,
        else the last row."""
        with_goal = [row for row in self.rows if row.goal]
        rows = with_goal or self.rows
        return rows[-1].ratio if rows else None


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
