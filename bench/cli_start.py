"""Case k (issue 33.3): the CLI as whole processes, beside ``python -c pass``.

Every figure is the wall time of a whole ``gamelog ...`` process (the
installed console script, as a user types it), from its start to its exit:
interpreter start-up, imports, and for a call to a server its one round trip.
The baseline is ``python -c pass`` with the same interpreter, in the same
run: what any Python command costs before it does anything.

A ``gamelog serve --db`` process holds a ``three-too-many`` game; each
repetition runs, one after the other, the baseline, ``gamelog --version``,
``gamelog show``, ``gamelog moves`` and ``gamelog play`` (a legal card of
the seat to act, read over gRPC beforehand and not timed), so that the
machine's drift falls on every command alike. The value is the median.
Goals: ``--version`` within 0.1 s of the baseline; a call to a running
server within 0.3 s of it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from bench.common import CaseResult, Row, Settings, median
from gamelog.cli.process import start_server_process

GOAL_VERSION_S = 0.1
GOAL_SERVER_CALL_S = 0.3


def gamelog_command() -> list[str]:
    """The installed ``gamelog`` script beside this interpreter, else the module."""
    script = Path(sys.executable).parent / "gamelog"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gamelog.cli.main"]


def timed(argv: list[str]) -> float:
    """Wall seconds of one whole process; it must exit 0."""
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"{argv} exited {done.returncode}: {done.stderr[-400:]}")
    return seconds


def case_k(settings: Settings) -> CaseResult:
    from gamelog.cli.client import Client

    result = CaseResult(
        "k",
        "CLI start: whole processes",
        "python -c pass, same interpreter, same run",
    )
    repetitions = settings.pick(15, 3)
    gamelog = gamelog_command()
    server = start_server_process(settings.workdir, "--db", str(settings.workdir / "k.sqlite"))
    times: dict[str, list[float]] = {
        name: [] for name in ("python -c pass", "--version", "show", "moves", "play")
    }
    try:
        with Client(server.address) as client:
            created = client.create("three-too-many", ["ann", "ben"])
            game_id, tokens = created.game_id, dict(created.seat_tokens)
            at = ["--server", server.address]
            for _ in range(repetitions):
                state = client.state(game_id, tokens["ann"])
                seat = state.to_act[0]
                hand = json.loads(client.state(game_id, tokens[seat]).view_json)["hand"]
                move = json.dumps({"card": hand[0]})
                commands = {
                    "python -c pass": [sys.executable, "-c", "pass"],
                    "--version": [*gamelog, "--version"],
                    "show": [*gamelog, "show", game_id, *at, "--token", tokens[seat]],
                    "moves": [*gamelog, "moves", game_id, *at, "--token", tokens[seat]],
                    "play": [*gamelog, "play", game_id, move, *at, "--token", tokens[seat]],
                }
                for name, argv in commands.items():
                    times[name].append(timed(argv))
    finally:
        server.stop()
    baseline = median(times["python -c pass"])
    for name in ("--version", "show", "moves", "play"):
        value = median(times[name])
        allowed = GOAL_VERSION_S if name == "--version" else GOAL_SERVER_CALL_S
        over = value - baseline
        result.rows.append(
            Row(
                label=f"gamelog {name}" + ("" if name == "--version" else " (a running server)"),
                value=value,
                baseline=baseline,
                unit="s",
                ratio=value / baseline,
                ratio_meaning="command's wall time / python -c pass (lower is better); "
                "the goal is on the difference",
                goal=f"<= baseline + {allowed} s",
                met=over <= allowed,
                context={
                    "over_baseline_s": over,
                    "runs_s": times[name],
                    "baseline_runs_s": times["python -c pass"],
                },
            )
        )
    result.notes.append(
        f"median of {repetitions} repetitions, each running the baseline and the four "
        f"commands in turn; command: {' '.join(Path(part).name for part in gamelog)}"
    )
    return result
