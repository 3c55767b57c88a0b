"""DiffGames is no oracle for what a running game hides.

The attacker watches a running Pyramidion game whose arbiter turned up a boat:
everybody sees its requirements, nobody but the arbiter its points. The
attacker creates games of its own, turns up the same boat in each with a
guessed number of points, and asks DiffGames where its game and the watched
one part. If the diff compared the true lines, the one guess that shares the
ply would name the hidden points. Each answer must be the same whatever the
guess, for a spectator, a seat of the watched game, and the arbiter of the
attacker's own game; once both games are finished (everything public), the
diff compares the true lines again.
"""

from __future__ import annotations

from gamelog.service.usecases.answers import LineDiff
from gamelog.service.usecases.application import GameLog

SEATS = ["ann", "bob"]
BOAT = {"declare": "boat", "requirements": {"food": 2, "worker": 1}}
HIDDEN_POINTS = 4


def answer(diff: LineDiff) -> tuple[int, bool, str]:
    return diff.common_plies, diff.identical, diff.description


def test_a_diff_against_guesses_never_tells_a_running_games_hidden_part(app: GameLog) -> None:
    watched = app.games.create_game("pyramidion", SEATS)
    app.games.play(watched.game_id, watched.arbiter_token, {**BOAT, "points": HIDDEN_POINTS}, 0)
    shown = app.queries.visible_records(watched.game_id, None)[1].record
    assert shown["move"] is None and "points" not in shown["events"][0]

    answers: dict[str, set[tuple[int, bool, str]]] = {}
    for guess in range(1, 8):
        mine = app.games.create_game("pyramidion", SEATS)
        app.games.play(mine.game_id, mine.arbiter_token, {**BOAT, "points": guess}, 0)
        asked = {
            "spectator": app.queries.diff(watched.game_id, mine.game_id, None),
            "seat": app.queries.diff(watched.game_id, mine.game_id, watched.tokens["ann"]),
            "own arbiter": app.queries.diff(mine.game_id, watched.game_id, mine.arbiter_token),
        }
        for who, diff in asked.items():
            answers.setdefault(who, set()).add(answer(diff))
    for who, seen in answers.items():
        assert len(seen) == 1, f"the {who}'s diff depends on the hidden points: {seen}"


def test_a_diff_of_a_running_game_still_finds_a_visible_difference(app: GameLog) -> None:
    watched = app.games.create_game("pyramidion", SEATS)
    app.games.play(watched.game_id, watched.arbiter_token, {**BOAT, "points": HIDDEN_POINTS}, 0)
    other = app.games.create_game("pyramidion", SEATS)
    visible = {"declare": "boat", "requirements": {"food": 1}, "points": HIDDEN_POINTS}
    app.games.play(other.game_id, other.arbiter_token, visible, 0)
    diff = app.queries.diff(watched.game_id, other.game_id, None)
    assert not diff.identical and diff.common_plies == 0
    same = app.queries.diff(watched.game_id, watched.game_id, None)
    assert same.identical and same.common_plies == 1
    unplayed = app.games.create_game("pyramidion", SEATS)
    diff = app.queries.diff(unplayed.game_id, watched.game_id, None)
    assert not diff.identical and diff.common_plies == 0
