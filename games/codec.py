"""Turning game states into JSON and back, for snapshots.

Game states are trees of frozen dataclasses, tuples, frozensets, dicts, enums
and JSON scalars. ``encode`` tags each container with its kind so that
``decode`` rebuilds an equal tree:

>>> from gamelog.games.protocol import Result
>>> state = (1, frozenset({"a"}), {"x": (2, 3)})
>>> decode(encode(state)) == state
True

Only classes defined under ``gamelog.games`` are rebuilt, so a stored
snapshot can never name an arbitrary class to instantiate.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
from typing import Any

_ALLOWED_PREFIX = "gamelog.games."


def encode(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return {"~e": _qualname(type(value)), "v": value.value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"~c": _qualname(type(value)), "f": fields}
    if isinstance(value, tuple):
        return {"~t": [encode(item) for item in value]}
    if isinstance(value, list):
        return [encode(item) for item in value]
    if isinstance(value, frozenset | set):
        items = [encode(item) for item in value]
        items.sort(key=repr)
        return {"~s": items, "frozen": isinstance(value, frozenset)}
    if isinstance(value, dict):
        if all(isinstance(key, str) and not key.startswith("~") for key in value):
            return {key: encode(item) for key, item in value.items()}
        return {"~d": [[encode(key), encode(item)] for key, item in value.items()]}
    raise TypeError(f"cannot encode {type(value).__name__} in a game state")


def decode(data: Any) -> Any:
    if isinstance(data, list):
        return [decode(item) for item in data]
    if not isinstance(data, dict):
        return data
    if "~t" in data:
        return tuple(decode(item) for item in data["~t"])
    if "~s" in data:
        items = (decode(item) for item in data["~s"])
        return frozenset(items) if data.get("frozen", True) else set(items)
    if "~d" in data:
        return {decode(key): decode(item) for key, item in data["~d"]}
    if "~c" in data:
        cls = _resolve(data["~c"])
        return cls(**{name: decode(item) for name, item in data["f"].items()})
    if "~e" in data:
        return _resolve(data["~e"])(data["v"])
    return {key: decode(item) for key, item in data.items()}


def _qualname(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _resolve(name: str) -> Any:
    module_name, _, qualname = name.partition(":")
    if not module_name.startswith(_ALLOWED_PREFIX):
        raise ValueError(f"refusing to rebuild {name!r}: not a game state class")
    obj: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj
