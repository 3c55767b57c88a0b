"""Maximum matchings (Edmonds) against brute force, and the rematch bound."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from gamelog.tournaments.matching import fewest_rematches, maximum_matching


def brute_force_matching_size(n: int, edges: set[tuple[int, int]]) -> int:
    best = 0

    def grow(free: list[int], size: int) -> None:
        nonlocal best
        best = max(best, size)
        if not free:
            return
        first, rest = free[0], free[1:]
        grow(rest, size)  # first stays unmatched
        for index, other in enumerate(rest):
            if (first, other) in edges:
                grow(rest[:index] + rest[index + 1 :], size + 1)

    grow(list(range(n)), 0)
    return best


@settings(max_examples=150, deadline=None)
@given(n=st.integers(min_value=0, max_value=11), density=st.floats(0.05, 0.9), seed=st.integers())
def test_the_matching_is_maximum_and_valid(n: int, density: float, seed: int) -> None:
    rng = random.Random(seed)
    edges = {(a, b) for a, b in combinations(range(n), 2) if rng.random() < density}
    edges |= {(b, a) for a, b in edges}
    adjacent = [[b for b in range(n) if (a, b) in edges] for a in range(n)]
    mate = maximum_matching(adjacent)
    for v, partner in enumerate(mate):
        if partner != -1:
            assert mate[partner] == v
            assert (v, partner) in edges
    assert sum(1 for p in mate if p != -1) // 2 == brute_force_matching_size(n, edges)


def test_an_odd_cycle_needs_a_blossom() -> None:
    # A 5-cycle 0-1-2-3-4 with a tail 4-5: the perfect matching 0-1, 2-3, 4-5
    # is found only by contracting the cycle when the search starts badly.
    edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (4, 5)]
    adjacent: list[list[int]] = [[] for _ in range(6)]
    for a, b in edges:
        adjacent[a].append(b)
        adjacent[b].append(a)
    mate = maximum_matching(adjacent)
    assert all(partner != -1 for partner in mate)


def test_fewest_rematches_uses_dirac_only_when_it_holds() -> None:
    players = [f"p{i}" for i in range(8)]
    # Everyone met everyone: four rematches, and no bound may claim fewer.
    assert fewest_rematches(players, lambda a, b: True) == 4
    assert fewest_rematches(players, lambda a, b: True, most_met=7) == 4
    # Nobody met more than one other: 8 >= 2 * (1 + 1), so none.
    assert fewest_rematches(players, lambda a, b: {a, b} == {"p0", "p1"}, most_met=1) == 0
