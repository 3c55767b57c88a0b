"""Ratings: the pure function, pinned on a worked example checked step by step
against openskill's own API, and its rules (order, shared places, filters)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from gamelog.tournaments.ratings import RatedGame, RatingFilter, ranked, rate

G1 = RatedGame(
    "g1", "panem", "2026-11-30T19:00:00+00:00", "Club night", "t1", (("ann",), ("ben",), ("cy",))
)
G2 = RatedGame(
    "g2", "panem", "2026-11-30T20:00:00+00:00", "Club night", "t1", (("ben",), ("ann", "cy"))
)
G3 = RatedGame("g3", "panem", "2026-12-07T19:00:00+00:00", "Open", "t2", (("ann",), ("ben",)))


def test_three_games_rate_as_openskill_rates_them_one_table_at_a_time() -> None:
    """By hand, with openskill's API: each table rated in turn, each seat its
    own team, a shared place a shared rank."""
    model = PlackettLuce()
    ann, ben, cy = model.rating(), model.rating(), model.rating()
    [[ann], [ben], [cy]] = model.rate([[ann], [ben], [cy]], ranks=[1, 2, 3])
    [[ben], [ann], [cy]] = model.rate([[ben], [ann], [cy]], ranks=[1, 2, 2])
    [[ann], [ben]] = model.rate([[ann], [ben]], ranks=[1, 2])
    found = rate([G3, G1, G2])["panem"]  # given out of order: rated in the order they finished
    for name, expected in (("ann", ann), ("ben", ben), ("cy", cy)):
        assert found[name].mu == pytest.approx(expected.mu, abs=1e-12)
        assert found[name].sigma == pytest.approx(expected.sigma, abs=1e-12)
    # The numbers, pinned: a change of library or model shows here.
    assert [(r.player, round(r.mu, 3), round(r.sigma, 3), r.games) for r in ranked(found)] == [
        ("ann", 28.496, 7.682, 3),
        ("ben", 25.67, 7.692, 3),
        ("cy", 20.751, 7.823, 2),
    ]
    assert [(s.game_id, s.place, s.table_size) for s in found["ann"].history] == [
        ("g1", 1, 3),
        ("g2", 2, 3),
        ("g3", 1, 2),
    ]
    assert found["cy"].history[-1].mu == pytest.approx(cy.mu)


def test_players_sharing_a_place_move_alike() -> None:
    found = rate(
        [RatedGame("g", "panem", "2026-11-30T19:00:00Z", places=(("ann",), ("ben", "cy")))]
    )
    assert found["panem"]["ben"].mu == found["panem"]["cy"].mu < 25 < found["panem"]["ann"].mu


def test_each_game_type_keeps_its_own_ratings() -> None:
    other = RatedGame("h", "carcassonne-hg", "2026-11-30T19:30:00Z", places=(("cy",), ("ann",)))
    found = rate([G1, other])
    assert found["carcassonne-hg"]["cy"].games == 1 and found["panem"]["cy"].games == 1
    assert found["carcassonne-hg"]["ann"].mu < 25 < found["panem"]["ann"].mu


def test_a_game_without_two_places_teaches_nothing() -> None:
    solo = RatedGame("s", "panem", "2026-11-30T19:30:00Z", places=(("ann", "ben"),))
    assert rate([solo]) == {}


def test_filters_take_the_game_type_the_event_or_tournament_and_the_dates() -> None:
    games = [G1, G2, G3]
    assert [g.game_id for g in games if RatingFilter(event="Club night").admits(g)] == ["g1", "g2"]
    assert [g.game_id for g in games if RatingFilter(event="t2").admits(g)] == ["g3"]
    assert [g.game_id for g in games if RatingFilter(since="2026-12-01").admits(g)] == ["g3"]
    assert [g.game_id for g in games if RatingFilter(until="2026-11-30").admits(g)] == ["g1", "g2"]
    assert not any(RatingFilter(game="hadara").admits(g) for g in games)


def test_two_stored_copies_of_one_game_are_rated_once() -> None:
    first = RatedGame(
        "g1", "panem", "2026-11-30T19:00:00Z", places=(("ann",), ("ben",)), creation_hash="h"
    )
    copy = RatedGame(
        "g9", "panem", "2026-11-30T19:00:00Z", places=(("ann",), ("ben",)), creation_hash="h"
    )
    assert rate([first, copy]) == rate([first])
    assert rate([first, copy])["panem"]["ann"].games == 1
