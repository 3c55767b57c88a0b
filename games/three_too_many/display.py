"""The display: three rows headed by the start cards 0, 30 and 60.

A card goes into its row (1–29, 31–59, 61–89) in ascending order; cards
higher than it shift one place right. A row holds at most four cards
counting its start card. Placing the fifth forces a take:

(a) the placed card is the row's highest: take the card next to the start card;
(b) otherwise: take every card of the row higher than the placed one.

Rulebook examples (start cards not listed in ``cards``):

>>> place(Row(30, (46, 57)), 40)
Placement(row=Row(start=30, cards=(40, 46, 57)), taken=())
>>> place(Row(0, (10, 19, 24)), 28)
Placement(row=Row(start=0, cards=(19, 24, 28)), taken=(10,))
>>> place(Row(30, (40, 46, 57)), 37)
Placement(row=Row(start=30, cards=(37,)), taken=(40, 46, 57))
"""

from __future__ import annotations

from dataclasses import dataclass

from gamelog.games.three_too_many.cards import START_CARDS

ROW_LIMIT = 4
"""Cards a row may hold, counting its start card."""


@dataclass(frozen=True)
class Row:
    start: int
    cards: tuple[int, ...] = ()
    """The number cards right of the start card, ascending."""


@dataclass(frozen=True)
class Placement:
    row: Row
    taken: tuple[int, ...]


def row_of(card: int) -> int:
    """The row index (0, 1, 2) a number card belongs to."""
    return card // 30


def empty_display() -> tuple[Row, ...]:
    return tuple(Row(start) for start in START_CARDS)


def place(row: Row, card: int) -> Placement:
    """Put ``card`` into ``row`` and take what the rules make its player take."""
    cards = tuple(sorted((*row.cards, card)))
    if 1 + len(cards) <= ROW_LIMIT:
        return Placement(Row(row.start, cards), ())
    if card == cards[-1]:
        return Placement(Row(row.start, cards[1:]), cards[:1])
    lower = tuple(c for c in cards if c <= card)
    higher = tuple(c for c in cards if c > card)
    return Placement(Row(row.start, lower), higher)
