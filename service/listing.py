"""Listing stored games, the trees their branches form, and short game ids.

Every answer comes from the game index (``index_view``), a read model of the
log kept in the store beside the events, so it costs the size of the answer,
not of the store. Each call first brings the index up to the log
(``index_follower``): a game is listed by every process sharing the store as
soon as its creation has committed.

A game whose stored creation cannot be read (damaged on disk, say) is left out
of the index, so one bad game never makes a call about the others fail.

    app.list_games(50, GameFilter(game="panem", tags={"Event": "Club night"}))
    app.resolve_game_id("3f2a9c")          # a unique prefix → the full id
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any
from uuid import UUID

from eventsourcing.postgres import PostgresFactory
from eventsourcing.sqlite import SQLiteFactory
from eventsourcing.utils import strtobool

from gamelog.service.errors import InvalidArgument, NotFound
from gamelog.service.index_follower import IndexFollower
from gamelog.service.index_postgres import PostgresGameIndexView
from gamelog.service.index_projection import GameIndexProjection
from gamelog.service.index_sql import MemoryGameIndexView, SQLiteGameIndexView
from gamelog.service.index_view import GameFilter, GameIndexView, IndexedGame
from gamelog.service.outcomes import GamesPage, GameSummary, TreeNode
from gamelog.service.store import GameStore

__all__ = ["GameFilter", "Listing"]

MAX_LIMIT = 10_000
MIN_PREFIX = 4
"""Hex digits a short game id needs at least (as git asks for four)."""
INDEX_FOLLOW = "INDEX_FOLLOW"
"""Environment setting: 'n' keeps the index from following the log in the
background (it still catches up on every read). ``gamelog reindex`` sets it."""


def summary_of(game: IndexedGame, last_position: int) -> GameSummary:
    return GameSummary(
        game_id=game.game_id,
        game=game.game,
        rules_version=game.rules_version,
        seats=list(game.seats),
        finished=game.finished,
        created_at=game.created_at,
        parent=dict(game.parent) if game.parent else None,
        metadata=dict(game.tags),
        last_position=last_position,
        tournament_id=game.tournament_id,
    )


def open_game_index(app: GameStore) -> GameIndexView:
    """The game index beside ``app``'s events, its tables created if need be."""
    factory: Any = app.factory
    events_table = getattr(app.recorder, "events_table_name", "stored_events")
    view: GameIndexView
    if isinstance(factory, SQLiteFactory):
        view = SQLiteGameIndexView(factory.datastore, app.name, events_table)
    elif isinstance(factory, PostgresFactory):
        view = PostgresGameIndexView(factory.datastore, app.name, events_table)
    else:
        view = MemoryGameIndexView(app.recorder, app.name)
    view.create_table()  # type: ignore[attr-defined]
    return view


class Listing(GameStore):
    """What is stored: the games, each game's tree of branches, short ids."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        self.game_index = GameIndexProjection(open_game_index(self))
        self.index_follower = IndexFollower(self, self.game_index)
        if strtobool(self.env.get(INDEX_FOLLOW, "y")):
            self.index_follower.start()

    def close(self) -> None:
        self.index_follower.stop()
        if isinstance(self.game_index.view, MemoryGameIndexView):
            self.game_index.view.close()
        super().close()

    @property
    def _index(self) -> GameIndexView:
        """The index, brought up to the log first."""
        self.index_follower.catch_up()
        return self.game_index.view

    # -- listing -----------------------------------------------------------------------

    def list_games(
        self, limit: int = 1000, filters: GameFilter | None = None, page_token: str = ""
    ) -> GamesPage:
        """The newest ``limit`` games that ``filters`` lets through, newest
        first; ``page_token`` (a page's ``next_page_token``) goes on from where
        that page ended."""
        filters = filters or GameFilter()
        problem = filters.problem()
        if problem:
            raise InvalidArgument("bad-filter", problem)
        if not 1 <= limit <= MAX_LIMIT:
            raise InvalidArgument("bad-limit", f"a listing has 1–{MAX_LIMIT} games, not {limit}")
        before = _page_start(page_token)
        index = self._index
        found = index.games(filters, limit + 1, before)
        page = found[:limit]
        positions = index.last_positions([game.game_id for game in page])
        return GamesPage(
            [summary_of(game, positions.get(game.game_id, 0)) for game in page],
            next_page_token=str(page[-1].seq) if len(found) > limit else "",
        )

    def tree(self, game_id: UUID) -> tuple[UUID, list[TreeNode]]:
        """Every game in the tree of branches that ``game_id`` belongs to,
        parents before their branches, branches in the order they were made."""
        index = self._index
        games = index.tree_of(game_id)
        if not games:
            self._game(game_id)  # a game the index left out as damaged is data loss
            raise NotFound("no-such-game", f"no game {game_id}")
        ids = {game.game_id for game in games}
        (root,) = (game for game in games if game.parent_game_id not in ids)
        children: dict[UUID | None, list[IndexedGame]] = {}
        for game in games:
            if game is not root:
                children.setdefault(game.parent_game_id, []).append(game)
        positions = index.last_positions(list(ids))
        nodes: list[TreeNode] = []
        # Depth first, each game's branches in the order made: the next game
        # is the stack's last (pop(0) and a new list per game cost the square
        # of the tree's size, and anyone may fork a finished game).
        stack = [root]
        while stack:
            game = stack.pop()
            nodes.append(
                TreeNode(
                    game_id=game.game_id,
                    parent_game_id=None if game is root else game.parent_game_id,
                    parent_position=game.parent_position,
                    last_position=positions.get(game.game_id, 0),
                    finished=game.finished,
                )
            )
            stack.extend(reversed(children.get(game.game_id, [])))
        return root.game_id, nodes

    @staticmethod
    def _subtree(game_id: UUID, nodes: list[TreeNode]) -> list[TreeNode]:
        """``game_id``'s node and every node below it, parents first."""
        wanted: list[TreeNode] = []
        ids = {game_id}
        for node in nodes:  # nodes come parents first
            if node.game_id == game_id or node.parent_game_id in ids:
                wanted.append(node)
                ids.add(node.game_id)
        return wanted

    # -- finding games -----------------------------------------------------------------

    def resolve_game_id(self, text: str) -> UUID:
        """The game ``text`` names: a full id as it is (32 hex digits, dashes
        optional), or the one game whose id starts with ``text`` (at least
        four hex digits, dashes optional), as git takes a commit's prefix."""
        cleaned = text.strip()
        try:
            return UUID(cleaned)
        except ValueError:
            pass
        prefix = cleaned.replace("-", "").lower()
        if not MIN_PREFIX <= len(prefix) < 32 or set(prefix) - set(string.hexdigits.lower()):
            raise InvalidArgument(
                "bad-game-id",
                f"{text!r} is not a game id: give the id or its first {MIN_PREFIX} "
                "or more hex digits",
            )
        index = self._index
        found = index.ids_with_prefix(prefix, 2)
        if not found:
            raise NotFound("no-such-game", f"no game id starts with {cleaned}")
        if len(found) > 1:
            count = index.count_with_prefix(prefix)
            raise InvalidArgument(
                "ambiguous-game-id",
                f"{count} games have ids starting with {cleaned}; give more of the id",
            )
        return found[0]

    def games_with_creation_hash(self, creation_hash: str) -> list[UUID]:
        """The stored games whose creation record has this hash, oldest first:
        a record file imported twice gives its games' creations the same hash."""
        return self._index.ids_with_creation_hash(creation_hash)

    # -- maintenance -------------------------------------------------------------------

    def reindex(self) -> int:
        """Build the index again from the whole log; how many games it holds."""
        self.index_follower.rebuild()
        return self.game_index.view.count()

    def indexed_games(self) -> list[IndexedGame]:
        """The whole index, oldest first (its cost is the store's size: for
        checks and maintenance, not for serving)."""
        return self._index.everything()


def _page_start(page_token: str) -> int | None:
    if not page_token:
        return None
    if not (page_token.isascii() and page_token.isdigit()) or len(page_token) > 18:
        raise InvalidArgument("bad-page-token", "that page token is not one a listing gave")
    return int(page_token)
