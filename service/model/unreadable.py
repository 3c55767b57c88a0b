"""A stored record the rules cannot fold: damage in the store, not a refusal.

Folding a game's records (or loading its snapshot) runs the game's rules over
what the store holds. If the rules choke on it (a missing key, a wrong type),
the store holds something malformed or corrupted, and the game cannot be
read: the service answers ``DATA_LOSS`` for that game and goes on serving the
others.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from gamelog.service.model.refusals import UNREADABLE


class UnreadableRecord(Exception):
    """A stored record (or snapshot) of a game cannot be folded: the store
    holds something malformed or corrupted at ``position``."""

    def __init__(self, position: int, error: BaseException) -> None:
        super().__init__(position, error)
        self.position = position
        self.error = error


@contextmanager
def reading(position: int) -> Iterator[None]:
    """Turn the rules choking on the stored record at ``position`` into
    ``UnreadableRecord``."""
    try:
        yield
    except UnreadableRecord:
        raise
    except (*UNREADABLE, LookupError, ArithmeticError) as error:
        raise UnreadableRecord(position, error) from error
