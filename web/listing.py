"""The game list: which stored games the page lists, newest first, a page at a time.

The filters are the service's own (ListGames, answered from its game index):
game, status, player, Event and Round, and any tag pairs. This module is the
only one that calls ListGames for the list.

>>> wanted = GameFilter.from_query({"game": "panem", "event": "Club night"}, ["Round=2"])
>>> request = wanted.request()
>>> request.game, request.event, dict(request.tags)
('panem', 'Club night', {'Round': '2'})
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gamelog.v1 import gamelog_pb2 as pb
from gamelog.web.gateway import Gateway, GatewayError

PAGE_SIZE = 200
"""Games per page of the list; the page asks for older ones on demand."""
STATUSES = ("running", "finished")


@dataclass(frozen=True)
class GameFilter:
    game: str = ""
    event: str = ""
    round: str = ""
    status: str = ""
    player: str = ""
    tags: tuple[tuple[str, str], ...] = ()
    page: str = ""
    """Where the previous page ended (the service's page token)."""

    @classmethod
    def from_query(cls, query: Mapping[str, str], tags: Iterable[str] = ()) -> GameFilter:
        """From the page's query string; a tag is ``Key=Value``.

        >>> try:
        ...     GameFilter.from_query({}, ["Table"])
        ... except GatewayError as error:
        ...     print(error.message)
        a tag filter is Key=Value, not Table
        """
        pairs = []
        for tag in tags:
            key, equals, value = tag.partition("=")
            if not equals or not key.strip():
                raise GatewayError(
                    "INVALID_ARGUMENT", "bad-tag", f"a tag filter is Key=Value, not {tag}"
                )
            pairs.append((key.strip(), value.strip()))
        status = query.get("status", "").strip()
        if status and status not in STATUSES:
            raise GatewayError("INVALID_ARGUMENT", "bad-status", "status is running or finished")
        return cls(
            game=query.get("game", "").strip(),
            event=query.get("event", "").strip(),
            round=query.get("round", "").strip(),
            status=status,
            player=query.get("player", "").strip(),
            tags=tuple(pairs),
            page=query.get("page", ""),
        )

    def request(self) -> Any:
        return pb.ListGamesRequest(
            limit=PAGE_SIZE,
            game=self.game,
            event=self.event,
            round=self.round,
            status=self.status,
            player=self.player,
            tags=dict(self.tags),
            page_token=self.page,
        )


def summary_entry(summary: Any) -> dict[str, Any]:
    parent = json.loads(summary.parent_json) if summary.parent_json else None
    return {
        "game_id": summary.game_id,
        "game": summary.game,
        "seats": list(summary.seats),
        "finished": summary.finished,
        "last_position": summary.last_position,
        "created_at": summary.created_at,
        "parent": {"game_id": parent["game_id"], "position": parent["position"]}
        if parent
        else None,
        "tags": dict(summary.metadata),
        "tournament_id": summary.tournament_id,
    }


async def list_games(gateway: Gateway, wanted: GameFilter) -> dict[str, Any]:
    """One page of the games that match, newest first, and where the next
    (older) page starts ("" when there is none)."""
    response = await gateway.call("ListGames", wanted.request())
    return {
        "games": [summary_entry(s) for s in response.games],
        "next": response.next_page_token,
    }
