"""The game list: which stored games the page lists, newest first.

The page filters by game, by tag pairs, and by the Event and Round tags. A
filter the service's ``ListGamesRequest`` knows is passed on to it, so a
service that filters in its index does the work; every filter is also applied
here, so a service that knows none of them (or only some) gives the same
list. This module is the only one that calls ListGames.

>>> wanted = GameFilter.from_query({"game": "panem", "event": "Club night"}, ["Round=2"])
>>> wanted.matches({"game": "panem", "tags": {"Event": "Club night", "Round": "2"}})
True
>>> wanted.matches({"game": "panem", "tags": {"Event": "Club night", "Round": "3"}})
False
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gamelog.v1 import gamelog_pb2 as pb
from gamelog.web.gateway import Gateway, GatewayError

MAX_LISTED = 500
"""The most games one list shows; narrow it with filters."""
SCAN_LIMIT = 10_000
"""How many games to ask for when some filter is applied here only."""
STATUSES = ("running", "finished")


@dataclass(frozen=True)
class GameFilter:
    game: str = ""
    event: str = ""
    round: str = ""
    status: str = ""
    tags: tuple[tuple[str, str], ...] = ()

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
            tags=tuple(pairs),
        )

    def matches(self, summary: Mapping[str, Any]) -> bool:
        tags = summary.get("tags", {})
        wanted = dict(self.tags)
        if self.event:
            wanted["Event"] = self.event
        if self.round:
            wanted["Round"] = self.round
        if self.game and summary.get("game") != self.game:
            return False
        if self.status and ("finished" if summary.get("finished") else "running") != self.status:
            return False
        return all(tags.get(key) == value for key, value in wanted.items())

    def request(self) -> tuple[Any, bool]:
        """The ListGames request carrying every filter the API knows, and
        whether it carries all of them."""
        known = pb.ListGamesRequest.DESCRIPTOR.fields_by_name
        # Any: the request's filter fields differ between versions of the API.
        request: Any = pb.ListGamesRequest(limit=MAX_LISTED)
        complete = True
        for name in ("game", "event", "round", "status"):
            value = getattr(self, name)
            if not value:
                continue
            if name in known:
                setattr(request, name, value)
            else:
                complete = False
        if self.tags:
            if "tags" in known:
                request.tags.update(dict(self.tags))
            else:
                complete = False
        if not complete:
            request.limit = SCAN_LIMIT
        return request, complete


def summary_entry(summary: Any) -> dict[str, Any]:
    parent = json.loads(summary.parent_json) if summary.parent_json else None
    return {
        "game_id": summary.game_id,
        "game": summary.game,
        "seats": list(summary.seats),
        "finished": summary.finished,
        "created_at": summary.created_at,
        "parent": {"game_id": parent["game_id"], "position": parent["position"]}
        if parent
        else None,
        "tags": dict(summary.metadata),
    }


async def list_games(gateway: Gateway, wanted: GameFilter) -> list[dict[str, Any]]:
    """The games that match, newest first, at most ``MAX_LISTED``."""
    request, _ = wanted.request()
    response = await gateway.call("ListGames", request)
    games = [summary_entry(s) for s in response.games]
    games.sort(key=lambda g: g["created_at"], reverse=True)
    return [g for g in games if wanted.matches(g)][:MAX_LISTED]
