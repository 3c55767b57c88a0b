"""The games gamelog knows: pure rules, one module or package per game.

``get_rules(name)`` finds a game by its id; ``all_rules()`` lists them.
Each game exposes ``RULES``, one object following ``protocol.GameType``: the
decider (``protocol.Rules``), its secrecy and its presentation at once.
Every game package has the same layout (docs/adding-a-game.md).
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from gamelog.games.protocol import GameType, InvalidOptions

# Each entry: the module that exposes RULES. A new game adds one line.
_GAME_MODULES: tuple[str, ...] = (
    "gamelog.games.three_too_many",
    "gamelog.games.freeform",
    "gamelog.games.carcassonne_hg",
    "gamelog.games.hadara",
    "gamelog.games.panem",
    "gamelog.games.pyramidion",
)


@functools.cache
def _registry() -> dict[str, GameType[Any]]:
    games = (importlib.import_module(module).RULES for module in _GAME_MODULES)
    return {rules.name: rules for rules in games}


def all_rules() -> list[GameType[Any]]:
    return list(_registry().values())


def get_rules(name: str) -> GameType[Any]:
    try:
        return _registry()[name]
    except (KeyError, TypeError):
        known = ", ".join(_registry())
        raise InvalidOptions("unknown-game", f"no game {name!r}; known games: {known}") from None
