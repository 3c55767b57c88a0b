"""Within one process, one writer per game and per tournament at a time.

Every load and every write of one game happens under that game's lock; a
tournament's commands under the tournament's. Across processes the store's
unique key on (aggregate, position) decides instead: of two writes of the
same position, one is refused.

The locks are a fixed set of stripes, so their memory stays bounded however
many games there are; two games on one stripe merely wait for each other.
A command on a game may take its tournament's lock (a table's result flows
in), and no tournament command ever takes a game's, so the two kinds never
wait for each other in a circle.

>>> from uuid import UUID
>>> locks = Locks()
>>> one, two = UUID(int=1), UUID(int=2)
>>> locks.game(one) is locks.game(one), locks.game(one) is locks.game(two)
(True, False)
"""

from __future__ import annotations

import threading
from uuid import UUID

STRIPES = 257


class Locks:
    """The striped locks of games and of tournaments."""

    def __init__(self, stripes: int = STRIPES) -> None:
        self._games = tuple(threading.RLock() for _ in range(stripes))
        self._tournaments = tuple(threading.RLock() for _ in range(stripes))

    def game(self, game_id: UUID) -> threading.RLock:
        return self._games[game_id.int % len(self._games)]

    def tournament(self, tournament_id: UUID) -> threading.RLock:
        return self._tournaments[tournament_id.int % len(self._tournaments)]
