"""Run every benchmark case beside its baseline; print a table, write JSON.

python -m bench              # the full run (several minutes)
python -m bench --quick      # small sizes: a smoke run
python -m bench --only a,c   # chosen cases
python -m bench --only a,b --before /tmp/before.json   # beside an earlier run
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.audit import case_d
from bench.cli_start import case_k
from bench.common import CaseResult, Settings
from bench.failover import case_j
from bench.listing import case_f
from bench.live import case_g
from bench.memory import case_e
from bench.pairing import case_h
from bench.positions import case_c
from bench.throughput import case_a, case_b
from bench.web import case_i

CASES: dict[str, Callable[[Settings], CaseResult]] = {
    "a": case_a,
    "b": case_b,
    "c": case_c,
    "d": case_d,
    "e": case_e,
    "f": case_f,
    "g": case_g,
    "h": case_h,
    "i": case_i,
    "j": case_j,
    "k": case_k,
}
DEFAULT_OUTPUT = Path(__file__).parent / "results" / "latest.json"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a fast smoke run")
    parser.add_argument(
        "--only", default=",".join(CASES), help="cases to run, comma-separated (default: all)"
    )
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    parser.add_argument(
        "--before",
        type=Path,
        default=None,
        help="an earlier run's JSON: print its rows beside this run's (same labels)",
    )
    args = parser.parse_args(argv)
    chosen = [c.strip() for c in args.only.split(",") if c.strip()]
    unknown = [c for c in chosen if c not in CASES]
    if unknown or not chosen:
        parser.error(f"unknown case(s) {unknown}; choose from {','.join(CASES)}")
    args.cases = chosen
    return args


def number(value: float, unit: str = "") -> str:
    if math.isnan(value):
        return "-"
    text = f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.2f}"
    return f"{text} {unit}".strip()


def latency_text(context: dict[str, Any]) -> str:
    if "p50_ms" not in context or "baseline_p50_ms" not in context:
        return ""
    text = (
        f"p50/p99 {context['p50_ms']:.2f}/{context['p99_ms']:.2f} ms; "
        f"baseline {context['baseline_p50_ms']:.2f}/{context['baseline_p99_ms']:.2f} ms"
    )
    cpu, base_cpu = (
        context.get("server_cpu_ms_per_call"),
        context.get("baseline_server_cpu_ms_per_call"),
    )
    if cpu is not None:
        text += f"\nserver CPU/call {cpu:.2f} ms"
        if base_cpu is not None:
            text += f" (baseline {base_cpu:.2f} ms)"
    return text


def table(results: list[CaseResult], quick: bool) -> Table:
    title = "gamelog benchmarks" + (" (--quick: smoke sizes, not meaningful)" if quick else "")
    out = Table(title=title, show_lines=True)
    for name in ("case", "measurement", "value", "baseline", "ratio", "goal", "latency"):
        out.add_column(name, overflow="fold")
    for result in results:
        if result.skipped:
            out.add_row(result.case, result.title, "-", "-", "-", "-", f"SKIPPED: {result.skipped}")
            continue
        for row in result.rows:
            met = "" if row.met is None else (" [green]met[/]" if row.met else " [red]MISSED[/]")
            context = latency_text(row.context)
            out.add_row(
                result.case,
                f"{result.title}\n{row.label}",
                number(row.value, row.unit),
                number(row.baseline, row.unit),
                f"{row.ratio:.3f}",
                f"{row.goal}{met}",
                context,
            )
    return out


def _cpu_text(context: dict[str, Any]) -> str:
    cpu, base_cpu = (
        context.get("server_cpu_ms_per_call"),
        context.get("baseline_server_cpu_ms_per_call"),
    )
    if cpu is None:
        return ""
    return f"{cpu:.2f}" + (f" / {base_cpu:.2f}" if base_cpu is not None else "")


def comparison(before: dict[str, Any], results: list[CaseResult]) -> Table:
    """This run's rows beside an earlier run's rows of the same label
    (``--before``): value, baseline, ratio and server CPU per call (and per
    baseline call) then and now, measured on the same machine."""
    out = Table(title="before (--before) and after (this run)", show_lines=True)
    for name in ("case", "measurement", "before", "after", "ratio before → after", "server CPU ms"):
        out.add_column(name, overflow="fold")
    for result in results:
        earlier = {
            row["label"]: row
            for row in before.get("cases", {}).get(result.case, {}).get("rows", [])
        }
        for row in result.rows:
            then = earlier.get(row.label)
            if then is None:
                continue
            out.add_row(
                result.case,
                row.label,
                f"{number(then['value'], row.unit)} vs {number(then['baseline'], row.unit)}",
                f"{number(row.value, row.unit)} vs {number(row.baseline, row.unit)}",
                f"{then['ratio']:.3f} → {row.ratio:.3f}",
                f"{_cpu_text(then['context']) or '-'} → {_cpu_text(row.context) or '-'}",
            )
    return out


def run(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    console = Console(width=max(Console().width, 150))
    results: list[CaseResult] = []
    failures = 0
    with tempfile.TemporaryDirectory(prefix="gamelog-bench-") as tmp:
        for name in args.cases:
            workdir = Path(tmp) / name
            workdir.mkdir()
            settings = Settings(quick=args.quick, workdir=workdir)
            console.print(f"[bold]case {name}[/] …")
            t0 = time.perf_counter()
            try:
                result = CASES[name](settings)
            except Exception:
                failures += 1
                console.print(f"[red]case {name} failed[/]")
                traceback.print_exc()
                result = CaseResult(name, "failed", "", skipped="error: " + traceback.format_exc())
            result.seconds = time.perf_counter() - t0
            results.append(result)
    console.print(table(results, args.quick))
    if args.before is not None:
        console.print(comparison(json.loads(args.before.read_text()), results))
    for result in results:
        if result.baseline:
            console.print(f"{result.case}: baseline = {result.baseline}")
        for meaning in dict.fromkeys(row.ratio_meaning for row in result.rows):
            console.print(f"{result.case}: ratio = {meaning}")
        for note in result.notes:
            console.print(f"[dim]{result.case}: {note}[/]")
    document = {
        "created": datetime.datetime.now(datetime.UTC).isoformat(),
        "quick": args.quick,
        "machine": {"cpus": os.cpu_count(), "python": sys.version, "platform": platform.platform()},
        "cases": {r.case: {**asdict(r), "ratio": r.headline_ratio()} for r in results},
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(document, indent=2, default=str) + "\n")
    console.print(f"results written to {args.output}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(run())
