"""The game index: a read model of the log that listings, trees and short ids read.

The index must always say what a full scan of the log says (the way listings
worked before it): after random creates, moves, finishes, forks and imports;
rebuilt from scratch; with a damaged game in the store. Filters, paging and
short ids are checked against that same scan.
"""

from __future__ import annotations

import json
import random
import sqlite3
import tempfile
import time
import types
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Tracking
from eventsourcing.utils import get_topic
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.games.protocol import ARBITER
from gamelog.service.index.adapters import INDEX_FOLLOW
from gamelog.service.index.projection import TOPICS, GameIndexProjection
from gamelog.service.index.view import GameFilter, IndexMoved, TableAssigned
from gamelog.service.model.refusals import DataLoss, GamelogError, InvalidArgument, NotFound
from gamelog.service.usecases import creation
from gamelog.service.usecases.answers import CreatedGame
from gamelog.service.usecases.application import GameLog

from support.index_scan import assert_index_is_the_scan, from_index, full_scan

SEATS = ("ann", "ben", "cy", "dee")
TAGS = {"Event": ("Open", "Club night"), "Round": ("1", "2"), "Table": ("1", "2", "3")}


# -- stores -----------------------------------------------------------------------------


def open_app(kind: str, folder: str, follow: bool = False) -> GameLog:
    env = {INDEX_FOLLOW: "y" if follow else "n"}
    if kind == "sqlite":
        env |= {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{folder}/g.db"}
    else:
        env |= {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    return GameLog(env=env)


@pytest.fixture(params=["sqlite", "popo"])
def memory_or_sqlite_app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameLog]:
    """The application on each store the index lives beside in one process,
    its index not following the log in the background: it catches up on each read."""
    app = open_app(request.param, str(tmp_path))
    yield app
    app.close()


# -- random histories -----------------------------------------------------------------


class History:
    """Random creates, moves, finishes, forks and imports through the application."""

    def __init__(self, app: GameLog, seed: int) -> None:
        self.app = app
        self.random = random.Random(seed)
        self.games: list[CreatedGame] = []

    def run(self, steps: int) -> None:
        actions = [self.create, self.create, self.move, self.move, self.finish, self.fork]
        actions.append(self.import_)
        self.create()
        for _ in range(steps):
            self.random.choice(actions)()

    def create(self) -> None:
        r = self.random
        game = r.choice(["freeform", "freeform", "three-too-many"])
        seats = r.sample(SEATS, r.randint(2, 4))
        tags = {key: r.choice(values) for key, values in TAGS.items() if r.random() < 0.6}
        self.games.append(self.app.games.create_game(game, seats, metadata=tags))

    def _running(self, game: str) -> CreatedGame | None:
        running = [
            g
            for g in self.games
            if g.record["game"] == game and not self.app.queries.state_at(g.game_id).is_finished
        ]
        return self.random.choice(running) if running else None

    def move(self) -> None:
        created = self._running(self.random.choice(["freeform", "three-too-many"]))
        if created is None:
            return
        state = self.app.queries.state_at(created.game_id)
        seats = [s for s in state.rules.to_act(state.state) if s != ARBITER]
        if not seats:
            return
        seat = self.random.choice(seats)
        move = self.random.choice(state.rules.legal_moves(state.state, seat))
        self.app.games.play(created.game_id, created.tokens[seat], move, state.position)

    def finish(self) -> None:
        created = self._running("freeform")
        if created is None:
            return
        state = self.app.queries.state_at(created.game_id)
        scores = {seat: self.random.randint(0, 9) for seat in created.record["seats"]}
        move = {"result": {"scores": scores}}
        self.app.games.play(created.game_id, created.arbiter_token, move, state.position)

    def fork(self) -> None:
        created = self.random.choice(self.games)
        last = self.app.queries.state_at(created.game_id).position
        position = self.random.randint(0, last)
        try:
            fork = self.app.games.fork(created.game_id, created.arbiter_token, position)
        except GamelogError:
            return  # over at that position, say: nothing to fork
        self.games.append(fork)

    def import_(self) -> None:
        # A root's arbiter exports its running branches cut (redacted), which
        # would not import: take a root whose branches are all finished.
        roots = [
            g
            for g in self.games
            if g.record["parent"] is None
            and all(n.finished for n in self.app.listing.tree(g.game_id)[1][1:])
        ]
        if not roots:
            return
        created = self.random.choice(roots)
        data = self.app.record_files.export(created.game_id, created.arbiter_token)
        self.games += self.app.record_files.import_record_file(data).games


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32), steps=st.integers(5, 30), kind=st.sampled_from(["sqlite", "popo"])
)
def test_the_index_equals_a_full_scan_after_random_histories(
    seed: int, steps: int, kind: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = open_app(kind, folder)
        try:
            history = History(app, seed)
            history.run(steps // 2)
            assert_index_is_the_scan(app)  # caught up in the middle...
            history.run(steps - steps // 2)
            scan = assert_index_is_the_scan(app)  # ...and again at the end
            assert app.listing.reindex() == len(scan)
            assert from_index(app) == scan  # rebuilt from scratch: the same
        finally:
            app.close()


def test_an_index_left_behind_catches_up_with_the_log(tmp_path: Path) -> None:
    """A second application on the same file (another process, say) stores
    games; the first one lists them all on its next call."""
    first = open_app("sqlite", str(tmp_path))
    second = open_app("sqlite", str(tmp_path))
    try:
        History(second, 7).run(20)
        assert from_index(first) == full_scan(first)
        History(first, 8).run(10)
        assert from_index(second) == full_scan(second)
    finally:
        first.close()
        second.close()


def test_the_background_follower_keeps_the_index_close_to_the_log(tmp_path: Path) -> None:
    app = open_app("sqlite", str(tmp_path), follow=True)
    try:
        app.index.poll_seconds = 0.05
        created = app.games.create_game("freeform", ["ann", "ben"])
        view = app.index.view
        for _ in range(100):
            if view.get(created.game_id) is not None:
                break
            app.index._stopping.wait(0.05)
        assert view.get(created.game_id) is not None, "indexed with no read asking for it"
    finally:
        app.close()


# -- exactly once ---------------------------------------------------------------------


def test_each_stretch_of_the_log_is_stored_once(memory_or_sqlite_app: GameLog) -> None:
    """A follower that read a stretch of the log after another process stored
    it (its tracking position moved on meanwhile) stores nothing."""
    memory_or_sqlite_app.games.create_game("freeform", ["ann", "ben"])
    view = memory_or_sqlite_app.index.view
    assert memory_or_sqlite_app.index.catch_up() == view.position() > 0
    with pytest.raises(IndexMoved):
        view.record([], Tracking(memory_or_sqlite_app.store.name, view.position() + 1), previous=0)
    assert len(view.everything()) == 1


def test_the_index_resumes_from_its_tracking_position(tmp_path: Path) -> None:
    app = open_app("sqlite", str(tmp_path))
    History(app, 3).run(10)
    app.listing.list_games()
    position = app.index.view.position()
    app.close()
    reopened = open_app("sqlite", str(tmp_path))
    try:
        assert reopened.index.view.position() == position
        History(reopened, 4).run(10)
        assert from_index(reopened) == full_scan(reopened)
    finally:
        reopened.close()


# -- a damaged game ---------------------------------------------------------------------


def test_a_game_stored_damaged_is_left_out_and_the_others_listed(tmp_path: Path) -> None:
    app = open_app("sqlite", str(tmp_path))
    healthy = app.games.create_game("freeform", ["ann", "ben"])
    damaged = app.games.create_game("freeform", ["ann", "ben"])
    malformed = app.games.create_game("freeform", ["ann", "ben"])
    app.close()
    with sqlite3.connect(tmp_path / "g.db") as conn:
        where = "WHERE originator_id = ? AND originator_version = 1"
        conn.execute(
            f"UPDATE stored_events SET state = ? {where}", (b'{"not": js', damaged.game_id.hex)
        )
        (state,) = conn.execute(
            f"SELECT state FROM stored_events {where}", (malformed.game_id.hex,)
        ).fetchone()
        event = json.loads(state)
        event["record"]["seats"] = "ann"
        conn.execute(
            f"UPDATE stored_events SET state = ? {where}",
            (json.dumps(event).encode(), malformed.game_id.hex),
        )
    app = open_app("sqlite", str(tmp_path))
    try:
        assert [s.game_id for s in app.listing.list_games().games] == [healthy.game_id]
        with pytest.raises(DataLoss):
            app.listing.tree(damaged.game_id)
        later = app.games.create_game("freeform", ["cy", "dee"])
        assert [s.game_id for s in app.listing.list_games().games] == [
            later.game_id,
            healthy.game_id,
        ]
    finally:
        app.close()


# -- filters and paging -----------------------------------------------------------------


@pytest.fixture
def many(memory_or_sqlite_app: GameLog) -> tuple[GameLog, dict[UUID, dict[str, Any]]]:
    History(memory_or_sqlite_app, 11).run(60)
    return memory_or_sqlite_app, full_scan(memory_or_sqlite_app)


def matches(game: dict[str, Any], f: GameFilter) -> bool:
    pairs = f.tag_pairs()
    return (
        (not f.game or game["game"] == f.game)
        and (not f.status or game["finished"] == (f.status == "finished"))
        and all(game["tags"].get(k) == v for k, v in pairs)
        and (not f.player or f.player in game["seats"])
        and (
            f.parent_game_id is None
            or bool(game["parent"] and UUID(game["parent"]["game_id"]) == f.parent_game_id)
        )
    )


FILTERS = [
    GameFilter(),
    GameFilter(game="freeform"),
    GameFilter(game="three-too-many", status="running"),
    GameFilter(status="finished"),
    GameFilter(tags={"Event": "Open"}),
    GameFilter(tags={"Event": "Open", "Table": "2"}),
    GameFilter(event="Club night", round="1"),
    GameFilter(round="2", tags={"Table": "3"}, game="freeform"),
    GameFilter(player="cy"),
    GameFilter(player="dee", tags={"Round": "1"}, status="running"),
    GameFilter(event="Nowhere"),
    GameFilter(event="Open", tags={"Event": "Club night"}),
]


@pytest.mark.parametrize("filters", FILTERS, ids=repr)
def test_filters_list_exactly_the_matching_games_newest_first(
    many: tuple[GameLog, dict[UUID, dict[str, Any]]], filters: GameFilter
) -> None:
    app, scan = many
    wanted = sorted((g for g in scan if matches(scan[g], filters)), key=lambda g: -scan[g]["seq"])
    assert [s.game_id for s in app.listing.list_games(10_000, filters).games] == wanted


def test_the_parent_filter_lists_a_games_forks(
    many: tuple[GameLog, dict[UUID, dict[str, Any]]],
) -> None:
    app, scan = many
    parents = {UUID(g["parent"]["game_id"]) for g in scan.values() if g["parent"]}
    assert parents, "the history forked some games"
    for parent in parents:
        f = GameFilter(parent_game_id=parent)
        wanted = sorted((g for g in scan if matches(scan[g], f)), key=lambda g: -scan[g]["seq"])
        assert [s.game_id for s in app.listing.list_games(100, f).games] == wanted


@pytest.mark.parametrize("size", [1, 3, 7])
def test_pages_list_every_game_once_in_order(
    many: tuple[GameLog, dict[UUID, dict[str, Any]]], size: int
) -> None:
    app, scan = many
    for filters in (GameFilter(), GameFilter(tags={"Event": "Open"}), GameFilter(player="ann")):
        seen: list[UUID] = []
        token = ""
        while True:
            page = app.listing.list_games(size, filters, token)
            assert len(page.games) <= size
            seen += [s.game_id for s in page.games]
            token = page.next_page_token
            if not token:
                break
        wanted = sorted(
            (g for g in scan if matches(scan[g], filters)), key=lambda g: -scan[g]["seq"]
        )
        assert seen == wanted


def test_summaries_carry_last_position_and_status(memory_or_sqlite_app: GameLog) -> None:
    created = memory_or_sqlite_app.games.create_game(
        "freeform", ["ann", "ben"], metadata={"Event": "Open"}
    )
    memory_or_sqlite_app.games.play(created.game_id, created.tokens["ann"], {"text": "e4"}, 0)
    (summary,) = memory_or_sqlite_app.listing.list_games(5).games
    assert (summary.last_position, summary.status) == (1, "running")
    result = {"result": {"scores": {"ann": 1, "ben": 0}}}
    memory_or_sqlite_app.games.play(created.game_id, created.arbiter_token, result, 1)
    (summary,) = memory_or_sqlite_app.listing.list_games(5).games
    assert (summary.last_position, summary.status, summary.finished) == (3, "finished", True)


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"filters": GameFilter(status="paused")}, "bad-filter"),
        ({"filters": GameFilter(tags={"Table": "4" * 1025})}, "bad-filter"),
        ({"filters": GameFilter(player="p" * 1025)}, "bad-filter"),
        ({"limit": 0}, "bad-limit"),
        ({"limit": 10_001}, "bad-limit"),
        ({"page_token": "x1"}, "bad-page-token"),
        ({"page_token": "²"}, "bad-page-token"),
    ],
)
def test_bad_listing_requests_are_refused(
    memory_or_sqlite_app: GameLog, kwargs: dict[str, Any], reason: str
) -> None:
    with pytest.raises(InvalidArgument) as refused:
        memory_or_sqlite_app.listing.list_games(**kwargs)
    assert refused.value.code == reason


class Seating(Aggregate):
    """A stand-in for the tournaments' aggregate: it seats a game at a table."""

    class TableSeated(Aggregate.Event):
        game_id: UUID
        tournament_id: str

    def seat(self, game_id: UUID, tournament_id: str) -> None:
        self.trigger_event(self.TableSeated, game_id=game_id, tournament_id=tournament_id)


@GameIndexProjection.change_of.register(Seating.TableSeated)
def _(self: GameIndexProjection, event: Seating.TableSeated, notification_id: int) -> Any:
    return TableAssigned(event.game_id, event.tournament_id)


def test_the_tournament_hook_fills_tournament_id(memory_or_sqlite_app: GameLog) -> None:
    """As ``index_projection`` tells the tournaments to do: a topic more, and
    a ``change_of`` that says what its event changes."""
    memory_or_sqlite_app.index.projection.topics = (*TOPICS, get_topic(Seating.TableSeated))
    table = memory_or_sqlite_app.games.create_game(
        "freeform", ["ann", "ben"], metadata={"Event": "Open"}
    )
    other = memory_or_sqlite_app.games.create_game(
        "freeform", ["ann", "ben"], metadata={"Event": "Open"}
    )
    seating = Seating()
    seating.seat(table.game_id, "t-1")
    memory_or_sqlite_app.store.save(seating)
    listed = memory_or_sqlite_app.listing.list_games(
        10, GameFilter(tournament_id="t-1", event="Open")
    ).games
    assert [s.game_id for s in listed] == [table.game_id]
    assert [
        s.game_id
        for s in memory_or_sqlite_app.listing.list_games(10, GameFilter(event="Open")).games
    ] == [
        other.game_id,
        table.game_id,
    ]


# -- short ids and creation hashes ----------------------------------------------------------


def with_ids(monkeypatch: pytest.MonkeyPatch, *hex_ids: str) -> None:
    """The next games get these ids (32 hex digits each)."""
    ids = iter(UUID(h) for h in hex_ids)
    monkeypatch.setattr(creation, "uuid", types.SimpleNamespace(uuid4=lambda: next(ids)))


def test_a_unique_prefix_names_its_game(
    memory_or_sqlite_app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_ids(monkeypatch, "abcd1234" + "0" * 24, "abcd5678" + "0" * 24, "1234abcd" + "0" * 24)
    first, second, third = (
        memory_or_sqlite_app.games.create_game("freeform", ["ann", "ben"]) for _ in range(3)
    )
    assert memory_or_sqlite_app.listing.resolve_game_id("abcd1") == first.game_id
    assert memory_or_sqlite_app.listing.resolve_game_id("ABCD5678") == second.game_id
    assert memory_or_sqlite_app.listing.resolve_game_id("1234") == third.game_id
    assert (
        memory_or_sqlite_app.listing.resolve_game_id("1234abcd-0000") == third.game_id
    )  # dashes where they fall
    assert memory_or_sqlite_app.listing.resolve_game_id(f"  {second.game_id}  ") == second.game_id
    assert (
        memory_or_sqlite_app.listing.resolve_game_id(second.game_id.hex.upper()) == second.game_id
    )


def test_an_ambiguous_prefix_is_refused_naming_how_many_match(
    memory_or_sqlite_app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_ids(monkeypatch, *(f"abcd{i}" + "0" * 27 for i in range(3)))
    for _ in range(3):
        memory_or_sqlite_app.games.create_game("freeform", ["ann", "ben"])
    with pytest.raises(InvalidArgument) as refused:
        memory_or_sqlite_app.listing.resolve_game_id("abcd")
    assert refused.value.code == "ambiguous-game-id"
    assert "3 games" in refused.value.message


@pytest.mark.parametrize("text", ["abc", "abcg", "", "ab-c", "a b c d", "abcd" * 9])
def test_what_is_no_game_id_is_refused(memory_or_sqlite_app: GameLog, text: str) -> None:
    with pytest.raises(InvalidArgument) as refused:
        memory_or_sqlite_app.listing.resolve_game_id(text)
    assert refused.value.code == "bad-game-id"


def test_an_unknown_prefix_is_not_found_and_a_full_id_is_taken_as_is(
    memory_or_sqlite_app: GameLog,
) -> None:
    memory_or_sqlite_app.games.create_game("freeform", ["ann", "ben"])
    nowhere = uuid.uuid4()
    with pytest.raises(NotFound):
        memory_or_sqlite_app.listing.resolve_game_id(
            next(
                h
                for h in ("0000", "ffff")
                if not memory_or_sqlite_app.index.view.ids_with_prefix(h, 1)
            )
        )
    assert memory_or_sqlite_app.listing.resolve_game_id(str(nowhere)) == nowhere


def test_an_imported_record_is_found_by_its_creation_hash(memory_or_sqlite_app: GameLog) -> None:
    created = memory_or_sqlite_app.games.create_game("three-too-many", ["ann", "ben"])
    other = memory_or_sqlite_app.games.create_game("three-too-many", ["ann", "ben"])
    data = memory_or_sqlite_app.record_files.export(created.game_id, created.arbiter_token)
    (copy,) = memory_or_sqlite_app.record_files.import_record_file(data).games
    found = memory_or_sqlite_app.listing.games_with_creation_hash(created.record["hash"])
    assert found == [created.game_id, copy.game_id]
    assert memory_or_sqlite_app.listing.games_with_creation_hash(other.record["hash"]) == [
        other.game_id
    ]
    assert memory_or_sqlite_app.listing.games_with_creation_hash("0" * 64) == []


def test_a_wide_tree_costs_its_size_not_its_square(
    memory_app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone may fork a finished game, as often as they like, and anyone may
    ask for its tree (the web page does on every open). Walking the tree
    copied the whole list of games still to visit for every game visited:
    100,000 forks of one game cost some 8 s per GetTree.

    Ten times the forks must cost about ten times the CPU, not a hundred
    times: a ratio of two sizes in one test (the best of three of each, in
    this process's CPU time), so a loaded machine slows both alike."""
    from gamelog.service.index.view import IndexedGame

    root = uuid.UUID(int=1)

    def game(n: int, parent: UUID | None) -> IndexedGame:
        link = {"game_id": str(parent), "position": 1, "hash": "0" * 64} if parent else None
        return IndexedGame(uuid.UUID(int=n), n, "freeform", "1", ("ann",), {}, link, "", "")

    def tree_of(forks: int) -> list[IndexedGame]:
        grandchild = game(forks + 2, uuid.UUID(int=2))
        return [game(1, None), *(game(n, root) for n in range(2, forks + 2)), grandchild]

    view = memory_app.index.view
    monkeypatch.setattr(view, "last_positions", lambda ids: {})

    def cost(games: list[IndexedGame]) -> float:
        monkeypatch.setattr(view, "tree_of", lambda game_id: games)
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            found, nodes = memory_app.listing.tree(root)
            best = min(best, time.process_time() - started)
            assert found == root and len(nodes) == len(games)
        return best

    small, large = tree_of(5_000), tree_of(50_000)
    small_cost = cost(small)
    ratio = cost(large) / max(small_cost, 1e-6)
    assert ratio < 35, f"ten times the forks cost {ratio:.0f} times the CPU"
    grandchild = large[-1]
    _, nodes = memory_app.listing.tree(root)  # the large tree is the one in place now
    # Parents first, each branch's own branches right after it, in order made.
    assert [n.game_id for n in nodes[:4]] == [
        root,
        uuid.UUID(int=2),
        grandchild.game_id,
        uuid.UUID(int=3),
    ]
