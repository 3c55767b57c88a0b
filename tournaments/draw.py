"""Every random choice of a tournament, drawn from its seed and a label.

A tournament commits to one secret seed when it is created. Each draw (the
round-1 seating, a coin for the first player, the lots of the last tie-break)
takes its own random source from SHA-256 of the seed and a label naming the
draw, like a game's shuffle takes one from its seed and position. So anyone
holding the revealed seed can re-run every draw, and no draw depends on any
other having happened first:

>>> shuffled(["ann", "ben", "cy", "dee"], b"club-2026", "round 1")
('cy', 'ben', 'ann', 'dee')
>>> shuffled(["ann", "ben", "cy", "dee"], b"club-2026", "round 1")
('cy', 'ben', 'ann', 'dee')
>>> rng_for(b"club-2026", "round 1").random() == rng_for(b"club-2026", "round 2").random()
False

The order of the items going in matters, so callers pass them sorted (or in an
order fixed by earlier rounds), never in the order of a ``set``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rng_for(seed: bytes, label: str) -> random.Random:
    """The random source of the draw called ``label``."""
    digest = hashlib.sha256(seed + b"/" + label.encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def shuffled(items: Sequence[T], seed: bytes, label: str) -> tuple[T, ...]:
    """``items`` in the random order of the draw called ``label``."""
    out = list(items)
    rng_for(seed, label).shuffle(out)
    return tuple(out)
