"""The generated gRPC code in proto/gamelog/v1 matches gamelog.proto
(regenerate with `make proto`)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_generated_code_is_up_to_date(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            "-Iproto",
            "--python_out=proto",
            "--grpc_python_out=proto",
            "proto/gamelog/v1/gamelog.proto",
            "proto/gamelog/v1/tournaments.proto",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    for name in (
        "gamelog_pb2.py",
        "gamelog_pb2_grpc.py",
        "tournaments_pb2.py",
        "tournaments_pb2_grpc.py",
    ):
        fresh = without_versions((tmp_path / "proto/gamelog/v1" / name).read_text())
        committed = without_versions((ROOT / "proto/gamelog/v1" / name).read_text())
        assert fresh == committed, f"{name} is stale: run `make proto`"


def without_versions(code: str) -> str:
    """Generated code minus the generator's version stamps, which change with
    every release of grpcio-tools while the API stays the same."""
    code = re.sub(r"ValidateProtobufRuntimeVersion\([^)]*\)", "", code)
    return re.sub(r"(?m)^(# Protobuf Python Version: |GRPC_GENERATED_VERSION = ).*$", "", code)


def test_the_schema_page_is_up_to_date() -> None:
    """docs/schemas.md shows what every game's schemas() says (`make docs`)."""
    from gamelog.games.schema_docs import render

    assert (ROOT / "docs" / "schemas.md").read_text() == render(), "run `make docs`"
