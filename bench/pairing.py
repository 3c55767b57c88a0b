"""Case h: pairing one round of a 1,000-player tournament.

A field of 1,000 players plays a few rounds first (pairings by
``pair_round``, results drawn at random from a fixed seed: a random order
at each table, now and then a shared place). Then the next round is paired,
several times over, and the median time is the measurement, once with
2-player tables (the Swiss system) and once with tables of 4 (grouping by
standing against repeat opponents, seat rotation).

The baseline is computing the standings of the same field after the same
rounds (points, Buchholz, median Buchholz, first places, and the seeded
lot): what any pairing by standings must do first. Pairing runs it once
itself, so the ratio says how much the pairing adds to that.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from bench.common import CaseResult, Row, Settings

GOAL_S = 1.0


def played_tournament(count: int, table_size: tuple[int, int], rounds: int) -> dict[str, Any]:
    """A tournament of ``count`` players after ``rounds`` played rounds."""
    from gamelog.tournaments.pairing import pair_round
    from gamelog.tournaments.players import Player
    from gamelog.tournaments.rounds import Result
    from gamelog.tournaments.settings import Settings as TournamentSettings

    players = [Player(f"p{n:04}", f"Player {n}") for n in range(1, count + 1)]
    settings = TournamentSettings(rounds=rounds + 1, table_size=table_size)
    seed = b"bench-pairing"
    rng = random.Random(7)
    played = []
    for _ in range(rounds):
        seated = pair_round(players, (), played, settings, seed)
        for table in seated.tables:
            order = list(table.seats)
            rng.shuffle(order)
            ranking: list[tuple[str, ...]] = []
            for player in order:
                if ranking and rng.random() < 0.15:
                    ranking[-1] = (*ranking[-1], player)
                else:
                    ranking.append((player,))
            seated = seated.with_result(table.number, Result(tuple(ranking)))
        played.append(seated)
    return {"players": players, "settings": settings, "seed": seed, "rounds": played}


def timed(call: Any, repeats: int) -> tuple[float, float, Any]:
    """Median wall seconds and median CPU seconds of ``repeats`` calls, and
    the last call's answer."""
    walls, cpus, answer = [], [], None
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        answer = call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), answer


def measure(count: int, table_size: tuple[int, int], rounds: int, repeats: int) -> Row:
    from gamelog.tournaments.history import history_of
    from gamelog.tournaments.pairing import pair_round
    from gamelog.tournaments.standings import standings

    t = played_tournament(count, table_size, rounds)
    args = (t["players"], (), t["rounds"], t["settings"], t["seed"])
    pair_s, pair_cpu, seated = timed(lambda: pair_round(*args), repeats)
    rank_s, rank_cpu, _ = timed(
        lambda: standings(t["players"], t["rounds"], t["settings"], t["seed"]), repeats
    )
    seated_players = sorted(seated.players())
    assert seated_players == sorted(p.id for p in t["players"]), "a player was not seated once"
    past = history_of(t["rounds"])
    repeats_at_tables = sum(
        1
        for table in seated.tables
        for i, a in enumerate(table.seats)
        for b in table.seats[i + 1 :]
        if past.times_met(a, b)
    )
    kind = "2-player tables (Swiss)" if table_size == (2, 2) else f"tables of {table_size[1]}"
    return Row(
        label=f"{count} players, {kind}, pairing round {rounds + 1}",
        value=pair_s,
        baseline=rank_s,
        unit="s",
        ratio=pair_s / rank_s,
        ratio_meaning="pairing time / standings time of the same field",
        goal=f"< {GOAL_S:g} s",
        met=pair_s < GOAL_S,
        context={
            "pair_cpu_s": pair_cpu,
            "standings_cpu_s": rank_cpu,
            "players": count,
            "rounds_played": rounds,
            "tables": len(seated.tables),
            "byes": len(seated.byes),
            "pairs_who_met_before": repeats_at_tables,
            "repeats": repeats,
        },
    )


def case_h(settings: Settings) -> CaseResult:
    result = CaseResult(
        "h",
        "pairing a round of a 1,000-player tournament",
        "the standings of the same field after the same rounds",
    )
    count = settings.pick(1_000, 100)
    rounds = settings.pick(5, 2)
    repeats = settings.pick(5, 2)
    for table_size in ((2, 2), (4, 4)):
        result.rows.append(measure(count, table_size, rounds, repeats))
    result.notes.append(
        f"{count} players after {rounds} random rounds; median of {repeats} pairings "
        "(wall time; CPU time in the JSON context); every player checked seated once"
    )
    return result
