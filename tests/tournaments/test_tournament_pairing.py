"""Seating whole rounds: round 1 from the seed, later rounds by standings,
the roster's entries and withdrawals, and random tournaments of every shape."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tournament_sim import Event, field_of, met_pairs, play, run

from gamelog.tournaments.draw import shuffled
from gamelog.tournaments.history import history_of
from gamelog.tournaments.players import Player, RosterChange, active_players
from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.rounds import Round, Table, check_round
from gamelog.tournaments.settings import Settings
from gamelog.tournaments.standings import standings
from gamelog.tournaments.tables import plan_tables

HERE = Path(__file__).parent


def test_round_one_is_the_seeded_shuffle_cut_into_tables() -> None:
    event = Event(field_of(10), Settings(rounds=3, table_size=(3, 4)), b"open-2026")
    first = event.pair()
    drawn = shuffled(sorted(event.active()), b"open-2026", "round 1")
    assert [t.seats for t in first.tables] == [drawn[0:4], drawn[4:7], drawn[7:10]]
    assert first.byes == ()


def test_the_draw_depends_on_the_seed_and_nothing_else() -> None:
    settings_ = Settings(rounds=1)
    players = field_of(12)
    seatings = {
        tuple(t.seats for t in Event(players, settings_, seed).pair().tables)
        for seed in (b"a", b"b", b"c")
    }
    assert len(seatings) == 3
    again = Event(list(reversed(players)), settings_, b"a").pair()
    assert again == Event(players, settings_, b"a").pair()


def test_a_whole_tournament_is_the_same_in_another_process() -> None:
    # Set iteration order changes with PYTHONHASHSEED; the pairing must not.
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]);"
        "from tournament_sim import run;"
        "from gamelog.tournaments.settings import Settings;"
        "e = run(23, Settings(rounds=5, table_size=(3, 4)), seed=b'proc', results_seed=4);"
        "print(json.dumps([[list(t.seats) for t in r.tables] + [list(r.byes)] for r in e.rounds]))"
    )
    outputs = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script, str(HERE)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    here = run(23, Settings(rounds=5, table_size=(3, 4)), seed=b"proc", results_seed=4)
    rounds = [[list(t.seats) for t in r.tables] + [list(r.byes)] for r in here.rounds]
    assert json.loads(outputs.pop()) == rounds


def test_later_rounds_seat_the_leader_at_table_one_among_new_opponents() -> None:
    event = run(16, Settings(rounds=3, table_size=(4, 4)), results_seed=2)
    third = event.rounds[2]
    table = standings(event.players, event.rounds[:2], event.settings, event.seed)
    past = history_of(event.rounds[:2])
    assert table[0].player in third.tables[0].seats
    for seated in third.tables:
        assert not any(past.times_met(a, b) for a in seated.seats for b in seated.seats)
    # The leader met the next three in the standings already, so the top
    # table cannot simply be the top four.
    assert {row.player for row in table[:4]} != set(third.tables[0].seats)


def test_withdrawn_players_are_not_paired_and_late_entries_are() -> None:
    players = [*field_of(8), Player("late", "Late Entry", first_round=2)]
    event = Event(players, Settings(rounds=4), b"roster")
    event.changes.append(RosterChange(2, "p003", plays=False))
    event.changes.append(RosterChange(3, "p003", plays=True))
    rng = random.Random(0)
    for number in range(1, 5):
        seated = event.pair()
        expected = set(active_players(players, event.changes, number))
        assert set(seated.players()) == expected
        assert ("late" in expected) == (number >= 2)
        assert ("p003" in expected) == (number != 2)
        event.rounds.append(play(seated, rng))


def test_rounds_beyond_the_tournament_are_refused() -> None:
    event = run(4, Settings(rounds=1))
    with pytest.raises(TournamentError, match="1 rounds"):
        event.pair()


def test_a_directors_seating_is_checked() -> None:
    active = ["a", "b", "c", "d", "e"]
    good = Round(2, (Table(1, ("a", "b", "c")),), byes=("d", "e"))
    check_round(good, active, (3, 4))
    for bad in (
        Round(2, (Table(1, ("a", "b")),), byes=("c", "d", "e")),  # too small
        Round(2, (Table(1, ("a", "b", "c")),), byes=("d",)),  # e missing
        Round(2, (Table(1, ("a", "b", "c")),), byes=("d", "e", "a")),  # a twice
        Round(2, (Table(2, ("a", "b", "c")),), byes=("d", "e")),  # numbering
        Round(2, (Table(1, ("a", "b", "c", "x")),), byes=("d", "e")),  # not playing
    ):
        with pytest.raises(TournamentError):
            check_round(bad, active, (3, 4))


def test_byes_rotate_at_multiplayer_tables() -> None:
    event = run(25, Settings(rounds=7, table_size=(4, 4)), seed=b"byes")
    byes = [round_.byes for round_ in event.rounds]
    assert all(len(b) == 1 for b in byes)
    assert len({b[0] for b in byes}) == 7
    # After round 1 the bye goes to the lowest-ranked player who had none.
    for index in range(1, 7):
        earlier = event.rounds[:index]
        had = {p for r in earlier for p in r.byes}
        table = standings(event.players, earlier, event.settings, event.seed)
        without = [row.player for row in table if row.player not in had]
        # Pairing order is by points then rating (none here) then standings.
        assert byes[index][0] == without[-1]


# -- random tournaments -------------------------------------------------------------


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Event, int]:
    smallest = draw(st.integers(min_value=2, max_value=5))
    largest = draw(st.integers(min_value=smallest, max_value=min(6, smallest + 2)))
    count = draw(st.integers(min_value=0, max_value=30))
    rounds = draw(st.integers(min_value=1, max_value=6))
    players = [Player(f"p{n:02}", f"P{n}", first_round=1) for n in range(count)]
    late = draw(st.integers(min_value=0, max_value=3))
    players += [Player(f"late{n}", f"Late {n}", first_round=2 + n % rounds) for n in range(late)]
    changes = []
    if players:
        for _ in range(draw(st.integers(min_value=0, max_value=5))):
            who = draw(st.sampled_from(players)).id
            when = draw(st.integers(min_value=1, max_value=rounds))
            changes.append(RosterChange(when, who, plays=draw(st.booleans())))
    event = Event(
        players,
        Settings(rounds=rounds, table_size=(smallest, largest)),
        draw(st.binary(min_size=1, max_size=8)),
        changes,
    )
    return event, draw(st.integers(min_value=0, max_value=10_000))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_every_active_player_is_seated_once_or_has_a_bye(tournament: tuple[Event, int]) -> None:
    event, results_seed = tournament
    rng = random.Random(results_seed)
    smallest, largest = event.settings.table_size
    for _ in range(event.settings.rounds):
        active = event.active()
        seated = event.pair()
        check_round(seated, active, event.settings.table_size)
        plan = plan_tables(len(active), smallest, largest)
        assert sorted((len(t.seats) for t in seated.tables), reverse=True) == list(plan.sizes)
        assert len(seated.byes) == plan.byes
        event.rounds.append(play(seated, rng, forfeits=True))
    table = standings(event.players, event.rounds, event.settings, event.seed)
    assert sorted(row.player for row in table) == sorted(p.id for p in event.players)


# -- the tournaments ----------------------------------------------------------


def test_101_players_7_rounds_at_tables_of_3_and_4() -> None:
    event = run(101, Settings(rounds=7, table_size=(3, 4)), seed=b"101", results_seed=11)
    for round_ in event.rounds:
        assert sorted(round_.players()) == sorted(p.id for p in event.players)
        assert {len(t.seats) for t in round_.tables} <= {3, 4}
        assert round_.finished()
    assert max(met_pairs(event.rounds).values()) == 1
    rows = standings(event.players, event.rounds, event.settings, event.seed)
    assert len(rows) == 101


def test_24_players_5_rounds_at_4_per_table() -> None:
    event = run(24, Settings(rounds=5, table_size=(4, 4)), seed=b"24", results_seed=3)
    for round_ in event.rounds:
        assert [len(t.seats) for t in round_.tables] == [4] * 6
        assert not round_.byes
    # Each player meets 15 of the other 23: possible without a repeat.
    assert max(met_pairs(event.rounds).values()) == 1
    past = history_of(event.rounds)
    assert all(len(past.opponents(p.id)) == 15 for p in event.players)
