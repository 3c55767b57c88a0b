"""A player's collection: taken cards sorted by colour, and its scoring.

Per colour, the first and second card lie face up; the third joins them and
all three are turned face down (-1 point each); the fourth counts as a new
first, so the sixth turns three more face down. Each colour scores 1 point
for one face-up card, 5 for two, and -1 per face-down card.

Thomas' collection in the rulebook's final scoring: four colours with one
card, two with two, six cards face down (two turned triples):

>>> c = Collection.empty(7)
>>> for colour, card in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (4, 12), (5, 6), (5, 13)]:
...     c, turned = c.add(colour, card)
>>> for card in (7, 14, 21, 28, 35, 42):
...     c, turned = c.add(6, card)
>>> turned, c.face_up[6], c.face_down[6]
(True, (), (7, 14, 21, 28, 35, 42))
>>> score_collection(c)
CollectionScore(singles=4, pairs=2, face_down=6, points=8)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gamelog.games.three_too_many.cards import Components

SINGLE_POINTS = 1
PAIR_POINTS = 5
FACE_DOWN_POINTS = -1
TURN_OVER_AT = 3


@dataclass(frozen=True)
class Collection:
    """Cards per colour index: face up (0–2 cards) and face down (triples)."""

    face_up: tuple[tuple[int, ...], ...]
    face_down: tuple[tuple[int, ...], ...]

    @staticmethod
    def empty(colours: int) -> Collection:
        return Collection(tuple(() for _ in range(colours)), tuple(() for _ in range(colours)))

    def add(self, colour: int, card: int) -> tuple[Collection, bool]:
        """The collection with ``card`` added, and whether a triple was turned."""
        up = list(self.face_up)
        down = list(self.face_down)
        cards = (*up[colour], card)
        turned = len(cards) == TURN_OVER_AT
        if turned:
            up[colour] = ()
            down[colour] = (*down[colour], *cards)
        else:
            up[colour] = cards
        return Collection(tuple(up), tuple(down)), turned

    def face_up_colours(self) -> int:
        return sum(1 for cards in self.face_up if cards)

    def cards(self) -> tuple[int, ...]:
        return tuple(c for part in (*self.face_up, *self.face_down) for c in part)


@dataclass(frozen=True)
class CollectionScore:
    singles: int
    pairs: int
    face_down: int
    points: int


def score_collection(collection: Collection) -> CollectionScore:
    singles = sum(1 for cards in collection.face_up if len(cards) == 1)
    pairs = sum(1 for cards in collection.face_up if len(cards) == 2)
    face_down = sum(len(cards) for cards in collection.face_down)
    points = singles * SINGLE_POINTS + pairs * PAIR_POINTS + face_down * FACE_DOWN_POINTS
    return CollectionScore(singles, pairs, face_down, points)


@dataclass(frozen=True)
class Taken:
    """Cards taken from a row, sorted into a collection in the order given."""

    collection: Collection
    turned_face_down: tuple[str, ...]
    """The colours whose third card turned a triple face down, in turn order."""
    to_box: tuple[int, ...]
    """The colourless cards (15, 45, 75): back into the box, unscored."""


def take(components: Components, collection: Collection, cards: Sequence[int]) -> Taken:
    """Add taken ``cards`` to ``collection``: the one rule ``decide`` (to name
    the turned colours in the event) and ``evolve`` (to fold it) share."""
    turned: list[str] = []
    to_box: list[int] = []
    for card in cards:
        colour = components.colour_of[card]
        if colour is None:
            to_box.append(card)
            continue
        collection, flipped = collection.add(components.colours.index(colour), card)
        if flipped:
            turned.append(colour)
    return Taken(collection, tuple(turned), tuple(to_box))
