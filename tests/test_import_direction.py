"""Imports run one way: from the edge to the centre (docs/design.md, "The house").

The service's rooms are layered, each importing only itself and the rooms
below it:

    rpc  ──►  live  ──►  usecases  ──►  index  ──►  storage  ──►  model

and the domain (``games``, ``replay``, ``tournaments``) imports nothing of the
service, the CLI, the web page or the generated gRPC code: a game's rules
import only ``gamelog.games``; tournament logic only itself and the games'
shared refusal. The web page talks to a server over gRPC and imports no
service code. Every import counts, at the top of a module or inside a
function.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {  # import name → folder
    "gamelog.games": "games",
    "gamelog.replay": "replay",
    "gamelog.tournaments": "tournaments",
    "gamelog.service": "service",
    "gamelog.cli": "cli",
    "gamelog.web": "web",
}
ROOMS = ("model", "storage", "index", "usecases", "live", "rpc")
"""The service's rooms, the centre first."""

DOMAIN_MAY_IMPORT = {
    "gamelog.games": ("gamelog.games",),
    "gamelog.tournaments": ("gamelog.tournaments", "gamelog.games.protocol"),
    "gamelog.replay": ("gamelog.replay", "gamelog.games", "gamelog.tournaments"),
}


def modules() -> Iterator[tuple[str, Path]]:
    """Every module of the project's packages: its import name and file."""
    for package, folder in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT / folder).with_suffix("")
            parts = [p for p in relative.parts if p != "__init__"]
            yield ".".join([package, *parts]), path


def imported(source: str, module: str) -> Iterator[tuple[int, str]]:
    """Every module ``source`` (the module ``module``) imports: line and name."""
    package = module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package up
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}" if base else alias.name


def room_of(name: str) -> int | None:
    """The rank of the service room a module belongs to (None: not in one)."""
    parts = name.split(".")
    if parts[:2] != ["gamelog", "service"] or len(parts) < 3:
        return None
    return ROOMS.index(parts[2]) if parts[2] in ROOMS else None


def wrong_arrow(module: str, target: str) -> str | None:
    """Why ``module`` may not import ``target``; None when it may."""
    if not target.startswith("gamelog."):
        return None
    for domain, allowed in DOMAIN_MAY_IMPORT.items():
        if module == domain or module.startswith(domain + "."):
            if any(target == a or target.startswith(a + ".") for a in allowed):
                return None
            return f"the domain ({domain}) imports only {', '.join(allowed)}"
    if module.startswith("gamelog.service"):
        if target.startswith(("gamelog.cli", "gamelog.web")):
            return "the service imports neither the CLI nor the web page"
        here, there = room_of(module), room_of(target)
        if target.startswith("gamelog.service.") and there is None:
            return f"{target} is in no room of the service"
        if here is not None and there is not None and there > here:
            return f"{ROOMS[here]} may not import {ROOMS[there]} (it is nearer the edge)"
        if here is None and target.startswith("gamelog.service"):
            return "the service's own __init__ only maps the rooms"
        return None
    if module.startswith("gamelog.web") and target.startswith("gamelog.service"):
        return "the web page talks to a server over gRPC, not to the service's code"
    return None


def wrong_arrows(module: str, source: str) -> list[str]:
    return [
        f"{module}:{line} imports {target}: {why}"
        for line, target in imported(source, module)
        if (why := wrong_arrow(module, target)) is not None
    ]


def test_every_import_runs_from_the_edge_to_the_centre() -> None:
    found = [
        arrow
        for module, path in modules()
        for arrow in wrong_arrows(module, path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_every_service_module_lives_in_a_room() -> None:
    loose = [path.name for path in (ROOT / "service").glob("*.py") if path.name != "__init__.py"]
    assert loose == []


@pytest.mark.parametrize(
    ("module", "line", "reason"),
    [
        (
            "gamelog.service.model.game",
            "from gamelog.service.storage.store import GameStore",
            "model may not import storage",
        ),
        (
            "gamelog.service.usecases.queries",
            "from gamelog.service.rpc.status import status_for",
            "usecases may not import rpc",
        ),
        (
            "gamelog.service.index.view",
            "    from gamelog.service.live import follow",  # inside a function
            "index may not import live",
        ),
        (
            "gamelog.games.panem.rules",
            "from gamelog.replay.record import seal",
            "the domain (gamelog.games) imports only gamelog.games",
        ),
        (
            "gamelog.replay.audit",
            "import gamelog.service.model.game",
            "the domain (gamelog.replay)",
        ),
        (
            "gamelog.tournaments.standings",
            "from gamelog.cli.common import echo",
            "the domain (gamelog.tournaments)",
        ),
        (
            "gamelog.web.app",
            "from gamelog.service.usecases.application import GameLog",
            "over gRPC",
        ),
    ],
)
def test_a_wrong_arrow_is_found(module: str, line: str, reason: str) -> None:
    source = f"def f():\n{line}\n" if line.startswith(" ") else f"{line}\n"
    (found,) = wrong_arrows(module, source)
    assert reason in found


def test_arrows_the_right_way_are_not_found() -> None:
    source = (
        "from gamelog.service.storage.store import GameStore\n"
        "from gamelog.service.model.game import Game\n"
        "from gamelog.replay.record import seal\n"
        "from . import listing\n"
    )
    assert wrong_arrows("gamelog.service.usecases.commands", source) == []
