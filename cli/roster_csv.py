"""Players to register, read from a CSV file a director keeps (issue 31.5).

The file has a header row naming its columns: ``name`` (required), and
optionally ``club`` and ``rating`` (a whole number from 0 to 10000), in any
order, any case. Every row is checked before anything is sent, so a bad row
names its line and nothing is registered.

>>> players_from_csv("name,club,rating\\nAnn Smith,Oslo SK,1850\\nBen Jones,,\\n")
[{'name': 'Ann Smith', 'club': 'Oslo SK', 'rating': 1850}, {'name': 'Ben Jones'}]
>>> try:
...     players_from_csv("name,rating\\nAnn,strong\\n")
... except RosterError as error:
...     print(error)
line 2: rating 'strong' is not a whole number from 0 to 10000
"""

from __future__ import annotations

import csv
import io
from typing import Any

COLUMNS = ("name", "club", "rating")
MAX_NAME = 100
"""As registration allows (a name or a club of at most 100 characters)."""


class RosterError(ValueError):
    """A registration file that cannot be read as it stands: nothing is registered."""


def players_from_csv(text: str) -> list[dict[str, Any]]:
    """Each row's player: ``name``, and ``club`` and ``rating`` where given."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows:
        raise RosterError("the file is empty: it needs a header row (name, club, rating)")
    header = [column.strip().casefold() for column in rows[0]]
    unknown = [column for column in header if column not in COLUMNS]
    if unknown or "name" not in header or len(set(header)) != len(header):
        raise RosterError(
            f"line 1: the header names the columns name (required), club and rating, "
            f"each once; not {', '.join(rows[0])}"
        )
    players = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line
        if len(row) > len(header):
            raise RosterError(f"line {line}: {len(row)} cells, the header names {len(header)}")
        cells = dict(zip(header, (cell.strip() for cell in row), strict=False))
        players.append(_player(cells, line))
    if not players:
        raise RosterError("the file names no player")
    return players


def _player(cells: dict[str, str], line: int) -> dict[str, Any]:
    name = cells.get("name", "")
    if not name:
        raise RosterError(f"line {line}: the name is empty")
    if len(name) > MAX_NAME:
        raise RosterError(f"line {line}: the name is over {MAX_NAME} characters")
    player: dict[str, Any] = {"name": name}
    club = cells.get("club", "")
    if len(club) > MAX_NAME:
        raise RosterError(f"line {line}: the club is over {MAX_NAME} characters")
    if club:
        player["club"] = club
    rating = cells.get("rating", "")
    if rating:
        if not rating.isdigit() or not 0 <= int(rating) <= 10_000:
            raise RosterError(
                f"line {line}: rating {rating!r} is not a whole number from 0 to 10000"
            )
        player["rating"] = int(rating)
    return player
