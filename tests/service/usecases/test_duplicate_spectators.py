"""A duplicate round's tables show nothing to spectators while the round runs.

The tables of one size in a duplicate round share one deal: seat n holds the
same cards at every table. The attacker sits at table 2 and watches table 1
without a token, as any spectator may watch a running game. Every card that
table 1's seat n plays openly came from seat n's hand, so it names a card of
the rival's hand at the attacker's own table. The held end (a finished table
would show the whole deal) does not help while table 1 is still running.

So a running table of a duplicate round answers a spectator with
PERMISSION_DENIED through every read (the view, the records, the export and
its text, the audit, a diff, a follow stream); its own seats and the director
read it as before, and once the round is over every table is public.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

from gamelog.games.leaks import find_leaks
from gamelog.service.live.follow import LiveFollow
from gamelog.service.model.refusals import InvalidArgument, PermissionDenied, Unauthenticated
from gamelog.service.usecases.application import GameLog

from support.random_play import InProcessGame, play_random
from support.tournaments import Running, names, start


def spectator_reads(app: GameLog, game_id: Any, own_table: Any, own_token: str) -> dict[str, Any]:
    reads: dict[str, Callable[[], Any]] = {
        "GetState": lambda: app.queries.view(game_id, None).view,
        "GetState at 0": lambda: app.queries.view(game_id, None, 0).view,
        "ListEvents": lambda: [s.record for s in app.queries.visible_records(game_id, None)],
        "ExportGame": lambda: app.record_files.export(game_id, None),
        "ExportGame redacted": lambda: app.record_files.export(game_id, None, redacted=True),
        "ExportGame text": lambda: app.record_files.export_text(game_id, None, redacted=True),
        "AuditGame": lambda: app.queries.audit(game_id, None).to_json(),
        "DiffGames": lambda: app.queries.diff(own_table, game_id, own_token).description,
    }
    answers: dict[str, Any] = {}
    for what, read in reads.items():
        try:
            answers[what] = read()
        except PermissionDenied as refused:
            assert refused.code == "duplicate-table"
            answers[what] = None
    return answers


def follow_first_record(app: GameLog, game_id: Any) -> Any:
    async def follow() -> Any:
        live = LiveFollow(app)
        await live.start()
        try:
            async with live.follow(game_id, None, 0) as subscription:
                async for entry in subscription:
                    return entry.record
        finally:
            await live.stop()
            live.close()

    return asyncio.run(follow())


def duplicate_round(app: GameLog) -> tuple[Running, Any, Any]:
    t = start(app, "three-too-many", 1, (4, 4), names(8), duplicate="seed", seed=b"dup")
    games = t.pair()
    play_random(InProcessGame(app, games[1], t.tokens), random.Random(1), 6)
    return t, games[1], games[2]


def test_a_player_cannot_watch_another_table_of_their_duplicate_round(memory_app: GameLog) -> None:
    t, watched, own = duplicate_round(memory_app)
    game = memory_app.queries.state_at(own)
    me = game.seats[0]
    hidden = game.rules.hidden_from(game.state, me)
    assert hidden

    answers = spectator_reads(memory_app, watched, own, t.tokens[me])
    leaks = {what: find_leaks(data, hidden)[:3] for what, data in answers.items()}
    assert not any(leaks.values()), leaks
    assert all(data is None for data in answers.values()), answers
    with pytest.raises(PermissionDenied):
        follow_first_record(memory_app, watched)

    # A call that needs a seat says so, as at any game.
    with pytest.raises(Unauthenticated):
        memory_app.queries.legal_moves(watched, None)
    # The table's own seats and the director still read it.
    seat = memory_app.queries.state_at(watched).seats[0]
    assert memory_app.queries.view(watched, t.tokens[seat]).viewer == seat
    assert memory_app.queries.visible_records(watched, t.director)
    # A game that is no duplicate table is watched as before.
    other = memory_app.games.create_game("three-too-many", ["ann", "bob"])
    assert memory_app.queries.view(other.game_id, None).viewer is None


def test_every_table_is_public_once_the_duplicate_round_is_over(memory_app: GameLog) -> None:
    t, watched, own = duplicate_round(memory_app)
    play_random(InProcessGame(memory_app, watched, t.tokens), random.Random(1))
    assert (
        memory_app.queries.state_at(watched).is_over
        and not memory_app.queries.state_at(watched).is_finished
    )
    with pytest.raises(PermissionDenied):
        memory_app.queries.view(watched, None)  # over, but its end is held: the round runs on
    play_random(InProcessGame(memory_app, own, t.tokens), random.Random(2))
    assert memory_app.queries.state_at(watched).is_finished
    assert memory_app.queries.view(watched, None).viewer is None
    assert memory_app.queries.visible_records(watched, None)[-1].record["kind"] == "finished"
    assert follow_first_record(memory_app, watched) is not None


def test_a_finished_fork_of_a_running_table_stays_hidden_until_the_round_is_over(
    memory_app: GameLog,
) -> None:
    """The director forks a running table and plays the fork to its end. A
    fork holds no end back, and its creation holds the table's deal: were it
    public once finished, anyone would read every seat's hand of the round."""
    t, watched, own = duplicate_round(memory_app)
    fork = memory_app.games.fork(watched, t.director, 0)
    fork_of_fork = memory_app.games.fork(fork.game_id, fork.arbiter_token, 0)
    rng = random.Random(2)
    while not memory_app.queries.state_at(fork.game_id).is_finished:
        game = memory_app.queries.state_at(fork.game_id)
        seat = game.rules.to_act(game.state)[0]
        moves = memory_app.queries.legal_moves(fork.game_id, fork.tokens[seat]).moves
        memory_app.games.play(fork.game_id, fork.tokens[seat], rng.choice(moves), game.position)
    assert not memory_app.queries.state_at(watched).is_finished
    for game_id in (fork.game_id, fork_of_fork.game_id):
        with pytest.raises(PermissionDenied) as refused:
            memory_app.queries.view(game_id, None)
        assert refused.value.code == "duplicate-table"
    assert memory_app.queries.visible_records(
        fork.game_id, fork.arbiter_token
    )  # its arbiter reads it

    play_random(InProcessGame(memory_app, watched, t.tokens), random.Random(1))
    play_random(InProcessGame(memory_app, own, t.tokens), random.Random(2))
    assert memory_app.queries.state_at(watched).is_finished
    assert memory_app.queries.visible_records(fork.game_id, None)[-1].record["kind"] == "finished"


def test_only_a_tournament_tags_a_game_duplicate(memory_app: GameLog) -> None:
    """The tag withholds a running game from spectators: a fork cannot add it."""
    game = memory_app.games.create_game("three-too-many", ["ann", "bob"])
    with pytest.raises(InvalidArgument):
        memory_app.games.fork(game.game_id, game.arbiter_token, 0, metadata={"Duplicate": "mine"})
    with pytest.raises(InvalidArgument):
        memory_app.games.create_game(
            "three-too-many", ["ann", "bob"], metadata={"Duplicate": "mine"}
        )
