"""Prices and payments: recruiting (less 1 per owned card of the colour),
selling (the epoch's sale price, plus the sell-bonus cards), seals (per epoch,
or the seal-discount card's prices), income extras."""

from __future__ import annotations

from gamelog.games.hadara.cards import Card
from gamelog.games.hadara.state import (
    HadaraState,
    Player,
    ability_param,
    ability_params,
    colour_count,
    tracks,
)


def recruit_price(state: HadaraState, player: Player, card: Card) -> int:
    """The printed price less 1 per card of its colour the seat owns, never
    below 0 ("du bekommst also niemals Münzen zurück")."""
    owned = colour_count(player, state.components, card.colour)
    return max(0, card.price - owned)


def sale_coins(state: HadaraState, player: Player, card: Card) -> int:
    """The sale price on the card's back (by its epoch), plus 1 per sell-bonus card."""
    bonus = ability_params(player, state.components, "sell_bonus")
    extra: int = sum(params["extra_coins"] for params in bonus)
    return state.components.prices(card.epoch).sale_price + extra


def seal_price(state: HadaraState, player: Player, kind: str) -> int:
    prices = state.components.prices(state.epoch)
    price = prices.silver if kind == "silver" else prices.golden
    for params in ability_params(player, state.components, "seal_discount"):
        table = params[kind]
        if str(state.epoch) in table:
            price = min(price, table[str(state.epoch)])
    return price


def income_extra(state: HadaraState, player: Player) -> int:
    """The income card's coins: 2 per track above the income track, at most 6."""
    params = ability_param(player, state.components, "income_per_track_above_income")
    if params is None:
        return 0
    values = tracks(player, state)
    above = sum(1 for track in params["tracks"] if values[track] > values["income"])
    per: int = params["coins_per_track"]
    cap: int = params["max_coins_per_section"]
    return min(above * per, cap)
