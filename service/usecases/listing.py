"""Listing stored games, the trees their branches form, and short game ids.

Every answer comes from the game index (``gamelog.service.index``), a read
model of the log kept in the store beside the events, so it costs the size
of the answer, not of the store. Each call first brings the index up to the
log (``IndexFollower.current``): a game is listed by every process sharing
the store as soon as its creation has committed.

A game whose stored creation cannot be read (damaged on disk, say) is left out
of the index, so one bad game never makes a call about the others fail.

    app.listing.list_games(50, GameFilter(game="panem", tags={"Event": "Club night"}))
    app.listing.resolve_game_id("3f2a9c")      # a unique prefix → the full id
"""

from __future__ import annotations

import string
from collections.abc import Callable
from uuid import UUID

from gamelog.replay.checks import quoted
from gamelog.service.index.follower import IndexFollower
from gamelog.service.index.view import GameFilter, IndexedGame
from gamelog.service.model.refusals import InvalidArgument, NotFound
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases.answers import GamesPage, GameSummary, TreeNode

__all__ = ["GameFilter", "Listing"]

MAX_LIMIT = 10_000
MIN_PREFIX = 4
"""Hex digits a short game id needs at least (as git asks for four)."""


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


class Listing:
    """What is stored: the games, each game's tree of branches, short ids."""

    def __init__(self, store: GameStore, index: IndexFollower) -> None:
        self.store = store
        self.index = index

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
        before = page_start(page_token)
        index = self.index.current()
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
        index = self.index.current()
        games = index.tree_of(game_id)
        if not games:
            self.store.game(game_id)  # a game the index left out as damaged is data loss
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

    def subtree(self, game_id: UUID) -> list[TreeNode]:
        """``game_id``'s node and every node below it in its tree, parents first."""
        _, nodes = self.tree(game_id)
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
        index = self.index.current()
        return resolve_short_id(text, "game", index.ids_with_prefix, index.count_with_prefix)

    def games_with_creation_hash(self, creation_hash: str) -> list[UUID]:
        """The stored games whose creation record has this hash, oldest first:
        a record file imported twice gives its games' creations the same hash."""
        return self.index.current().ids_with_creation_hash(creation_hash)

    # -- maintenance -------------------------------------------------------------------

    def reindex(self) -> int:
        """Build the index again from the whole log; how many games it holds."""
        self.index.rebuild()
        return self.index.view.count()

    def indexed_games(self) -> list[IndexedGame]:
        """The whole index, oldest first (its cost is the store's size: for
        checks and maintenance, not for serving)."""
        return self.index.current().everything()


def page_start(page_token: str) -> int | None:
    """Where a page goes on: the ``seq`` a listing's ``next_page_token`` names."""
    if not page_token:
        return None
    if not (page_token.isascii() and page_token.isdigit()) or len(page_token) > 18:
        raise InvalidArgument("bad-page-token", "that page token is not one a listing gave")
    return int(page_token)


def resolve_short_id(
    text: str,
    kind: str,
    with_prefix: Callable[[str, int], list[UUID]],
    count_with_prefix: Callable[[str], int],
) -> UUID:
    """The id ``text`` names among the stored ``kind``s (games, tournaments):
    a full id as it is (dashes optional), or the one id that starts with
    ``text`` (at least MIN_PREFIX hex digits), as git takes a commit's prefix."""
    cleaned = text.strip() if isinstance(text, str) else ""
    try:
        return UUID(cleaned)
    except ValueError:
        pass
    prefix = cleaned.replace("-", "").lower()
    if not MIN_PREFIX <= len(prefix) < 32 or set(prefix) - set(string.hexdigits.lower()):
        raise InvalidArgument(
            f"bad-{kind}-id",
            f"{quoted(text)} is not a {kind} id: give the id or its first {MIN_PREFIX} "
            "or more hex digits",
        )
    found = with_prefix(prefix, 2)
    if not found:
        raise NotFound(f"no-such-{kind}", f"no {kind} id starts with {cleaned}")
    if len(found) > 1:
        raise InvalidArgument(
            f"ambiguous-{kind}-id",
            f"{count_with_prefix(prefix)} {kind}s have ids starting with {cleaned}; "
            "give more of the id",
        )
    return found[0]
