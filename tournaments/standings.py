"""Standings: points, then the director's tie-breaks, then a lot from the seed.

A pure function of the players, the rounds (tables, byes and effective
results) and the settings, so recomputing it from a tournament's events
always gives the live standings. Four players, two rounds at 2-player
tables; ann and cy finish level, drew their game, and ann's opponents
scored more:

>>> from gamelog.tournaments.players import Player
>>> from gamelog.tournaments.rounds import Result, Round, Table
>>> from gamelog.tournaments.settings import Settings
>>> players = [Player(p, p.title()) for p in ("ann", "ben", "cy", "dee")]
>>> r1 = Round(1, (Table(1, ("ann", "ben")), Table(2, ("dee", "cy"))),
...            results={1: Result((("ann",), ("ben",))), 2: Result((("cy",), ("dee",)))})
>>> r2 = Round(2, (Table(1, ("cy", "ann")), Table(2, ("ben", "dee"))),
...            results={1: Result((("cy", "ann"),)), 2: Result((("ben",), ("dee",)))})
>>> settings = Settings(rounds=2, tiebreaks=("head-to-head", "buchholz"))
>>> for row in standings(players, [r1, r2], settings, b"club"):
...     print(row.place, row.player, row.points, [str(v) for v in row.tiebreaks], row.played)
1 ann 3/2 ['1/2', '5/2'] 2
2 cy 3/2 ['1/2', '3/2'] 2
3 ben 1 ['0', '3/2'] 2
4 dee 0 ['0', '5/2'] 2

Each tie-break splits only the players still tied after the points and the
tie-breaks before it; head-to-head is counted among exactly those players.
Players still tied after all of them are ordered by ``lot``: their places
in a shuffle of all player ids drawn from the seed (label ``tie-break
lots``), lower first. So every place is distinct, and the lot can be
audited like a shuffle.

A bye scores the settings' bye score; a table without a result yet scores
nothing (``None`` in ``by_round``). Withdrawn players stay in the standings
with what they scored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

from gamelog.tournaments.draw import shuffled
from gamelog.tournaments.players import Player, check_roster
from gamelog.tournaments.points import exact_sum, table_points
from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.rounds import Round, check_result
from gamelog.tournaments.settings import Settings
from gamelog.tournaments.tiebreaks import Scorecard, tiebreak_value

LOTS_LABEL = "tie-break lots"
WON, SHARED, LOST = Fraction(1), Fraction(1, 2), Fraction(0)


@dataclass(frozen=True)
class Standing:
    place: int
    """1 for the leader; every place is distinct."""
    player: str
    points: Fraction
    tiebreaks: tuple[Fraction, ...]
    """The tie-breaks' values, in the settings' order."""
    lot: int
    """The player's place in the seeded lot: the last tie-break, lower first."""
    played: int
    """Games played (not byes, not forfeits)."""
    byes: int
    by_round: tuple[Fraction | None, ...]
    """Points scored in each round so far; None: no table or result that round."""


@dataclass
class _Tally:
    gains: list[Fraction]
    game_score: int
    firsts: int
    played: int
    byes: int
    opponents: list[str]
    encounters: dict[str, Fraction]
    by_round: list[Fraction | None]


def standings(
    players: Sequence[Player], rounds: Sequence[Round], settings: Settings, seed: bytes
) -> tuple[Standing, ...]:
    """Every player's standing, the leader first."""
    check_roster(players, ())
    ordered = sorted(rounds, key=lambda r: r.number)
    tally = {p.id: _Tally([], 0, 0, 0, 0, [], {}, [None] * len(ordered)) for p in players}

    def known(player: str) -> _Tally:
        if player not in tally:
            raise TournamentError("unknown-player", f"no player {player!r}")
        return tally[player]

    bye = settings.bye_score()
    forfeit = settings.forfeit_score()
    for index, round_ in enumerate(ordered):
        for player in round_.byes:
            card = known(player)
            card.gains.append(bye)
            card.byes += 1
            card.by_round[index] = bye
        for table in round_.tables:
            for player in table.seats:
                known(player)
            result = round_.results.get(table.number)
            if result is None:
                continue
            check_result(table, result)
            gained = table_points(result, settings.place_points(len(table.seats)), forfeit)
            for player in table.seats:
                card = tally[player]
                card.gains.append(gained[player])
                card.by_round[index] = gained[player]
                card.game_score += result.scores.get(player, 0)
                if result.played(player) and result.ranking[0] == (player,):
                    card.firsts += 1
            present = [p for p in table.seats if result.played(p)]
            place = {p: index for index, seated in enumerate(result.ranking) for p in seated}
            if len(present) < 2:
                continue
            for player in present:
                tally[player].played += 1
            for a, b in permutations(present, 2):
                above = place[b] - place[a]
                share = WON if above > 0 else SHARED if above == 0 else LOST
                tally[a].opponents.append(b)
                tally[a].encounters[b] = tally[a].encounters.get(b, LOST) + share

    points = {player: exact_sum(card.gains) for player, card in tally.items()}
    cards = {
        player: Scorecard(
            player, points[player], c.game_score, c.firsts, tuple(c.opponents), dict(c.encounters)
        )
        for player, c in tally.items()
    }
    lots = {player: n for n, player in enumerate(shuffled(sorted(tally), seed, LOTS_LABEL))}
    values: dict[str, list[Fraction]] = {player: [] for player in tally}
    groups = _split(sorted(tally), lambda player: points[player])
    for name in settings.tiebreaks:
        next_groups: list[list[str]] = []
        for group in groups:
            tied = frozenset(group)
            for player in group:
                values[player].append(tiebreak_value(name, cards[player], points, tied))
            next_groups.extend(_split(group, lambda player: values[player][-1]))
        groups = next_groups
    order = [player for group in groups for player in sorted(group, key=lots.__getitem__)]
    return tuple(
        Standing(
            place,
            player,
            points[player],
            tuple(values[player]),
            lots[player],
            tally[player].played,
            tally[player].byes,
            tuple(tally[player].by_round),
        )
        for place, player in enumerate(order, start=1)
    )


def _split(group: Sequence[str], value: Callable[[str], Fraction]) -> list[list[str]]:
    """``group`` cut into runs of equal ``value``, highest first."""
    runs: dict[Fraction, list[str]] = {}
    for player in group:
        runs.setdefault(value(player), []).append(player)
    return [runs[key] for key in sorted(runs, reverse=True)]
