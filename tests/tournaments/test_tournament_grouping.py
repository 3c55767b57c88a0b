"""Multiplayer grouping: similar standing together, repeat opponents as few
as brute force can find."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tournament_sim import Event, field_of, met_pairs, play

from gamelog.tournaments.grouping import group_players
from gamelog.tournaments.history import History, history_of
from gamelog.tournaments.settings import Settings
from gamelog.tournaments.tables import plan_tables


def history(met: Sequence[tuple[str, str]]) -> History:
    table: dict[str, dict[str, int]] = {}
    for a, b in met:
        table.setdefault(a, {})[b] = table.get(a, {}).get(b, 0) + 1
        table.setdefault(b, {})[a] = table.get(b, {}).get(a, 0) + 1
    return History(met=table)


def groupings(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every split of ``players`` into tables of ``sizes`` (in any order)."""
    if not players:
        yield []
        return
    top, rest = players[0], list(players[1:])
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for more in groupings(remaining, left):
                yield [(top, *others), *more]


def cost(tables: Sequence[Sequence[str]], order: Sequence[str], past: History) -> tuple[int, ...]:
    rank = {p: i for i, p in enumerate(order)}
    pairs = meetings = spread = 0
    for table in tables:
        for a, b in combinations(table, 2):
            if past.times_met(a, b):
                pairs += 1
                meetings += past.times_met(a, b)
        spread += max(rank[p] for p in table) - min(rank[p] for p in table)
    return pairs, meetings, spread


def test_without_history_tables_are_consecutive_in_the_order() -> None:
    order = [f"p{i:02}" for i in range(10)]
    found = group_players(order, (4, 3, 3), History())
    assert found.tables == (tuple(order[:4]), tuple(order[4:7]), tuple(order[7:]))
    assert found.repeat_pairs == 0


def test_the_worked_example_separates_both_pairs() -> None:
    found = group_players("abcdefgh", (4, 4), history([("a", "b"), ("c", "d")]))
    assert found.repeat_pairs == 0
    for table in found.tables:
        assert not {"a", "b"} <= set(table)
        assert not {"c", "d"} <= set(table)


@st.composite
def situations(draw: st.DrawFn) -> tuple[list[str], tuple[int, ...], History]:
    smallest = draw(st.integers(min_value=3, max_value=4))
    largest = draw(st.integers(min_value=smallest, max_value=5))
    n = draw(st.integers(min_value=smallest, max_value=10))
    plan = plan_tables(n, smallest, largest)
    players = [f"p{i}" for i in range(plan.seated)]
    pairs = list(combinations(players, 2))
    met = draw(st.lists(st.sampled_from(pairs), max_size=len(pairs)))
    order = draw(st.permutations(players))
    return list(order), plan.sizes, history(met)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_the_grouping_is_the_best_by_brute_force(
    situation: tuple[list[str], tuple[int, ...], History],
) -> None:
    order, sizes, past = situation
    found = group_players(order, sizes, past)
    assert sorted(p for table in found.tables for p in table) == sorted(order)
    assert sorted(len(table) for table in found.tables) == sorted(sizes)
    best = min(cost(tables, order, past) for tables in groupings(order, sizes))
    assert cost(found.tables, order, past) == best
    assert found.repeat_pairs == best[0]


def test_whole_small_tournaments_repeat_only_when_forced() -> None:
    for count, table_size in ((8, (3, 4)), (9, (3, 3)), (9, (4, 4)), (10, (3, 4))):
        for results_seed in range(4):
            event = Event(field_of(count), Settings(rounds=6, table_size=table_size), b"brute")
            rng = random.Random(results_seed)
            for _ in range(6):
                past = history_of(event.rounds)
                seated = event.pair()
                tables = [t.seats for t in seated.tables]
                players = [p for t in tables for p in t]
                sizes = [len(t) for t in tables]
                fewest = min(cost(g, players, past)[0] for g in groupings(players, sizes))
                assert cost(tables, players, past)[0] == fewest
                event.rounds.append(play(seated, rng))


def test_sixteen_players_are_searched_exactly_within_the_steps() -> None:
    """The exact search's work is bounded by a count of steps, not by time:
    on a crowded history of sixteen players it finishes within them."""
    rng = random.Random(5)
    players = [f"p{i:02}" for i in range(16)]
    met = [pair for pair in combinations(players, 2) if rng.random() < 0.45]
    found = group_players(players, (4, 4, 4, 4), history(met))
    assert found.proven_best
    assert sorted(p for t in found.tables for p in t) == players


def test_a_search_that_runs_out_of_steps_claims_no_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamelog.tournaments import grouping

    monkeypatch.setattr(grouping, "SEARCH_NODES", 10)
    rng = random.Random(5)
    players = [f"p{i:02}" for i in range(16)]
    met = [pair for pair in combinations(players, 2) if rng.random() < 0.45]
    found = group_players(players, (4, 4, 4, 4), history(met))
    assert not found.proven_best
    assert sorted(p for t in found.tables for p in t) == players


def test_a_large_field_meets_few_repeat_opponents() -> None:
    event = Event(field_of(101), Settings(rounds=7, table_size=(3, 4)), b"large")
    rng = random.Random(1)
    for _ in range(7):
        event.rounds.append(play(event.pair(), rng))
    assert max(met_pairs(event.rounds).values()) == 1
