"""A position of three-too-many: the display, hands, piles and collections."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamelog.games.three_too_many.cards import Components
from gamelog.games.three_too_many.collection import Collection
from gamelog.games.three_too_many.display import Row


@dataclass(frozen=True)
class ThreeTooManyState:
    """A position. Per-seat tuples follow ``seats``. Draw piles are sorted
    (unordered) unless an explicit deal fixed their order."""

    seats: tuple[str, ...]
    components: Components
    display: tuple[Row, ...]
    hands: tuple[tuple[int, ...], ...]
    piles: tuple[tuple[int, ...], ...]
    collections: tuple[Collection, ...]
    interim_stack: tuple[int, ...]
    interim_bonus: tuple[int | None, ...]
    played: tuple[int, ...]
    turn: int
    pile_order_fixed: bool = False
    box: tuple[int, ...] = ()
    """Undealt cards, face down in the box: only the arbiter knows them."""
    colourless: tuple[int, ...] = ()
    """Taken colourless cards (15, 45, 75), put back into the box openly."""
    last_hands: tuple[tuple[int, ...], ...] = ()
    """Each seat's last two cards, put back into the box unscored at the end."""
    final_bonus: tuple[int, ...] = ()
    ended: bool = False


def without(cards: tuple[int, ...], removed: Sequence[int]) -> tuple[int, ...]:
    """``cards`` less ``removed``, in their order."""
    gone = set(removed)
    return tuple(c for c in cards if c not in gone)


def set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with the one at ``index`` replaced: per-seat tuples stay immutable."""
    return (*values[:index], value, *values[index + 1 :])
