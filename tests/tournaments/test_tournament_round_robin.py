"""Round robin by the Berger tables: everyone meets everyone once per cycle,
colours alternate, byes and withdrawals, and no round robin at larger tables."""

from __future__ import annotations

from itertools import pairwise

import pytest
from tournament_sim import Event, field_of, met_pairs, run

from gamelog.tournaments.history import history_of
from gamelog.tournaments.players import Player, RosterChange
from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.round_robin import berger_round
from gamelog.tournaments.settings import Settings


def test_fide_berger_table_for_six_players() -> None:
    # FIDE Handbook C.05 Annex 1, 5 or 6 players.
    assert [berger_round(6, r) for r in range(1, 6)] == [
        ((1, 6), (2, 5), (3, 4)),
        ((6, 4), (5, 3), (1, 2)),
        ((2, 6), (3, 1), (4, 5)),
        ((6, 5), (1, 4), (2, 3)),
        ((3, 6), (4, 2), (5, 1)),
    ]


@pytest.mark.parametrize("n", range(2, 21, 2))
def test_every_pair_meets_once_and_colours_alternate(n: int) -> None:
    colours = {player: "" for player in range(1, n + 1)}
    met = set()
    for r in range(1, n):
        seated = [p for board in berger_round(n, r) for p in board]
        assert sorted(seated) == list(range(1, n + 1))
        for white, black in berger_round(n, r):
            met.add(frozenset((white, black)))
            colours[white] += "W"
            colours[black] += "B"
    assert len(met) == n * (n - 1) // 2
    for sequence in colours.values():
        assert abs(sequence.count("W") - sequence.count("B")) <= 1
        assert "WWW" not in sequence and "BBB" not in sequence
        assert sum(1 for a, b in pairwise(sequence) if a == b) <= 1


def test_a_second_cycle_reverses_the_colours() -> None:
    for r in range(1, 6):
        assert berger_round(6, r + 5) == tuple((b, w) for w, b in berger_round(6, r))


def test_an_odd_field_gives_everyone_one_bye() -> None:
    event = run(7, Settings(rounds=7, system="round-robin"), seed=b"rr")
    byes = [p for round_ in event.rounds for p in round_.byes]
    assert sorted(byes) == sorted(p.id for p in event.players)
    assert set(met_pairs(event.rounds).values()) == {1}
    assert len(met_pairs(event.rounds)) == 21


def test_a_double_round_robin_meets_twice_with_colours_swapped() -> None:
    event = run(4, Settings(rounds=6, system="round-robin"), seed=b"rr2")
    assert set(met_pairs(event.rounds).values()) == {2}
    past = history_of(event.rounds)
    for player in event.players:
        colours = past.colours(player.id)
        assert colours.count("W") == colours.count("B") == 3


def test_a_withdrawn_players_opponent_has_a_bye() -> None:
    event = Event(field_of(6), Settings(rounds=5, system="round-robin"), b"rr")
    event.changes.append(RosterChange(2, "p003", plays=False))
    event.rounds.append(event.pair())
    second = event.pair()
    assert "p003" not in second.players()
    assert len(second.byes) == 1
    assert len(second.tables) == 2


def test_a_late_entry_is_refused_in_a_round_robin() -> None:
    players = [*field_of(4), Player("late", "Late", first_round=2)]
    event = Event(players, Settings(rounds=3, system="round-robin"), b"rr")
    event.rounds.append(event.pair())
    with pytest.raises(TournamentError, match="fixed at round 1"):
        event.pair()


def test_round_robin_at_multiplayer_tables_is_refused() -> None:
    with pytest.raises(TournamentError) as refused:
        Settings(rounds=3, table_size=(3, 4), system="round-robin")
    assert refused.value.code == "round-robin-multiplayer"
