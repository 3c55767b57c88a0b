"""Random tournaments for the tests: random results, and a whole event run
through ``pair_round`` round by round."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from gamelog.tournaments.pairing import pair_round
from gamelog.tournaments.players import Player, RosterChange, active_players
from gamelog.tournaments.rounds import Result, Round, Table
from gamelog.tournaments.settings import Settings


def random_result(table: Table, rng: random.Random, forfeits: bool = False) -> Result:
    """A ranking with occasional shared places, scores to match, and (if
    asked) now and then a forfeit."""
    order = list(table.seats)
    rng.shuffle(order)
    ranking: list[list[str]] = []
    for player in order:
        if ranking and rng.random() < 0.2:
            ranking[-1].append(player)
        else:
            ranking.append([player])
    scores = {}
    for index, place in enumerate(ranking):
        for player in place:
            scores[player] = 100 - 10 * index
    forfeited: frozenset[str] = frozenset()
    if forfeits and rng.random() < 0.1:
        forfeited = frozenset({ranking[-1][-1]})
    return Result(tuple(tuple(place) for place in ranking), scores, forfeited)


def play(round_: Round, rng: random.Random, forfeits: bool = False) -> Round:
    for table in round_.tables:
        round_ = round_.with_result(table.number, random_result(table, rng, forfeits))
    return round_


@dataclass
class Event:
    players: list[Player]
    settings: Settings
    seed: bytes
    changes: list[RosterChange] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)

    def pair(self) -> Round:
        return pair_round(self.players, self.changes, self.rounds, self.settings, self.seed)

    def active(self) -> tuple[str, ...]:
        return active_players(self.players, self.changes, len(self.rounds) + 1)


def field_of(count: int) -> list[Player]:
    return [Player(f"p{n:03}", f"Player {n}") for n in range(1, count + 1)]


def run(count: int, settings: Settings, seed: bytes = b"test", results_seed: int = 0) -> Event:
    event = Event(field_of(count), settings, seed)
    rng = random.Random(results_seed)
    for _ in range(settings.rounds):
        event.rounds.append(play(event.pair(), rng))
    return event


def met_pairs(rounds: Sequence[Round]) -> dict[frozenset[str], int]:
    met: dict[frozenset[str], int] = {}
    for round_ in rounds:
        for table in round_.tables:
            result = round_.results.get(table.number)
            present = [p for p in table.seats if result is None or result.played(p)]
            for a, b in combinations(present, 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    return met
