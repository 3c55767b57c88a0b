"""Feeding (phase B): every card in the display eats 1 food. Unfed seats
remove cards of their choice (values and abilities go with them) until fed,
or pay with the coin-feeding card; the surplus card pays coins for spare food."""

from __future__ import annotations

import json
from collections.abc import Sequence

from gamelog.games.hadara.cards import COLOUR_TRACK
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
    """Why a feeding is not legal, or None. Cards go one at a time "so lange
    ..., bis" the people are fed: the removal is legal when some order of its
    cards leaves the people unfed before each card and fed after the last.
    A card with food may go first, then more cards must follow ("Dadurch
    müsstest du noch weitere Karten entfernen")."""
    if len(set(removed)) != len(removed) or not set(removed) <= set(player.cards):
        return "remove only cards of your display, each once"
    if pay_for < 0 or pay_for > feeding_cap(state, player):
        return "you cannot feed that many cards with coins"
    lacking = shortfall(state, player, removed)
    if lacking > pay_for:
        return f"your food still lacks {lacking - pay_for}: remove or pay for more cards"
    if pay_for > max(0, lacking):
        return "do not pay for more cards than your food lacks"
    if removed and not _removable_in_some_order(state, player, removed, pay_for):
        return (
            "your people are fed before the last of these cards goes, whatever the "
            "order: remove cards only until they are fed"
        )
    return None


def _feeding_classes(state: HadaraState, player: Player, removed: Sequence[str]) -> list[list[str]]:
    """The removed cards grouped so that cards of one group are interchangeable
    for the food track: the same food of their own (values, bonus tile, bust
    card), and, where a colour-step card feeds by colour, the same colour and
    the same such ability."""
    components = state.components
    fed_colours: set[str] = set()
    for card_id in player.cards:
        card = components.card(card_id)
        if card.ability == "colour_step_bonus":
            colour = str(card.params.get("colour"))
            if str(card.params.get("track", COLOUR_TRACK.get(colour, "income"))) == "food":
                fed_colours.add(colour)
    bare = tracks(replace(player, cards=()), state)["food"]
    groups: dict[tuple[object, ...], list[str]] = {}
    for card_id in removed:
        card = components.card(card_id)
        own = tracks(replace(player, cards=(card_id,)), state)["food"] - bare
        fed_colour = card.colour if card.colour in fed_colours else None
        ability = (
            json.dumps(card.params, sort_keys=True) if card.ability == "colour_step_bonus" else None
        )
        groups.setdefault((own, fed_colour, ability), []).append(card_id)
    return list(groups.values())


def _removable_in_some_order(
    state: HadaraState, player: Player, removed: Sequence[str], pay_for: int
) -> bool:
    """Whether the cards can go one by one with the people unfed (more lacking
    than ``pay_for``) before each of them. Cards of one group are
    interchangeable, so the search runs over how many of each group are gone."""
    groups = _feeding_classes(state, player, removed)
    full = tuple(len(group) for group in groups)
    failed: set[tuple[int, ...]] = set()

    def search(gone: tuple[int, ...]) -> bool:
        if gone == full:
            return True
        if gone in failed:
            return False
        cards = [c for group, k in zip(groups, gone) for c in group[:k]]
        if shortfall(state, player, cards) > pay_for:
            for index, group in enumerate(groups):
                if gone[index] < len(group):
                    step = (*gone[:index], gone[index] + 1, *gone[index + 1 :])
                    if search(step):
                        return True
        failed.add(gone)
        return False

    return search((0,) * len(groups))


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
