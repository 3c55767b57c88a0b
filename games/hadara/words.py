"""Hadara's things in words, shared by the text board and the notation.

>>> from gamelog.games.hadara.component_set import shipped_components
>>> card = shipped_components("hadara/house-1").card("I-blue-04")
>>> card_words(card)
'I-blue-04 (price 3; +2 culture, +1 food; 2 points)'
>>> epoch_name(2), track_words((0, 3, 0, 1))
('II', '+3 military, +1 food')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gamelog.games.hadara.cards import TRACKS, Card, Components
from gamelog.games.wording import counted

ROMAN = ("", "I", "II", "III")
STAGES: Mapping[str, str] = {
    "setup": "setting up",
    "wheel": "the start player sets the wheel",
    "drawing": "drawing",
    "choose": "sealed choices",
    "turn_wheel": "the wheel turns",
    "income": "income",
    "colony": "taking colonies",
    "bust": "carving busts",
    "take": "taking face-up cards",
    "feed": "feeding the people",
    "seals": "buying seals",
    "new_epoch": "laying the next epoch's cards",
    "scoring": "final scoring",
    "over": "game over",
}


def epoch_name(epoch: int) -> str:
    return ROMAN[epoch] if 0 < epoch < len(ROMAN) else str(epoch)


def track_words(values: Sequence[int]) -> str:
    """Steps on the four tracks, leaving out zeros: ``+3 military, +1 food``."""
    steps = [f"+{v} {t}" for t, v in zip(TRACKS, values) if v]
    return ", ".join(steps) or "no steps"


def ability_words(ability: str, params: Mapping[str, object]) -> str:
    """An ability id as words (``colour_step_bonus`` names its colour)."""
    words = ability.replace("_", " ")
    colour = params.get("colour")
    return f"{words} ({colour})" if isinstance(colour, str) else words


def card_words(card: Card) -> str:
    """A card with what a player weighs before taking it."""
    return f"{card.id} (price {card.price}; {gives_words(card)})"


def gives_words(card: Card) -> str:
    """What a card gives its owner: track steps, its ability, its points."""
    parts = []
    if any(card.values):
        parts.append(track_words(card.values))
    if card.ability:
        parts.append(ability_words(card.ability, card.params))
    parts.append(counted(card.points, "point"))
    return "; ".join(parts)


def card_named(components: Components, card_id: object) -> str:
    """A card id with what the card gives, as the board shows it beside the
    card's face; anything that is no card id of the set (a hidden card,
    None) is left as it is.

    >>> from gamelog.games.hadara.component_set import shipped_components
    >>> card_named(shipped_components("hadara/house-1"), "I-blue-04")
    'I-blue-04 (+2 culture, +1 food; 2 points)'
    """
    if not isinstance(card_id, str):
        return str(card_id)
    try:
        card = components.card(card_id)
    except (KeyError, ValueError):
        return card_id
    return f"{card_id} ({gives_words(card)})"


def side_words(side: str) -> str:
    """A bonus tile's side on a bust: steps on its track, or points."""
    return "step side" if side == "front" else "point side"


def outcome_words(outcome: Mapping[str, object], third_person: bool = False) -> str:
    """A recruit or sale as words: ``recruit I-red-07 for 2 coins (bonus tile
    culture)``, ``sell I-red-07 for 2 coins``; ``sells a card face down for 2
    coins`` when the card is not shown (``third_person`` for the notation)."""
    s = "s" if third_person else ""
    card = outcome.get("card")
    if outcome["action"] == "recruit":
        price = outcome.get("price", 0)
        words = f"recruit{s} {card} for {counted(price if isinstance(price, int) else 0, 'coin')}"
        if outcome.get("tile"):
            words += f" (bonus tile {outcome['tile']})"
        return words
    coins = outcome.get("coins", 0)
    sold = card if card else "a card face down"
    return f"sell{s} {sold} for {counted(coins if isinstance(coins, int) else 0, 'coin')}"
