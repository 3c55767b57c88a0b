"""Listing stored games and the trees their branches form."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

from eventsourcing.utils import get_topic

from gamelog.service.errors import NotFound
from gamelog.service.game import Game
from gamelog.service.outcomes import GameSummary, TreeNode
from gamelog.service.store import GameStore


class Listing(GameStore):
    """What is stored: the games, and each game's tree of branches."""

    def list_games(self, limit: int = 1000) -> list[GameSummary]:
        topics = [get_topic(Game.Created), get_topic(Game.Finished)]
        summaries: dict[UUID, GameSummary] = {}
        start = 1
        while True:
            batch = self.recorder.select_notifications(start, 500, topics=topics)
            for notification in batch:
                event = self.mapper.to_domain_event(notification)
                if isinstance(event, Game.Created):
                    record = event.record
                    summaries[event.originator_id] = GameSummary(
                        game_id=event.originator_id,
                        game=record["game"],
                        rules_version=record["rules_version"],
                        seats=list(record["seats"]),
                        finished=False,
                        created_at=event.timestamp.isoformat(),
                        parent=record.get("parent"),
                        metadata=dict(record.get("metadata", {})),
                    )
                elif isinstance(event, Game.Finished) and event.originator_id in summaries:
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
            nodes.append(
                TreeNode(
                    game_id=gid,
                    parent_game_id=parent_of(gid),
                    parent_position=int(parent.get("position", -1)) if parent else -1,
                    last_position=self._game(gid).position,
                    finished=summary.finished,
                )
            )
            stack = children.get(gid, []) + stack
        return root, nodes

    @staticmethod
    def _subtree(game_id: UUID, nodes: list[TreeNode]) -> list[UUID]:
        wanted = [game_id]
        for node in nodes:  # nodes come parents first
            if node.parent_game_id in wanted and node.game_id not in wanted:
                wanted.append(node.game_id)
        return wanted
