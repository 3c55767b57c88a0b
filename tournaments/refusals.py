"""The refusal every tournament function raises on input it cannot accept.

It is a :class:`~gamelog.games.protocol.Refusal`, like the games' own, so the
service maps it the same way: a machine-readable ``code`` and a sentence a
director understands.

>>> from gamelog.tournaments.tables import plan_tables
>>> try:
...     plan_tables(10, 4, 3)
... except Refusal as refusal:
...     print(refusal.code, "/", refusal.message)
bad-table-size / the smallest table (4) is larger than the largest (3)
"""

from __future__ import annotations

from gamelog.games.protocol import Refusal


class TournamentError(Refusal):
    """Settings, a roster, a seating or a result that cannot be used."""
