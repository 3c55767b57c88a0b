"""Tournaments: pairing, seating, standings and tie-breaks as pure functions.

Like the games' rules, nothing here does I/O, reads a clock or draws
randomness except from the seed it is given; everything is plain data
(frozen dataclasses, tuples, strings, ints and exact
:class:`~fractions.Fraction` points). The service's tournament aggregate
keeps the events and calls these functions:

* :func:`~gamelog.tournaments.pairing.pair_round` seats the next round;
* :meth:`~gamelog.tournaments.rounds.Round.with_result` enters or corrects
  a table's result, :func:`~gamelog.tournaments.rounds.check_round` checks a
  director's seating;
* :func:`~gamelog.tournaments.standings.standings` ranks the players.

A tournament of five players over three rounds, every table won by the
player seated first:

>>> from gamelog.tournaments.players import Player
>>> from gamelog.tournaments.rounds import Result
>>> from gamelog.tournaments.settings import Settings
>>> from gamelog.tournaments.pairing import pair_round
>>> from gamelog.tournaments.standings import standings
>>> players = [Player(name.lower(), name) for name in ("Ann", "Ben", "Cy", "Dee", "Eve")]
>>> settings = Settings(rounds=3, tiebreaks=("buchholz",))
>>> rounds = []
>>> for _ in range(3):
...     seated = pair_round(players, (), rounds, settings, b"seed")
...     for table in seated.tables:
...         first, second = table.seats
...         seated = seated.with_result(table.number, Result(((first,), (second,))))
...     rounds.append(seated)
...     print(seated.number, [t.seats for t in seated.tables], "bye:", seated.byes)
1 [('cy', 'dee'), ('ben', 'eve')] bye: ('ann',)
2 [('ann', 'cy'), ('dee', 'ben')] bye: ('eve',)
3 [('dee', 'ann'), ('eve', 'cy')] bye: ('ben',)
>>> [(row.player, str(row.points)) for row in standings(players, rounds, settings, b"seed")]
[('dee', '2'), ('ben', '2'), ('ann', '2'), ('eve', '2'), ('cy', '1')]

Modules, one concept each: :mod:`~gamelog.tournaments.players`,
:mod:`~gamelog.tournaments.settings`, :mod:`~gamelog.tournaments.tables`,
:mod:`~gamelog.tournaments.rounds`, :mod:`~gamelog.tournaments.points`,
:mod:`~gamelog.tournaments.history`, :mod:`~gamelog.tournaments.draw`,
:mod:`~gamelog.tournaments.byes`, :mod:`~gamelog.tournaments.matching`,
:mod:`~gamelog.tournaments.swiss`, :mod:`~gamelog.tournaments.grouping`,
:mod:`~gamelog.tournaments.seating`, :mod:`~gamelog.tournaments.round_robin`,
:mod:`~gamelog.tournaments.tiebreaks`, :mod:`~gamelog.tournaments.standings`,
:mod:`~gamelog.tournaments.pairing`. Decisions: docs/tournament-decisions.md.
"""
