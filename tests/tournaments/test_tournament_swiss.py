"""The Swiss system: worked examples, rematches checked by brute force,
floaters, byes and colours."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tournament_sim import Event, field_of, met_pairs, play, run

from gamelog.tournaments.history import History, history_of
from gamelog.tournaments.seating import colour_preference
from gamelog.tournaments.settings import Settings
from gamelog.tournaments.swiss import pair_swiss

LEVEL = Fraction(1)


def history(met: Sequence[tuple[str, str]], byes: dict[str, int] | None = None) -> History:
    table: dict[str, dict[str, int]] = {}
    for a, b in met:
        table.setdefault(a, {})[b] = table.get(a, {}).get(b, 0) + 1
        table.setdefault(b, {})[a] = table.get(b, {}).get(a, 0) + 1
    return History(met=table, byes=byes or {})


def perfect_matchings(players: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first, rest = players[0], list(players[1:])
    for index, partner in enumerate(rest):
        for more in perfect_matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *more]


def fewest_violations(players: Sequence[str], past: History) -> int:
    """By brute force: the fewest rematches plus repeated byes of any pairing."""
    options: list[tuple[str | None, list[str]]]
    if len(players) % 2:
        options = [(bye, [p for p in players if p != bye]) for bye in players]
    else:
        options = [(None, list(players))]
    best = len(players)
    for bye, rest in options:
        repeat_bye = 1 if bye is not None and past.byes.get(bye, 0) else 0
        for pairing in perfect_matchings(rest):
            rematches = sum(1 for a, b in pairing if past.times_met(a, b))
            best = min(best, repeat_bye + rematches)
    return best


def violations(pairing_pairs: Sequence[tuple[str, str]], bye: str | None, past: History) -> int:
    repeat_bye = 1 if bye is not None and past.byes.get(bye, 0) else 0
    return repeat_bye + sum(1 for a, b in pairing_pairs if past.times_met(a, b))


# -- worked examples ---------------------------------------------------------------


def test_a_score_group_pairs_top_half_against_bottom_half() -> None:
    order = list("abcdefgh")
    points = {p: LEVEL for p in order}
    assert pair_swiss(order, points, History()).pairs == (
        ("a", "e"),
        ("b", "f"),
        ("c", "g"),
        ("d", "h"),
    )


def test_score_groups_are_paired_separately_from_the_top() -> None:
    order = list("abcdefgh")
    points = {p: Fraction(2) if p in "abcd" else Fraction(1) for p in order}
    assert pair_swiss(order, points, History()).pairs == (
        ("a", "c"),
        ("b", "d"),
        ("e", "g"),
        ("f", "h"),
    )


def test_a_rematch_is_avoided_by_a_transposition() -> None:
    order = list("abcdefgh")
    points = {p: LEVEL for p in order}
    pairing = pair_swiss(order, points, history([("a", "e")]))
    assert pairing.pairs == (("a", "f"), ("b", "e"), ("c", "g"), ("d", "h"))
    assert pairing.rematches == 0


def test_an_odd_score_group_floats_its_lowest_player_down() -> None:
    order = list("abcdef")
    points = {p: Fraction(2) if p in "abc" else Fraction(1) for p in order}
    pairing = pair_swiss(order, points, History())
    # a-b in the top group; c floats and meets the best of the next group.
    assert pairing.pairs == (("a", "b"), ("c", "d"), ("e", "f"))


def test_a_group_that_cannot_pair_floats_down_rather_than_rematch() -> None:
    order = list("abcdef")
    points = {p: Fraction(2) if p in "ab" else Fraction(1) for p in order}
    pairing = pair_swiss(order, points, history([("a", "b")]))
    assert pairing.rematches == 0
    assert ("a", "b") not in pairing.pairs
    assert {p for pair in pairing.pairs[:2] for p in pair} >= {"a", "b"}
    # The floaters meet the top of the group below, each its best possible.
    assert pairing.pairs[0] == ("a", "c")
    assert pairing.pairs[1] == ("b", "d")


def test_a_pairing_that_would_force_a_rematch_below_is_not_taken() -> None:
    # The natural a-b would leave c and d, who met: the leaders float instead.
    order = list("abcd")
    points = {"a": Fraction(1), "b": Fraction(1), "c": Fraction(0), "d": Fraction(0)}
    pairing = pair_swiss(order, points, history([("c", "d")]))
    assert pairing.rematches == 0
    assert sorted(pairing.pairs) == [("a", "c"), ("b", "d")]


def test_unavoidable_rematches_are_as_few_as_possible() -> None:
    order = list("abcd")
    points = {p: LEVEL for p in order}
    everyone = [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d")]
    pairing = pair_swiss(order, points, history(everyone))
    assert pairing.rematches == 1
    assert ("c", "d") in pairing.pairs


def test_the_bye_goes_to_the_lowest_player_without_one() -> None:
    order = list("abcde")
    points = {p: LEVEL for p in order}
    assert pair_swiss(order, points, History()).bye == "e"
    assert pair_swiss(order, points, history([], byes={"e": 1})).bye == "d"
    # d met everyone but e: e's bye would leave d only opponents met before,
    # so d, the next in line, gets the bye.
    chosen = pair_swiss(order, points, history([("d", p) for p in "abc"]))
    assert chosen.bye == "d"
    assert chosen.rematches == 0


# -- rematches: brute force ----------------------------------------------------------


@st.composite
def situations(draw: st.DrawFn) -> tuple[list[str], dict[str, Fraction], History]:
    n = draw(st.integers(min_value=2, max_value=9))
    players = [f"p{i}" for i in range(n)]
    pairs = list(combinations(players, 2))
    met = draw(st.lists(st.sampled_from(pairs), max_size=len(pairs))) if pairs else []
    byes = {p: 1 for p in draw(st.lists(st.sampled_from(players), max_size=n))}
    scores = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    order = sorted(players, key=lambda p: -scores[players.index(p)])
    colours = {p: draw(st.text("WB", max_size=4)) for p in players}
    past = history(met, byes)
    seats = {p: tuple((0 if c == "W" else 1, 2) for c in colours[p]) for p in players}
    past = History(met=past.met, seats=seats, byes=past.byes)
    points = {p: Fraction(scores[players.index(p)], 2) for p in players}
    return order, points, past


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_no_rematch_or_second_bye_where_some_pairing_avoids_it(
    situation: tuple[list[str], dict[str, Fraction], History],
) -> None:
    order, points, past = situation
    pairing = pair_swiss(order, points, past)
    seated = [p for pair in pairing.pairs for p in pair]
    if pairing.bye is not None:
        seated.append(pairing.bye)
    assert sorted(seated) == sorted(order)
    assert violations(pairing.pairs, pairing.bye, past) == fewest_violations(order, past)


def test_whole_small_tournaments_rematch_only_when_forced() -> None:
    for count in (6, 7, 8):
        for results_seed in range(6):
            settings_ = Settings(rounds=count - 1 if count % 2 == 0 else count)
            event = Event(field_of(count), settings_, b"brute")
            rng = random.Random(results_seed)
            for _ in range(settings_.rounds):
                past = history_of(event.rounds)
                seated = event.pair()
                pairs = [(t.seats[0], t.seats[1]) for t in seated.tables]
                bye = seated.byes[0] if seated.byes else None
                assert violations(pairs, bye, past) == fewest_violations(event.active(), past)
                event.rounds.append(play(seated, rng))


# -- byes and colours ---------------------------------------------------------------


def test_byes_go_to_a_different_player_every_round() -> None:
    event = run(9, Settings(rounds=8), seed=b"byes")
    byes = [r.byes[0] for r in event.rounds]
    assert len(set(byes)) == 8


def test_colours_alternate_and_balance() -> None:
    worst_difference, three_in_a_row, players = 0, 0, 0
    for results_seed in range(4):
        event = run(40, Settings(rounds=9), seed=b"colours", results_seed=results_seed)
        past = history_of(event.rounds)
        for player in event.players:
            colours = past.colours(player.id)
            players += 1
            worst_difference = max(worst_difference, abs(colours.count("W") - colours.count("B")))
            three_in_a_row += "WWW" in colours or "BBB" in colours
    assert worst_difference <= 2
    assert three_in_a_row == 0, f"{three_in_a_row} of {players} players"


def test_colour_preferences_are_granted_when_they_differ() -> None:
    event = run(20, Settings(rounds=5), seed=b"prefs")
    for index, round_ in enumerate(event.rounds[1:], start=1):
        past = history_of(event.rounds[:index])
        for table in round_.tables:
            white, black = table.seats
            wish_white = colour_preference(past.colours(white))[0]
            wish_black = colour_preference(past.colours(black))[0]
            if wish_white and wish_black and wish_white != wish_black:
                assert (wish_white, wish_black) == ("W", "B")


def test_no_pair_meets_twice_in_a_large_field() -> None:
    event = run(120, Settings(rounds=7), seed=b"large")
    assert max(met_pairs(event.rounds).values()) == 1
