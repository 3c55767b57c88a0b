"""Small helpers for the words games print: lists, counts, places.

Every game's notation (``Rules.notate``) and text board (``render_text``) speak
to a person, so they share these rather than each writing its own:

>>> and_list(["10", "12", "40"])
'10, 12 and 40'
>>> counted(1, "card"), counted(6, "card")
('1 card', '6 cards')
>>> places([["ann", "ben"], ["cy"]])
[(1, ('ann', 'ben')), (3, ('cy',))]
>>> result = {"scores": {"ann": 61, "ben": 61, "cy": 40}, "ranking": [["ann", "ben"], ["cy"]]}
>>> standings_line(result)
'1. ann 61, 1. ben 61, 3. cy 40'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def and_list(items: Iterable[object]) -> str:
    """``a``, ``a and b``, ``a, b and c``; ``nothing`` for none."""
    words = [str(item) for item in items]
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} and {words[-1]}"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards`` (``plural`` for irregular nouns)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``21st``."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def places(ranking: Sequence[Sequence[str]]) -> list[tuple[int, tuple[str, ...]]]:
    """Standard competition ranking ("1224"): seats sharing a place share its
    number, and the next place skips as many numbers as seats shared it."""
    numbered: list[tuple[int, tuple[str, ...]]] = []
    place = 1
    for seats in ranking:
        numbered.append((place, tuple(seats)))
        place += len(seats)
    return numbered


def standings_line(result: Mapping[str, Any]) -> str:
    """A finished game's result in one line: place, seat and score, best first."""
    scores = result.get("scores", {})
    return ", ".join(
        f"{place}. {seat} {scores.get(seat, '')}".rstrip()
        for place, seats in places(result.get("ranking", []))
        for seat in seats
    )
