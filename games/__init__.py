"""The games gamelog knows: pure rules, one module or package per game.

``get_rules(name)`` finds a game by its id; ``all_rules()`` lists them.
Each game exposes ``RULES``, an object following ``protocol.Rules``.
"""

from __future__ import annotations

import importlib
from typing import Any

from gamelog.games.protocol import InvalidOptions, Rules

# Each entry: the module that exposes RULES. A new game adds one line.
_GAME_MODULES: tuple[str, ...] = (
    "gamelog.games.three_too_many",
    "gamelog.games.freeform",
    "gamelog.games.carcassonne_hg",
    "gamelog.games.hadara",
    "gamelog.games.panem",
)


def all_rules() -> list[Rules[Any]]:
    return [importlib.import_module(name).RULES for name in _GAME_MODULES]


def get_rules(name: str) -> Rules[Any]:
    for rules in all_rules():
        if rules.name == name:
            return rules
    known = ", ".join(r.name for r in all_rules())
    raise InvalidOptions("unknown-game", f"no game {name!r}; known games: {known}")
