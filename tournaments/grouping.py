"""Multiplayer tables: players of similar standing together, repeat
opponents as few as possible.

A grouping of the round's players (in pairing order, best first) into
tables of the planned sizes is judged, in this order, by

1. the pairs at one table who met before (each such pair counts once);
2. how often those pairs met before, summed;
3. the spread of standing: each table's distance in the pairing order
   from its best to its worst player, summed. Cutting the order into
   consecutive tables (the top four, the next four, …) is the smallest.

Eight players at two tables of four, where ``a`` met ``b`` and ``c`` met
``d`` last round: cut in order (a–d, e–h) both pairs would meet again, so
the top table takes the best-placed players who met nobody there:

>>> from gamelog.tournaments.history import History
>>> past = History(met={"a": {"b": 1}, "b": {"a": 1}, "c": {"d": 1}, "d": {"c": 1}})
>>> found = group_players("abcdefgh", (4, 4), past)
>>> found.tables, found.repeat_pairs
((('a', 'c', 'e', 'f'), ('b', 'd', 'g', 'h')), 0)

How:

* a greedy pass fills the tables from the top, each next seat going to the
  best-placed player who met nobody at the table yet (or, if everyone did,
  the fewest); then swaps between tables, nearest first, while a swap
  lowers the repeats;
* if repeats remain in a field too large for the exact search, a tabu
  search (:func:`_tabu_search`) swaps players between tables, drawing from
  the random source it is given (the pairing passes one from the
  tournament's seed), and then swaps between neighbouring tables bring the
  standings back together where that adds no repeat;
* for fields of up to :data:`EXACT_UP_TO` players a branch-and-bound search
  over every grouping then finds the best one by the order above (the tests
  compare it with brute force). It stops after :data:`SEARCH_NODES` steps,
  keeping the best found; on random histories of up to 16 players, even
  with 90 % of the pairs met, it finished within them and matched an
  unbounded search.

Larger fields are therefore not proven optimal; on simulated 20- to
32-player events, letting the tabu search run ten times longer removed no
further repeat. The cost is
about linear in the field when few repeats threaten (a 1,000-player round:
see bench/pairing.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from gamelog.tournaments.history import History

EXACT_UP_TO = 16
TABU_STEPS = 5_000
PATIENCE = 1_000
TENURE = 3
SEARCH_NODES = 100_000
SWAP_PASSES = 5

Cost = tuple[int, int, int]
Met = list[dict[int, int]]
"""Per player (by index in the order), how often they met each other index."""


@dataclass(frozen=True)
class Grouping:
    tables: tuple[tuple[str, ...], ...]
    """Each table's players in pairing order; the top table first."""
    repeat_pairs: int
    repeat_meetings: int
    proven_best: bool = False
    """The exact search finished within its steps (fields of up to
    ``EXACT_UP_TO``): no grouping is better by the order above."""


def group_players(
    order: Sequence[str],
    sizes: Sequence[int],
    history: History,
    rng: random.Random | None = None,
) -> Grouping:
    """Split ``order`` (best first) into tables of ``sizes`` (summing to its length)."""
    players = list(order)
    if sum(sizes) != len(players):
        raise ValueError("the table sizes must seat every player")
    index = {player: i for i, player in enumerate(players)}
    met: Met = [
        {
            index[other]: times
            for other, times in history.met.get(player, {}).items()
            if other in index
        }
        for player in players
    ]
    tables = _greedy(len(players), sorted(sizes, reverse=True), met)
    _swap_out_repeats(tables, met)
    if _cost(tables, met)[0] and len(players) > EXACT_UP_TO:
        tables = _tabu_search(tables, met, rng or random.Random(0))
        _tighten(tables, met)
    proven = False
    if len(players) <= EXACT_UP_TO:
        tables, proven = _best(list(range(len(players))), sizes, met, tables)
    tables = sorted((sorted(table) for table in tables), key=lambda table: table[0])
    pairs, meetings, _ = _cost(tables, met)
    grouped = tuple(tuple(players[i] for i in table) for table in tables)
    return Grouping(grouped, pairs, meetings, proven)


def _table_cost(table: Sequence[int], met: Met) -> tuple[int, int]:
    pairs = meetings = 0
    for a, b in combinations(table, 2):
        times = met[a].get(b, 0)
        if times:
            pairs += 1
            meetings += times
    return pairs, meetings


def _cost(tables: Sequence[Sequence[int]], met: Met) -> Cost:
    pairs = meetings = spread = 0
    for table in tables:
        p, m = _table_cost(table, met)
        pairs, meetings, spread = pairs + p, meetings + m, spread + max(table) - min(table)
    return pairs, meetings, spread


def _greedy(n: int, sizes: Sequence[int], met: Met) -> list[list[int]]:
    free = list(range(n))
    tables: list[list[int]] = []
    for size in sizes:
        table = [free.pop(0)]
        while len(table) < size:
            best, fewest = 0, len(table) + 1
            for position, candidate in enumerate(free):
                repeats = sum(1 for member in table if member in met[candidate])
                if repeats < fewest:
                    best, fewest = position, repeats
                    if repeats == 0:
                        break
            table.append(free.pop(best))
        tables.append(table)
    return tables


def _swap_out_repeats(tables: list[list[int]], met: Met) -> None:
    """Swap players between tables while a swap lowers the repeat count."""
    for _ in range(SWAP_PASSES):
        swapped = False
        for here, table in enumerate(tables):
            for member in list(table):
                if not any(other in met[member] for other in table):
                    continue
                if _swap_one(tables, here, member, met):
                    swapped = True
        if not swapped:
            return


def _swap_one(tables: list[list[int]], here: int, member: int, met: Met) -> bool:
    table = tables[here]
    before_here = _table_cost(table, met)
    nearest = sorted(range(len(tables)), key=lambda t: (abs(t - here), t))
    for there in nearest[1:]:
        other_table = tables[there]
        before = _add(before_here, _table_cost(other_table, met))
        for other in other_table:
            new_here = [other if p == member else p for p in table]
            new_there = [member if p == other else p for p in other_table]
            after = _add(_table_cost(new_here, met), _table_cost(new_there, met))
            if after < before:
                tables[here], tables[there] = new_here, new_there
                return True
    return False


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


def _tabu_search(tables: list[list[int]], met: Met, rng: random.Random) -> list[list[int]]:
    """Swap players between tables to remove repeats: each step takes a
    random player who sits with someone met before and makes that player's
    best swap (fewest repeats, then meetings; ties by lot), even when it makes
    things worse for a while; a player just swapped may not be swapped again
    for :data:`TENURE` steps (a tabu search). The best grouping seen is kept;
    it stops when no repeat is left, after :data:`PATIENCE` steps without a
    better grouping, or after :data:`TABU_STEPS` steps.
    """
    where = {player: t for t, table in enumerate(tables) for player in table}
    current = [list(table) for table in tables]
    cost = _cost(current, met)
    best, best_cost = [list(table) for table in current], cost
    moved_at: dict[int, int] = {}
    improved_at = 0
    for step in range(TABU_STEPS):
        if cost[0] == 0 or step - improved_at > PATIENCE:
            break
        troubled = [p for table in current for p in table if any(o in met[p] for o in table)]
        player = troubled[rng.randrange(len(troubled))]
        here = where[player]
        moves: list[tuple[Cost, int, int]] = []
        for there, other_table in enumerate(current):
            if there == here:
                continue
            for other in other_table:
                delta = _swap_delta(current[here], player, other_table, other, met)
                new = (cost[0] + delta[0], cost[1] + delta[1], cost[2] + delta[2])
                if moved_at.get(other, -TENURE) > step - TENURE and not new < best_cost:
                    continue
                moves.append((delta, other, there))
        if not moves:
            continue
        fewest = min(move[0][:2] for move in moves)
        delta, other, there = rng.choice([move for move in moves if move[0][:2] == fewest])
        current[here] = [other if p == player else p for p in current[here]]
        current[there] = [player if p == other else p for p in current[there]]
        where[player], where[other] = there, here
        moved_at[player] = moved_at[other] = step
        cost = (cost[0] + delta[0], cost[1] + delta[1], cost[2] + delta[2])
        if cost < best_cost:
            best, best_cost = [list(table) for table in current], cost
            improved_at = step
    return best


def _swap_delta(here: list[int], player: int, there: list[int], other: int, met: Met) -> Cost:
    """How swapping ``player`` (at ``here``) with ``other`` (at ``there``) changes the cost."""
    pairs = meetings = 0
    for mate in here:
        if mate != player:
            lost, won = met[player].get(mate, 0), met[other].get(mate, 0)
            pairs += (won > 0) - (lost > 0)
            meetings += won - lost
    for mate in there:
        if mate != other:
            lost, won = met[other].get(mate, 0), met[player].get(mate, 0)
            pairs += (won > 0) - (lost > 0)
            meetings += won - lost
    new_here = [p for p in here if p != player] + [other]
    new_there = [p for p in there if p != other] + [player]
    spread = (
        max(new_here)
        - min(new_here)
        + max(new_there)
        - min(new_there)
        - (max(here) - min(here) + max(there) - min(there))
    )
    return pairs, meetings, spread


def _tighten(tables: list[list[int]], met: Met) -> None:
    """Swap players between neighbouring tables (by standing) while that
    lowers the spread without adding a repeat."""
    for _ in range(SWAP_PASSES):
        tables.sort(key=min)
        improved = False
        for here in range(len(tables) - 1):
            for there in range(here + 1, min(here + 3, len(tables))):
                for player in list(tables[here]):
                    for other in list(tables[there]):
                        if player not in tables[here]:
                            break
                        delta = _swap_delta(tables[here], player, tables[there], other, met)
                        if (
                            (delta[0], delta[1], delta[2]) < (0, 0, 0)
                            and delta[0] <= 0
                            and delta[1] <= 0
                        ):
                            tables[here] = [other if p == player else p for p in tables[here]]
                            tables[there] = [player if p == other else p for p in tables[there]]
                            improved = True
        if not improved:
            return


def _best(
    members: list[int], sizes: Sequence[int], met: Met, start: Sequence[Sequence[int]]
) -> tuple[list[list[int]], bool]:
    """Branch and bound over all groupings of ``members`` (in pairing order),
    from ``start`` as the best so far; the best found, and whether the search
    finished within ``SEARCH_NODES`` steps (so that it is the best).

    Each table takes the best-placed player left and the others in the order
    of what they add to the cost, so good groupings come first; a branch is
    cut when even its bound cannot beat the best found. The bound on repeat
    pairs still to come: a player left who met ``d`` of the ``m`` others
    left sits with at least ``size - 1 - (m - 1 - d)`` of them at any table
    of ``size``; each pair is counted by both players.
    """
    best_tables, best_cost = [list(t) for t in start], _cost(start, met)
    floor = _floor(members, sizes)
    nodes = 0

    def forced_repeats(free: list[int], left: list[int]) -> int:
        if not left:
            return 0
        seats = min(left) - 1
        strangers = len(free) - 1
        among = set(free)
        total = 0
        for player in free:
            known = sum(1 for other in met[player] if other in among)
            total += max(0, seats - (strangers - known))
        return (total + 1) // 2

    def search(free: list[int], left: list[int], tables: list[list[int]], cost: Cost) -> bool:
        """Returns True to stop: the best possible was found or steps ran out."""
        nonlocal best_tables, best_cost, nodes
        if not free:
            if cost < best_cost:
                best_tables, best_cost = [list(t) for t in tables], cost
            return best_cost == (0, 0, floor)
        top, rest = free[0], free[1:]
        options = []
        for size in sorted(set(left), reverse=True):
            remaining = list(left)
            remaining.remove(size)
            still = sum(s - 1 for s in remaining)
            for others in combinations(rest, size - 1):
                nodes += 1
                table = [top, *others]
                pairs, meetings = _table_cost(table, met)
                new = (cost[0] + pairs, cost[1] + meetings, cost[2] + table[-1] - top)
                if (new[0], new[1], new[2] + still) < best_cost:
                    options.append((new, table, remaining, still))
        options.sort()
        for new, table, remaining, still in options:
            if nodes > SEARCH_NODES:
                return True
            if (new[0], new[1], new[2] + still) >= best_cost:
                continue
            nodes += 1
            chosen = set(table)
            later = [p for p in rest if p not in chosen]
            if (new[0] + forced_repeats(later, remaining), 0, 0) >= best_cost:
                continue
            tables.append(table)
            stop = search(later, remaining, tables, new)
            tables.pop()
            if stop:
                return True
        return False

    search(list(members), list(sizes), [], (0, 0, 0))
    return best_tables, nodes <= SEARCH_NODES


def _floor(members: Sequence[int], sizes: Sequence[int]) -> int:
    """The least spread tables of ``sizes`` can have over ``members`` (sorted):
    some order of the sizes cut in order, as tables never need to overlap."""
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def cut(start: int, left: tuple[int, ...]) -> int:
        if not left:
            return 0
        if (start, left) not in memo:
            options = []
            for size in set(left):
                rest = list(left)
                rest.remove(size)
                spread = members[start + size - 1] - members[start]
                options.append(spread + cut(start + size, tuple(rest)))
            memo[start, left] = min(options)
        return memo[start, left]

    return cut(0, tuple(sorted(sizes)))
