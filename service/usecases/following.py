"""What live follow reads from the store: records after a position, a game's rules.

The streams themselves are served by ``live.fanout.Fanout`` (one per process,
on the server's event loop); this is its synchronous side, called from the
fan-out's reading threads. Word of every save in this process comes from the
store itself (``GameStore.on_saved``):

    >>> from gamelog.service.usecases.application import GameLog
    >>> app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    >>> saved = []
    >>> app.store.on_saved(lambda game_id, position: saved.append(position))
    >>> created = app.games.create_game("freeform", ["ann"])
    >>> saved
    [0]
    >>> [r["kind"] for r in app.following.records_after(created.game_id, 0)]
    ['created']
    >>> app.close()
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from gamelog.games.protocol import GameType
from gamelog.replay.record import Record
from gamelog.service.storage.store import GameStore


class Following:
    """The records a game's followers are sent, as the store holds them."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def records_after(self, game_id: UUID, from_position: int) -> list[Record]:
        """The stored records from ``from_position`` on (unredacted), none if
        there are none yet; at 0, refused if the game does not exist."""
        return self.store.records(game_id, from_position=from_position)

    def rules_of(self, game_id: UUID) -> GameType[Any]:
        return self.store.game(game_id).rules
