"""Group commit: moves that arrive together share one transaction, every caller
returns only after its own move is committed, and a game that lost a race does
not take the other games of its transaction down with it."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from gamelog.service.model.refusals import Conflict
from gamelog.service.storage.group_commit import GroupCommit
from gamelog.service.storage.locks import STRIPES as LOCK_STRIPES
from gamelog.service.storage.settings import postgres_env, store_env
from gamelog.service.usecases.application import GameLog

STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=STORES)
def store_settings(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """The settings of a fresh store: a SQLite file, or the session's
    PostgreSQL database (games have fresh ids, so tests never collide)."""
    if request.param == "postgres":
        return postgres_env(request.getfixturevalue("postgres_dsn"))
    return store_env(db=str(tmp_path / "g.db"))


class Gate:
    """A store whose first transaction waits until ``expected`` saves queued."""

    def __init__(self, commits_of: Any = None, fail_with: set[str] | None = None) -> None:
        self.transactions: list[tuple[Any, ...]] = []
        self.stored: list[Any] = []
        self.first_may_commit = threading.Event()
        self.first_entered = threading.Event()
        self.fail_with = fail_with or set()
        self.lock = threading.Lock()

    def save_together(self, *aggregates: Any) -> None:
        if not self.transactions and not self.stored:
            self.first_entered.set()
            self.first_may_commit.wait(5)
        if self.fail_with & set(aggregates):
            raise ValueError(f"refused: {sorted(self.fail_with & set(aggregates))}")
        time.sleep(0.001)  # a commit takes a while: that is when others queue
        with self.lock:
            self.transactions.append(aggregates)
            self.stored.extend(aggregates)


def save_all(commits: GroupCommit, gate: Gate, names: list[str]) -> dict[str, Any]:
    """Save each name from its own thread; release the first commit once all
    the others are queued. Returns each name's outcome ("ok" or the error)."""
    outcomes: dict[str, Any] = {}

    def save(name: str) -> None:
        try:
            commits.save(name)
            # Returning means stored: the caller may acknowledge now.
            assert name in gate.stored
            outcomes[name] = "ok"
        except BaseException as error:  # an interrupted save is an outcome too
            outcomes[name] = error

    threads = [threading.Thread(target=save, args=(n,)) for n in names]
    threads[0].start()
    gate.first_entered.wait(5)  # the first caller leads and waits at the gate
    for thread in threads[1:]:
        thread.start()
    deadline = time.monotonic() + 5
    while len(commits._queue) < len(names) - 1 and time.monotonic() < deadline:
        time.sleep(0.001)
    gate.first_may_commit.set()
    for thread in threads:
        thread.join(10)
    return outcomes


def test_saves_that_queue_during_a_commit_share_the_next_transaction() -> None:
    gate = Gate()
    commits = GroupCommit(gate.save_together)
    names = [f"game-{i}" for i in range(8)]
    outcomes = save_all(commits, gate, names)
    assert outcomes == dict.fromkeys(names, "ok")
    assert sorted(gate.stored) == sorted(names)  # each exactly once
    # The leader's own transaction, then one for the seven that queued.
    assert [len(t) for t in gate.transactions] == [1, 7]
    assert commits.transactions == 2


def test_a_failing_game_is_retried_alone_and_fails_only_its_own_caller() -> None:
    gate = Gate(fail_with={"game-3"})
    commits = GroupCommit(gate.save_together)
    names = [f"game-{i}" for i in range(6)]
    outcomes = save_all(commits, gate, names)
    assert isinstance(outcomes.pop("game-3"), ValueError)
    assert outcomes == {n: "ok" for n in names if n != "game-3"}
    assert sorted(gate.stored) == sorted(n for n in names if n != "game-3")


def test_a_store_that_went_away_fails_the_whole_transaction_at_once() -> None:
    """Saving each alone would meet the same store away, once per game: each
    caller gets the shared transaction's error, and only one attempt is paid."""

    class StoreAway(Exception):
        pass

    attempts: list[tuple[Any, ...]] = []
    gate = Gate()

    def save_together(*aggregates: Any) -> None:
        attempts.append(aggregates)
        if len(attempts) == 1:
            gate.save_together(*aggregates)  # the leader's own, at the gate
        else:
            raise StoreAway("no primary")

    commits = GroupCommit(save_together, alone_after=lambda e: not isinstance(e, StoreAway))
    names = [f"game-{i}" for i in range(6)]
    outcomes = save_all(commits, gate, names)
    assert outcomes.pop("game-0") == "ok"  # the leader's own, before the store went
    assert all(isinstance(error, StoreAway) for error in outcomes.values())
    assert [len(a) for a in attempts] == [1, 5]  # no game tried alone after


def test_a_batch_never_exceeds_its_limit() -> None:
    gate = Gate()
    commits = GroupCommit(gate.save_together, max_batch=3)
    names = [f"game-{i}" for i in range(10)]
    outcomes = save_all(commits, gate, names)
    assert outcomes == dict.fromkeys(names, "ok")
    assert max(len(t) for t in gate.transactions) <= 3
    assert sorted(gate.stored) == sorted(names)


class Interrupted(BaseException):
    """Not a refusal: the save stopped halfway (KeyboardInterrupt, say)."""


def test_an_interrupted_transaction_tells_nobody_in_it_that_it_was_stored() -> None:
    class Interrupting(Gate):
        def save_together(self, *aggregates: Any) -> None:
            if len(aggregates) > 1:
                raise Interrupted
            super().save_together(*aggregates)

    gate = Interrupting()
    commits = GroupCommit(gate.save_together)
    names = [f"game-{i}" for i in range(4)]
    outcomes = save_all(commits, gate, names)
    assert outcomes.pop("game-0") == "ok"
    # The three that queued shared the interrupted transaction: none was stored,
    # and none of them may return as if it had been.
    assert gate.stored == ["game-0"]
    assert len(outcomes) == 3 and not any(o == "ok" for o in outcomes.values())


def games_on_distinct_lock_stripes(app: GameLog, count: int) -> list[Any]:
    """``count`` new games no two of which share a lock stripe: a game whose
    stripe the gated leader holds would wait for the gate, not queue beside
    it (about one run in a hundred with random ids)."""
    games: dict[int, Any] = {}
    while len(games) < count:
        game = app.games.create_game("freeform", ["ann", "ben"])
        games.setdefault(game.game_id.int % LOCK_STRIPES, game)
    return list(games.values())


def test_a_lost_race_in_one_game_does_not_fail_the_games_committed_with_it(
    store_settings: dict[str, str],
) -> None:
    """Two processes' worth of applications on one store. The second
    stores game A's position 2 first; the first then plays A at that position
    (its cached copy is behind) in one group commit with game C: A gets the
    conflict, C is stored."""
    first, second = GameLog(env=dict(store_settings)), GameLog(env=dict(store_settings))
    try:
        game_a, game_b, game_c = games_on_distinct_lock_stripes(first, 3)
        first.games.play(game_a.game_id, game_a.tokens["ann"], {"note": "warm the cache"}, 0)
        second.games.play(game_a.game_id, game_a.tokens["ben"], {"note": "second wins"}, 1)

        gate = Gate()
        transactions: list[int] = []
        leading = threading.Event()

        def gated(*games: Any) -> None:
            if not transactions:
                leading.set()
                gate.first_may_commit.wait(5)
            transactions.append(len(games))
            first.store._save_together(*games)

        first.store.group_commit = GroupCommit(gated)
        outcomes: dict[str, Any] = {}

        def play(label: str, game: Any, position: int) -> None:
            try:
                first.games.play(game.game_id, game.tokens["ann"], {"note": label}, position)
                outcomes[label] = "ok"
            except Exception as error:
                outcomes[label] = error

        leader = threading.Thread(target=play, args=("b", game_b, 0))
        leader.start()
        # The racers queue only once B's transaction is under way, however
        # slowly a loaded machine gets the leader there.
        assert leading.wait(10)
        racers = [
            threading.Thread(target=play, args=("a-late", game_a, 1)),
            threading.Thread(target=play, args=("c", game_c, 0)),
        ]
        for racer in racers:
            racer.start()
        deadline = time.monotonic() + 5
        while len(first.store.group_commit._queue) < 2 and time.monotonic() < deadline:
            time.sleep(0.001)
        gate.first_may_commit.set()
        for thread in [leader, *racers]:
            thread.join(10)

        # B alone, then A and C together, then A and C each alone.
        assert transactions == [1, 2, 1, 1]
        assert outcomes["b"] == outcomes["c"] == "ok"
        assert isinstance(outcomes["a-late"], Conflict)
        assert outcomes["a-late"].code == "position-taken"
        assert [r["move"] for r in second.store.records(game_c.game_id)[1:]] == [{"note": "c"}]
        notes_a = [r["move"] for r in second.store.records(game_a.game_id)[1:]]
        assert notes_a == [{"note": "warm the cache"}, {"note": "second wins"}]
        for game in (game_a, game_b, game_c):
            assert second.queries.audit(game.game_id).ok
    finally:
        first.close()
        second.close()


def test_concurrent_play_stores_every_acknowledged_move(store_settings: dict[str, str]) -> None:
    """Many games played at once through group commit: every move that returned
    is in the store, in order, and each game audits clean."""
    threads = 8
    app = GameLog(env=dict(store_settings))
    try:
        games = [app.games.create_game("freeform", ["ann", "ben"]) for _ in range(threads)]
        acknowledged: dict[Any, list[int]] = {g.game_id: [] for g in games}

        def play(game: Any) -> None:
            for position in range(25):
                app.games.play(game.game_id, game.tokens["ann"], {"n": position}, position)
                acknowledged[game.game_id].append(position)

        workers = [threading.Thread(target=play, args=(g,)) for g in games]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(60)
        for game in games:
            moves = [r["move"]["n"] for r in app.store.records(game.game_id)[1:]]
            assert moves == acknowledged[game.game_id] == list(range(25))
            assert app.queries.audit(game.game_id).ok
    finally:
        app.close()


def test_a_coroutines_save_after_close_is_still_stored() -> None:
    import asyncio

    stored: list[Any] = []
    commits = GroupCommit(lambda *games: stored.extend(games))

    async def save(name: str) -> None:
        await asyncio.wait_for(commits.save_async(name), 5)

    asyncio.run(save("before"))
    commits.close()
    asyncio.run(save("after"))  # not left waiting for a committer that has gone
    assert stored == ["before", "after"]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_coroutines_save_after_the_committer_was_interrupted_is_still_stored() -> None:
    """An interruption (not a refusal) ends the committer thread with it:
    the saves after it get a committer of their own, not a dead one's."""
    import asyncio

    stored: list[Any] = []
    interrupt = [True]
    interrupted: list[threading.Thread] = []

    def save_together(*games: Any) -> None:
        if interrupt.pop() if interrupt else False:
            interrupted.append(threading.current_thread())
            raise Interrupted
        stored.extend(games)

    commits = GroupCommit(save_together)

    async def save(name: str) -> None:
        await asyncio.wait_for(commits.save_async(name), 5)

    with pytest.raises(RuntimeError, match="interrupted"):
        asyncio.run(save("lost"))
    asyncio.run(save("next"))  # waited forever for the dead committer before
    assert stored == ["next"]
    # The interrupted committer ends by raising: let it end within this test,
    # whose warning filter expects that, not in whichever test runs next.
    for thread in interrupted:
        thread.join(5)
    commits.close()


# -- gathering: a commit waits a moment for the games saved moments ago ---------------


def _gathering(**settings: Any) -> tuple[GroupCommit, list[tuple[Any, ...]]]:
    transactions: list[tuple[Any, ...]] = []
    settings.setdefault("key", lambda name: name)  # a game is its name here
    commits = GroupCommit(lambda *games: transactions.append(games), **settings)
    return commits, transactions


HANG = 600.0
"""A gathering time only a hang would sit out: where a test says a commit
does not wait, its saves are bounded by ``BOUND`` seconds, far below it."""
BOUND = 60.0


def test_a_lone_game_never_waits_to_gather() -> None:
    """One game played move after move: nobody else is coming, so no commit
    waits, however long gathering may take."""
    import asyncio

    commits, transactions = _gathering(gather_seconds=HANG)

    async def play() -> None:
        for _ in range(3):
            await asyncio.wait_for(commits.save_async("a"), BOUND)

    asyncio.run(play())
    assert transactions == [("a",), ("a",), ("a",)]
    commits.close()


def test_a_game_saved_moments_ago_is_waited_for_and_shares_the_commit() -> None:
    import asyncio

    commits, transactions = _gathering(gather_seconds=HANG)

    async def play() -> None:
        await asyncio.wait_for(commits.save_async("b"), BOUND)  # b is playing too
        first = commits.save_async("a")
        await asyncio.sleep(0.05)  # a's commit waits for b's next move ...
        assert transactions == [("b",)]
        second = commits.save_async("b")  # ... and leads as soon as it queued
        await asyncio.wait_for(asyncio.gather(first, second), BOUND)

    asyncio.run(play())
    assert transactions == [("b",), ("a", "b")]
    commits.close()


def test_gathering_gives_up_after_its_time() -> None:
    import asyncio

    commits, transactions = _gathering(gather_seconds=0.05)

    async def play() -> float:
        await asyncio.wait_for(commits.save_async("b"), BOUND)
        started = time.monotonic()
        await asyncio.wait_for(commits.save_async("a"), BOUND)  # b never comes
        return time.monotonic() - started

    assert asyncio.run(play()) >= 0.04  # it did wait for b
    assert transactions == [("b",), ("a",)]
    commits.close()


def test_neither_a_finished_game_nor_one_long_quiet_is_waited_for() -> None:
    import asyncio

    commits, transactions = _gathering(
        gather_seconds=HANG,
        recent_seconds=0.05,
        key=lambda name: name.rstrip("!"),
        is_last=lambda name: name.endswith("!"),
    )

    async def play() -> None:
        await asyncio.wait_for(commits.save_async("b"), BOUND)
        await asyncio.wait_for(commits.save_async("b!"), BOUND)  # b's last move: it ended
        await asyncio.wait_for(commits.save_async("c"), BOUND)
        await asyncio.sleep(0.1)  # c has been quiet for longer than "moments ago"
        await asyncio.wait_for(commits.save_async("a"), BOUND)

    asyncio.run(play())
    assert transactions == [("b",), ("b!",), ("c",), ("a",)]
    commits.close()


def test_a_threads_save_joins_a_gathering_commit() -> None:
    """A save from a thread (not a coroutine) that queues while the committer
    gathers is in that transaction, and wakes it as a coroutine's would."""
    import asyncio

    commits, transactions = _gathering(gather_seconds=HANG)

    async def play() -> None:
        await asyncio.wait_for(commits.save_async("b"), BOUND)
        first = commits.save_async("a")
        await asyncio.sleep(0.05)
        thread = threading.Thread(target=commits.save, args=("b",))
        thread.start()
        await asyncio.wait_for(first, BOUND)
        await asyncio.to_thread(thread.join, BOUND)

    asyncio.run(play())
    assert transactions == [("b",), ("a", "b")]
    commits.close()


def test_gathering_goes_on_while_the_games_keep_coming() -> None:
    """Three games saved moments ago come back one by one, each in the middle
    of a pause after the last but all three later than one pause: one commit
    waits for them all. The pause is long, so a slow machine's late wake-up
    (half a pause to spare either way) cannot move one into another pause."""
    import asyncio

    pause = 1.5
    commits, transactions = _gathering(
        gather_seconds=pause, gather_limit_seconds=HANG, recent_seconds=HANG
    )

    async def play() -> float:
        await asyncio.wait_for(
            asyncio.gather(*(commits.save_async(game) for game in "bcd")), BOUND
        )  # b, c and d are playing too
        transactions.clear()
        started = time.monotonic()
        first = commits.save_async("a")
        later = []
        for game in "cdb":
            await asyncio.sleep(pause / 2)  # each one lands in the next pause
            later.append(commits.save_async(game))
            await asyncio.sleep(pause / 2)
        await asyncio.wait_for(asyncio.gather(first, *later), BOUND)
        return time.monotonic() - started

    waited = asyncio.run(play())
    assert transactions == [("a", "c", "d", "b")]
    assert waited >= 2 * pause  # longer than one pause: it went on gathering
    commits.close()


def test_gathering_stops_at_its_limit_however_the_games_come() -> None:
    """Games keep coming, one in the middle of every pause, but the limit
    ends the gathering: the commit leaves without the one that comes later
    (which it would have waited for, pause after pause, without a limit)."""
    import asyncio

    pause, limit = 1.5, 2.4
    commits, transactions = _gathering(
        gather_seconds=pause, gather_limit_seconds=limit, recent_seconds=HANG
    )

    async def play() -> float:
        await asyncio.wait_for(
            asyncio.gather(*(commits.save_async(game) for game in "bcde")), BOUND
        )
        transactions.clear()
        started = time.monotonic()
        done: list[float] = []
        first = commits.save_async("a")
        first.add_done_callback(lambda _: done.append(time.monotonic() - started))
        later = []
        for game in "cde":  # one in every pause, but never all of them
            await asyncio.sleep(pause / 2)
            later.append(commits.save_async(game))
            await asyncio.sleep(pause / 2)
        await asyncio.wait_for(asyncio.gather(first, *later), BOUND)
        return done[0]

    waited = asyncio.run(play())
    assert waited >= limit * 0.9  # it gathered up to its limit ...
    assert "a" in transactions[0] and "e" not in transactions[0]  # ... and no longer
    commits.close()
