"""Feeding (phase B): every card in the display eats 1 food. Unfed seats
remove cards of their choice (values and abilities go with them) until fed,
or pay with the coin-feeding card; the surplus card pays coins for spare food."""

from __future__ import annotations

from collections.abc import Sequence

from gamelog.games.hadara.state import HadaraState, Player, ability_param, tracks
from gamelog.games.protocol import Move
from gamelog.games.protocol import frozen_replace as replace


def without(player: Player, removed: Sequence[str]) -> Player:
    gone = set(removed)
    return replace(
        player,
        cards=tuple(c for c in player.cards if c not in gone),
        card_tiles={c: t for c, t in player.card_tiles.items() if c not in gone},
    )


def shortfall(state: HadaraState, player: Player, removed: Sequence[str]) -> int:
    after = without(player, removed)
    return len(after.cards) - tracks(after, state)["food"]


def feeding_cap(state: HadaraState, player: Player) -> int:
    """Cards the seat may feed with coins instead of removing them."""
    params = ability_param(player, state.components, "feed_with_coins")
    if params is None:
        return 0
    per = int(params.get("coins_per_card", 2))
    cap = int(params.get("max_coins_per_section", 12)) // per
    return min(cap, player.coins // per)


def feeding_problem(
    state: HadaraState, player: Player, removed: Sequence[str], pay_for: int
) -> str | None:
    """Why a feeding is not legal, or None. Cards are removed only until the
    people are fed: leaving out any one removed card must leave them unfed."""
    if len(set(removed)) != len(removed) or not set(removed) <= set(player.cards):
        return "remove only cards of your display, each once"
    if pay_for < 0 or pay_for > feeding_cap(state, player):
        return "you cannot feed that many cards with coins"
    lacking = shortfall(state, player, removed)
    if lacking > pay_for:
        return f"your food still lacks {lacking - pay_for}: remove or pay for more cards"
    if pay_for > max(0, lacking):
        return "do not pay for more cards than your food lacks"
    for card_id in removed:
        rest = [c for c in removed if c != card_id]
        if shortfall(state, player, rest) <= pay_for:
            return f"{card_id} need not be removed: remove cards only until your people are fed"
    return None


def _minimal_removal(
    state: HadaraState, player: Player, first: str | None, pay_for: int
) -> list[str]:
    components = state.components
    removed: list[str] = [first] if first else []
    pool = sorted(
        (c for c in player.cards if c != first),
        key=lambda c: (components.card(c).values[3], components.card(c).points, c),
    )
    for card_id in pool:
        if shortfall(state, player, removed) <= pay_for:
            break
        removed.append(card_id)
    changed = True
    while changed:
        changed = False
        for card_id in list(reversed(removed)):
            rest = [c for c in removed if c != card_id]
            if shortfall(state, player, rest) <= pay_for:
                removed = rest
                changed = True
    return removed


def feeding_moves(state: HadaraState, seat: str) -> list[Move]:
    """A representative set of legal feedings: for each card of the display,
    removing it first and then the cards with the least food and points; and,
    with the coin-feeding card, each number of cards paid for."""
    player = state.player(seat)
    seen: set[tuple[tuple[str, ...], int]] = set()
    moves: list[Move] = []
    for pay_for in range(0, feeding_cap(state, player) + 1):
        for first in [None, *player.cards]:
            removed = _minimal_removal(state, player, first, pay_for)
            key = (tuple(sorted(removed)), pay_for)
            if key in seen or feeding_problem(state, player, removed, pay_for) is not None:
                continue
            seen.add(key)
            move: Move = {"remove": sorted(removed)}
            if pay_for:
                move["pay_for"] = pay_for
            moves.append(move)
    return moves
