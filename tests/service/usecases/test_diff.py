"""Diffs of two lines of play: where they part, and never what a running game hides.

DiffGames names the first ply where two lines part, and shows each line's
parting ply as that game's log shows it to the caller; the diff is no oracle
for what a running game hides (below).
"""

from __future__ import annotations

import pytest

from gamelog.cli.process import ServerProcess
from gamelog.service.model.refusals import Unauthenticated
from gamelog.service.usecases.answers import LineDiff
from gamelog.service.usecases.application import GameLog

from support.cli import gamelog_json
from support.random_play import random_game
from support.two_seats import new_game, play_cards

SEATS = ["ann", "bob"]
BOAT = {"declare": "boat", "requirements": {"food": 2, "worker": 1}}
HIDDEN_POINTS = 4


def test_diff_names_the_first_ply_where_lines_part(memory_app: GameLog) -> None:
    played = random_game(memory_app, "three-too-many", 2, seed=5)
    fork = memory_app.games.fork(played.game_id, None, 10, keep_seed=True)
    game = memory_app.queries.state_at(fork.game_id)
    seat = game.rules.to_act(game.state)[0]
    original_move = memory_app.store.records(played.game_id)[11]["move"]
    other = next(m for m in game.rules.legal_moves(game.state, seat) if m != original_move)
    memory_app.games.play(fork.game_id, fork.tokens[seat], other, 0)
    diff = memory_app.queries.diff(played.game_id, fork.game_id, None)
    assert not diff.identical and diff.common_plies == 10
    assert memory_app.queries.diff(played.game_id, played.game_id, None).identical


def test_diff_shows_the_parting_ply_as_the_callers_log_shows_it(memory_app: GameLog) -> None:
    one, other = new_game(memory_app, seed=1), new_game(memory_app, seed=1)
    play_cards(memory_app, one, 2)
    play_cards(memory_app, other, 1)
    for token in (one.arbiter_token, None, one.tokens["ann"], one.tokens["ben"]):
        diff = memory_app.queries.diff(one.game_id, other.game_id, token)
        logged = memory_app.queries.visible_records(one.game_id, token, 2, 2)[0].notation
        assert f"first: ply 2: {logged}" in diff.description
        assert "hidden until both games end" not in diff.description
    assert diff.common_plies == 1


def test_a_fork_is_compared_with_its_arbiter_token(memory_app: GameLog) -> None:
    one = new_game(memory_app, seed=1)
    play_cards(memory_app, one, 2)
    fork = memory_app.games.fork(one.game_id, one.arbiter_token, 1)
    diff = memory_app.queries.diff(one.game_id, fork.game_id, fork.arbiter_token)
    assert diff.common_plies == 1 and "second: ends after ply 1" in diff.description


def test_a_token_of_neither_game_is_refused_naming_the_games(memory_app: GameLog) -> None:
    one, other, stranger = (new_game(memory_app, seed=s) for s in (1, 2, 3))
    with pytest.raises(Unauthenticated) as refused:
        memory_app.queries.diff(one.game_id, other.game_id, stranger.arbiter_token)
    assert str(one.game_id) in refused.value.message
    assert str(other.game_id) in refused.value.message


def test_diff_two_lines(sqlite_server: ServerProcess) -> None:
    games = gamelog_json(
        sqlite_server, "selfplay", "three-too-many", "--players", "2", "--seed", "2"
    )
    gid = games[0]["game_id"]
    fork = gamelog_json(sqlite_server, "fork", gid, "--at", "10", "--keep-seed")
    same = gamelog_json(sqlite_server, "diff", gid, fork["game_id"])
    assert not same["identical"] and same["common_plies"] == 10


# -- no oracle for what a running game hides ----------------------------------------
#
# The attacker watches a running Pyramidion game whose arbiter turned up a boat:
# everybody sees its requirements, nobody but the arbiter its points. The
# attacker creates games of its own, turns up the same boat in each with a
# guessed number of points, and asks DiffGames where its game and the watched
# one part. If the diff compared the true lines, the one guess that shares the
# ply would name the hidden points. Each answer must be the same whatever the
# guess, for a spectator, a seat of the watched game, and the arbiter of the
# attacker's own game; once both games are finished (everything public), the
# diff compares the true lines again.


def answer(diff: LineDiff, own: str = "") -> tuple[int, bool, str]:
    """What a diff tells; without the ``own`` line's part ("first" or
    "second"): the asker's own ply, which shows the asker's own guess."""
    told = [part for part in diff.description.split("; ") if not (own and part.startswith(own))]
    return diff.common_plies, diff.identical, "; ".join(told)


def test_a_diff_against_guesses_never_tells_a_running_games_hidden_part(
    memory_app: GameLog,
) -> None:
    watched = memory_app.games.create_game("pyramidion", SEATS)
    memory_app.games.play(
        watched.game_id, watched.arbiter_token, {**BOAT, "points": HIDDEN_POINTS}, 0
    )
    shown = memory_app.queries.visible_records(watched.game_id, None)[1].record
    assert shown["move"] is None and "points" not in shown["events"][0]

    answers: dict[str, set[tuple[int, bool, str]]] = {}
    for guess in range(1, 8):
        mine = memory_app.games.create_game("pyramidion", SEATS)
        memory_app.games.play(mine.game_id, mine.arbiter_token, {**BOAT, "points": guess}, 0)
        asked = {
            "spectator": memory_app.queries.diff(watched.game_id, mine.game_id, None),
            "seat": memory_app.queries.diff(watched.game_id, mine.game_id, watched.tokens["ann"]),
            "own arbiter": memory_app.queries.diff(
                mine.game_id, watched.game_id, mine.arbiter_token
            ),
        }
        for who, diff in asked.items():
            own = "first:" if who == "own arbiter" else ""
            answers.setdefault(who, set()).add(answer(diff, own))
    for who, seen in answers.items():
        assert len(seen) == 1, f"the {who}'s diff depends on the hidden points: {seen}"


def test_a_diff_of_a_running_game_still_finds_a_visible_difference(memory_app: GameLog) -> None:
    watched = memory_app.games.create_game("pyramidion", SEATS)
    memory_app.games.play(
        watched.game_id, watched.arbiter_token, {**BOAT, "points": HIDDEN_POINTS}, 0
    )
    other = memory_app.games.create_game("pyramidion", SEATS)
    visible = {"declare": "boat", "requirements": {"food": 1}, "points": HIDDEN_POINTS}
    memory_app.games.play(other.game_id, other.arbiter_token, visible, 0)
    diff = memory_app.queries.diff(watched.game_id, other.game_id, None)
    assert not diff.identical and diff.common_plies == 0
    same = memory_app.queries.diff(watched.game_id, watched.game_id, None)
    assert same.identical and same.common_plies == 1
    unplayed = memory_app.games.create_game("pyramidion", SEATS)
    diff = memory_app.queries.diff(unplayed.game_id, watched.game_id, None)
    assert not diff.identical and diff.common_plies == 0
