"""Standings: exact points per place, byes and forfeits as set, tie-breaks in
the director's order, and the same standings however they are recomputed."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tournament_sim import field_of, run

from gamelog.tournaments.players import Player
from gamelog.tournaments.points import exact, exact_text, table_points
from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.rounds import Result, Round, Table
from gamelog.tournaments.settings import Settings
from gamelog.tournaments.standings import Standing, standings

F = Fraction
FOUR = (F(4), F(2), F(1), F(0))


def players_named(*names: str) -> list[Player]:
    return [Player(name, name.title()) for name in names]


def by_player(rows: tuple[Standing, ...]) -> dict[str, Standing]:
    return {row.player: row for row in rows}


# -- points per place -------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranking", "expected"),
    [
        ((("a",), ("b",), ("c",), ("d",)), {"a": F(4), "b": F(2), "c": F(1), "d": F(0)}),
        ((("a", "b"), ("c",), ("d",)), {"a": F(3), "b": F(3), "c": F(1), "d": F(0)}),
        ((("a",), ("b", "c", "d")), {"a": F(4), "b": F(1), "c": F(1), "d": F(1)}),
        ((("a",), ("b", "c"), ("d",)), {"a": F(4), "b": F(3, 2), "c": F(3, 2), "d": F(0)}),
        ((("a", "b", "c", "d"),), {p: F(7, 4) for p in "abcd"}),
    ],
)
def test_shared_places_split_the_points_of_the_places_they_cover(
    ranking: tuple[tuple[str, ...], ...], expected: dict[str, Fraction]
) -> None:
    points = table_points(Result(ranking), FOUR, F(0))
    assert points == expected
    assert sum(points.values()) == sum(FOUR)


def test_a_draw_at_a_two_player_table_is_half_a_point_each() -> None:
    settings_ = Settings(rounds=1)
    assert table_points(Result((("a", "b"),)), settings_.place_points(2), F(0)) == {
        "a": F(1, 2),
        "b": F(1, 2),
    }


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=6),
    cuts=st.lists(st.booleans(), min_size=5, max_size=5),
    points=st.lists(st.integers(0, 20), min_size=6, max_size=6),
)
def test_shared_places_always_sum_to_the_points_given(
    size: int, cuts: list[bool], points: list[int]
) -> None:
    players = [f"p{i}" for i in range(size)]
    ranking: list[list[str]] = [[players[0]]]
    for player, new_place in zip(players[1:], cuts):
        if new_place:
            ranking.append([player])
        else:
            ranking[-1].append(player)
    row = tuple(F(p) for p in sorted(points[:size], reverse=True))
    gained = table_points(Result(tuple(tuple(p) for p in ranking)), row, F(0))
    assert sum(gained.values()) == sum(row)
    for place in ranking:
        assert len({gained[p] for p in place}) == 1


def test_points_are_written_exactly() -> None:
    assert exact_text(F(3, 2)) == "3/2"
    assert exact_text(F(4)) == "4"
    assert exact("3/2") == F(3, 2)
    for bad in ("1.5", "", "abc", "1e3", "1/0"):
        with pytest.raises(TournamentError):
            exact(bad)


# -- byes and forfeits ------------------------------------------------------------


def test_a_bye_scores_as_the_director_set() -> None:
    players = players_named("ann", "ben", "cy")
    rounds = [Round(1, (Table(1, ("ann", "ben")),), ("cy",), {1: Result((("ann",), ("ben",)))})]
    chess = Settings(rounds=3)
    assert by_player(standings(players, rounds, chess, b"s"))["cy"].points == F(1)
    half = Settings(rounds=3, bye_points="1/2")
    assert by_player(standings(players, rounds, half, b"s"))["cy"].points == F(1, 2)
    four = Settings(rounds=3, table_size=(2, 4), points=((4, 2, 1, 0),), bye_place=2)
    assert by_player(standings(players, rounds, four, b"s"))["cy"].points == F(2)
    mean = Settings(rounds=3, table_size=(3, 4), points=((4, 2, 1, 0),))
    assert mean.bye_score() == F(7, 4)


def test_a_forfeit_scores_the_forfeit_points_and_the_others_their_places() -> None:
    players = players_named("ann", "ben", "cy", "dee")
    result = Result((("ann",), ("cy",), ("dee",), ("ben",)), forfeited=frozenset({"ben"}))
    rounds = [Round(1, (Table(1, ("ann", "ben", "cy", "dee")),), (), {1: result})]
    settings_ = Settings(rounds=2, table_size=(4, 4), points=(FOUR,), forfeit_points=-1)
    rows = by_player(standings(players, rounds, settings_, b"s"))
    assert [rows[p].points for p in ("ann", "cy", "dee", "ben")] == [F(4), F(2), F(1), F(-1)]
    assert rows["ben"].played == 0 and rows["ann"].played == 1


def test_a_table_without_result_scores_nothing_yet() -> None:
    players = players_named("ann", "ben")
    rounds = [Round(1, (Table(1, ("ann", "ben")),))]
    rows = standings(players, rounds, Settings(rounds=1), b"s")
    assert all(row.points == 0 and row.by_round == (None,) for row in rows)


# -- tie-breaks -------------------------------------------------------------------


def two_round_event() -> tuple[list[Player], list[Round]]:
    """ann, cy and fay finish on 1 point. ann beat cy; fay met neither."""
    players = players_named("ann", "ben", "cy", "dee", "eve", "fay")
    r1 = Round(
        1,
        (Table(1, ("ben", "ann")), Table(2, ("cy", "dee")), Table(3, ("eve", "fay"))),
        (),
        {
            1: Result((("ben",), ("ann",)), {"ben": 30, "ann": 10}),
            2: Result((("cy",), ("dee",)), {"cy": 5, "dee": 0}),
            3: Result((("eve", "fay"),), {"eve": 7, "fay": 7}),
        },
    )
    r2 = Round(
        2,
        (Table(1, ("ann", "cy")), Table(2, ("ben", "fay")), Table(3, ("dee", "eve"))),
        (),
        {
            1: Result((("ann",), ("cy",)), {"ann": 40, "cy": 2}),
            2: Result((("ben", "fay"),), {"ben": 3, "fay": 3}),
            3: Result((("eve",), ("dee",)), {"eve": 9, "dee": 1}),
        },
    )
    return players, [r1, r2]


def one_point_group(tiebreaks: tuple[str, ...]) -> list[str]:
    players, rounds = two_round_event()
    rows = standings(players, rounds, Settings(rounds=2, tiebreaks=tiebreaks), b"s")
    return [row.player for row in rows if row.points == 1]


def test_the_directors_tiebreak_order_decides() -> None:
    players, rounds = two_round_event()
    rows = standings(players, rounds, Settings(rounds=2), b"s")
    assert [(row.player, row.points) for row in rows][:2] in (
        [("ben", F(3, 2)), ("eve", F(3, 2))],
        [("eve", F(3, 2)), ("ben", F(3, 2))],
    )
    # Buchholz: fay met eve and ben (3/2 each) = 3; ann met ben and cy = 5/2;
    # cy met dee and ann = 1.
    assert one_point_group(("buchholz",)) == ["fay", "ann", "cy"]
    # Head-to-head: ann beat cy; fay met neither; then game score (fay 10, cy 7).
    assert one_point_group(("head-to-head", "game-score")) == ["ann", "fay", "cy"]
    # First places: ann and cy won once, fay never; then Buchholz.
    assert one_point_group(("first-places", "buchholz")) == ["ann", "cy", "fay"]
    # Game score alone: ann 50, fay 10, cy 7.
    assert one_point_group(("game-score",)) == ["ann", "fay", "cy"]


def test_buchholz_and_median_buchholz_values() -> None:
    players, rounds = two_round_event()
    settings_ = Settings(rounds=2, tiebreaks=("buchholz", "median-buchholz"))
    rows = by_player(standings(players, rounds, settings_, b"s"))
    assert [rows[p].tiebreaks[0] for p in ("ann", "cy", "fay", "ben")] == [
        F(5, 2),
        F(1),
        F(3),
        F(2),
    ]
    # Two opponents only: the median Buchholz drops nothing.
    assert rows["ann"].tiebreaks[1] == rows["ann"].tiebreaks[0]


def test_median_buchholz_drops_the_highest_and_the_lowest_opponent() -> None:
    players = players_named("ann", "ben", "cy", "dee")
    table = Table(1, ("ann", "ben", "cy", "dee"))
    # One 4-player table: ann's opponents ben, cy, dee score 2, 1, 0.
    round_ = Round(1, (table,), (), {1: Result((("ann",), ("ben",), ("cy",), ("dee",)))})
    settings_ = Settings(
        rounds=1, table_size=(4, 4), points=(FOUR,), tiebreaks=("buchholz", "median-buchholz")
    )
    rows = by_player(standings(players, [round_], settings_, b"s"))
    assert rows["ann"].tiebreaks == (F(3), F(1))
    assert rows["dee"].tiebreaks == (F(7), F(2))


def test_head_to_head_counts_only_the_players_still_tied() -> None:
    players, rounds = two_round_event()
    settings_ = Settings(rounds=2, tiebreaks=("game-score", "head-to-head"))
    rows = by_player(standings(players, rounds, settings_, b"s"))
    # ann is alone after game score: her win over cy counts for nothing,
    # since head-to-head is counted in her group of one.
    assert rows["ann"].tiebreaks[1] == 0


def test_the_last_tie_break_is_a_lot_from_the_seed() -> None:
    players = players_named("ann", "ben", "cy", "dee")
    draws = Round(
        1,
        (Table(1, ("ann", "ben")), Table(2, ("cy", "dee"))),
        (),
        {1: Result((("ann", "ben"),)), 2: Result((("cy", "dee"),))},
    )
    settings_ = Settings(rounds=1)
    orders = {
        tuple(row.player for row in standings(players, [draws], settings_, seed))
        for seed in (b"a", b"b", b"c", b"d", b"e", b"f")
    }
    assert len(orders) > 1  # the seed decides
    once = standings(players, [draws], settings_, b"a")
    assert once == standings(list(reversed(players)), [draws], settings_, b"a")
    assert [row.lot for row in once] == sorted(row.lot for row in once)


def test_every_place_is_distinct_and_ordered_by_points() -> None:
    event = run(31, Settings(rounds=5, table_size=(3, 4)), results_seed=3)
    rows = standings(event.players, event.rounds, event.settings, event.seed)
    assert [row.place for row in rows] == list(range(1, 32))
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)


# -- recomputation ------------------------------------------------------------------


def test_standings_do_not_depend_on_the_order_rounds_or_players_come_in() -> None:
    event = run(13, Settings(rounds=4, table_size=(3, 4)), results_seed=7)
    live = standings(event.players, event.rounds, event.settings, event.seed)
    shuffled_players = list(event.players)
    random.Random(1).shuffle(shuffled_players)
    again = standings(shuffled_players, list(reversed(event.rounds)), event.settings, event.seed)
    assert again == live


def test_a_corrected_result_replaces_the_first_one() -> None:
    players = players_named("ann", "ben")
    first = Round(1, (Table(1, ("ann", "ben")),), (), {1: Result((("ann",), ("ben",)))})
    corrected = first.with_result(1, Result((("ben",), ("ann",))))
    before = standings(players, [first], Settings(rounds=1), b"s")
    after = standings(players, [corrected], Settings(rounds=1), b"s")
    assert before[0].player == "ann" and after[0].player == "ben"


def test_a_result_must_rank_exactly_the_tables_players() -> None:
    round_ = Round(1, (Table(1, ("ann", "ben")),))
    for bad in (
        Result((("ann",),)),
        Result((("ann",), ("ben",), ("cy",))),
        Result((("ann", "ann"), ("ben",))),
        Result((("ann",), ("ben",)), {"cy": 3}),
        Result((("ann",), ("ben",)), forfeited=frozenset({"cy"})),
        Result((("ann",), (), ("ben",))),
    ):
        with pytest.raises(TournamentError):
            round_.with_result(1, bad)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    count=st.integers(min_value=2, max_value=25),
    sizes=st.sampled_from([(2, 2), (3, 4), (4, 4), (3, 5)]),
    rounds=st.integers(min_value=1, max_value=5),
    results_seed=st.integers(min_value=0, max_value=1000),
)
def test_the_points_handed_out_are_the_points_standing(
    count: int, sizes: tuple[int, int], rounds: int, results_seed: int
) -> None:
    settings_ = Settings(rounds=rounds, table_size=sizes)
    event = run(count, settings_, results_seed=results_seed)
    rows = standings(event.players, event.rounds, settings_, event.seed)
    given_out = (
        sum(
            (
                sum(settings_.place_points(len(t.seats)), F(0))
                for r in event.rounds
                for t in r.tables
            ),
            F(0),
        )
        + sum(len(r.byes) for r in event.rounds) * settings_.bye_score()
    )
    assert sum((row.points for row in rows), F(0)) == given_out


def test_unknown_players_are_refused() -> None:
    rounds = [Round(1, (Table(1, ("ann", "zed")),))]
    with pytest.raises(TournamentError, match="no player"):
        standings(field_of(2), rounds, Settings(rounds=1), b"s")
