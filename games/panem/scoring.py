"""Survival points and the final ranking.

>>> from gamelog.games.panem.catalog import shipped_catalog
>>> catalog = shipped_catalog("panem/house-1")
>>> card_points(catalog, frozenset({"food-3-01", "food-2-01", "fuel-1-01"}), "katniss_bow")
9
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamelog.games.panem.catalog import Catalog
from gamelog.games.panem.state import PanemState
from gamelog.games.protocol import Result, rank_by


def card_points(catalog: Catalog, hand: frozenset[str], advantage: str | None) -> int:
    """Survival points of a hand with the holder's advantage card."""
    effect: Mapping[str, Any] = catalog.advantages[advantage].effect if advantage else {}
    total = 0
    goods = set()
    for card_id in hand:
        card = catalog.cards[card_id]
        goods.add(card.good)
        value = card.value
        if effect.get("kind") == "good_values" and effect.get("good") == card.good:
            value = int(effect["values"].get(str(card.value), card.value))
        total += value
    if effect.get("kind") == "all_goods" and goods >= set(catalog.goods):
        total += int(effect["points"])
    return total


def score(s: PanemState) -> Result:
    """The ranking once the lot is drawn: the tribute last whatever its points,
    then most points, then fewest lots in the glass ball, then a shared place."""
    owner = s.lot_drawn
    tribute = owner if owner in s.seats else None
    points = {
        seat: card_points(s.catalog, s.hands[seat], s.advantage.get(seat)) for seat in s.seats
    }
    lots = {seat: s.lots_placed(seat) for seat in s.seats}
    keys = {
        seat: (0, 0, 0) if seat == tribute else (1, points[seat], -lots[seat]) for seat in s.seats
    }
    return Result(
        scores=points,
        ranking=rank_by(keys, s.seats),
        details={"tribute": tribute, "lot_drawn": owner, "lots_placed": lots},
    )
