"""Busts: carved by culture, each with a bonus tile, front side (steps on the
tile's track) or back side (the reward as points at the end)."""

from __future__ import annotations

from dataclasses import dataclass

from gamelog.games.hadara.colonies import per_section, requirement_coins
from gamelog.games.hadara.state import HadaraState, free_tiles


@dataclass(frozen=True)
class BustOption:
    number: int
    requirement_coins: int
    tiles: tuple[str, ...]


def bust_options(state: HadaraState, seat: str) -> list[BustOption]:
    player = state.player(seat)
    tiles = tuple(track for track, count in free_tiles(player).items() if count > 0)
    if not tiles:
        return []
    carved = {number for number, _, _ in player.busts}
    options = []
    for number, bust in enumerate(state.components.busts[player.side], start=1):
        if number in carved:
            continue
        coins = requirement_coins(state, player, bust.requirement, "culture", "bust")
        if coins is not None:
            options.append(BustOption(number, coins, tiles))
    return options


def may_carve_bust(state: HadaraState, seat: str) -> bool:
    player = state.player(seat)
    if state.section_taken >= per_section(player, state.components, "bust"):
        return False
    return bool(bust_options(state, seat))
