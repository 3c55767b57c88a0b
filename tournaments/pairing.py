"""Seat the next round: the one function the tournament calls to pair.

:func:`pair_round` takes everything a tournament knows (players, roster
changes, the rounds so far with their effective results, the settings and
the committed seed) and returns the next round's tables and byes:

* **Round 1 is drawn**: the active players, in id order, are shuffled with
  the random source of label ``round 1`` (:mod:`gamelog.tournaments.draw`);
  the shuffled list is cut into the planned tables in order, each table
  seated in the drawn order, and the last players drawn get the byes. Seeded
  by rating instead (``Settings.seeding``), the drawn list is ordered by the
  registered ratings and dealt as :mod:`gamelog.tournaments.seeding` says.
* **Later rounds go by standings.** The pairing order is points (highest
  first), then rating (highest first, unrated last) as FIDE's pairing
  numbers are, then the place in the standings (tie-breaks and lot).

  - 2-player tables: the Swiss system (:mod:`gamelog.tournaments.swiss`),
    colours by :func:`~gamelog.tournaments.seating.allocate_colours`.
  - Larger tables: byes by :func:`~gamelog.tournaments.byes.choose_byes`,
    tables by :func:`~gamelog.tournaments.grouping.group_players`, seats by
    :func:`~gamelog.tournaments.seating.rotate_seats` with lots drawn from
    the label ``round N table T seats`` (the grouping's own search draws from
    ``round N grouping``).
* **Round robin** (2-player tables): the Berger tables
  (:mod:`gamelog.tournaments.round_robin`) over the players active in round
  1, numbered by the lot ``round-robin numbers``. A player whose scheduled
  opponent withdrew (or is the odd field's dummy) has a bye; a player who
  entered after round 1 cannot be fitted in and is refused.

Tables are numbered from the top of the standings down. Five players,
Swiss; the draw seats p3 against p5 and p1 against p4, and p2 has the bye:

>>> from gamelog.tournaments.players import Player
>>> from gamelog.tournaments.rounds import Result
>>> from gamelog.tournaments.settings import Settings
>>> players = [Player(f"p{n}", f"Player {n}") for n in range(1, 6)]
>>> settings = Settings(rounds=3)
>>> first = pair_round(players, (), (), settings, b"demo")
>>> [t.seats for t in first.tables], first.byes
([('p3', 'p5'), ('p1', 'p4')], ('p2',))

p3 wins and p1 draws with p4. In round 2 the bye goes to p5, the lowest
player without one. Pairing the leaders p3 and p2 would leave p1 and p4 to
meet again, so both leaders float down and meet them instead, each player
taking the other colour than last time (p2, who had none, the other of
p1's):

>>> first = first.with_result(1, Result((("p3",), ("p5",))))
>>> first = first.with_result(2, Result((("p1", "p4"),)))
>>> second = pair_round(players, (), (first,), settings, b"demo")
>>> [t.seats for t in second.tables], second.byes
([('p4', 'p3'), ('p2', 'p1')], ('p5',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from gamelog.tournaments.byes import choose_byes
from gamelog.tournaments.draw import rng_for, shuffled
from gamelog.tournaments.grouping import group_players
from gamelog.tournaments.history import History, history_of
from gamelog.tournaments.players import Player, RosterChange, active_players
from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.round_robin import berger_round
from gamelog.tournaments.rounds import Round, Table
from gamelog.tournaments.seating import allocate_colours, rotate_seats
from gamelog.tournaments.seeding import seeded_first_round
from gamelog.tournaments.settings import Settings
from gamelog.tournaments.standings import Standing, standings
from gamelog.tournaments.swiss import pair_swiss
from gamelog.tournaments.tables import plan_tables


def pair_round(
    players: Sequence[Player],
    changes: Sequence[RosterChange],
    rounds: Sequence[Round],
    settings: Settings,
    seed: bytes,
) -> Round:
    """The next round's seating (no results yet)."""
    number = len(rounds) + 1
    if [r.number for r in rounds] != list(range(1, number)):
        raise TournamentError("bad-rounds", "the rounds so far must be 1, 2, … in order")
    if number > settings.rounds:
        raise TournamentError("no-more-rounds", f"the tournament has {settings.rounds} rounds")
    active = active_players(players, changes, number)
    if settings.system == "round-robin":
        return _round_robin(players, changes, active, number, seed)
    smallest, largest = settings.table_size
    plan = plan_tables(len(active), smallest, largest)
    if number == 1 and settings.seeding == "rating":
        return seeded_first_round(players, active, plan.sizes, seed)
    if number == 1:
        return _drawn(active, plan.sizes, number, seed)
    table = standings(players, rounds, settings, seed)
    order = pairing_order(players, table, active)
    history = history_of(rounds)
    if largest == 2:
        points = {row.player: row.points for row in table}
        return _swiss(order, points, seed, history, number)
    byes = choose_byes(order, plan.byes, history.byes)
    seated = [player for player in order if player not in byes]
    grouping = group_players(seated, plan.sizes, history, rng_for(seed, f"round {number} grouping"))
    tables = []
    for index, group in enumerate(grouping.tables, start=1):
        drawn = shuffled(sorted(group), seed, f"round {number} table {index} seats")
        lots = {player: lot for lot, player in enumerate(drawn)}
        tables.append(Table(index, rotate_seats(group, history.seats, lots)))
    return Round(number, tuple(tables), byes)


def pairing_order(
    players: Sequence[Player], table: Sequence[Standing], active: Sequence[str]
) -> list[str]:
    """The active players by points, then rating, then standings (``table``):
    best first."""
    points = {row.player: row.points for row in table}
    place = {row.player: row.place for row in table}
    rating = {player.id: player.rating for player in players}

    def key(player: str) -> tuple[Fraction, bool, int, int]:
        given = rating[player]
        return -points[player], given is None, -(given or 0), place[player]

    return sorted(active, key=key)


def _drawn(active: Sequence[str], sizes: Sequence[int], number: int, seed: bytes) -> Round:
    drawn = shuffled(sorted(active), seed, f"round {number}")
    tables, start = [], 0
    for index, size in enumerate(sizes, start=1):
        tables.append(Table(index, drawn[start : start + size]))
        start += size
    return Round(number, tuple(tables), drawn[start:])


def _swiss(
    order: list[str], points: Mapping[str, Fraction], seed: bytes, history: History, number: int
) -> Round:
    pairing = pair_swiss(order, points, history)
    coins = rng_for(seed, f"round {number} colours")
    tables = []
    for index, (higher, lower) in enumerate(pairing.pairs, start=1):
        coin = coins.random() < 0.5
        seats = allocate_colours(
            higher, history.colours(higher), lower, history.colours(lower), coin
        )
        tables.append(Table(index, seats))
    return Round(number, tuple(tables), (pairing.bye,) if pairing.bye else ())


def _round_robin(
    players: Sequence[Player],
    changes: Sequence[RosterChange],
    active: Sequence[str],
    number: int,
    seed: bytes,
) -> Round:
    field = active_players(players, changes, 1)
    late = sorted(set(active) - set(field))
    if late:
        raise TournamentError(
            "round-robin-late-entry",
            f"a round robin's field is fixed at round 1; {late} cannot be paired",
        )
    numbered = list(shuffled(list(field), seed, "round-robin numbers"))
    if len(numbered) % 2:
        numbered.append("")  # the dummy: its opponent has the bye
    if len(numbered) < 2:
        return Round(number, (), tuple(active))
    playing = set(active)
    tables: list[Table] = []
    byes: list[str] = []
    for white, black in berger_round(len(numbered), number):
        seats = (numbered[white - 1], numbered[black - 1])
        here = [p for p in seats if p in playing]
        if len(here) == 2:
            tables.append(Table(len(tables) + 1, seats))
        else:
            byes.extend(here)
    return Round(number, tuple(tables), tuple(sorted(byes)))
