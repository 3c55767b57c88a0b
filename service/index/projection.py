"""Which stored events change the game index, and how.

``GameIndexProjection`` is an eventsourcing ``Projection``: it turns domain
events into changes of its view (``index_view.GameIndexView``, a tracking
recorder) and hands them over together with the ``Tracking`` of the last event
they cover, so the view stores both in one transaction. These events matter:

- ``Game.Created`` adds the game: type, seats, tags, parent and fork position,
  creation time and the creation record's hash;
- ``Game.Finished`` marks it finished, and when the game counts for
  ratings (``replay.rated_games``: finished, not a fork, its records audit
  clean) adds its result to the ratings' read model (``GameRated``). That
  needs the game's whole record, which the projection reads from the store
  (``records_of``, given by the follower): one audit per game, when it ends.

- ``Tournament.Created`` adds a tournament (name, game, site, dates, its
  creation's hash and the id it was created under); ``Tournament.Finished``
  marks it finished.

Moves do not touch the index (a game's last position is read from the events'
own key), so the projection costs a move nothing.

**The tournaments' hook.** A tournament's table is an ordinary game created
with its tags (Event, Round, Table, ...), so listings by event and round work
from the tags alone. The ``tournament_id`` column is filled from the
tournament's events that seat a round (``Tournament.RoundPaired`` and
``SeatingOverridden``): one ``TableAssigned`` per new table game, naming the
tournament by its id in this store (an imported tournament's tables are
listed under that, not under the id their ``Tournament`` tag names). The
tournament saves its tables' games in the same transaction as that event,
placed first, so a game's creation always comes first in the log. A round
the director withdraws (``Tournament.RoundWithdrawn``) marks its games
finished, without a result: they are never played, so they do not list as
running.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import singledispatchmethod
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from gamelog.replay.rated_games import rated_game
from gamelog.service.index.view import (
    GameAdded,
    GameFinished,
    GameIndexView,
    GameRated,
    IndexChange,
    IndexedGame,
    IndexedTournament,
    TableAssigned,
    TournamentAdded,
    TournamentFinished,
)
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import UNREADABLE, DataLoss, NotFound
from gamelog.service.model.tournament import Tournament
from gamelog.service.storage.topics import topics_of

log = logging.getLogger(__name__)
TOPICS: tuple[str, ...] = (
    *topics_of(Tournament.Created),
    *topics_of(Tournament.Finished),
    *topics_of(Game.Created),
    *topics_of(Game.Finished),
    *topics_of(Tournament.RoundPaired),
    *topics_of(Tournament.SeatingOverridden),
    *topics_of(Tournament.RoundWithdrawn),
)
"""The stored events the index reads (under every topic they were stored by)."""


def indexed_game(event: Game.Created, seq: int) -> IndexedGame:
    """The index's row for a game, from its creation event; raises if the
    stored record is malformed (the game is then left out of the index)."""
    record = event.record
    parent = record.get("parent")
    if parent is not None:
        parent = {
            "game_id": str(UUID(str(parent["game_id"]))),
            "position": int(parent["position"]),
            "hash": str(parent.get("hash", "")),
        }
    metadata = record.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise TypeError("metadata is not an object")
    seats = record["seats"]
    if not isinstance(seats, list):
        raise TypeError("seats is not a list")
    return IndexedGame(
        game_id=event.originator_id,
        seq=seq,
        game=str(record["game"]),
        rules_version=str(record["rules_version"]),
        seats=tuple(str(seat) for seat in seats),
        tags={str(key): str(value) for key, value in metadata.items()},
        parent=parent,
        created_at=event.timestamp.isoformat(),
        creation_hash=str(record["hash"]),
    )


def indexed_tournament(event: Tournament.Created, seq: int) -> IndexedTournament:
    """The index's row for a tournament, from its creation event."""
    record = event.record
    return IndexedTournament(
        tournament_id=event.originator_id,
        seq=seq,
        name=str(record["name"]),
        game=str(record["game"]),
        site=str(record.get("site") or ""),
        dates=str(record.get("dates") or ""),
        created_at=event.timestamp.isoformat(),
        creation_hash=str(record["hash"]),
        origin_id=str(event.origin_id or event.originator_id),
    )


class GameIndexProjection(Projection[GameIndexView]):
    """Game events → changes of the game index."""

    name = "game_index"
    topics = TOPICS
    records_of: Callable[[UUID], Sequence[dict[str, Any]]] | None = None
    """A game's full stored records (``GameStore.records``): without it no
    game is rated."""

    @singledispatchmethod
    def change_of(self, event: Any, notification_id: int) -> IndexChange | list[IndexChange] | None:
        """What ``event`` changes in the index (None: nothing)."""
        return None

    @change_of.register
    def _(self, event: Game.Created, notification_id: int) -> IndexChange | None:
        return GameAdded(indexed_game(event, notification_id))

    @change_of.register
    def _(self, event: Game.Finished, notification_id: int) -> list[IndexChange]:
        changes: list[IndexChange] = [GameFinished(event.originator_id)]
        rated = self._rated(event.originator_id)
        if rated is not None:
            changes.append(GameRated(rated, notification_id))
        return changes

    def _rated(self, game_id: UUID) -> Any:
        """The game's facts for ratings, or None: it does not count, or its
        stored records cannot be read (a damaged game is left unrated, and
        logged; a store that is away raises, and the stretch is read again)."""
        if self.records_of is None:
            return None
        try:
            return rated_game(str(game_id), self.records_of(game_id))
        except (DataLoss, NotFound, *UNREADABLE) as error:
            log.error("game %s left out of the ratings: %r", game_id, error)
            return None

    @change_of.register
    def _(self, event: Tournament.RoundPaired, notification_id: int) -> list[IndexChange]:
        tournament = str(event.originator_id)
        return [TableAssigned(UUID(game_id), tournament) for game_id in event.game_ids.values()]

    @change_of.register
    def _(self, event: Tournament.Created, notification_id: int) -> IndexChange | None:
        return TournamentAdded(indexed_tournament(event, notification_id))

    @change_of.register
    def _(self, event: Tournament.Finished, notification_id: int) -> IndexChange | None:
        return TournamentFinished(event.originator_id)

    @change_of.register
    def _(self, event: Tournament.RoundWithdrawn, notification_id: int) -> list[IndexChange]:
        return [GameFinished(UUID(game_id)) for game_id in event.game_ids]

    def changes_of(self, event: Any, notification_id: int) -> list[IndexChange]:
        change = self.change_of(event, notification_id)
        if change is None:
            return []
        return change if isinstance(change, list) else [change]

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        """The library's entry point: one event, one transaction."""
        self.view.record(self.changes_of(domain_event, tracking.notification_id), tracking)

    def process_events(
        self,
        events: Sequence[tuple[Any, Tracking]],
        up_to: Tracking,
        previous: int,
    ) -> None:
        """A stretch of the log in one transaction: the changes of ``events``,
        and ``up_to`` as the new tracking position, provided the index was at
        ``previous`` (else ``IndexMoved``, and nothing is stored)."""
        changes = []
        for event, tracking in events:
            try:
                changes += self.changes_of(event, tracking.notification_id)
            except UNREADABLE as error:  # a damaged record must not stop the index
                log.error("game %s left out of the index: %r", event.originator_id, error)
                continue
        self.view.record(changes, up_to, previous=previous)
