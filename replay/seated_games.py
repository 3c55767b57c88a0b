"""What a tournament puts into each game it seats: tags naming it, and the seed of the deal.

A tournament creates one game per table, and that game carries its place in
the tournament in its own hashed record, so that the game read alone (in a
record file, in another store) still says where it was played and cannot be
moved to another table unseen:

- its tags: ``Tournament`` (the tournament's id), ``Event``, ``Site`` and
  ``Date`` (the creation's name, site and dates, ``event_tags``),
  ``TournamentCreation`` (the creation record's hash), ``PlayerNames`` (a
  digest of its players' names, ``names_digest``) and, in a duplicate round,
  ``Duplicate`` (its end is held until the round's last table is over);
- its seed (``table_seed``), drawn from the tournament's seed, so that the
  revealed tournament seed accounts for every deal.

The tournament's own record (``tournament_record``) names each table's game
by the hash of its creation record; the tournament audit
(``tournament_audit``) checks these tags and seeds against it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final

from gamelog.replay.record import Record, json_hash

TOURNAMENT_TAG: Final = "Tournament"
"""The tag naming, in a table's game, the id of the tournament that seated it."""
DUPLICATE_TAG: Final = "Duplicate"
"""A table of a duplicate round: its end is held until the round's last table is over."""
CREATION_TAG: Final = "TournamentCreation"
"""The hash of the tournament's creation record: its name, site, dates,
points and tie-breaks, as the table was seated under them."""
NAMES_TAG: Final = "PlayerNames"
"""A digest of the display names of the table's players, seat by seat."""


def names_digest(names: Sequence[str]) -> str:
    """The ``PlayerNames`` tag of a table whose players are called ``names``,
    in seat order: a SHA-256 of their JSON list, so a table of 64 players
    with long names still fits one tag value.

    >>> names_digest(["Ann Smith", "Ben Jones"]) == names_digest(["Ben Jones", "Ann Smith"])
    False
    """
    return json_hash(list(names))


def event_tags(created: Record) -> dict[str, str]:
    """The tags a tournament's creation record gives each of its tables:
    the event's name, site and dates (as ``Event``, ``Site``, ``Date``; empty
    ones left out) and the creation's own hash."""
    tags = {"Event": created["name"], "Site": created["site"], "Date": created["dates"]}
    return {**{k: v for k, v in tags.items() if v}, CREATION_TAG: created["hash"]}


def table_seed(
    seed: bytes,
    round_number: int,
    table: int,
    size: int,
    duplicate: str,
    seats: Sequence[str] | None = None,
    withdrawn: int = 0,
) -> bytes:
    """The seed of a table's game, drawn from the tournament's seed, so the
    revealed tournament seed accounts for every deal. Each table has its own
    (label ``round R table T``); in a duplicate round every table of ``size``
    players shares one (``round R deal for K``). A game a seating override
    created (``seats``: its seats) has its own (``round R table T seated
    again: SEATS``), so it never deals the game it replaced again: a player
    moved away has seen that deal. A round paired again after ``withdrawn``
    withdrawals of it adds ``, paired again N`` to each label, for the same
    reason: its players may have looked at the withdrawn round's deals.

    >>> table_seed(b"s", 2, 1, 4, "none") == table_seed(b"s", 2, 1, 4, "none", withdrawn=1)
    False
    >>> table_seed(b"s", 1, 1, 4, "seed") == table_seed(b"s", 1, 2, 4, "seed")
    True
    >>> table_seed(b"s", 1, 1, 4, "none") == table_seed(b"s", 1, 2, 4, "none")
    False
    >>> table_seed(b"s", 1, 1, 2, "none") == table_seed(b"s", 1, 1, 2, "none", ["a", "b"])
    False
    """
    if duplicate == "seed":
        label = f"round {round_number} deal for {size}"
    elif seats is not None:
        label = f"round {round_number} table {table} seated again: {' '.join(seats)}"
    else:
        label = f"round {round_number} table {table}"
    if withdrawn:
        label += f", paired again {withdrawn}"
    return hashlib.sha256(seed + b"/" + label.encode()).digest()
