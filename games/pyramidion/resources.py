"""Resource counts: a seat's stock, a boat's requirements, a location's pile.

A count is a plain mapping from resource to a positive number, kept sorted by
resource so that views and events come out the same way every time:

>>> stock = counts({"stone": 2, "camel": 1})
>>> stock
{'camel': 1, 'stone': 2}
>>> covers(stock, {"stone": 2}), covers(stock, {"stone": 3})
(True, False)
>>> minus(stock, {"stone": 2})
{'camel': 1}
>>> words({"camel": 2, "food": 1, "stone": 2, "worker": 1})
'2 camels, 1 food, 2 stones and 1 worker'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gamelog.games.protocol import RulesError, is_int
from gamelog.games.wording import and_list, counted

Counts = Mapping[str, int]

WILDCARD = "statue"
"""Page 7: "Die Ressource Statue kann als jede Art von Ressource genutzt werden"."""

_PLURALS = {"food": "food"}


def counts(raw: Mapping[str, int]) -> dict[str, int]:
    """The same counts, sorted, without zeros."""
    return {name: raw[name] for name in sorted(raw) if raw[name] > 0}


def plus(a: Counts, b: Counts) -> dict[str, int]:
    return counts({name: a.get(name, 0) + b.get(name, 0) for name in {*a, *b}})


def minus(a: Counts, b: Counts) -> dict[str, int]:
    """``a`` less ``b``; callers check ``covers(a, b)`` first."""
    return counts({name: a.get(name, 0) - b.get(name, 0) for name in {*a, *b}})


def covers(a: Counts, b: Counts) -> bool:
    return all(a.get(name, 0) >= number for name, number in b.items())


def total(a: Counts) -> int:
    return sum(a.values())


def tally(names: Iterable[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for name in names:
        found[name] = found.get(name, 0) + 1
    return counts(found)


def resource_word(name: str, number: int) -> str:
    plural = _PLURALS.get(name, name if name.endswith("s") else name + "s")
    return counted(number, name, plural)


def words(a: Counts) -> str:
    """``2 camels, 1 food and 1 worker``; ``nothing`` when empty."""
    return and_list(resource_word(name, number) for name, number in counts(a).items())


def checked_counts(
    value: Any, known: Iterable[str], what: str, refusal: type[RulesError]
) -> dict[str, int]:
    """Counts read from outside: a non-empty object of known resources, each
    a positive integer; anything else is refused with ``refusal``."""
    names = set(known)
    if not isinstance(value, Mapping) or not value:
        raise refusal("bad-resources", f"{what} is an object of resource counts, not empty")
    for name, number in value.items():
        if name not in names:
            raise refusal(
                "unknown-resource", f"{what}: {name!r} is not a resource; known: {sorted(names)}"
            )
        if not is_int(number) or number < 1:
            raise refusal(
                "bad-resources", f"{what}: the count of {name} must be a positive integer"
            )
    return counts(dict(value))
