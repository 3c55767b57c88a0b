"""The ``gamelog`` command as a subprocess, against a server process.

>>> # created = gamelog_json(sqlite_server, "new", "freeform", "--players", "ann,ben")
>>> # refused = gamelog(sqlite_server, "play", created["game_id"], "{}", check=False)
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from gamelog.cli.process import GAMELOG, ServerProcess


def gamelog(
    server: ServerProcess | str, *args: str, input: str | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run ``gamelog ARGS --server ADDRESS`` (``server`` a process or an
    address); with ``check``, a failure raises with what it printed."""
    address = server if isinstance(server, str) else server.address
    result = subprocess.run(
        [*GAMELOG, *args, "--server", address],
        capture_output=True,
        text=True,
        input=input,
        timeout=300,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"gamelog {' '.join(args)} failed: {result.stderr}{result.stdout}")
    return result


def gamelog_json(server: ServerProcess | str, *args: str) -> Any:
    """Run ``gamelog ARGS --json`` against ``server``; what it printed, read."""
    return json.loads(gamelog(server, *args, "--json").stdout)
