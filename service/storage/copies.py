"""What the store hands out instead of what it keeps: copies a caller may own.

The store keeps each game and tournament in its aggregate cache, and each
stored event as the library's domain event. Neither may leave the store as
it is: a command that changed the cached aggregate, or a caller that kept a
reference into a stored event, would change what every later reader sees.
So it hands out

- ``working_copy``: a cached aggregate to run one command on, cheaply;
- ``event_record``: the plain record a stored event carries, with its time.

>>> from gamelog.service.model.game import Game
>>> game = object.__new__(Game)
>>> game.__dict__.update({"state": {"hands": {}}, "_pending_events": ["unsaved"]})
>>> copy = working_copy(game)
>>> copy.state is game.state, copy.pending_events, working_copy(game, pending=True).pending_events
(True, [], ['unsaved'])
"""

from __future__ import annotations

from typing import Any, TypeVar

from eventsourcing.domain import Aggregate

from gamelog.replay.record import Record

AggregateT = TypeVar("AggregateT", bound=Aggregate)


def working_copy(cached: AggregateT, pending: bool = False) -> AggregateT:
    """A cached game (or tournament) to run one command on. Shallow is
    enough: it replaces its containers and never changes them in place (see
    Game), so a refused command cannot spoil the cache. ``pending``: keep
    the events it has triggered and not saved (a save made again)."""
    # What copy.copy does for a plain object, without its reduce protocol.
    aggregate: AggregateT = object.__new__(type(cached))
    aggregate.__dict__.update(cached.__dict__)
    aggregate._pending_events = list(cached.pending_events) if pending else []
    return aggregate


def event_record(event: Any) -> Record:
    """The plain record a stored aggregate event carries, with its timestamp."""
    record = dict(event.record)
    record["timestamp"] = event.timestamp.isoformat()
    return record
