"""Round 1 seeded by rating instead of by lot (``Settings.seeding = "rating"``).

The players are first drawn by lot (the same draw as an unseeded round 1,
label ``round 1``), then ordered by their registered rating, highest first;
players without a rating come after the rated ones, and players with equal
ratings stay in the lot's order. Then:

* **2-player tables** pair the top half against the bottom half, as a Swiss
  round 1 does by pairing numbers (1 v n/2+1, 2 v n/2+2, ...); the first
  seat of each table goes by a coin (label ``round 1 colours``);
* **larger tables** are dealt the players in a serpentine (table 1, 2, …,
  k, then k, …, 1), so each table gets one of the strongest, one of the
  next, and so on; each table's seats are drawn by lot (label ``round 1
  table T seats``).

The lowest in the order get the byes. Every draw comes from the seed, so the
audit re-runs the seating exactly.

>>> from gamelog.tournaments.players import Player
>>> ratings = [1500, 1900, 1700, 1800, 1600, None]
>>> players = [Player(f"p{n}", f"P{n}", rating=r) for n, r in enumerate(ratings, 1)]
>>> seeded = seeded_first_round(players, [p.id for p in players], (3, 3), b"demo")
>>> [sorted(t.seats) for t in seeded.tables]
[['p1', 'p2', 'p5'], ['p3', 'p4', 'p6']]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gamelog.tournaments.draw import rng_for, shuffled
from gamelog.tournaments.players import Player
from gamelog.tournaments.rounds import Round, Table

SEEDINGS = ("lot", "rating")


def seed_by_rating(players: Iterable[str], ratings: Mapping[str, float]) -> list[str]:
    """The seeding order: the highest rated first, the unrated after them in
    the order given (their lot), ties kept in the order given.

    >>> seed_by_rating(["ann", "ben", "cy", "dee"], {"cy": 20.5, "ann": 3.0})
    ['cy', 'ann', 'ben', 'dee']
    """
    given = list(players)
    rated = sorted((p for p in given if p in ratings), key=lambda p: -ratings[p])
    return rated + [p for p in given if p not in ratings]


def serpentine(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """``order`` dealt to tables of ``sizes`` back and forth, skipping full tables.

    >>> serpentine(["a", "b", "c", "d", "e", "f", "g"], (4, 3))
    [['a', 'd', 'e', 'g'], ['b', 'c', 'f']]
    """
    tables: list[list[str]] = [[] for _ in sizes]
    forward = True
    queue = list(order)
    while queue:
        indexes = range(len(sizes)) if forward else reversed(range(len(sizes)))
        for index in indexes:
            if queue and len(tables[index]) < sizes[index]:
                tables[index].append(queue.pop(0))
        forward = not forward
    return tables


def seeded_first_round(
    players: Sequence[Player], active: Sequence[str], sizes: Sequence[int], seed: bytes
) -> Round:
    """Round 1's tables and byes, seeded by rating (see the module)."""
    ratings = {p.id: float(p.rating) for p in players if p.rating is not None and p.id in active}
    order = seed_by_rating(shuffled(sorted(active), seed, "round 1"), ratings)
    seated, byes = order[: sum(sizes)], tuple(order[sum(sizes) :])
    if sizes and all(size == 2 for size in sizes):
        half = len(seated) // 2
        coins = rng_for(seed, "round 1 colours")
        tables = []
        for index in range(half):
            pair = (seated[index], seated[index + half])
            tables.append(Table(index + 1, pair if coins.random() < 0.5 else pair[::-1]))
        return Round(1, tuple(tables), byes)
    groups = serpentine(seated, sizes)
    return Round(
        1,
        tuple(
            Table(index, shuffled(sorted(group), seed, f"round 1 table {index} seats"))
            for index, group in enumerate(groups, start=1)
        ),
        byes,
    )


__all__ = ["SEEDINGS", "seed_by_rating", "seeded_first_round", "serpentine"]
