"""Listing stored games and the trees their branches form.

A game the store cannot read (damaged on disk, say) is left out of listings and
trees, so one bad game never makes a call about the others fail.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from gamelog.service.errors import DataLoss, NotFound
from gamelog.service.game import Game
from gamelog.service.outcomes import GameSummary, TreeNode
from gamelog.service.store import GameStore

log = logging.getLogger(__name__)


def summary_of(event: Any) -> GameSummary:
    """A game's summary from its creation event; raises if the record is malformed."""
    record = event.record
    parent = record.get("parent")
    if parent is not None:
        parent = {**parent, "game_id": str(UUID(str(parent["game_id"])))}
    metadata = record.get("metadata", {})
    if not isinstance(metadata, dict):
        raise TypeError("metadata is not an object")
    return GameSummary(
        game_id=event.originator_id,
        game=str(record["game"]),
        rules_version=str(record["rules_version"]),
        seats=[str(seat) for seat in record["seats"]],
        finished=False,
        created_at=event.timestamp.isoformat(),
        parent=parent,
        metadata={str(k): str(v) for k, v in metadata.items()},
    )


class Listing(GameStore):
    """What is stored: the games, and each game's tree of branches."""

    def list_games(self, limit: int = 1000) -> list[GameSummary]:
        topics = [get_topic(Game.Created), get_topic(Game.Finished)]
        summaries: dict[UUID, GameSummary] = {}
        start = 1
        while True:
            batch = self.recorder.select_notifications(start, 500, topics=topics)
            for notification in batch:
                try:
                    event = self.mapper.to_domain_event(notification)
                    if isinstance(event, Game.Created):
                        summaries[event.originator_id] = summary_of(event)
                except Exception as error:  # a damaged game must not hide the others
                    log.error("skipping unreadable game %s: %r", notification.originator_id, error)
                    continue
                if isinstance(event, Game.Finished) and event.originator_id in summaries:
                    summaries[event.originator_id] = replace(
                        summaries[event.originator_id], finished=True
                    )
            if len(batch) < 500:
                break
            start = batch[-1].id + 1
        return list(summaries.values())[-limit:]

    def tree(self, game_id: UUID) -> tuple[UUID, list[TreeNode]]:
        """Every game in the tree of branches that ``game_id`` belongs to."""
        summaries = {s.game_id: s for s in self.list_games(limit=10**9)}
        if game_id not in summaries:
            self._game(game_id)  # a game listings skip as damaged is data loss, not absent
            raise NotFound("no-such-game", f"no game {game_id}")

        def parent_of(gid: UUID) -> UUID | None:
            parent = summaries[gid].parent
            if not parent:
                return None
            pid = UUID(str(parent["game_id"]))
            return pid if pid in summaries else None

        root = game_id
        while (up := parent_of(root)) is not None:
            root = up
        children: dict[UUID, list[UUID]] = {}
        for gid in summaries:
            pid = parent_of(gid)
            if pid is not None:
                children.setdefault(pid, []).append(gid)
        nodes: list[TreeNode] = []
        stack = [root]
        while stack:
            gid = stack.pop(0)
            summary = summaries[gid]
            parent = summary.parent or {}
            try:
                last_position = self._game(gid).position
            except DataLoss:
                if gid == game_id:
                    raise
                continue  # a damaged branch, and the branches below it, are left out
            nodes.append(
                TreeNode(
                    game_id=gid,
                    parent_game_id=parent_of(gid),
                    parent_position=int(parent.get("position", -1)) if parent else -1,
                    last_position=last_position,
                    finished=summary.finished,
                )
            )
            stack = children.get(gid, []) + stack
        return root, nodes

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
