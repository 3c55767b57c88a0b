"""A game as text for reading and posting, in the manner of PGN.

Tag pairs first (the record's own and the game's metadata), then every stored
record as a numbered line in the game's notation, as the reader may see it,
then the result. The JSON record file stays the one format that imports; this
one is for people.

>>> print(text_export({"Game": "freeform", "Players": "ann,ben"},
...     [(0, "freeform game for ann, ben"), (1, "ann: say: e4")], None, redacted=False), end="")
[Game "freeform"]
[Players "ann,ben"]
[Result "*"]
<BLANKLINE>
0. freeform game for ann, ben
1. ann: say: e4
<BLANKLINE>
*
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games.wording import standings_line


def tag_pair(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def text_export(
    tags: Mapping[str, str],
    lines: Sequence[tuple[int, str]],
    result: Mapping[str, Any] | None,
    redacted: bool,
) -> str:
    """The text of one game: ``lines`` are (position, notation) in order;
    ``result`` the finished game's result, None while it runs."""
    outcome = standings_line(result) if result else "*"
    head = [tag_pair(name, str(value)) for name, value in tags.items()]
    head.append(tag_pair("Result", outcome))
    if redacted:
        head.append(tag_pair("Annotator", "hidden parts cut out for this reader"))
    body = [f"{position}. {line}" for position, line in lines]
    return "\n".join([*head, "", *body, "", outcome]) + "\n"
