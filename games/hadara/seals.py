"""Silver and golden seals: bought in phase B, at most two of each per game;
a silver seal takes a free bonus tile naming the track it scores."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from gamelog.games.hadara.cards import TRACKS
from gamelog.games.hadara.prices import seal_price
from gamelog.games.hadara.state import HadaraState, Player, free_tiles
from gamelog.games.protocol import Move


def seal_problem(
    state: HadaraState, player: Player, silver: Sequence[str], golden: int
) -> str | None:
    components = state.components
    if len(player.silver_seals) + len(silver) > components.max_silver_seals:
        return f"at most {components.max_silver_seals} silver seals per game"
    if golden < 0 or player.golden_seals + golden > components.max_golden_seals:
        return f"at most {components.max_golden_seals} golden seals per game"
    free = free_tiles(player)
    for track in silver:
        if track not in TRACKS:
            return f"a silver seal takes a bonus tile of {list(TRACKS)}"
        free[track] -= 1
        if free[track] < 0:
            return f"you have no free {track} bonus tile for a silver seal"
    cost = len(silver) * seal_price(state, player, "silver") + golden * seal_price(
        state, player, "golden"
    )
    if cost > player.coins:
        return f"the seals cost {cost} coins; you have {player.coins}"
    return None


def seal_moves(state: HadaraState, seat: str) -> list[Move]:
    player = state.player(seat)
    moves: list[Move] = []
    room = state.components.max_silver_seals - len(player.silver_seals)
    silver_choices: list[tuple[str, ...]] = [()]
    for k in range(1, max(0, room) + 1):
        silver_choices.extend(itertools.combinations_with_replacement(TRACKS, k))
    for silver in silver_choices:
        for golden in range(0, state.components.max_golden_seals - player.golden_seals + 1):
            if (silver or golden) and seal_problem(state, player, silver, golden) is None:
                moves.append({"silver": list(silver), "golden": golden})
    return moves


def may_buy_seal(state: HadaraState, seat: str) -> bool:
    """Whether the seat can buy any seal now. A purchase that is allowed stays
    allowed with one of its seals alone, so trying each single seal suffices."""
    player = state.player(seat)
    singles: list[tuple[tuple[str, ...], int]] = [((track,), 0) for track in TRACKS]
    singles.append(((), 1))
    return any(seal_problem(state, player, silver, golden) is None for silver, golden in singles)
