"""A store written before the service was arranged in rooms reads as it was.

Stored events name their classes by topic (``module:Class``). Events stored
by an older gamelog name the modules the aggregates lived in then
(``gamelog.service.game`` and so on); ``storage/topics.py`` registers those
as aliases. Here a store is written, then its topics are turned back into the
old names, as an older version would have stored them: every game and
tournament still loads, audits, lists and plays on.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gamelog.service.index.adapters import INDEX_FOLLOW
from gamelog.service.storage.settings import store_env
from gamelog.service.storage.topics import MOVED_MODULES
from gamelog.service.usecases.application import GameLog


def _as_an_older_version_stored_it(database: Path) -> int:
    """Rename every stored topic to its old module; how many rows changed."""
    changed = 0
    with sqlite3.connect(database) as connection:
        for old, new in MOVED_MODULES.items():
            for table in ("stored_events", "stored_snapshots"):
                changed += connection.execute(
                    f"UPDATE {table} SET topic = replace(topic, ?, ?) WHERE topic LIKE ?",
                    (f"{new}:", f"{old}:", f"{new}:%"),
                ).rowcount
    return changed


def test_a_store_with_the_old_topics_loads_lists_audits_and_plays_on(tmp_path: Path) -> None:
    database = tmp_path / "old.sqlite"
    env = {**store_env(db=str(database)), INDEX_FOLLOW: "n"}
    writer = GameLog(env=env)
    try:
        created = writer.games.create_game("freeform", ["ann", "ben"])
        writer.games.play(created.game_id, created.tokens["ann"], {"say": "e4"}, 0)
        tournament = writer.tournaments.create_tournament("Club night", "freeform", 1, (2, 2))
        writer.tournaments.register_players(
            tournament.tournament_id, tournament.director_token, [{"name": "Cy"}, {"name": "Di"}]
        )
        _, tables = writer.tournaments.pair_round(
            tournament.tournament_id, tournament.director_token
        )
    finally:
        writer.close()
    assert _as_an_older_version_stored_it(database) > 0

    reader = GameLog(env=env)
    try:
        assert reader.listing.reindex() == 2  # both games, under their old topics
        (table_game,) = tables.values()
        listed = reader.listing.list_games(10).games
        assert {g.game_id for g in listed} == {created.game_id, table_game}
        assert {g.tournament_id for g in listed} == {"", str(tournament.tournament_id)}
        assert reader.queries.state_at(created.game_id).position == 1
        assert reader.queries.audit(created.game_id).ok
        played = reader.games.play(created.game_id, created.tokens["ben"], {"say": "e5"}, 1)
        assert played.position == 2
        standing = reader.tournament_queries.tournament(tournament.tournament_id)
        assert [r.number for r in standing.rounds] == [1]
        assert reader.tournament_queries.audit_tournament(tournament.tournament_id).ok
    finally:
        reader.close()
