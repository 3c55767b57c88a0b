"""Table plans: the fewest tables seating the most players, sizes in range."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.tables import TablePlan, plan_tables


@pytest.mark.parametrize(
    ("players", "smallest", "largest", "plan"),
    [
        (10, 3, 4, TablePlan((4, 3, 3), 0)),  # the example
        (101, 3, 4, TablePlan((4,) * 23 + (3,) * 3, 0)),
        (24, 4, 4, TablePlan((4,) * 6, 0)),
        (25, 4, 4, TablePlan((4,) * 6, 1)),
        (7, 2, 2, TablePlan((2, 2, 2), 1)),
        (8, 2, 2, TablePlan((2, 2, 2, 2), 0)),
        (5, 3, 4, TablePlan((4,), 1)),
        (10, 3, 5, TablePlan((5, 5), 0)),
        (11, 3, 5, TablePlan((4, 4, 3), 0)),
        (1, 2, 2, TablePlan((), 1)),
        (0, 2, 2, TablePlan((), 0)),
    ],
)
def test_worked_plans(players: int, smallest: int, largest: int, plan: TablePlan) -> None:
    assert plan_tables(players, smallest, largest) == plan


def test_a_two_player_range_makes_pairs_and_at_most_one_bye() -> None:
    for players in range(0, 40):
        plan = plan_tables(players, 2, 2)
        assert set(plan.sizes) <= {2}
        assert plan.byes == players % 2


def test_bad_ranges_are_refused() -> None:
    with pytest.raises(TournamentError, match="larger than the largest"):
        plan_tables(10, 4, 3)
    with pytest.raises(TournamentError, match="at least 2"):
        plan_tables(10, 1, 3)


@given(
    players=st.integers(min_value=0, max_value=300),
    smallest=st.integers(min_value=2, max_value=6),
    extra=st.integers(min_value=0, max_value=3),
)
def test_plans_seat_the_most_players_at_the_fewest_tables(
    players: int, smallest: int, extra: int
) -> None:
    largest = smallest + extra
    plan = plan_tables(players, smallest, largest)
    assert all(smallest <= size <= largest for size in plan.sizes)
    assert plan.seated + plan.byes == players
    assert list(plan.sizes) == sorted(plan.sizes, reverse=True)
    assert max(plan.sizes, default=0) - min(plan.sizes, default=0) <= 1
    # By brute force over the number of tables: nobody else could be seated,
    # and no fewer tables seat as many.
    possible = [
        (min(players, t * largest), t) for t in range(0, players + 1) if t * smallest <= players
    ]
    most = max(seated for seated, _ in possible)
    assert plan.seated == most
    assert len(plan.sizes) == min(t for seated, t in possible if seated == most)
