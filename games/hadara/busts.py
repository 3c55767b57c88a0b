"""Busts: carved by culture, each with a bonus tile, front side (steps on the
tile's track) or back side (the reward as points at the end)."""

from __future__ import annotations

from dataclasses import dataclass

from gamelog.games.hadara.colonies import requirement_coins, section_open
from gamelog.games.hadara.state import HadaraState, free_tile_tracks, tracks


@dataclass(frozen=True)
class BustOption:
    number: int
    requirement_coins: int
    tiles: tuple[str, ...]


def bust_options(state: HadaraState, seat: str) -> list[BustOption]:
    """Every bust of the seat's board side it may carve now: not carved yet,
    its requirement met or paid for, and a free bonus tile to put on it."""
    player = state.player(seat)
    tiles = tuple(free_tile_tracks(player))
    if not tiles:
        return []
    carved = {number for number, _, _ in player.busts}
    culture = tracks(player, state)["culture"]
    options = []
    for number, bust in enumerate(state.components.busts[player.side], start=1):
        if number in carved:
            continue
        coins = requirement_coins(state, player, bust.requirement, culture, "bust")
        if coins is not None:
            options.append(BustOption(number, coins, tiles))
    return options


def may_carve_bust(state: HadaraState, seat: str) -> bool:
    return section_open(state, seat, "bust") and bool(bust_options(state, seat))
