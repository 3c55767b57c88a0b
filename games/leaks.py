"""Finding hidden components in what a viewer is sent.

A game names, through ``Rules.hidden_from(state, viewer)``, the ids of the
components the viewer may not know. ``find_leaks`` searches any JSON the viewer
receives (a view, redacted events, an export) for them: a string id anywhere,
an integer id inside a list or under a key that names one card or tile
(``card``, ``drawn_tile``, ``colony_id``; integers elsewhere, like ``tiles: 2``,
are counts and scores).

>>> find_leaks({"hand": [3, 17], "score": 17, "seen": "F07"}, {17, "F07"})
['$.hand[1] = 17', '$.seen = F07']
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

_ONE_COMPONENT = ("card", "tile", "lot", "tribute", "colony", "id")


def find_leaks(data: Any, hidden: Collection[str | int]) -> list[str]:
    leaks: list[str] = []
    hidden_set = set(hidden)
    if not hidden_set:
        return leaks

    def names_component(key: str) -> bool:
        return key.lower().endswith(_ONE_COMPONENT)

    def walk(value: Any, path: str, int_counts: bool) -> None:
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, str):
            if value in hidden_set:
                leaks.append(f"{path} = {value}")
        elif isinstance(value, int):
            if int_counts and value in hidden_set:
                leaks.append(f"{path} = {value}")
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and key in hidden_set:
                    leaks.append(f"{path} has key {key}")
                walk(item, f"{path}.{key}", isinstance(key, str) and names_component(key))
        elif isinstance(value, list | tuple):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]", True)

    walk(data, "$", False)
    return leaks
