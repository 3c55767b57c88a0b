"""The game index beside the store's events: its storage chosen by the store's.

``open_index`` builds the index for a ``GameStore``: its view in the same
database as the events (SQLite, PostgreSQL, or memory), the projection that
feeds it, and the follower that brings it up to the log, following it in the
background unless the store's environment says ``INDEX_FOLLOW=n`` (as
``gamelog reindex`` does: it rebuilds the index and leaves).
"""

from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresFactory
from eventsourcing.sqlite import SQLiteFactory
from eventsourcing.utils import strtobool

from gamelog.service.index.follower import IndexFollower
from gamelog.service.index.postgres import PostgresGameIndexView
from gamelog.service.index.projection import GameIndexProjection
from gamelog.service.index.sqlite import MemoryGameIndexView, SQLiteGameIndexView
from gamelog.service.index.view import GameIndexView
from gamelog.service.storage.store import GameStore

INDEX_FOLLOW = "INDEX_FOLLOW"
"""Environment setting: 'n' keeps the index from following the log in the
background (it still catches up on every read)."""


def open_game_index(store: GameStore) -> GameIndexView:
    """The game index's view beside ``store``'s events, its tables created if need be."""
    factory: Any = store.factory
    events_table = getattr(store.recorder, "events_table_name", "stored_events")
    view: GameIndexView
    if isinstance(factory, SQLiteFactory):
        view = SQLiteGameIndexView(factory.datastore, store.name, events_table)
    elif isinstance(factory, PostgresFactory):
        view = PostgresGameIndexView(factory.datastore, store.name, events_table)
    else:
        view = MemoryGameIndexView(store.recorder, store.name)
    view.create_table()  # type: ignore[attr-defined]
    return view


def open_index(store: GameStore) -> IndexFollower:
    """The game index of ``store``, following its log unless told not to."""
    index = IndexFollower(store, GameIndexProjection(open_game_index(store)))
    if strtobool(store.env.get(INDEX_FOLLOW, "y")):
        index.start()
    return index
