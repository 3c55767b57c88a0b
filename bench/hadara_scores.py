"""Self-play random Hadara games straight on the rules and print the
distribution of final scores (every seat's total).

    .venv/bin/python bench/hadara_scores.py            # 100 games, 2-5 players
    .venv/bin/python bench/hadara_scores.py -n 500 --players 4

Random legal play is far weaker than people: the numbers show the spread the
rules and the house component set allow, not what good players reach.
"""

from __future__ import annotations

import argparse
import statistics
import time

from gamelog.games.hadara import RULES
from gamelog.games.playout import play_out


def summary(label: str, scores: list[int]) -> str:
    q1, median, q3 = statistics.quantiles(scores, n=4, method="inclusive")
    return (
        f"{label:<12} n={len(scores):<5} min {min(scores):>4}  q1 {q1:>6.1f}  "
        f"median {median:>6.1f}  q3 {q3:>6.1f}  max {max(scores):>4}  "
        f"mean {statistics.fmean(scores):>6.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=100)
    parser.add_argument("--players", type=int, choices=range(2, 6), default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first-game", action="store_true")
    args = parser.parse_args()

    all_scores: list[int] = []
    winners: list[int] = []
    by_count: dict[int, list[int]] = {}
    started = time.perf_counter()
    for game in range(args.games):
        players = args.players or 2 + game % 4
        seats = tuple(f"p{i + 1}" for i in range(players))
        line = play_out(
            RULES, seats, seed=args.seed + game, options={"first_game": args.first_game}
        )
        result = RULES.result(line.final_state)
        assert result is not None
        scores = list(result.scores.values())
        all_scores.extend(scores)
        winners.append(max(scores))
        by_count.setdefault(players, []).extend(scores)
    elapsed = time.perf_counter() - started
    print(
        f"{args.games} random games in {elapsed:.2f} s ({elapsed / args.games * 1000:.1f} ms each)"
    )
    print(summary("all seats", all_scores))
    print(summary("winners", winners))
    for players in sorted(by_count):
        print(summary(f"{players} players", by_count[players]))


if __name__ == "__main__":
    main()
