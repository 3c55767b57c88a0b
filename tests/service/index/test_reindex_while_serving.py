"""Rebuilding the game index while servers read it: they never see it half built.

``gamelog reindex`` (``Listing.reindex``) builds the index again from the
whole log beside the one in use and swaps it in with one transaction. A
server reading meanwhile, in this process or another, answers from the old
index, whole, until the new one is: a listing never comes back empty, and a
short id of a stored game is always found. (It used to clear the index and
commit that before the rebuilt one: listings answered zero games, short ids
NOT_FOUND, for the length of a rebuild.)
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamelog.service.index.adapters import INDEX_FOLLOW
from gamelog.service.model.refusals import GamelogError
from gamelog.service.storage.settings import postgres_env, store_env
from gamelog.service.usecases.application import GameLog

GAMES = 120
REBUILDS = 4


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    if request.param == "postgres":
        request.applymarker(pytest.mark.postgres)
        env = postgres_env(request.getfixturevalue("postgres_dsn"))
    else:
        env = store_env(db=str(tmp_path / "g.sqlite"))
    yield env


def test_readers_see_every_game_throughout_a_rebuild(store: dict[str, str]) -> None:
    writer = GameLog(env=store)
    try:
        created = [writer.games.create_game("freeform", ["ann"]) for _ in range(GAMES)]
    finally:
        writer.close()
    ours = {game.game_id for game in created}
    reader = GameLog(env=store)  # a server: following the log, answering listings
    rebuilder = GameLog(env={**store, INDEX_FOLLOW: "n"})  # ``gamelog reindex``
    seen: list[int] = []
    missing: list[Any] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            listed = {g.game_id for g in reader.listing.list_games(10_000).games}
            seen.append(len(listed & ours))
            for game in created[:: GAMES // 4]:
                try:
                    found = reader.listing.resolve_game_id(str(game.game_id)[:8])
                    if found != game.game_id:
                        missing.append(found)
                except GamelogError as refused:
                    missing.append(refused.code)

    readers = [threading.Thread(target=read) for _ in range(2)]
    try:
        for thread in readers:
            thread.start()
        for _ in range(REBUILDS):
            assert rebuilder.listing.reindex() >= GAMES
    finally:
        stop.set()
        for thread in readers:
            thread.join(60)
        reader.close()
        rebuilder.close()
    assert seen and min(seen) == GAMES
    assert missing == []
