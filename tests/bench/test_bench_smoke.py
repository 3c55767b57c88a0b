"""The benchmark suite runs end to end in its quick mode (sizes too small to
mean anything: this checks the machinery, never the timings)."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = ("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k")


@pytest.mark.timeout(230)
@pytest.mark.e2e
def test_quick_run_writes_every_case_with_numeric_ratios(tmp_path: Path) -> None:
    output = tmp_path / "latest.json"
    completed = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--output", str(output)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=220,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    document = json.loads(output.read_text())
    assert document["quick"] is True
    assert set(document["cases"]) == set(CASES)
    for name, case in document["cases"].items():
        if case["skipped"]:
            # Only the PostgreSQL case may be skipped, and only with a reason;
            # the browser case too where no Chromium is installed (never in CI).
            if name == "i" and os.environ.get("GAMELOG_REQUIRE_BROWSER") != "1":
                assert "Chromium" in case["skipped"] or "Playwright" in case["skipped"]
                continue
            # The failover case starts three clusters: never in a quick run
            # (tests/test_failover_patroni.py runs one failover instead).
            if name == "j":
                assert "--quick" in case["skipped"]
                continue
            assert name == "b", f"case {name} skipped: {case['skipped']}"
            assert "PostgreSQL" in case["skipped"] or "--postgres" in case["skipped"]
            continue
        assert case["rows"], f"case {name} has no measurements"
        for row in case["rows"]:
            for key in ("value", "baseline", "ratio"):
                assert isinstance(row[key], (int, float)), (name, key, row[key])
                assert math.isfinite(row[key]), (name, key, row[key])
        assert isinstance(case["ratio"], (int, float))
    # boardgame.io, case a's peer, runs wherever node and npm do (.ci/run
    # installs them); grpcio's streaming echo and case k run everywhere.
    labels = [row["label"] for row in document["cases"]["a"]["rows"]]
    assert any("streaming echo" in label for label in labels)
    # The floor prototypes (bench.stream_floor) run wherever the stream does.
    assert sum("floor prototype" in label for label in labels) == 3, labels
    if shutil.which("node") and shutil.which("npm"):
        assert any("boardgame.io" in label for label in labels), labels
        assert any("Node clients" in label for label in labels), labels
    assert [row["label"].split(" (")[0] for row in document["cases"]["k"]["rows"]] == [
        "gamelog --version",
        "gamelog show",
        "gamelog moves",
        "gamelog play",
    ]


def test_gil_split_tells_the_handler_from_grpc_and_the_committer() -> None:
    """bench.gil_split files each sampled stack under one part: a stack
    through the timed call's servicer method is the handler's however deep
    it starts, one through gRPC's callbacks alone is gRPC's."""
    from bench.gil_split import split

    loop = (
        "Thread.run (threading.py:975);BaseEventLoop._run_once (base_events.py:1922);"
        "Handle._run (events.py:80)"
    )
    raw = [
        f"{loop};GameLogServicer.PlayMove (/srv/service/grpc_api.py:343);seal (record.py:250) 5",
        f"{loop} 7",
        f"{loop};GameLogServicer.CreateGame (grpc_api.py:120) 2",
        "Thread.run (threading.py:975);GroupCommit._lead_forever (/srv/group_commit.py:130) 3",
        "Thread.run (threading.py:975);BaseEventLoop._run_once (base_events.py:1922) 1",
        f"{loop};GameLogServicer.PlayMove (grpc_api.py:349) 4",
    ]
    assert split(raw) == {
        "handler": 9,
        "gRPC and asyncio callbacks": 7,
        "other RPCs": 2,
        "committer": 3,
        "event loop": 1,
    }


def test_visits_are_counterbalanced_and_pooled_over_their_wall_times() -> None:
    """Phases split into visits go in ABBA order, so that each phase's visits
    sit around the same middle in time; a phase's rate is all its calls over
    the sum of its visits' wall times, not over the span they cover."""
    from bench.load import PhaseResult, pool, visits

    order = visits(["echo", "play"], 4)
    assert order == ["echo", "play", "play", "echo", "echo", "play", "play", "echo"]
    middle = (len(order) - 1) / 2
    for phase in ("echo", "play"):
        at = [i for i, p in enumerate(order) if p == phase]
        assert sum(at) / len(at) == middle
    assert visits(["insert", "echo", "play"], 1) == ["insert", "echo", "play"]

    def visit(start: float, seconds: float, calls: int, cpu: float) -> list[PhaseResult]:
        return [
            PhaseResult(0, "play", 0, start, start + seconds, [0.001] * calls, server_cpu=cpu),
            PhaseResult(1, "play", 0, start, start + seconds, [0.001] * calls),
        ]

    # Two visits ten seconds apart: 400 calls in 2 s of wall time, not in 12.
    pooled = pool("play", [visit(0.0, 1.0, 100, 0.5), visit(11.0, 1.0, 100, 0.3)])
    assert pooled.calls == 400 and pooled.seconds == 2.0 and pooled.rate == 200.0
    assert pooled.server_cpu_ms_per_call == (0.5 + 0.3) / 400 * 1000
    assert pooled.visit_rates == [200.0, 200.0]
