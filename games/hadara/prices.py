"""Prices and payments: recruiting (less 1 per owned card of the colour),
selling (the epoch's sale price, plus the sell-bonus cards), seals (per epoch,
or the seal-discount card's prices), income extras."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamelog.games.hadara.cards import Card, price_for
from gamelog.games.hadara.state import HadaraState, Player, colour_count, tracks


def recruit_price(state: HadaraState, player: Player, card: Card) -> int:
    return price_for(card, colour_count(player, state.components, card.colour))


def sale_coins(state: HadaraState, player: Player, card: Card) -> int:
    extra = 0
    for card_id in player.cards:
        owned = state.components.card(card_id)
        if owned.ability == "sell_bonus":
            extra += int(owned.params.get("extra_coins", 1))
    return state.components.prices(card.epoch).sale_price + extra


def seal_price(state: HadaraState, player: Player, kind: str) -> int:
    prices = state.components.prices(state.epoch)
    price = prices.silver if kind == "silver" else prices.golden
    for card_id in player.cards:
        card = state.components.card(card_id)
        if card.ability == "seal_discount":
            table = card.params.get(kind, {})
            if isinstance(table, Mapping) and str(state.epoch) in table:
                price = min(price, int(table[str(state.epoch)]))
    return price


def income_extra(state: HadaraState, player: Player) -> int:
    values = tracks(player, state)
    for card_id in player.cards:
        card = state.components.card(card_id)
        if card.ability == "income_per_track_above_income":
            watched = card.params.get("tracks", ["military", "culture", "food"])
            above = sum(1 for t in watched if values[str(t)] > values["income"])
            per = int(card.params.get("coins_per_track", 2))
            return min(above * per, int(card.params.get("max_coins_per_section", 6)))
    return 0


def ability_param(player: Player, state: HadaraState, ability: str) -> Mapping[str, Any] | None:
    for card_id in player.cards:
        card = state.components.card(card_id)
        if card.ability == ability:
            return card.params
    return None
