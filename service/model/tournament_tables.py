"""Which tournament in this store a game may be a table of, as its creation says.

A tournament creates its tables' games, and the id of that tournament here is
kept beside each table's creation record (``Game.Created.tournament_id``: never
hashed, never exported, since an imported tournament gets a new id here while
its tables' hashed ``Tournament`` tag goes on naming the id it was created
under). That stored field says one of three things:

- a tournament's id: the tournament here that created the game;
- ``""``: no tournament here created it (a plain game, a fork, an imported
  record file), whatever its tags say;
- ``None``: the game was stored before the field existed; its ``Tournament``
  tag is then taken at its word, as it was when it was stored.

``tournament_of`` turns that into the one answer the service works with: a
tournament id, or None. Either way only the tournament itself can tell
whether the game is one of its tables (``Tournament.table_of``): a tag grants
nothing.

>>> tournament_of({}, "00000000-0000-0000-0000-000000000002")
UUID('00000000-0000-0000-0000-000000000002')
>>> tournament_of({"metadata": {"Tournament": "00000000-0000-0000-0000-000000000001"}}, "")
>>> tournament_of({"metadata": {"Tournament": "00000000-0000-0000-0000-000000000001"}}, None)
UUID('00000000-0000-0000-0000-000000000001')
>>> tournament_of({"metadata": {"Tournament": "elsewhere"}}, None) is None
True
"""

from __future__ import annotations

from uuid import UUID

from gamelog.replay.record import Record
from gamelog.replay.seated_games import TOURNAMENT_TAG


def tournament_of(record: Record, stored_tournament_id: str | None) -> UUID | None:
    """The tournament here whose table the game created by ``record`` may be,
    from the ``tournament_id`` stored beside its creation (see above)."""
    named = stored_tournament_id
    if named is None:
        named = (record.get("metadata") or {}).get(TOURNAMENT_TAG)
    if not isinstance(named, str) or not named:
        return None
    try:
        return UUID(named)
    except ValueError:
        return None
