"""The game index in SQL: the writes and the queries both databases share.

The SQL is written once, with ``?`` placeholders (``postgres`` puts in
PostgreSQL's ``%s``), over the tables ``tables`` makes. Each database adds
how it takes the lock that lets only one writer apply a stretch of the log
at a time, and how far the log is settled: ``sqlite`` (and in memory),
``postgres``.

A listing walks one key newest first (a tag's, a seat's, or the index's
own) and stops after ``limit`` games; a tree is two recursive queries, up
to its root and down from it; a short id is a range of the key.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Tracking

from gamelog.service.index.tables import COLUMNS, INDEX_TABLES, RATED_COLUMNS, TABLES
from gamelog.service.index.tournament_sql import SQLTournamentRows
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

REBUILT = ":rebuilt"
"""What a rebuilt index's tracking name adds to the index's own."""
CHUNK = 500
"""Ids per ``IN (...)`` list."""


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


__all__ = ["SQLGameIndex"]
