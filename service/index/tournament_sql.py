"""The tournaments' part of the index in SQL: one row per tournament.

``gamelog_index_tournaments`` sits beside the games' tables, in the same
database and under the same tracking position (``sql``), keyed by the
tournament's id in 32 hex digits (so a short id is a range of the key), with
``seq`` (the notification id of its creation) giving the listing's order,
newest first. It holds what a director looks a tournament up by: its name,
game, site and dates, when it was created, whether it is finished, the hash
of its creation record (two imports of one archive share it) and the id it
was created under. Its statement is with the other tables' (``tables``);
here are its writes and queries, which ``SQLGameIndex`` takes on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from gamelog.service.index.tables import TOURNAMENT_COLUMNS
from gamelog.service.index.view import (
    IndexedTournament,
    TournamentAdded,
    TournamentFilter,
    TournamentFinished,
)


def indexed_tournament(row: Mapping[str, Any]) -> IndexedTournament:
    return IndexedTournament(
        tournament_id=UUID(hex=row["tournament_id"]),
        seq=int(row["seq"]),
        name=row["name"],
        game=row["game"],
        site=row["site"],
        dates=row["dates"],
        created_at=row["created_at"],
        creation_hash=row["creation_hash"],
        origin_id=row["origin_id"],
        finished=bool(row["finished"]),
    )


def _like(text: str) -> str:
    """``text`` as a LIKE pattern that matches it anywhere, taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped.casefold()}%"


class SQLTournamentRows:
    """The tournaments' writes and queries, for ``SQLGameIndex``."""

    def _sql(self, text: str) -> str:
        raise NotImplementedError

    def _rows(self, text: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _apply_tournament(self, cursor: Any, change: TournamentAdded | TournamentFinished) -> None:
        if isinstance(change, TournamentAdded):
            t = change.tournament
            cursor.execute(
                self._sql(
                    f"INSERT INTO {{tournaments}} ({TOURNAMENT_COLUMNS})"
                    " VALUES (?,?,?,?,?,?,?,?,?,?)"
                ),
                (
                    t.tournament_id.hex,
                    t.seq,
                    t.name,
                    t.game,
                    t.site,
                    t.dates,
                    t.finished,
                    t.created_at,
                    t.creation_hash,
                    t.origin_id,
                ),
            )
        else:
            cursor.execute(
                self._sql("UPDATE {tournaments} SET finished = ? WHERE tournament_id = ?"),
                (True, change.tournament_id.hex),
            )

    def tournaments(
        self, filters: TournamentFilter, limit: int, before_seq: int | None = None
    ) -> list[IndexedTournament]:
        where: list[str] = []
        params: list[Any] = []
        if filters.name:
            where.append("LOWER(name) LIKE ? ESCAPE '\\'")
            params.append(_like(filters.name))
        if filters.status:
            where.append("finished = ?")
            params.append(filters.status == "finished")
        if filters.date:
            length = len(filters.date)
            where.append(f"(SUBSTR(dates, 1, {length}) = ? OR SUBSTR(created_at, 1, {length}) = ?)")
            params += [filters.date, filters.date]
        if before_seq is not None:
            where.append("seq < ?")
            params.append(before_seq)
        condition = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self._rows(
            f"SELECT {TOURNAMENT_COLUMNS} FROM {{tournaments}} {condition}"
            " ORDER BY seq DESC LIMIT ?",
            [*params, limit],
        )
        return [indexed_tournament(row) for row in rows]

    def tournament_ids_with_prefix(self, hex_prefix: str, limit: int) -> list[UUID]:
        rows = self._rows(
            "SELECT tournament_id FROM {tournaments} WHERE tournament_id >= ?"
            " AND tournament_id < ? ORDER BY tournament_id LIMIT ?",
            [hex_prefix, hex_prefix + "g", limit],
        )
        return [UUID(hex=row["tournament_id"]) for row in rows]

    def count_tournaments_with_prefix(self, hex_prefix: str) -> int:
        rows = self._rows(
            "SELECT COUNT(*) AS n FROM {tournaments}"
            " WHERE tournament_id >= ? AND tournament_id < ?",
            [hex_prefix, hex_prefix + "g"],
        )
        return int(rows[0]["n"])

    def tournament_ids_with_creation_hash(self, creation_hash: str) -> list[UUID]:
        rows = self._rows(
            "SELECT tournament_id FROM {tournaments} WHERE creation_hash = ? ORDER BY seq",
            [creation_hash],
        )
        return [UUID(hex=row["tournament_id"]) for row in rows]
