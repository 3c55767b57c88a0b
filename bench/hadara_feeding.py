"""Time Hadara's feeding check (``feeding_problem``) on random removals from
random displays and print the slowest call per display size.

    .venv/bin/python bench/hadara_feeding.py                  # 35, 60, 200 cards
    .venv/bin/python bench/hadara_feeding.py --sizes 35,60 --reference -n 20

Displays are drawn from the house set (repeated under new ids past its 162
cards), with bonus tiles and busts on food; the start food is set so that
the people are fed once the removal is made, exactly or with one food to
spare (one card too many), so that every call reaches the question of the
order. ``--reference`` also times the search over orders that rules 1.3
first used (tests/games/hadara_feeding_reference.py): it can take many
seconds a call from about 40 cards up, so keep -n small.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from gamelog.games.hadara.cards import Components
from gamelog.games.hadara.component_set import shipped_components
from gamelog.games.hadara.feeding import feeding_problem, shortfall
from gamelog.games.hadara.state import HadaraState, Player

Check = Callable[[HadaraState, Player, Sequence[str], int], str | None]


def components(size: int) -> Components:
    """The house set, its cards repeated under new ids until there are ``size``."""
    house = shipped_components("hadara/house-1")
    copies = -(-size // len(house.cards))
    cards = tuple(
        replace(card, id=f"{card.id}~{copy}" if copy else card.id)
        for copy in range(copies)
        for card in house.cards
    )
    return replace(house, cards=cards)


def feeding(rng: random.Random, parts: Components, size: int) -> tuple[HadaraState, list[str]]:
    """A random display of ``size`` cards and a random removal from it."""
    display = rng.sample([card.id for card in parts.cards], size)
    tiles = {c: "food" for c in display if parts.card(c).ability == "bonus_tile_steps"}
    busts = tuple((i + 1, "food", "front") for i in range(rng.randint(0, 2)))
    player = Player(seat="ann", cards=tuple(display), card_tiles=tiles, busts=busts)
    state = HadaraState(seats=("ann",), components=parts, first_game=False, players=(player,))
    removed = [c for c in display if rng.random() < 0.5]
    spare = rng.choice([0, 1])  # 1: one card too many removed, the search's worst case
    player = replace(player, start_values=(0, 0, 0, shortfall(state, player, removed) + spare))
    return replace(state, players=(player,)), removed


def slowest(check: Check, size: int, calls: int, seed: int) -> tuple[float, int]:
    """The slowest call in seconds, and how many removals were legal."""
    rng = random.Random(seed)
    parts = components(size)
    worst, legal = 0.0, 0
    for _ in range(calls):
        state, removed = feeding(rng, parts, size)
        started = time.perf_counter()
        answer = check(state, state.players[0], removed, 0)
        worst = max(worst, time.perf_counter() - started)
        legal += answer is None
    return worst, legal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="35,60,200")
    parser.add_argument("-n", "--calls", type=int, default=200, help="removals per size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reference", action="store_true")
    args = parser.parse_args()
    checks: list[tuple[str, Check]] = [("feeding_problem", feeding_problem)]
    if args.reference:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "games"))
        from hadara_feeding_reference import reference_feeding_problem

        checks.append(("reference search", reference_feeding_problem))
    for size in (int(s) for s in args.sizes.split(",")):
        for name, check in checks:
            worst, legal = slowest(check, size, args.calls, args.seed)
            print(
                f"{size:>4} cards  {name:<16} slowest of {args.calls} calls "
                f"{worst * 1000:>10.2f} ms  ({legal} legal)"
            )


if __name__ == "__main__":
    main()
