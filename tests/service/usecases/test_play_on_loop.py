"""PlayMove on the event loop (``GameLog.play_async``): a move of a game the
process holds is decided on the loop and waits for its group commit without a
thread; anything else goes through ``play`` in a thread. Either way the
answers, the stored records and the guarantees are those of ``play``."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from gamelog.service.model.refusals import (
    Conflict,
    InvalidArgument,
    PermissionDenied,
    Unauthenticated,
)
from gamelog.service.storage.group_commit import GroupCommit
from gamelog.service.storage.settings import store_env
from gamelog.service.usecases.application import GameLog


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def warm(app: GameLog, created: Any) -> None:
    """The first move through ``play`` puts the game and its credentials in memory."""
    app.games.play(created.game_id, created.tokens["ann"], {"note": "first"}, 0)


def test_moves_decided_on_the_loop_are_stored_and_chained(
    sqlite_app: GameLog, tmp_path: Path
) -> None:
    created = sqlite_app.games.create_game("freeform", ["ann", "ben"])
    warm(sqlite_app, created)

    async def play_some() -> list[Any]:
        played = []
        for position in range(1, 6):
            played.append(
                await sqlite_app.play_on_loop.play(
                    created.game_id, created.tokens["ann"], {"n": position}, position
                )
            )
        return played

    played = run(play_some())
    assert [p.position for p in played] == [2, 3, 4, 5, 6]
    assert [p.shown[0].record["move"] for p in played] == [{"n": n} for n in range(1, 6)]
    assert sqlite_app.queries.audit(created.game_id).ok
    # Acknowledged means committed: another application on the file sees them all.
    other = GameLog(env=store_env(db=str(tmp_path / "g.sqlite")))
    try:
        moves = [r["move"] for r in other.store.records(created.game_id)[2:]]
        assert moves == [{"n": n} for n in range(1, 6)]
    finally:
        other.close()


def test_refusals_on_the_loop_are_plays_refusals(sqlite_app: GameLog) -> None:
    created = sqlite_app.games.create_game("three-too-many", ["ann", "ben"])
    state = sqlite_app.queries.view(created.game_id, created.tokens["ann"])
    card = state.view["hand"][0]
    sqlite_app.games.play(created.game_id, created.tokens["ann"], {"card": card}, 0)
    ben = created.tokens["ben"]

    async def attempt(token: str | None, move: Any, at: int) -> Exception:
        with pytest.raises(Exception) as caught:
            await sqlite_app.play_on_loop.play(created.game_id, token, move, at)
        return caught.value

    stale = run(attempt(ben, {"card": 0}, 0))
    assert isinstance(stale, Conflict) and stale.code == "stale-position"
    turn = run(attempt(created.tokens["ann"], {"card": 0}, 1))
    assert isinstance(turn, PermissionDenied) and turn.code == "not-your-turn"
    bad = run(attempt(ben, {"card": 999}, 1))
    assert bad.code == "no-such-card"  # type: ignore[attr-defined]
    assert isinstance(run(attempt("not-a-token", {"card": 0}, 1)), Unauthenticated)
    assert isinstance(run(attempt(ben, ["not", "an", "object"], 1)), InvalidArgument)
    # A refused move writes nothing, and the game goes on from where it was.
    assert sqlite_app.queries.state_at(created.game_id).position == 1
    hand = sqlite_app.queries.view(created.game_id, ben).view["hand"]
    played = run(sqlite_app.play_on_loop.play(created.game_id, ben, {"card": hand[0]}, 1))
    assert played.position == 2 and sqlite_app.queries.audit(created.game_id).ok


def test_a_retried_request_returns_the_first_result(sqlite_app: GameLog) -> None:
    created = sqlite_app.games.create_game("freeform", ["ann", "ben"])
    warm(sqlite_app, created)
    token = created.tokens["ann"]

    async def twice() -> tuple[Any, Any]:
        first = await sqlite_app.play_on_loop.play(created.game_id, token, {"n": 1}, 1, "req-1")
        again = await sqlite_app.play_on_loop.play(created.game_id, token, {"n": 1}, 1, "req-1")
        return first, again

    first, again = run(twice())
    assert not first.replayed and again.replayed
    assert first.position == again.position == 2
    assert [r["hash"] for r in first.records] == [r["hash"] for r in again.records]
    assert len(sqlite_app.store.records(created.game_id)) == 3


def test_two_moves_of_one_game_at_once_store_one(sqlite_app: GameLog) -> None:
    """Both name position 1: one is stored, the other is told the position
    moved on, whether it waited on the loop or in a thread."""
    created = sqlite_app.games.create_game("freeform", ["ann", "ben"])
    warm(sqlite_app, created)
    token = created.tokens["ann"]

    async def race() -> list[Any]:
        with ThreadPoolExecutor(4) as pool:
            return list(
                await asyncio.gather(
                    *(
                        sqlite_app.play_on_loop.play(
                            created.game_id, token, {"n": n}, 1, executor=pool
                        )
                        for n in range(4)
                    ),
                    return_exceptions=True,
                )
            )

    outcomes = run(race())
    stored = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(stored) == 1 and stored[0].position == 2
    assert all(isinstance(o, Conflict) for o in refused) and len(refused) == 3
    assert len(sqlite_app.store.records(created.game_id)) == 3
    assert sqlite_app.queries.audit(created.game_id).ok


def test_moves_of_many_games_on_the_loop_share_transactions(sqlite_app: GameLog) -> None:
    games = [sqlite_app.games.create_game("freeform", ["ann", "ben"]) for _ in range(8)]
    for created in games:
        warm(sqlite_app, created)
    before = sqlite_app.store.group_commit.transactions

    async def all_at_once() -> list[Any]:
        return list(
            await asyncio.gather(
                *(
                    sqlite_app.play_on_loop.play(g.game_id, g.tokens["ann"], {"n": 1}, 1)
                    for g in games
                )
            )
        )

    played = run(all_at_once())
    assert [p.position for p in played] == [2] * 8
    assert sqlite_app.store.group_commit.transactions - before < 8
    for created in games:
        assert len(sqlite_app.store.records(created.game_id)) == 3
        assert sqlite_app.queries.audit(created.game_id).ok


def test_a_coroutines_save_waits_for_a_thread_leading_a_commit() -> None:
    """A coroutine's save queued while a thread leads is led by the group
    commit's own thread once that thread steps down, and answered on its loop."""
    stored: list[Any] = []
    release = threading.Event()

    def save_together(*names: Any) -> None:
        if "thread" in names:
            release.wait(5)
        stored.append(names)

    commits = GroupCommit(save_together)
    leader = threading.Thread(target=commits.save, args=("thread",))
    leader.start()

    async def queued() -> None:
        while not commits._leading:
            await asyncio.sleep(0.001)
        saving = commits.save_async("coroutine")
        await asyncio.sleep(0.01)
        assert not saving.done()  # the thread's transaction has not committed
        release.set()
        await saving

    try:
        run(queued())
    finally:
        release.set()
        leader.join(5)
        commits.close()
    assert stored == [("thread",), ("coroutine",)]


def test_a_failed_save_fails_only_its_coroutine() -> None:
    def save_together(*names: Any) -> None:
        if "bad" in names:
            raise ValueError("refused")

    commits = GroupCommit(save_together)

    async def both() -> list[Any]:
        return list(
            await asyncio.gather(
                commits.save_async("good"), commits.save_async("bad"), return_exceptions=True
            )
        )

    try:
        good, bad = run(both())
    finally:
        commits.close()
    assert good is None and isinstance(bad, ValueError)


def test_a_save_that_cannot_be_handed_in_leaves_the_game_free(
    sqlite_app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = sqlite_app.games.create_game("freeform", ["ann", "ben"])
    warm(sqlite_app, created)

    def cannot(aggregate: Any) -> Any:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(sqlite_app.store.group_commit, "save_async", cannot)
    with pytest.raises(RuntimeError):
        run(sqlite_app.play_on_loop.play(created.game_id, created.tokens["ann"], {"n": 1}, 1))
    monkeypatch.undo()
    # The game's lock is free for another thread, and nothing was stored or cached.
    result: list[Any] = []
    thread = threading.Thread(
        target=lambda: result.append(
            sqlite_app.games.play(created.game_id, created.tokens["ann"], {"n": 2}, 1)
        )
    )
    thread.start()
    thread.join(10)
    assert not thread.is_alive()
    assert result[0].position == 2
    assert [r["move"] for r in sqlite_app.store.records(created.game_id)[1:]] == [
        {"note": "first"},
        {"n": 2},
    ]


def test_a_follow_by_short_id_looks_it_up_off_the_loop(
    sqlite_app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gamelog.service.rpc.games import GameLogServicer
    from gamelog.v1 import gamelog_pb2 as pb

    created = sqlite_app.games.create_game("freeform", ["ann"])
    looked_up_in: list[threading.Thread] = []
    resolve = sqlite_app.listing.resolve_game_id

    def resolving(text: str) -> Any:
        looked_up_in.append(threading.current_thread())
        return resolve(text)

    monkeypatch.setattr(sqlite_app.listing, "resolve_game_id", resolving)
    followed: list[Any] = []

    class Live:
        def follow(self, game_id: Any, token: Any, from_position: int) -> Any:
            followed.append(game_id)
            raise Conflict("enough", "this test follows no further")

    class Context:
        def invocation_metadata(self) -> tuple[()]:
            return ()

        async def abort(self, *args: Any) -> None:
            pass

    async def follow() -> threading.Thread:
        with ThreadPoolExecutor(1) as pool:
            servicer = GameLogServicer(sqlite_app, Live(), pool)  # type: ignore[arg-type]
            request = pb.FollowGameRequest(game_id=str(created.game_id)[:8])
            with pytest.raises(Conflict):  # the status is made where it is served
                await servicer.FollowGame(request, Context())  # type: ignore[arg-type]
        return threading.current_thread()

    loop_thread = run(follow())
    assert followed == [created.game_id]
    assert looked_up_in and loop_thread not in looked_up_in


def test_an_end_decided_on_the_loop_is_signed_before_it_is_answered(
    memory_app: GameLog,
) -> None:
    from gamelog.replay.signatures import head_of, verifies

    created = memory_app.games.create_game("freeform", ["ann", "ben"])
    warm(memory_app, created)
    result = {"result": {"scores": {"ann": 1, "ben": 0}}}
    with ThreadPoolExecutor(1) as executor:
        run(
            memory_app.play_on_loop.play(
                created.game_id, created.arbiter_token, result, 1, executor=executor
            )
        )
    records = memory_app.store.records(created.game_id)
    assert records[-1]["kind"] == "finished"
    [(signature, public)] = memory_app.signing.kept("game", created.game_id)
    assert signature.head == head_of("game", records) and verifies(public, signature)
