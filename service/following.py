"""What live follow needs from the store: records after a position, a game's
rules, and word of every save in this process.

The streams themselves are served by ``fanout.Fanout`` (one per process, on the
server's event loop); this mixin is its synchronous side, called from the
fan-out's executor threads and from the threads that save:

    >>> from gamelog.service.app import GameLog
    >>> app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    >>> saved = []
    >>> app.on_saved(lambda game_id, position: saved.append(position))
    >>> created = app.create_game("freeform", ["ann"])
    >>> saved
    [0]
    >>> [r["kind"] for r in app.records_after(created.game_id, 0)]
    ['created']
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from gamelog.games.protocol import Rules
from gamelog.replay.record import Record
from gamelog.service.game import Game
from gamelog.service.store import GameStore

log = logging.getLogger(__name__)

SaveListener = Callable[[UUID, int], None]
"""Called with a game's id and its last stored position, in the saving thread,
right after the transaction committed."""


class Following(GameStore):
    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        self._save_listeners: list[SaveListener] = []

    def on_saved(self, listener: SaveListener) -> None:
        """Call ``listener`` after every save of a game by this process."""
        self._save_listeners.append(listener)

    def _saved(self, aggregates: tuple[Aggregate, ...]) -> None:
        super()._saved(aggregates)
        for aggregate in aggregates:
            if isinstance(aggregate, Game):
                for listener in self._save_listeners:
                    # The save is committed: a listener's failure must not
                    # turn it into a failed (and then retried) command.
                    try:
                        listener(aggregate.id, aggregate.position)
                    except Exception:
                        log.exception("a save listener failed for game %s", aggregate.id)

    def records_after(self, game_id: UUID, from_position: int) -> list[Record]:
        """The stored records from ``from_position`` on (unredacted), none if
        there are none yet; at 0, refused if the game does not exist."""
        return self.records(game_id, from_position=from_position)

    def rules_of(self, game_id: UUID) -> Rules[Any]:
        return self._game(game_id).rules
