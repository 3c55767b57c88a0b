"""The number cards and their colours: a component set.

Cards are the integers 0..89. 0, 30 and 60 are the start cards heading the
three rows; the other 87 are number cards. A component set gives each number
card a colour (or none: 15, 45 and 75 in the house set) and the bonus cards.
Sets are JSON (``data/house-1.json``) or given inline at creation:

>>> house = load_component_set("three-too-many/house-1")
>>> house.colours[:3]
('orange', 'lilac', 'light-blue')
>>> house.colour_of[1], house.colour_of[8], house.colour_of[15]
('orange', 'orange', None)
>>> house.final_bonus_for(6), house.final_bonus_for(7), house.final_bonus_for(5)
(5, 10, 0)

An inline set names at most 87 colours (one per number card): each picture's
cost grows with colours times cards, and 20,000 colours took seconds.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamelog.games.components import load_json
from gamelog.games.protocol import InvalidOptions, is_int

CARD_COUNT = 90
START_CARDS: tuple[int, ...] = (0, 30, 60)
NUMBER_CARDS: tuple[int, ...] = tuple(n for n in range(CARD_COUNT) if n not in START_CARDS)
SHIPPED_SETS: Mapping[str, str] = {"three-too-many/house-1": "house-1.json"}


@dataclass(frozen=True)
class Components:
    """A component set: colour names, each card's colour, the bonus cards."""

    name: str
    colours: tuple[str, ...]
    colour_of: tuple[str | None, ...]
    """Indexed by card number; None for start cards and colourless cards."""
    interim_bonus: tuple[int, ...]
    """The interim bonus stack, top card first."""
    final_bonus: tuple[tuple[int, int], ...]
    """(face-up colours needed, points), e.g. ((6, 5), (7, 10))."""

    def final_bonus_for(self, face_up_colours: int) -> int:
        """Points of the best final bonus card earned with that many colours."""
        earned = [points for needed, points in self.final_bonus if face_up_colours >= needed]
        return max(earned, default=0)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "colours": list(self.colours),
            "cards": [{"number": n, "colour": c} for n, c in enumerate(self.colour_of)],
            "interim_bonus": list(self.interim_bonus),
            "final_bonus": [{"colours": k, "points": p} for k, p in self.final_bonus],
        }


def shipped_set_name(name: Any) -> str:
    """``name`` if it names a shipped set; raises InvalidOptions otherwise."""
    if not isinstance(name, str) or name not in SHIPPED_SETS:
        known = ", ".join(SHIPPED_SETS)
        raise InvalidOptions("unknown-component-set", f"no set {name!r}; known: {known}")
    return name


@functools.lru_cache(maxsize=8)
def load_component_set(name: str) -> Components:
    """A shipped set by name, read and checked once: every fold of a game
    starts from ``start``, which needs the set. Raises InvalidOptions for an
    unknown name."""
    filename = SHIPPED_SETS[shipped_set_name(name)]
    return components_from_json(load_json(__package__ or __name__, filename))


def components_from_json(data: Any) -> Components:
    """Validate a set given as JSON (the shape of ``data/house-1.json``)."""

    def bad(message: str) -> InvalidOptions:
        return InvalidOptions("bad-components", message)

    if not isinstance(data, dict):
        raise bad("a component set is a JSON object")
    name = data.get("name", "three-too-many/custom")
    colours = data.get("colours")
    if not isinstance(name, str) or not name:
        raise bad("name must be a non-empty string")
    if (
        not isinstance(colours, list)
        or not colours
        or not all(isinstance(c, str) and c for c in colours)
        or len(set(colours)) != len(colours)
    ):
        raise bad("colours must be a list of distinct colour names")
    # More colours than number cards name nothing; the picture's legend costs
    # colours x cards (20,000 colours took seconds per picture).
    if len(colours) > len(NUMBER_CARDS):
        raise bad(f"colours names at most {len(NUMBER_CARDS)} colours, one per number card")
    cards = data.get("cards")
    if not isinstance(cards, list) or len(cards) != CARD_COUNT:
        raise bad(f"cards must list all {CARD_COUNT} numbers 0..89")
    colour_of: list[str | None] = [None] * CARD_COUNT
    seen: set[int] = set()
    for card in cards:
        number = card.get("number") if isinstance(card, dict) else None
        if not is_int(number) or not 0 <= number < CARD_COUNT or number in seen:
            raise bad("each card needs a distinct number 0..89")
        seen.add(number)
        colour = card.get("colour")
        if colour is not None and colour not in colours:
            raise bad(f"card {number} has unknown colour {colour!r}")
        if number in START_CARDS and colour is not None:
            raise bad(f"start card {number} has no colour")
        colour_of[number] = colour
    interim = data.get("interim_bonus")
    if not isinstance(interim, list) or not all(is_int(p) for p in interim):
        raise bad("interim_bonus lists the bonus stack's points, top first")
    final = data.get("final_bonus")
    if not isinstance(final, list) or not all(
        isinstance(b, dict) and is_int(b.get("colours")) and is_int(b.get("points")) for b in final
    ):
        raise bad('final_bonus lists {"colours": n, "points": p}')
    return Components(
        name=name,
        colours=tuple(colours),
        colour_of=tuple(colour_of),
        interim_bonus=tuple(interim),
        final_bonus=tuple((b["colours"], b["points"]) for b in final),
    )
