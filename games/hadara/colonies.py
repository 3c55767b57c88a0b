"""Colonies: laid coin side up per level, taken by military, plundered or
allied (the back, hidden from everybody until then, is turned only on an
alliance)."""

from __future__ import annotations

from dataclasses import dataclass

from gamelog.games.hadara.cards import Colony, Components
from gamelog.games.hadara.state import HadaraState, Player, slot_level, tracks

SLOT_LETTERS = "abcde"


def slot_name(level: int, index: int) -> str:
    return f"{level}{SLOT_LETTERS[index]}"


def requirement_reduction(player: Player, components: Components, kind: str) -> int:
    total = 0
    for card_id in player.cards:
        card = components.card(card_id)
        if card.ability == "requirement_reduction":
            total += int(card.params.get(kind, 4))
    return total


def per_section(player: Player, components: Components, kind: str) -> int:
    """Colonies (or busts) a seat may take in one section."""
    for card_id in player.cards:
        card = components.card(card_id)
        if card.ability == "double_colony_bust":
            return int(card.params.get(f"{kind}_per_section", 2))
    return 1


def requirement_coins(
    state: HadaraState, player: Player, requirement: int, track: str, kind: str
) -> int | None:
    """Coins the seat must pay to meet a requirement (0 if met), or None if it
    cannot: the buy_requirement card buys missing points at 3 coins each, at
    most 30 coins per section."""
    components = state.components
    needed = max(0, requirement - requirement_reduction(player, components, kind))
    missing = max(0, needed - tracks(player, state)[track])
    if missing == 0:
        return 0
    for card_id in player.cards:
        card = components.card(card_id)
        if card.ability == "buy_requirement" and kind in card.params.get(
            "applies_to", ["colony", "bust"]
        ):
            coins = missing * int(card.params.get("coins_per_point", 3))
            cap = int(card.params.get("max_coins_per_section", 30))
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
    player = state.player(seat)
    components = state.components
    taken_levels = {slot_level(slot) for slot, _ in player.colonies}
    bonus = 0
    for card_id in player.cards:
        card = components.card(card_id)
        if card.ability == "colony_coins":
            bonus += int(card.params.get("coins_per_colony", 4))
    options = []
    for slot, colony_id in state.colony_slots.items():
        if slot in state.colony_owner or slot_level(slot) in taken_levels:
            continue
        colony = components.colony_by_id[colony_id]
        coins = requirement_coins(state, player, colony.requirement, "military", "colony")
        if coins is None:
            continue
        can_ally = player.coins - coins + bonus >= colony.alliance_cost
        options.append(ColonyOption(slot, colony, coins, bonus, can_ally))
    return options


def may_take_colony(state: HadaraState, seat: str) -> bool:
    player = state.player(seat)
    if state.section_taken >= per_section(player, state.components, "colony"):
        return False
    return bool(colony_options(state, seat))
