"""What a record may hold: seat names and tag pairs, checked alike wherever they come from.

A game created through the API and a game read from a record file must meet
the same limits, or an import becomes the way around them. Each check returns
what is wrong (a machine-readable code and a sentence), or None:

>>> seat_names_problem(["ann", "ben"]) is None
True
>>> seat_names_problem(["ann", "ANN"])
('duplicate-seat', "seat names 'ann' and 'ANN' differ only in case")
>>> seat_names_problem(["ann\\n"])[1].split(" must")[0]
"seat name 'ann\\\\n'"
>>> tags_problem({"Event": "Club night", "Round": "3"}) is None
True
>>> tags_problem({"Game": "Azul"})
'tag Game is set by gamelog itself (from the record); choose another name'

A refusal quotes what it refuses, within bounds (``quoted``): a 10,000-letter
name must not make a 10,000-letter refusal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

SEAT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
"""A seat name, matched whole (``fullmatch``: no trailing newline slips through)."""
TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
MAX_TAGS = 32
MAX_TAG_VALUE = 1024
RESERVED_TAGS = frozenset({"Game", "RulesVersion", "ComponentSet", "Players", "UndoPolicy"})
"""Tags every record file derives from the creation record itself."""


QUOTE_LIMIT = 40


def quoted(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``value``'s repr, cut to about ``limit`` characters where it is longer.

    >>> quoted("ann"), quoted("x" * 1000, 8)
    ("'ann'", "'xxxxxx… (1002 characters)")
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}… ({len(text)} characters)"


def seat_names_problem(seats: Sequence[Any]) -> tuple[str, str] | None:
    """Seat names are 1–32 of ``A-Z a-z 0-9 _ . -``, start with a letter or
    digit, and differ from each other even when case is ignored (``ann`` and
    ``ANN`` at one table would confuse every person reading the record)."""
    seen: dict[str, str] = {}
    for seat in seats:
        if not isinstance(seat, str) or not SEAT_NAME.fullmatch(seat):
            return (
                "bad-seat-name",
                f"seat name {quoted(seat)} must be 1–32 letters, digits, '_', '.' or '-', "
                "starting with a letter or digit",
            )
        folded = seat.casefold()
        if folded in seen:
            if seen[folded] == seat:
                return (
                    "duplicate-seat",
                    f"seat name {quoted(seat)} appears twice; every seat needs its own name",
                )
            return (
                "duplicate-seat",
                f"seat names {quoted(seen[folded])} and {quoted(seat)} differ only in case",
            )
        seen[folded] = seat
    return None


def tags_problem(tags: Any) -> str | None:
    """At most 32 tag pairs; names are letters, digits and ``_`` (up to 64,
    starting with a letter), values text up to 1024 characters; the names
    gamelog derives from the record itself are taken."""
    if not isinstance(tags, Mapping):
        return "tags are an object of name-value pairs"
    if len(tags) > MAX_TAGS:
        return f"at most {MAX_TAGS} tag pairs"
    for name, value in tags.items():
        if not isinstance(name, str) or not TAG_NAME.fullmatch(name):
            return (
                f"tag name {quoted(name)} must be 1–64 letters, digits or '_', "
                "starting with a letter"
            )
        if name in RESERVED_TAGS:
            return f"tag {name} is set by gamelog itself (from the record); choose another name"
        if not isinstance(value, str) or len(value) > MAX_TAG_VALUE:
            return f"tag {name} needs a text value of at most {MAX_TAG_VALUE} characters"
        if any(ch in value for ch in "\n\r\x00"):
            return f"tag {name} must be one line of text"
    return None
