"""Where a server's GIL went: a py-spy ``--gil`` profile split by part.

    .venv/bin/python -m bench.profile_server --calls 3000 \\
        --attach "/path/to/py-spy record --gil --rate 400 -f raw -o /tmp/{phase}.txt --pid {pid}"
    .venv/bin/python -m bench.gil_split /tmp/echo.txt /tmp/play.txt --calls 24000

With ``--gil``, py-spy samples a process only while one of its threads holds
the GIL, so a profile's samples are the GIL time of its phase. A server of
case a is GIL-bound (bench/README.md), so what sets its rate is how much GIL
time a call costs, and where it goes:

- **handler**: the servicer method of the timed call (``PlayMove``, ``Echo``)
  and everything it calls;
- **other RPCs**: the set-up calls (creating games, reading hands);
- **committer**: the group commit's own thread;
- **gRPC and asyncio**: everything else run by the event loop's callbacks,
  mostly gRPC's compiled server code, which py-spy shows as the callback's
  own time; and the loop itself (its ``select`` and bookkeeping).

With ``--calls`` (all clients' calls of the phase) it also prints samples per
call, so two phases of one run compare part by part: the ratio of two
phases' rates is about the inverse ratio of their samples per call.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

_FRAME = re.compile(r"(?P<function>.*?) \((?P<file>.*?):\d+\)$")
HANDLERS = ("GameLogServicer.PlayMove", "GameLogServicer.Echo")


def frames(stack: str) -> list[str]:
    """``function file`` for each frame of one py-spy raw stack, outermost first."""
    named = []
    for frame in stack.split(";"):
        match = _FRAME.match(frame)
        named.append(
            f"{match['function']} {Path(match['file']).name}" if match is not None else frame
        )
    return named


def part_of(stack: list[str]) -> str:
    if any(frame.startswith(HANDLERS) for frame in stack):
        return "handler"
    if any(frame.startswith("GameLogServicer.") for frame in stack):
        return "other RPCs"
    if any("group_commit.py" in frame for frame in stack):
        return "committer"
    if any(frame.startswith("Handle._run ") for frame in stack):
        return "gRPC and asyncio callbacks"
    return "event loop"


def split(lines: Iterable[str]) -> Counter[str]:
    """Samples per part, from a py-spy raw file's lines (``stack count``)."""
    parts: Counter[str] = Counter()
    for line in lines:
        stack, _, count = line.rstrip().rpartition(" ")
        if stack:
            parts[part_of(frames(stack))] += int(count)
    return parts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.gil_split", description=__doc__)
    parser.add_argument("profiles", nargs="+", type=Path, help="py-spy raw files (-f raw)")
    parser.add_argument("--calls", type=int, default=0, help="the phase's calls, all clients")
    args = parser.parse_args(argv)
    for path in args.profiles:
        parts = split(path.read_text().splitlines())
        total = sum(parts.values())
        print(f"{path}: {total:,} samples holding the GIL")
        for part, samples in parts.most_common():
            per_call = f", {samples / args.calls:.3f} per call" if args.calls else ""
            print(f"    {part:<28} {samples:>8,} {100 * samples / total:5.1f} %{per_call}")


if __name__ == "__main__":
    main()
