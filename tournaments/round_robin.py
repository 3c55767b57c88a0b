"""Round robin for 2-player tables: everyone meets everyone, by the Berger tables.

Players get numbers 1..n by lot from the seed. With an odd field a dummy
number n + 1 joins, and its opponent has the bye. In round ``r`` of a cycle
of ``n - 1`` rounds (n even), players ``i`` and ``j`` (both below n) meet
when ``i + j ≡ r + 1 (mod n - 1)``, and player ``n`` meets the ``i`` with
``2i ≡ r + 1``: the FIDE Berger tables. Colours follow those tables: of two
players below n the lower number has white when ``i + j`` is odd, the higher
when it is even; player n has white in even rounds. That alternates every
player's colours with at most one repeat per cycle, and gives each player
``(n-2)/2`` or ``n/2`` whites. Six players, round 2, boards in the tables'
order (player n's board first):

>>> berger_round(6, 2)
((6, 4), (5, 3), (1, 2))
>>> [berger_round(6, r)[0] for r in range(1, 6)]
[(1, 6), (6, 4), (2, 6), (6, 5), (3, 6)]

More rounds than a cycle make a double round robin: the next cycle repeats
the pairings with colours reversed.

>>> berger_round(6, 7)
((4, 6), (3, 5), (2, 1))

Multiplayer tables have no round robin: a schedule where every pair meets
exactly once at tables of k exists only for special field sizes (resolvable
designs, such as Kirkman's 15 schoolgirls at tables of 3). The settings
refuse it; the Swiss grouping's repeat minimising serves those fields.
"""

from __future__ import annotations


def berger_round(players: int, round_number: int) -> tuple[tuple[int, int], ...]:
    """(white, black) player numbers per board in ``round_number`` of a round
    robin of ``players`` (even) numbers."""
    if players < 2 or players % 2:
        raise ValueError("the Berger tables are for an even number of players")
    n, cycle = players, players - 1
    done, r = divmod(round_number - 1, cycle)
    r += 1

    def number(k: int) -> int:
        k %= cycle
        return k if k else cycle

    opponent = number((r + 1) * pow(2, -1, cycle)) if cycle > 1 else 1
    boards = [(n, opponent) if r % 2 == 0 else (opponent, n)]
    for board in range(1, n // 2):
        i, j = sorted((number(opponent + board), number(opponent - board)))
        boards.append((i, j) if (i + j) % 2 else (j, i))
    if done % 2:
        boards = [(black, white) for white, black in boards]
    return tuple(boards)
