"""The game index's tables in SQL, alike in SQLite and PostgreSQL.

- ``gamelog_index``: one row per game, keyed by its id (32 hex digits, so a
  prefix is a range of the key), with ``seq`` (the notification id of its
  creation) giving the listing order, and an index per filter: game type,
  status, tournament, parent, creation hash.
- ``gamelog_index_tags`` (key, value, seq) and ``gamelog_index_seats`` (seat,
  seq): a listing filtered by a tag or a player walks one of these keys
  newest first and stops after ``limit`` games.
- ``gamelog_index_rated``: the ratings' read model, the finished games that
  count, in the order they ended.
- ``gamelog_index_tournaments``: one row per tournament, keyed and ordered
  as the games are; what a director looks a tournament up by
  (``tournament_sql``).
- ``gamelog_index_tracking``: eventsourcing's tracking table (one row: the
  notification id up to which the index is complete), written in the same
  transaction as the rows.

A game's last position is not stored: it is the highest version of its events,
one lookup in the events table's primary key, so that a move never has to
touch the index.

The statements name the tables by placeholders that each database fills in
(``sqlite``, ``postgres``): ``{index}``, ``{tags}``, ``{seats}``,
``{rated}``, ``{tournaments}``, ``{tracking}``, ``{events}``, and ``{key}``,
the type of a hex id (PostgreSQL compares it byte by byte). What the tables
hold is told here, apart from how they are written and read (``sql``), so
that a change of a column is made in one place for both databases.
"""

from __future__ import annotations

__all__ = [
    "COLUMNS",
    "INDEX_TABLES",
    "RATED_COLUMNS",
    "TABLES",
    "TOURNAMENT_COLUMNS",
    "TRACKING_TABLE",
]

TRACKING_TABLE = "gamelog_index_tracking"

# The tournaments' table: what a director looks a tournament up by (``tournament_sql``).
_TOURNAMENT_TABLES = (
    "CREATE TABLE IF NOT EXISTS {tournaments} ("
    " tournament_id {key} PRIMARY KEY,"
    " seq BIGINT NOT NULL UNIQUE,"
    " name TEXT NOT NULL,"
    " game TEXT NOT NULL,"
    " site TEXT NOT NULL,"
    " dates TEXT NOT NULL,"
    " finished BOOLEAN NOT NULL DEFAULT FALSE,"
    " created_at TEXT NOT NULL,"
    " creation_hash TEXT NOT NULL,"
    " origin_id TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS gamelog_index_tournaments_by_status"
    " ON {tournaments} (finished, seq)",
    "CREATE INDEX IF NOT EXISTS gamelog_index_tournaments_by_creation_hash"
    " ON {tournaments} (creation_hash)",
)
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
    *_TOURNAMENT_TABLES,
)
COLUMNS = (
    "game_id, seq, game, rules_version, finished, seats, tags, parent_game_id,"
    " parent_json, tournament_id, created_at, creation_hash"
)
RATED_COLUMNS = "game_id, seq, game, finished_at, event, tournament, places, creation_hash"
TOURNAMENT_COLUMNS = (
    "tournament_id, seq, name, game, site, dates, finished, created_at, creation_hash, origin_id"
)

INDEX_TABLES = {
    "index": COLUMNS,
    "tags": "key, value, seq",
    "seats": "seat, seq",
    "rated": RATED_COLUMNS,
    "tournaments": TOURNAMENT_COLUMNS,
}
"""Every table of the index and its columns (what a rebuild copies)."""
