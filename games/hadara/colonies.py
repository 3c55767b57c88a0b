"""Colonies: laid coin side up per level, taken by military, plundered or
allied (the back, hidden from everybody until then, is turned only on an
alliance). The section limits and requirement payments here serve busts too."""

from __future__ import annotations

from dataclasses import dataclass

from gamelog.games.hadara.cards import Colony, Components
from gamelog.games.hadara.state import (
    HadaraState,
    Player,
    ability_param,
    ability_params,
    slot_level,
    tracks,
)

SLOT_LETTERS = "abcde"
PER_SECTION = {"colony": "colonies_per_section", "bust": "busts_per_section"}
"""The double card's param for each kind of section."""


def slot_name(level: int, index: int) -> str:
    return f"{level}{SLOT_LETTERS[index]}"


def per_section(player: Player, components: Components, kind: str) -> int:
    """Colonies (or busts) a seat may take in one section: 1, or 2 with the
    card that doubles them (its ``colonies_per_section`` or
    ``busts_per_section``)."""
    params = ability_param(player, components, "double_colony_bust")
    return 1 if params is None else params[PER_SECTION[kind]]


def section_open(state: HadaraState, seat: str, kind: str) -> bool:
    """Whether the seat may still take a colony (or carve a bust) in this section."""
    return state.section_taken < per_section(state.player(seat), state.components, kind)


def requirement_coins(
    state: HadaraState, player: Player, requirement: int, have: int, kind: str
) -> int | None:
    """Coins the seat must pay to meet a requirement with ``have`` military (or
    culture): 0 if met, None if it cannot. The reduction card lowers every
    requirement by 4; the buy-requirement card buys missing points at 3 coins
    each, at most 30 coins per section."""
    if have >= requirement:
        return 0
    reduction = sum(
        params[kind] for params in ability_params(player, state.components, "requirement_reduction")
    )
    missing = max(0, max(0, requirement - reduction) - have)
    if missing == 0:
        return 0
    for params in ability_params(player, state.components, "buy_requirement"):
        if kind in params["applies_to"]:
            coins: int = missing * params["coins_per_point"]
            cap: int = params["max_coins_per_section"]
            if coins + state.section_paid <= cap and coins <= player.coins:
                return coins
    return None


@dataclass(frozen=True)
class ColonyOption:
    slot: str
    colony: Colony
    requirement_coins: int
    colony_coins: int
    can_ally: bool


def colony_options(state: HadaraState, seat: str) -> list[ColonyOption]:
    """Every colony the seat may take now: a free slot of a level it has none
    of ("nur 1-mal"), whose requirement it meets or can pay for."""
    player = state.player(seat)
    components = state.components
    taken_levels = {slot_level(slot) for slot, _ in player.colonies}
    military = tracks(player, state)["military"]
    bonus = sum(
        params["coins_per_colony"] for params in ability_params(player, components, "colony_coins")
    )
    options = []
    for slot, colony_id in state.colony_slots.items():
        if slot in state.colony_owner or slot_level(slot) in taken_levels:
            continue
        colony = components.colony_by_id[colony_id]
        coins = requirement_coins(state, player, colony.requirement, military, "colony")
        if coins is None:
            continue
        can_ally = player.coins - coins + bonus >= colony.alliance_cost
        options.append(ColonyOption(slot, colony, coins, bonus, can_ally))
    return options


def may_take_colony(state: HadaraState, seat: str) -> bool:
    return section_open(state, seat, "colony") and bool(colony_options(state, seat))
