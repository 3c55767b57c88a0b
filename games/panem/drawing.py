"""Drawing for panem's picture: the palette and layout, SVG text, cards face up
and face down, fans and stacks of cards, chips and pawns."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from gamelog.games.panem.catalog import (
    BAKERY,
    CAPITOL_STOREHOUSE,
    EVERDEEN_HOUSE,
    FOREST,
    HOB,
    JUSTICE_BUILDING,
    Catalog,
)
from gamelog.games.panem.words import (
    kind_name,
)
from gamelog.games.wording import counted

WIDTH = 1200
ROW_H = 80
"""Height of a seat's row; the picture is as tall as its seats need."""
PLAYER_COLOURS = ("#d0312d", "#e8b923", "#7b4fa0", "#2e8b57")
NEUTRAL_COLOUR = "#9a9a9a"
GOOD_COLOURS = {
    "food": "#c98a3a",
    "medicine": "#3f9e8f",
    "clothing": "#4f6fb0",
    "fuel": "#5a5a5a",
}
OTHER_GOOD = "#8a6d5a"
CARD_W, CARD_H = 38, 54
BACK = "#6e2231"
BOARD = "#efe6d2"
PAPER = "#faf6ee"
INK = "#2b2622"
GOLD = "#d8b45a"

# Board order as printed: Capitol storehouse, Justice building, bakery on top;
# Hob, Everdeen house, forest below.
BOARD_LAYOUT = (
    (CAPITOL_STOREHOUSE, JUSTICE_BUILDING, BAKERY),
    (HOB, EVERDEEN_HOUSE, FOREST),
)
ACTIONS = {
    FOREST: "turn up 3 cards, keep 1 food",
    EVERDEEN_HOUSE: "draw 1 card secretly",
    HOB: "look at the stack, exchange 1 card",
    BAKERY: "take the face-up stack",
    CAPITOL_STOREHOUSE: "look at the discard pile, exchange 1",
    JUSTICE_BUILDING: "give up your chip: swap places",
}
BOX_W, BOX_H = 262, 264
BOARD_X, BOARD_Y = 20, 70
SEATS_Y = BOARD_Y + 2 * BOX_H + 134


def text_at(
    x: float,
    y: float,
    words: str,
    size: int = 13,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = INK,
    extra: str = "",
) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}"{extra}>{escape(words)}</text>'
    )


def card_face(catalog: Catalog, card_id: str, x: float, y: float, note: str = "") -> str:
    """A face-up survival card: its good and value, and its id in ``data-card``."""
    card = catalog.cards[card_id]
    colour = GOOD_COLOURS.get(card.good, OTHER_GOOD)
    extra = f' data-note="{escape(note)}"' if note else ""
    return (
        f'<g class="card" data-card="{escape(card_id)}" data-kind="{escape(card.kind)}"{extra}>'
        f"<title>{escape(kind_name(card.kind))}</title>"
        f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" '
        f'fill="{colour}" stroke="#fff" stroke-width="1.5"/>'
        + text_at(x + CARD_W / 2, y + 12, card.good, 8, "middle", fill="#fff")
        + text_at(x + CARD_W / 2, y + 40, str(card.value), 22, "middle", "bold", "#fff")
        + "</g>"
    )


def card_back(x: float, y: float) -> str:
    """A face-down card: nothing on it says which card it is."""
    return (
        '<g class="card back">'
        f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" '
        f'fill="{BACK}" stroke="#fff" stroke-width="1.5"/>'
        f'<rect x="{x + 5:g}" y="{y + 5:g}" width="{CARD_W - 10}" height="{CARD_H - 10}" '
        f'rx="2" fill="none" stroke="{GOLD}" stroke-width="1"/>'
        f'<circle cx="{x + CARD_W / 2:g}" cy="{y + CARD_H / 2:g}" r="6" fill="none" '
        f'stroke="{GOLD}" stroke-width="1.2"/>'
        "</g>"
    )


def back_stack(x: float, y: float, count: int, label: str = "") -> str:
    """A face-down pile: up to three backs offset, and the count below."""
    parts = [card_back(x + 3 * i, y - 3 * i) for i in range(min(count, 3))]
    if not count:
        parts.append(
            f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" '
            'fill="none" stroke="#b9ac90" stroke-dasharray="4 3"/>'
        )
    words = label or counted(count, "card")
    parts.append(text_at(x + CARD_W / 2 + 3, y + CARD_H + 14, words, 11, "middle"))
    return "".join(parts)


def card_fan(catalog: Catalog, cards: Sequence[str], x: float, y: float, step: float) -> str:
    return "".join(card_face(catalog, card, x + i * step, y) for i, card in enumerate(cards))


def chip_row(
    catalog: Catalog,
    cards: Sequence[str],
    x: float,
    y: float,
    per_row: int = 6,
    size: tuple[int, int] = (16, 20),
) -> str:
    """Cards as small chips (the good's colour, the value): piles one looks
    into hold too many cards to draw full size."""
    width, height = size
    parts = []
    for i, card_id in enumerate(cards):
        card = catalog.cards[card_id]
        cx = x + (i % per_row) * (width + 3)
        cy = y + (i // per_row) * (height + 3)
        parts.append(
            f'<g class="card chip" data-card="{escape(card_id)}" data-kind="{escape(card.kind)}">'
            f"<title>{escape(kind_name(card.kind))}</title>"
            f'<rect x="{cx:g}" y="{cy:g}" width="{width}" height="{height}" rx="2" '
            f'fill="{GOOD_COLOURS.get(card.good, OTHER_GOOD)}"/>'
            + text_at(
                cx + width / 2, cy + height * 0.7, str(card.value), 11, "middle", "bold", "#fff"
            )
            + "</g>"
        )
    return "".join(parts)


def pawn_at(seat: str, colour: str, x: float, y: float, r: float = 15, ring: bool = False) -> str:
    initial = escape(seat[:2])
    halo = (
        f'<circle cx="{x:g}" cy="{y:g}" r="{r + 5:g}" fill="none" stroke="{INK}" '
        'stroke-width="2" stroke-dasharray="3 2"/>'
        if ring
        else ""
    )
    return (
        f'{halo}<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{colour}" stroke="#fff" '
        f'stroke-width="2.5"/>' + text_at(x, y + 4.5, initial, 12, "middle", "bold", "#fff")
    )
