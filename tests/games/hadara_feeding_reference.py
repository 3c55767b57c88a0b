"""The feeding check of rules 1.3 as first written: a search over removal
orders, grouping cards that give the same food. Exact but exponential in the
number of groups (a 60-card display took 23 s); kept as the oracle that
``gamelog.games.hadara.feeding.feeding_problem`` must agree with."""

from __future__ import annotations

import json
from collections.abc import Sequence

from gamelog.games.hadara.cards import COLOUR_TRACK
from gamelog.games.hadara.feeding import feeding_cap, shortfall
from gamelog.games.hadara.state import HadaraState, Player, tracks
from gamelog.games.protocol import frozen_replace as replace


def reference_feeding_problem(
    state: HadaraState, player: Player, removed: Sequence[str], pay_for: int
) -> str | None:
    """Why a feeding is not legal, or None (the search of rules 1.3 as first
    written; same refusals as ``feeding_problem``)."""
    if len(set(removed)) != len(removed) or not set(removed) <= set(player.cards):
        return "remove only cards of your display, each once"
    if pay_for < 0 or pay_for > feeding_cap(state, player):
        return "you cannot feed that many cards with coins"
    lacking = shortfall(state, player, removed)
    if lacking > pay_for:
        return f"your food still lacks {lacking - pay_for}: remove or pay for more cards"
    if pay_for > max(0, lacking):
        return "do not pay for more cards than your food lacks"
    if removed and not reference_removable_in_some_order(state, player, removed, pay_for):
        return (
            "your people are fed before the last of these cards goes, whatever the "
            "order: remove cards only until they are fed"
        )
    return None


def reference_feeding_classes(
    state: HadaraState, player: Player, removed: Sequence[str]
) -> list[list[str]]:
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


def reference_removable_in_some_order(
    state: HadaraState, player: Player, removed: Sequence[str], pay_for: int
) -> bool:
    """Whether the cards can go one by one with the people unfed (more lacking
    than ``pay_for``) before each of them. Cards of one group are
    interchangeable, so the search runs over how many of each group are gone."""
    groups = reference_feeding_classes(state, player, removed)
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
