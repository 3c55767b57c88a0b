"""The game index on PostgreSQL with several server processes.

gamelog writes events without eventsourcing's table lock, so notification ids
may commit out of order; the index must still never miss a game, and every
process must list a game as soon as its creation has committed.

Marked ``postgres``: skipped where no PostgreSQL is reachable, and required
under .ci/run (GAMELOG_REQUIRE_POSTGRES=1).
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from gamelog.cli.process import ServerProcess
from gamelog.service.index.adapters import INDEX_FOLLOW
from gamelog.service.model.game import Game
from gamelog.service.storage.settings import postgres_env
from gamelog.service.usecases.application import GameLog

from support.index_scan import TwoProcessHistory, assert_index_is_the_scan, from_index, full_scan

pytestmark = pytest.mark.postgres


@pytest.fixture
def postgres_app_without_follower(postgres_dsn: str) -> Iterator[GameLog]:
    """The application in this process, on the servers' database, its index
    not following the log in the background: it catches up on each read."""
    application = GameLog(env={**postgres_env(postgres_dsn), INDEX_FOLLOW: "n"})
    yield application
    application.close()


# -- seen at once by every process ------------------------------------------------------


def test_every_process_lists_a_game_once_its_creation_committed(
    two_postgres_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two_postgres_servers
    with a.client() as on_a, b.client() as on_b:
        for i in range(10):
            creator, lister = (on_a, on_b) if i % 2 else (on_b, on_a)
            tag = f"seen-{uuid.uuid4().hex[:8]}"
            created = creator.create("freeform", ["ann", "ben"], metadata={"Event": tag})
            listed = lister.games(5, event=tag)
            assert [g.game_id for g in listed] == [created.game_id]
            assert lister.games(1)[0].game_id == created.game_id  # the newest of all
            assert lister.tree(created.game_id).nodes[0].game_id == created.game_id


def _mover(server: ServerProcess, stop: threading.Event, errors: list[BaseException]) -> None:
    """Plays freeform moves as fast as it can: commits racing the creations."""
    try:
        with server.client() as client:
            created = client.create("freeform", ["ann", "ben"])
            position = 0
            while not stop.is_set():
                played = client.play(
                    created.game_id, {"text": "x"}, position, created.seat_tokens["ann"]
                )
                position = played.position
    except BaseException as error:
        errors.append(error)


def _creator(
    creator: ServerProcess, lister: ServerProcess, rounds: int, errors: list[BaseException]
) -> None:
    """Creates games on one server and lists each at once on the other."""
    try:
        with creator.client() as on_creator, lister.client() as on_lister:
            for _ in range(rounds):
                tag = uuid.uuid4().hex
                created = on_creator.create("freeform", ["cy", "dee"], metadata={"Table": tag})
                listed = on_lister.games(5, tags={"Table": tag})
                assert [g.game_id for g in listed] == [created.game_id], "not listed at once"
    except BaseException as error:
        errors.append(error)


def test_under_load_every_creation_is_listed_at_once_by_the_other_process(
    two_postgres_servers: tuple[ServerProcess, ServerProcess],
    postgres_app_without_follower: GameLog,
) -> None:
    a, b = two_postgres_servers
    stop = threading.Event()
    errors: list[BaseException] = []
    movers = [threading.Thread(target=_mover, args=(s, stop, errors)) for s in (a, b, a, b)]
    creators = [
        threading.Thread(target=_creator, args=(creator, lister, 25, errors))
        for creator, lister in ((a, b), (b, a), (a, b), (b, a))
    ]
    for thread in movers + creators:
        thread.start()
    for thread in creators:
        thread.join(120)
    stop.set()
    for thread in movers:
        thread.join(60)
    assert not errors, errors
    assert_index_is_the_scan(postgres_app_without_follower)


def test_the_index_equals_a_full_scan_after_random_histories_on_two_processes(
    two_postgres_servers: tuple[ServerProcess, ServerProcess],
    postgres_app_without_follower: GameLog,
) -> None:
    a, b = two_postgres_servers
    with a.client() as on_a, b.client() as on_b:
        history = TwoProcessHistory([on_a, on_b], seed=16)
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            for _ in range(4):
                list(pool.map(lambda _: history.step(), range(40)))
                scan = assert_index_is_the_scan(postgres_app_without_follower)
                for client in (on_a, on_b):
                    listed = {g.game_id: g for g in client.games(10_000)}
                    assert set(listed) == {str(gid) for gid in scan}
                    for gid, game in scan.items():
                        summary = listed[str(gid)]
                        assert summary.finished == game["finished"]
                        assert summary.last_position == game["last_position"]
    assert sum(1 for g in scan.values() if g["parent"]) > 0
    assert any(g["finished"] for g in scan.values())


# -- an id that commits after a later one ---------------------------------------------------


def _open_writer(app: GameLog, dsn: str) -> tuple[psycopg.Connection[Any], Any]:
    """A transaction that has drawn a notification id for a new game's
    creation and not committed yet, as a slow writer in another process would."""
    template = app.games.create_game("freeform", ["ann", "ben"])
    game = Game.create(uuid.uuid4(), dict(template.record), b"s" * 32, b"n" * 16)
    (stored,) = [app.store.mapper.to_stored_event(event) for event in game.collect_events()]
    writer = psycopg.connect(dsn)
    writer.execute(
        "INSERT INTO gamelog_events (originator_id, originator_version, topic, state)"
        " VALUES (%s, %s, %s, %s)",
        (stored.originator_id, stored.originator_version, stored.topic, stored.state),
    )
    return writer, game.id


@pytest.mark.parametrize("ending", ["commit", "rollback"])
def test_a_creation_committed_after_a_later_one_still_enters_the_index(
    postgres_app_without_follower: GameLog, postgres_dsn: str, ending: str
) -> None:
    writer, late = _open_writer(postgres_app_without_follower, postgres_dsn)
    try:
        later = postgres_app_without_follower.games.create_game(
            "freeform", ["cy", "dee"]
        )  # a higher id, committed first
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            listing = pool.submit(
                lambda: {
                    s.game_id
                    for s in postgres_app_without_follower.listing.list_games(10_000).games
                }
            )
            time.sleep(0.5)
            assert not listing.done(), "the listing waits for the open writer, not past it"
            getattr(writer, ending)()
            listed = listing.result(timeout=30)
    finally:
        writer.close()
    assert later.game_id in listed
    assert (late in listed) == (ending == "commit")
    assert from_index(postgres_app_without_follower) == full_scan(postgres_app_without_follower)


def test_reindex_on_postgres_gives_the_same_index(
    two_postgres_servers: tuple[ServerProcess, ServerProcess],
    postgres_app_without_follower: GameLog,
    tmp_path: Path,
) -> None:
    live = from_index(postgres_app_without_follower)
    assert postgres_app_without_follower.listing.reindex() == len(live)
    assert from_index(postgres_app_without_follower) == live
