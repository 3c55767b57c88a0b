"""The game index against a full scan of the log: what the index tests hold it to.

``full_scan`` reads every game from the log itself, independently of the
index; ``from_index`` is what the index lists; ``assert_index_is_the_scan``
holds the two (and every tree) equal. ``TwoProcessHistory`` makes random
histories through server processes for the index to keep up with.
"""

from __future__ import annotations

import json
import random
import threading
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from gamelog.cli.client import ApiError, Client
from gamelog.service.model.game import Game
from gamelog.service.usecases.application import GameLog

# -- the reference: a full scan of the log -------------------------------------------------


def full_scan(app: GameLog) -> dict[UUID, dict[str, Any]]:
    """Every game as a scan of the whole log sees it, independently of the index."""
    created, finished = get_topic(Game.Created), get_topic(Game.Finished)
    games: dict[UUID, dict[str, Any]] = {}
    start = 1
    while True:
        batch = app.store.recorder.select_notifications(start, 500)
        for notification in batch:
            if notification.topic == created:
                event: Any = app.store.mapper.to_domain_event(notification)
                record = event.record
                parent = record["parent"]
                games[event.originator_id] = {
                    "seq": notification.id,
                    "game": record["game"],
                    "rules_version": record["rules_version"],
                    "seats": list(record["seats"]),
                    "tags": dict(record["metadata"]),
                    "parent": {k: parent[k] for k in ("game_id", "position", "hash")}
                    if parent
                    else None,
                    "finished": False,
                    "created_at": event.timestamp.isoformat(),
                    "creation_hash": record["hash"],
                }
            elif notification.topic == finished:
                games[notification.originator_id]["finished"] = True
        if len(batch) < 500:
            break
        start = batch[-1].id + 1
    for game_id, game in games.items():
        game["last_position"] = len(app.store.records(game_id)) - 1
    return games


def from_index(app: GameLog) -> dict[UUID, dict[str, Any]]:
    """Every game as the index lists it (and in the order it lists them)."""
    listed = app.listing.list_games(10_000).games
    rows = {row.game_id: row for row in app.listing.indexed_games()}
    assert [s.game_id for s in listed] == sorted(rows, key=lambda g: -rows[g].seq)
    return {
        s.game_id: {
            "seq": rows[s.game_id].seq,
            "game": s.game,
            "rules_version": s.rules_version,
            "seats": s.seats,
            "tags": s.metadata,
            "parent": s.parent,
            "finished": s.finished,
            "created_at": s.created_at,
            "creation_hash": rows[s.game_id].creation_hash,
            "last_position": s.last_position,
        }
        for s in listed
    }


def expected_tree(scan: dict[UUID, dict[str, Any]], game_id: UUID) -> set[tuple[Any, ...]]:
    def parent_of(gid: UUID) -> UUID | None:
        parent = scan[gid]["parent"]
        pid = UUID(parent["game_id"]) if parent else None
        return pid if pid in scan else None

    root = game_id
    while (up := parent_of(root)) is not None:
        root = up
    members = {root}
    changed = True
    while changed:
        more = {gid for gid in scan if parent_of(gid) in members} - members
        members |= more
        changed = bool(more)
    return {
        (gid, parent_of(gid) if gid != root else None, scan[gid]["last_position"])
        for gid in members
    }


def assert_index_is_the_scan(app: GameLog) -> dict[UUID, dict[str, Any]]:
    scan = full_scan(app)
    assert from_index(app) == scan
    for game_id in list(scan)[:: max(1, len(scan) // 5)]:
        _, nodes = app.listing.tree(game_id)
        assert {(n.game_id, n.parent_game_id, n.last_position) for n in nodes} == expected_tree(
            scan, game_id
        )
    return scan


# -- random histories through two processes ----------------------------------------------


class TwoProcessHistory:
    """Creates, moves, finishes, forks and imports, each through one of two
    servers chosen at random."""

    def __init__(self, clients: list[Client], seed: int) -> None:
        self.clients = clients
        self.random = random.Random(seed)
        self.games: list[Any] = []  # CreateGameResponse
        self.positions: dict[str, int] = {}
        self.finished: set[str] = set()
        self.lock = threading.Lock()

    @property
    def client(self) -> Client:
        return self.random.choice(self.clients)

    def step(self) -> None:
        with self.lock:
            create, move = self.create, self.move
            action = self.random.choice([create, create, move, move, self.finish, self.fork])
            if self.random.random() < 0.15:
                action = self.import_
        try:
            action()
        except ApiError as error:
            # Two threads may race for one game: the loser is told so.
            assert error.code in ("ABORTED", "FAILED_PRECONDITION"), error

    def _pick(self, running: bool) -> Any:
        with self.lock:
            games = [g for g in self.games if (g.game_id not in self.finished) == running]
            return self.random.choice(games) if games else None

    def create(self) -> None:
        tags = {"Event": self.random.choice(["Open", "Club night"])}
        created = self.client.create("freeform", ["ann", "ben", "cy"], metadata=tags)
        with self.lock:
            self.games.append(created)

    def move(self) -> None:
        created = self._pick(running=True)
        if created is not None:
            client = self.client
            at = client.state(created.game_id).last_position
            client.play(created.game_id, {"text": "x"}, at, created.seat_tokens["ann"])

    def finish(self) -> None:
        created = self._pick(running=True)
        if created is not None:
            client = self.client
            at = client.state(created.game_id).last_position
            result = {"result": {"scores": {"ann": 1, "ben": 2, "cy": 3}}}
            client.play(created.game_id, result, at, created.arbiter_token)
            with self.lock:
                self.finished.add(created.game_id)

    def fork(self) -> None:
        created = self._pick(running=self.random.random() < 0.5)
        if created is not None:
            client = self.client
            at = self.random.randint(0, client.state(created.game_id).last_position)
            fork = client.fork(created.game_id, at, created.arbiter_token)
            with self.lock:
                self.games.append(fork)

    def import_(self) -> None:
        created = self._pick(running=False)
        if created is None or json.loads(created.record_json)["parent"]:
            return
        client = self.client
        data = client.export(created.game_id, created.arbiter_token)
        if any(entry.get("redacted") for entry in data["games"]):
            return  # a running branch is cut for this token: that would not import
        imported = client.import_file(data)
        with self.lock:
            self.games += list(imported.games)
