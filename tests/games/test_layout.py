"""Every registered game has the same module layout and folds its events
through one table (docs/adding-a-game.md).

The layout is checked by module name; the table by playing: every event type
that a random game's set-up and moves emit has its entry in the game's
``evolve.EVOLVE``. A static look through the game's modules adds the event
types that random play rarely reaches (a bonus tile left over, a deck
declared empty): every ``{"type": "SomeEvent", ...}`` the package writes.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gamelog.games import all_rules
from gamelog.games.codec import decode, encode
from gamelog.games.playout import play_out
from gamelog.games.protocol import GameType

LAYOUT = (
    "state",
    "options",
    "rules",
    "evolve",
    "views",
    "notation",
    "text",
    "picture",
    "schemas",
)
"""The modules every game package has, besides ``__init__``."""

GAMES = {rules.name: rules for rules in all_rules()}
SEEDS = range(3)
MAX_MOVES = {"freeform": 30}
EVENT_NAME = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]+)+")
"""An event type is a fact named in CamelCase words (``CardsDrawn``)."""


def package_of(rules: GameType[Any]) -> str:
    return type(rules).__module__.rsplit(".", 1)[0]


def evolve_table(rules: GameType[Any]) -> Mapping[str, Any]:
    table: Mapping[str, Any] = importlib.import_module(f"{package_of(rules)}.evolve").EVOLVE
    return table


def written_event_types(package: ModuleType) -> set[str]:
    """Event types in the package's own dict displays ``{"type": "...", ...}``
    (the schemas are left out: they describe events, they do not write them)."""
    found: set[str] = set()
    folder = Path(package.__file__ or "").parent
    for path in folder.glob("*.py"):
        if path.stem == "schemas":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "type"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                    and EVENT_NAME.fullmatch(value.value)
                ):
                    found.add(value.value)
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_package_has_the_same_modules(name: str) -> None:
    package = package_of(GAMES[name])
    missing = [m for m in LAYOUT if importlib.util.find_spec(f"{package}.{m}") is None]
    assert not missing, f"{package} lacks {missing}"
    assert importlib.import_module(package).RULES is GAMES[name], "__init__ exports RULES"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_rules_fold_with_the_evolve_modules_table(name: str) -> None:
    evolve = importlib.import_module(f"{package_of(GAMES[name])}.evolve")
    assert callable(evolve.evolve)
    assert evolve.EVOLVE, "one table from event type to fold"
    assert all(callable(fold) for fold in evolve.EVOLVE.values())
    with pytest.raises(ValueError, match="unknown"):
        evolve.evolve(None, {"type": "NoSuchEventAnywhere"})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_event_a_random_game_emits_has_its_entry_in_the_table(name: str) -> None:
    rules = GAMES[name]
    emitted: set[str] = set()
    for players in sorted({rules.min_players, min(rules.max_players, 4)}):
        seats = tuple(f"s{i}" for i in range(players))
        for seed in SEEDS:
            line = play_out(rules, seats, seed=seed, max_moves=MAX_MOVES.get(name, 10_000))
            emitted |= {event["type"] for event in line.setup_events}
            emitted |= {event["type"] for _, _, events in line.moves for event in events}
    assert emitted, "a game emits events"
    assert emitted <= set(evolve_table(rules)), sorted(emitted - set(evolve_table(rules)))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_event_type_the_package_writes_has_its_entry_in_the_table(name: str) -> None:
    package = importlib.import_module(package_of(GAMES[name]))
    written = written_event_types(package)
    assert written, "the look through the package finds the events it writes"
    assert written <= set(evolve_table(GAMES[name])), sorted(
        written - set(evolve_table(GAMES[name]))
    )


@pytest.mark.parametrize(
    ("name", "old_home"),
    [
        ("three-too-many", "gamelog.games.three_too_many.rules"),
        ("freeform", "gamelog.games.freeform"),
    ],
)
def test_a_snapshot_written_before_the_layout_still_loads(name: str, old_home: str) -> None:
    rules = GAMES[name]
    line = play_out(rules, ("ann", "ben"), seed=1, max_moves=6)
    stored = encode(line.final_state)
    state_class = type(line.final_state)
    new_tag = f"{state_class.__module__}:{state_class.__qualname__}"
    old_tag = f"{old_home}:{state_class.__qualname__}"
    assert stored["~c"] == new_tag
    assert decode({**stored, "~c": old_tag}) == line.final_state
