"""``gamelog`` starts at once: a command imports what it needs when it runs.

``gamelog --version`` and ``gamelog --help`` import click and nothing heavy;
a command that calls a server imports gRPC, and never the service's own code,
eventsourcing or psycopg. Each case runs in a fresh interpreter, as a user's
shell does.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# Every case starts the gamelog command in a fresh interpreter.
pytestmark = pytest.mark.e2e

HEAVY = ("grpc", "eventsourcing", "rich", "psycopg", "starlette", "uvicorn", "segno")
SERVICE = ("gamelog.service", "gamelog.replay", "gamelog.web")


def imported_by(*args: str) -> list[str]:
    """The modules a ``gamelog ARGS`` run imported (without running a server call)."""
    code = (
        "import json, sys\n"
        f"sys.argv = ['gamelog', *{list(args)!r}]\n"
        "from gamelog.cli.main import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def heavy_in(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(m == n or m.startswith(n + ".") for m in modules))


@pytest.mark.parametrize("args", [["--version"], ["--help"]])
def test_version_and_help_import_nothing_heavy(args: list[str]) -> None:
    modules = imported_by(*args)
    assert heavy_in(modules, HEAVY + SERVICE) == []


@pytest.mark.parametrize("command", ["show", "play", "moves", "log", "list", "new", "undo"])
def test_a_command_that_calls_a_server_imports_no_service_code(command: str) -> None:
    modules = imported_by(command, "--help")
    assert heavy_in(modules, ("eventsourcing", "psycopg", "starlette", "uvicorn")) == []
    assert heavy_in(modules, ("gamelog.service",)) == []


def test_every_listed_command_loads() -> None:
    import click

    from gamelog.cli.main import COMMANDS, main

    ctx = click.Context(main)
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        assert isinstance(command, click.Command) and command.name in (name, name + "_")


def test_version_is_the_installed_package_version() -> None:
    from importlib.metadata import version

    from gamelog.cli.main import VERSION

    done = subprocess.run(
        [sys.executable, "-m", "gamelog.cli.main", "--version"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert version("gamelog") == VERSION
    assert done.stdout.strip() == f"gamelog, version {VERSION}"
