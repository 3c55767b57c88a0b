"""The Play stream from Node: grpc-js with @grpc/proto-loader, as a client
author would use them (``node/play_stream.mjs``, docs/play-stream.md's
worked example), two seats playing a few moves against a real server.

Needs node and the packages of ``node/package-lock.json`` (``npm ci`` in
``tests/service/rpc/node``, as .ci/run does): without them it skips, unless
GAMELOG_REQUIRE_BROWSER=1 (as .ci/run sets), where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from gamelog.cli.process import ServerProcess

pytestmark = pytest.mark.e2e

NODE_CLIENT = Path(__file__).parent / "node"
RUN_SECONDS = 120
"""Only a hang reaches it: the play takes well under a second."""


def node_or_skip() -> str:
    node = shutil.which("node")
    installed = (NODE_CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir()
    if node is not None and installed:
        return node
    missing = "node" if node is None else "grpc-js (npm ci in tests/service/rpc/node)"
    if os.environ.get("GAMELOG_REQUIRE_BROWSER") == "1":
        pytest.fail(f"the Node client's test needs {missing}")
    pytest.skip(f"the Node client's test needs {missing}")


def test_two_seats_play_over_play_streams_from_node(sqlite_server: ServerProcess) -> None:
    result = subprocess.run(
        [node_or_skip(), "--test", str(NODE_CLIENT / "play_stream.test.mjs")],
        env={**os.environ, "GAMELOG_SERVER": sqlite_server.address},
        capture_output=True,
        text=True,
        timeout=RUN_SECONDS,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# pass 1" in result.stdout and "# fail 0" in result.stdout
