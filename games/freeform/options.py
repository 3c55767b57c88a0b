"""Creation options: an optional title saying what game is recorded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gamelog.games.protocol import JSON, InvalidOptions, Options, check_table

COMPONENT_SET = "freeform/none"
PLAYERS = (1, 16)
"""The fewest and most seats a freeform game takes."""


def normalize(options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
    """The options stored in the record: the title (empty when none is given).

    >>> normalize({"title": "Azul"}, ["ann", "ben"])
    {'component_set': 'freeform/none', 'title': 'Azul'}
    """
    check_table("freeform", options, frozenset({"component_set", "title"}), seats, PLAYERS)
    title = options.get("title", "")
    if not isinstance(title, str):
        raise InvalidOptions("bad-option", "title must be a string")
    if options.get("component_set", COMPONENT_SET) != COMPONENT_SET:
        raise InvalidOptions(
            "bad-option", f"freeform has no components: component_set is {COMPONENT_SET}"
        )
    return {"component_set": COMPONENT_SET, "title": title}
