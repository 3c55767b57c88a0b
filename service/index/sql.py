"""The game index in SQL, and in SQLite: in the events' own database.

Three tables, named alike in both databases:

- ``gamelog_index``: one row per game, keyed by its id (32 hex digits, so a
  prefix is a range of the key), with ``seq`` (the notification id of its
  creation) giving the listing order, and an index per filter: game type,
  status, tournament, parent, creation hash.
- ``gamelog_index_tags`` (key, value, seq) and ``gamelog_index_seats`` (seat,
  seq): a listing filtered by a tag or a player walks one of these keys
  newest first and stops after ``limit`` games.
- ``gamelog_index_tracking``: eventsourcing's tracking table (one row: the
  notification id up to which the index is complete), written in the same
  transaction as the rows.

A game's last position is not stored: it is the highest version of its events,
one lookup in the events table's primary key, so that a move never has to
touch the index.

The SQL is written once, with ``?`` placeholders (``index_postgres`` puts in
PostgreSQL's ``%s``). Each database adds how it takes the lock that lets only
one writer apply a stretch of the log at a time, and how far the log is
settled (for PostgreSQL, see ``index_postgres``).
"""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Tracking
from eventsourcing.sqlite import (
    SQLiteCursor,
    SQLiteDatastore,
    SQLiteTrackingRecorder,
    SQLiteTransaction,
)

from gamelog.service.index.tournament_sql import (
    TOURNAMENT_COLUMNS,
    TOURNAMENT_TABLES,
    SQLTournamentRows,
)
from gamelog.service.index.view import (
    MAX_TREE_DEPTH,
    GameAdded,
    GameFilter,
    GameFinished,
    GameIndexView,
    GameRated,
    IndexChange,
    IndexedGame,
    IndexMoved,
    TableAssigned,
    TournamentAdded,
    TournamentFinished,
)
from gamelog.tournaments.ratings import RatedGame, RatingFilter

TRACKING_TABLE = "gamelog_index_tracking"
REBUILT = ":rebuilt"
"""What a rebuilt index's tracking name adds to the index's own."""
CHUNK = 500
"""Ids per ``IN (...)`` list."""

RATED_COLUMNS = "game_id, seq, game, finished_at, event, tournament, places, creation_hash"

# The tables: {index}, {tags}, {seats}, {tracking}, {events} are the names,
# {key} the type of a hex id (PostgreSQL compares it byte by byte).
TABLES = (
    "CREATE TABLE IF NOT EXISTS {index} ("
    " game_id {key} PRIMARY KEY,"
    " seq BIGINT NOT NULL UNIQUE,"
    " game TEXT NOT NULL,"
    " rules_version TEXT NOT NULL,"
    " finished BOOLEAN NOT NULL DEFAULT FALSE,"
    " seats TEXT NOT NULL,"
    " tags TEXT NOT NULL,"
    " parent_game_id {key},"
    " parent_json TEXT,"
    " tournament_id TEXT NOT NULL DEFAULT '',"
    " created_at TEXT NOT NULL,"
    " creation_hash TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS gamelog_index_by_game ON {index} (game, seq)",
    "CREATE INDEX IF NOT EXISTS gamelog_index_by_status ON {index} (finished, seq)",
    "CREATE INDEX IF NOT EXISTS gamelog_index_by_tournament ON {index} (tournament_id, seq)",
    "CREATE INDEX IF NOT EXISTS gamelog_index_by_parent ON {index} (parent_game_id, seq)",
    "CREATE INDEX IF NOT EXISTS gamelog_index_by_creation_hash ON {index} (creation_hash)",
    "CREATE TABLE IF NOT EXISTS {tags} ("
    " key TEXT NOT NULL, value TEXT NOT NULL, seq BIGINT NOT NULL,"
    " PRIMARY KEY (key, value, seq))",
    # The clocks' sweep: every game with a tag, whatever its value.
    "CREATE INDEX IF NOT EXISTS gamelog_index_tags_by_key ON {tags} (key, seq)",
    "CREATE TABLE IF NOT EXISTS {seats} ("
    " seat TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (seat, seq))",
    # The ratings' read model: the finished games that count, in the order they ended.
    "CREATE TABLE IF NOT EXISTS {rated} ("
    " game_id {key} PRIMARY KEY, seq BIGINT NOT NULL, game TEXT NOT NULL,"
    " finished_at TEXT NOT NULL, event TEXT NOT NULL, tournament TEXT NOT NULL,"
    " places TEXT NOT NULL, creation_hash TEXT NOT NULL)",
    *TOURNAMENT_TABLES,
)
COLUMNS = (
    "game_id, seq, game, rules_version, finished, seats, tags, parent_game_id,"
    " parent_json, tournament_id, created_at, creation_hash"
)
INDEX_TABLES = {
    "index": COLUMNS,
    "tags": "key, value, seq",
    "seats": "seat, seq",
    "rated": RATED_COLUMNS,
    "tournaments": TOURNAMENT_COLUMNS,
}
"""Every table of the index and its columns (what a rebuild copies)."""


def _indexed(row: Mapping[str, Any]) -> IndexedGame:
    parent = row["parent_json"]
    return IndexedGame(
        game_id=UUID(hex=row["game_id"]),
        seq=int(row["seq"]),
        game=row["game"],
        rules_version=row["rules_version"],
        seats=tuple(json.loads(row["seats"])),
        tags=json.loads(row["tags"]),
        parent=json.loads(parent) if parent else None,
        created_at=row["created_at"],
        creation_hash=row["creation_hash"],
        finished=bool(row["finished"]),
        tournament_id=row["tournament_id"],
    )


def _chunks(items: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]


class SQLGameIndex(SQLTournamentRows, GameIndexView):
    """The queries both databases share."""

    names: dict[str, str]

    # -- what each database provides ----------------------------------------------

    def _sql(self, text: str) -> str:
        """``text`` with the table names and this database's placeholders."""
        return text.format(**self.names)

    def _rows(self, text: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _writing(self) -> AbstractContextManager[Any]:
        """A write transaction that holds the index's writer lock; yields a cursor."""
        raise NotImplementedError

    def _last_version_sql(self) -> str:
        raise NotImplementedError

    # -- writing -------------------------------------------------------------------

    def record(
        self, changes: Sequence[IndexChange], tracking: Tracking, previous: int | None = None
    ) -> None:
        with self._writing() as cursor:
            if previous is not None:
                current = self._max_tracking_id(self.upstream, cursor) or 0  # type: ignore[attr-defined]
                if current != previous:
                    raise IndexMoved(f"the index is at {current}, not {previous}")
            for change in changes:
                self._apply(cursor, change)
            self._insert_tracking(cursor, tracking)  # type: ignore[attr-defined]

    def _apply(self, cursor: Any, change: IndexChange) -> None:
        if isinstance(change, GameAdded):
            game = change.game
            cursor.execute(
                self._sql(f"INSERT INTO {{index}} ({COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"),
                (
                    game.game_id.hex,
                    game.seq,
                    game.game,
                    game.rules_version,
                    game.finished,
                    json.dumps(list(game.seats)),
                    json.dumps(dict(game.tags), sort_keys=True),
                    game.parent_game_id.hex if game.parent_game_id else None,
                    json.dumps(game.parent, sort_keys=True) if game.parent else None,
                    game.tournament_id,
                    game.created_at,
                    game.creation_hash,
                ),
            )
            insert_tag = self._sql(
                "INSERT INTO {tags} (key, value, seq) VALUES (?,?,?) ON CONFLICT DO NOTHING"
            )
            for key, value in game.tags.items():
                cursor.execute(insert_tag, (key, value, game.seq))
            insert_seat = self._sql(
                "INSERT INTO {seats} (seat, seq) VALUES (?,?) ON CONFLICT DO NOTHING"
            )
            for seat in game.seats:
                cursor.execute(insert_seat, (seat, game.seq))
        elif isinstance(change, GameFinished):
            cursor.execute(
                self._sql("UPDATE {index} SET finished = ? WHERE game_id = ?"),
                (True, change.game_id.hex),
            )
        elif isinstance(change, TableAssigned):
            cursor.execute(
                self._sql("UPDATE {index} SET tournament_id = ? WHERE game_id = ?"),
                (change.tournament_id, change.game_id.hex),
            )
        elif isinstance(change, (TournamentAdded, TournamentFinished)):
            self._apply_tournament(cursor, change)
        elif isinstance(change, GameRated):
            rated = change.rated
            cursor.execute(
                self._sql(
                    f"INSERT INTO {{rated}} ({RATED_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)"
                    " ON CONFLICT DO NOTHING"
                ),
                (
                    UUID(rated.game_id).hex,
                    change.seq,
                    rated.game,
                    rated.finished_at,
                    rated.event,
                    rated.tournament,
                    json.dumps([list(place) for place in rated.places]),
                    rated.creation_hash,
                ),
            )

    def beside(self) -> SQLGameIndex:
        rebuilt = copy.copy(self)
        rebuilt.upstream = f"{self.upstream}{REBUILT}"
        rebuilt.names = {
            **self.names,
            **{table: self._beside_name(table) for table in INDEX_TABLES},
        }
        rebuilt.drop()
        with rebuilt._writing() as cursor:
            # The tables alone: the rebuilt rows are copied into the index in use.
            for statement in TABLES:
                if statement.startswith("CREATE TABLE"):
                    cursor.execute(rebuilt._sql(statement))
        return rebuilt

    def _beside_name(self, table: str) -> str:
        """The name of ``table``'s twin for a rebuild."""
        name = self.names[table]
        return f'{name[:-1]}_rebuilt"' if name.endswith('"') else f"{name}_rebuilt"

    def take_over(self, rebuilt: GameIndexView) -> None:
        assert isinstance(rebuilt, SQLGameIndex)
        position = rebuilt.position()
        with self._writing() as cursor:
            for table, names in INDEX_TABLES.items():
                cursor.execute(self._sql(f"DELETE FROM {{{table}}}"))
                cursor.execute(
                    self._sql(
                        f"INSERT INTO {{{table}}} ({names}) SELECT {names}"
                        f" FROM {rebuilt.names[table]}"
                    )
                )
            cursor.execute(
                self._sql("DELETE FROM {tracking} WHERE application_name = ?"), (self.upstream,)
            )
            cursor.execute(
                self._sql(
                    "INSERT INTO {tracking} (application_name, notification_id) VALUES (?, ?)"
                ),
                (self.upstream, position),
            )

    def drop(self) -> None:
        if not self.upstream.endswith(REBUILT):
            raise ValueError("only an index made beside another is dropped")
        with self._writing() as cursor:
            for table in INDEX_TABLES:
                cursor.execute(self._sql(f"DROP TABLE IF EXISTS {{{table}}}"))
            cursor.execute(
                self._sql("DELETE FROM {tracking} WHERE application_name = ?"), (self.upstream,)
            )

    # -- answering ---------------------------------------------------------------------

    def games(
        self, filters: GameFilter, limit: int, before_seq: int | None = None
    ) -> list[IndexedGame]:
        # The listing walks one key newest first: a tag's, a seat's, or the
        # index's own; the other conditions are checked on the rows it meets.
        # (CROSS JOIN fixes that order in SQLite; PostgreSQL plans as it sees fit.)
        tag_pairs = filters.tag_pairs()
        where: list[str] = []
        params: list[Any] = []
        player_done = False
        if tag_pairs:
            key, value = tag_pairs.pop(0)
            source, order = "{tags} d CROSS JOIN {index} g", "d.seq"
            where += ["d.key = ?", "d.value = ?", "g.seq = d.seq"]
            params += [key, value]
        elif filters.player:
            source, order = "{seats} d CROSS JOIN {index} g", "d.seq"
            where += ["d.seat = ?", "g.seq = d.seq"]
            params.append(filters.player)
            player_done = True
        else:
            source, order = "{index} g", "g.seq"
        for key, value in tag_pairs:
            where.append(
                "EXISTS (SELECT 1 FROM {tags} t WHERE t.key = ? AND t.value = ? AND t.seq = g.seq)"
            )
            params += [key, value]
        if filters.player and not player_done:
            where.append("EXISTS (SELECT 1 FROM {seats} s WHERE s.seat = ? AND s.seq = g.seq)")
            params.append(filters.player)
        if filters.game:
            where.append("g.game = ?")
            params.append(filters.game)
        if filters.status:
            where.append("g.finished = ?")
            params.append(filters.status == "finished")
        if filters.tournament_id:
            where.append("g.tournament_id = ?")
            params.append(filters.tournament_id)
        if filters.parent_game_id is not None:
            where.append("g.parent_game_id = ?")
            params.append(filters.parent_game_id.hex)
        if before_seq is not None:
            where.append(f"{order} < ?")
            params.append(before_seq)
        condition = f"WHERE {' AND '.join(where)}" if where else ""
        columns = ", ".join(f"g.{c.strip()}" for c in COLUMNS.split(","))
        text = f"SELECT {columns} FROM {source} {condition} ORDER BY {order} DESC LIMIT ?"
        return [_indexed(row) for row in self._rows(text, [*params, limit])]

    def get(self, game_id: UUID) -> IndexedGame | None:
        rows = self._rows(f"SELECT {COLUMNS} FROM {{index}} WHERE game_id = ?", [game_id.hex])
        return _indexed(rows[0]) if rows else None

    def tree_of(self, game_id: UUID) -> list[IndexedGame]:
        up = self._rows(
            "WITH RECURSIVE up(game_id, parent_game_id, depth) AS ("
            " SELECT game_id, parent_game_id, 0 FROM {index} WHERE game_id = ?"
            " UNION ALL"
            " SELECT g.game_id, g.parent_game_id, up.depth + 1"
            " FROM {index} g JOIN up ON g.game_id = up.parent_game_id WHERE up.depth < ?)"
            " SELECT game_id FROM up ORDER BY depth DESC LIMIT 1",
            [game_id.hex, MAX_TREE_DEPTH],
        )
        if not up:
            return []
        rows = self._rows(
            "WITH RECURSIVE down(game_id, depth) AS ("
            " SELECT game_id, 0 FROM {index} WHERE game_id = ?"
            " UNION ALL"
            " SELECT g.game_id, down.depth + 1"
            " FROM {index} g JOIN down ON g.parent_game_id = down.game_id"
            " WHERE down.depth < ?)"
            f" SELECT {', '.join(f'g.{c.strip()}' for c in COLUMNS.split(','))}"
            " FROM {index} g JOIN down ON g.game_id = down.game_id ORDER BY g.seq",
            [up[0]["game_id"], MAX_TREE_DEPTH],
        )
        return [_indexed(row) for row in rows]

    def ids_with_prefix(self, hex_prefix: str, limit: int) -> list[UUID]:
        rows = self._rows(
            "SELECT game_id FROM {index} WHERE game_id >= ? AND game_id < ?"
            " ORDER BY game_id LIMIT ?",
            [hex_prefix, hex_prefix + "g", limit],
        )
        return [UUID(hex=row["game_id"]) for row in rows]

    def count_with_prefix(self, hex_prefix: str) -> int:
        rows = self._rows(
            "SELECT COUNT(*) AS n FROM {index} WHERE game_id >= ? AND game_id < ?",
            [hex_prefix, hex_prefix + "g"],
        )
        return int(rows[0]["n"])

    def ids_with_creation_hash(self, creation_hash: str) -> list[UUID]:
        rows = self._rows(
            "SELECT game_id FROM {index} WHERE creation_hash = ? ORDER BY seq", [creation_hash]
        )
        return [UUID(hex=row["game_id"]) for row in rows]

    def last_positions(self, game_ids: Sequence[UUID]) -> dict[UUID, int]:
        positions: dict[UUID, int] = {}
        for chunk in _chunks(list(game_ids)):
            marks = ",".join("?" * len(chunk))
            rows = self._rows(
                f"SELECT g.game_id, ({self._last_version_sql()}) AS version"
                f" FROM {{index}} g WHERE g.game_id IN ({marks})",
                [gid.hex for gid in chunk],
            )
            for row in rows:
                if row["version"] is not None:
                    positions[UUID(hex=row["game_id"])] = int(row["version"]) - 1
        return positions

    def running_with_tag(self, key: str, limit: int, after_seq: int = 0) -> list[tuple[UUID, int]]:
        rows = self._rows(
            "SELECT g.game_id, g.seq FROM {tags} t CROSS JOIN {index} g"
            " WHERE t.key = ? AND t.seq > ? AND g.seq = t.seq AND g.finished = ?"
            " ORDER BY t.seq LIMIT ?",
            [key, after_seq, False, limit],
        )
        return [(UUID(hex=row["game_id"]), int(row["seq"])) for row in rows]

    def count(self) -> int:
        return int(self._rows("SELECT COUNT(*) AS n FROM {index}")[0]["n"])

    def rated_games(self, wanted: RatingFilter) -> list[RatedGame]:
        # The filter is applied here, in one place for every store: the rows
        # are small, and a rating needs every game of its type up to the end.
        where, params = ("WHERE game = ?", [wanted.game]) if wanted.game else ("", [])
        rows = self._rows(f"SELECT {RATED_COLUMNS} FROM {{rated}} {where} ORDER BY seq", params)
        games = (
            RatedGame(
                game_id=str(UUID(hex=row["game_id"])),
                game=row["game"],
                finished_at=row["finished_at"],
                event=row["event"],
                tournament=row["tournament"],
                places=tuple(tuple(place) for place in json.loads(row["places"])),
                creation_hash=row["creation_hash"],
            )
            for row in rows
        )
        return [g for g in games if wanted.admits(g)]

    def everything(self) -> list[IndexedGame]:
        rows = self._rows(f"SELECT {COLUMNS} FROM {{index}} ORDER BY seq")
        return [_indexed(row) for row in rows]


# -- SQLite --------------------------------------------------------------------------


class _ImmediateTransaction(SQLiteTransaction):
    """eventsourcing's SQLite transaction, begun IMMEDIATE: it takes the
    database's write lock at once, so what it reads first (the tracking
    position) cannot change before it writes."""

    def __enter__(self) -> SQLiteCursor:
        cursor = self.connection.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        return cursor


class SQLiteGameIndexView(SQLGameIndex, SQLiteTrackingRecorder):
    """The index in the SQLite file that holds the events.

    SQLite runs one write transaction at a time, and a notification's id is
    taken inside it, so ids commit in order: the log is settled up to the
    largest id committed."""

    def __init__(
        self, datastore: SQLiteDatastore, upstream: str, events_table: str = "stored_events"
    ) -> None:
        self.upstream = upstream
        self.names = {
            "index": "gamelog_index",
            "tags": "gamelog_index_tags",
            "seats": "gamelog_index_seats",
            "tournaments": "gamelog_index_tournaments",
            "rated": "gamelog_index_rated",
            "tracking": TRACKING_TABLE,
            "events": events_table,
            "key": "TEXT",
        }
        super().__init__(datastore)
        # The library's statements, on a tracking table of the index's own (the
        # library names it "tracking", one per database file).
        self.insert_tracking_statement = (
            f"INSERT INTO {TRACKING_TABLE} "
            "VALUES (:application_name, :notification_id) "
            "ON CONFLICT (application_name) DO UPDATE "
            "SET notification_id = :notification_id "
            f"WHERE {TRACKING_TABLE}.notification_id < :notification_id "
            "RETURNING notification_id"
        )
        self.select_max_tracking_id_statement = (
            f"SELECT MAX(notification_id) FROM {TRACKING_TABLE} WHERE application_name=?"
        )

    def construct_create_table_statements(self) -> list[str]:
        tracking = (
            f"CREATE TABLE IF NOT EXISTS {TRACKING_TABLE} ("
            "application_name TEXT, notification_id INTEGER, "
            "PRIMARY KEY (application_name)) WITHOUT ROWID"
        )
        return [tracking, *(self._sql(statement) for statement in TABLES)]

    def _rows(self, text: str, params: Sequence[Any] = ()) -> list[Any]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._sql(text), list(params))
            return list(cursor.fetchall())

    @contextmanager
    def _writing(self) -> Iterator[SQLiteCursor]:
        with (
            self.datastore.get_connection(commit=True) as connection,
            _ImmediateTransaction(connection, commit=True) as cursor,
        ):
            yield cursor

    def _last_version_sql(self) -> str:
        return "SELECT MAX(e.originator_version) FROM {events} e WHERE e.originator_id = g.game_id"

    def settled_position(self) -> int:
        return int(self._rows("SELECT MAX(rowid) AS n FROM {events}")[0]["n"] or 0)


class MemoryGameIndexView(SQLiteGameIndexView):
    """The index of an in-memory store (``eventsourcing.popo``): an in-memory
    SQLite database beside the events, which live in Python objects."""

    def __init__(self, events: ApplicationRecorder, upstream: str) -> None:
        self.events = events
        name = f"file:gamelog-index-{uuid.uuid4().hex}?mode=memory&cache=shared"
        super().__init__(SQLiteDatastore(name), upstream)

    def settled_position(self) -> int:
        return self.events.max_notification_id() or 0  # one lock orders the ids

    def last_positions(self, game_ids: Sequence[UUID]) -> dict[UUID, int]:
        positions: dict[UUID, int] = {}
        for game_id in game_ids:
            last = self.events.select_events(game_id, desc=True, limit=1)
            if last:
                positions[game_id] = last[0].originator_version - 1
        return positions

    def close(self) -> None:
        self.datastore.close()


__all__ = ["TABLES", "TRACKING_TABLE", "MemoryGameIndexView", "SQLGameIndex", "SQLiteGameIndexView"]
