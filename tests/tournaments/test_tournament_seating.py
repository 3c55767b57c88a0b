"""Who moves first: FIDE colour preferences at 2-player tables, fair seat
rotation at larger ones."""

from __future__ import annotations

import pytest
from tournament_sim import run

from gamelog.tournaments.history import history_of
from gamelog.tournaments.seating import (
    ABSOLUTE,
    MILD,
    NONE,
    STRONG,
    allocate_colours,
    colour_clash,
    colour_preference,
    rotate_seats,
)
from gamelog.tournaments.settings import Settings


@pytest.mark.parametrize(
    ("past", "preference"),
    [
        ("", (None, NONE)),
        ("W", ("B", STRONG)),
        ("WB", ("W", MILD)),
        ("WW", ("B", ABSOLUTE)),
        ("BWW", ("B", ABSOLUTE)),
        ("WBB", ("W", ABSOLUTE)),
        ("WBWB", ("W", MILD)),
        ("WWBWB", ("B", STRONG)),
        ("WWBWBW", ("B", ABSOLUTE)),  # two more whites than blacks
    ],
)
def test_colour_preferences(past: str, preference: tuple[str | None, int]) -> None:
    assert colour_preference(past) == preference


def test_clashes_rank_by_the_weaker_preference() -> None:
    assert colour_clash(("W", ABSOLUTE), ("B", ABSOLUTE)) == 0
    assert colour_clash(("W", ABSOLUTE), (None, NONE)) == 0
    assert colour_clash(("W", ABSOLUTE), ("W", MILD)) == MILD
    assert colour_clash(("B", ABSOLUTE), ("B", ABSOLUTE)) == ABSOLUTE


def test_allocation_grants_the_stronger_then_alternates_then_the_higher_ranked() -> None:
    # Both want white, ben absolutely: ben gets it.
    assert allocate_colours("ann", "WB", "ben", "BB", coin=True) == ("ben", "ann")
    # Equal strength: in the latest game where their colours differed (the
    # last one) ann had black, so ann has white now.
    assert allocate_colours("ann", "BWB", "ben", "BBW", coin=True) == ("ann", "ben")
    # Identical histories: the higher-ranked (first) gets the preference.
    assert allocate_colours("ann", "WB", "ben", "WB", coin=False) == ("ann", "ben")
    # No preferences at all: the coin.
    assert allocate_colours("ann", "", "ben", "", coin=True) == ("ann", "ben")
    assert allocate_colours("ann", "", "ben", "", coin=False) == ("ben", "ann")
    # Only one preference: granted.
    assert allocate_colours("ann", "", "ben", "W", coin=True) == ("ann", "ben")


def test_rotation_seats_who_sat_first_least_first() -> None:
    seats = {"ann": ((0, 3),), "ben": ((2, 3),), "cy": ((1, 3),)}
    lots = {"ann": 0, "ben": 1, "cy": 2}
    assert rotate_seats(["ann", "ben", "cy"], seats, lots) == ("ben", "cy", "ann")


def test_first_seats_rotate_fairly_over_a_tournament() -> None:
    event = run(24, Settings(rounds=5, table_size=(4, 4)), seed=b"seats")
    for index, round_ in enumerate(event.rounds[1:], start=1):
        past = history_of(event.rounds[:index])
        for table in round_.tables:
            firsts = {
                p: sum(1 for seat, _ in past.seats.get(p, ()) if seat == 0) for p in table.seats
            }
            assert firsts[table.seats[0]] == min(firsts.values())
    past = history_of(event.rounds)
    firsts = [sum(1 for seat, _ in past.seats[p.id] if seat == 0) for p in event.players]
    # 30 first seats over 24 players: nobody sat first three times.
    assert sum(firsts) == 30
    assert max(firsts) <= 2
