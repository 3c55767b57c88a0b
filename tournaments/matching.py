"""Maximum matchings, and from them the fewest rematches a pairing can have.

Pairing players without a rematch is finding a *perfect matching* in the
graph whose edges join players who have not met. If the largest matching of
that graph leaves ``k`` players unmatched, those ``k`` can only be paired
with someone they met, and no pairing does better: a pairing's new-opponent
pairs always form a matching. So the fewest rematches possible are
``k / 2``, and :func:`fewest_rematches` tells the Swiss pairing, before it
commits to a pair, whether the players left can still do that well.

>>> # ann met ben and cy; ben met cy: ann-dee and ben-cy? ben and cy met.
>>> met = {"ann": {"ben", "cy"}, "ben": {"ann", "cy"}, "cy": {"ann", "ben"}}
>>> fewest_rematches(["ann", "ben", "cy", "dee"], lambda a, b: b in met.get(a, ()))
1
>>> fewest_rematches(["ann", "dee"], lambda a, b: b in met.get(a, ()))
0

The matching is Edmonds' blossom algorithm (maximum cardinality, general
graphs), O(n³), used only on small sets: when every player has met at most
``d`` others and ``n ≥ 2(d + 1)``, each player has not met at least ``n/2``
of the others, so by Dirac's theorem the not-met graph has a Hamiltonian
cycle and, ``n`` being even, a perfect matching. No search is needed then.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence


def maximum_matching(adjacent: Sequence[Sequence[int]]) -> list[int]:
    """A maximum matching of the graph on vertices ``0..n-1``: ``mate[v]`` is
    v's partner or -1. Deterministic for a given adjacency order."""
    n = len(adjacent)
    mate = [-1] * n
    for v in range(n):  # a greedy start leaves fewer augmenting searches
        if mate[v] == -1:
            for w in adjacent[v]:
                if mate[w] == -1 and w != v:
                    mate[v], mate[w] = w, v
                    break
    for root in range(n):
        if mate[root] == -1:
            end, parent = _augmenting_path(adjacent, mate, root)
            while end != -1:
                previous = parent[end]
                next_end = mate[previous]
                mate[end], mate[previous] = previous, end
                end = next_end
    return mate


def _augmenting_path(
    adjacent: Sequence[Sequence[int]], mate: list[int], root: int
) -> tuple[int, list[int]]:
    """Search an augmenting path from ``root``, contracting odd cycles
    (blossoms); return its free end (or -1) and the parent links to walk."""
    n = len(adjacent)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark_blossom(v: int, stem: int, child: int, blossom: list[bool]) -> None:
        while base[v] != stem:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in adjacent[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                stem = common_base(v, to)
                blossom = [False] * n
                mark_blossom(v, stem, to, blossom)
                mark_blossom(to, stem, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = stem
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return to, parent
                used[mate[to]] = True
                queue.append(mate[to])
    return -1, parent


def fewest_rematches(
    players: Sequence[str], have_met: Callable[[str, str], bool], most_met: int | None = None
) -> int:
    """The fewest pairs of ``players`` (an even number) that must be rematches.

    ``most_met`` bounds how many others any player has met; given, large sets
    are answered by Dirac's theorem without a search.
    """
    n = len(players)
    if most_met is not None and n >= 2 * (most_met + 1):
        return 0
    adjacent = [
        [j for j in range(n) if j != i and not have_met(players[i], players[j])] for i in range(n)
    ]
    matched = sum(1 for partner in maximum_matching(adjacent) if partner != -1)
    return (n - matched) // 2
