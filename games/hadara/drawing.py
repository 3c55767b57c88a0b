"""Drawing for Hadara's picture: the palette, SVG primitives (text, boxes,
coins) and the cards, face up, face down and as small chips."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from gamelog.games.hadara.cards import COLOUR_TRACK, TRACKS, Card
from gamelog.games.hadara.words import ability_words

WIDTH = 1280
BOARD_Y = 64
BOARD_H = 344
COLUMN_W = 150
MARGIN = 16
INK = "#3b2f25"
MUTED = "#7a6a58"
PAPER = "#f3ead7"
PANEL = "#fbf6ea"
GOLD = "#c99a2e"
SILVER = "#9aa3ad"
BACK = "#5b4636"
COLOUR_INK = {
    "yellow": "#c99a06",
    "red": "#c0392b",
    "blue": "#2f6fb5",
    "green": "#3c8a3c",
    "purple": "#7b4397",
}
COLOUR_LIGHT = {
    "yellow": "#fbf0b8",
    "red": "#f6d5ce",
    "blue": "#d6e4f5",
    "green": "#d8edd3",
    "purple": "#e8d9f0",
}
TRACK_COLOUR = {track: colour for colour, track in COLOUR_TRACK.items()}


def attrs(**attributes: object) -> str:
    """``class_="card", data_card="x"`` as ``class="card" data-card="x"``."""
    return " ".join(
        f'{key.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
        for key, value in attributes.items()
        if value is not None
    )


def text_at(
    x: float,
    y: float,
    words: str,
    size: float = 13,
    fill: str = INK,
    anchor: str = "start",
    weight: str = "normal",
    style: str = "normal",
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
        f'text-anchor="{anchor}" font-weight="{weight}" font-style="{style}">'
        f"{escape(words)}</text>"
    )


def rect(
    x: float,
    y: float,
    w: float,
    h: float,
    fill: str,
    stroke: str = "none",
    radius: float = 4,
    width: float = 1,
) -> str:
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{radius}" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
    )


def group(content: Iterable[str], **attributes: object) -> str:
    return f"<g {attrs(**attributes)}>{''.join(content)}</g>"


def coin(x: float, y: float, value: int, r: float = 11) -> str:
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{GOLD}" stroke="#8a6a1c"/>' + text_at(
        x, y + 4, str(value), 11 if r >= 10 else 9, "#fff", "middle", "bold"
    )


def wrap(words: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in words.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


# --- cards -------------------------------------------------------------------------


def card_face(x: float, y: float, card: Card, w: float = 124, h: float = 128) -> str:
    """A face-up card: id, price, track steps, ability, points."""
    ink, light = COLOUR_INK[card.colour], COLOUR_LIGHT[card.colour]
    parts = [
        rect(x, y, w, h, light, ink, 6, 2),
        rect(x, y, w, 22, ink, "none", 6),
        rect(x, y + 14, w, 8, ink, "none", 0),
        text_at(x + 8, y + 16, card.id, 12, "#fff", weight="bold"),
        coin(x + w - 14, y + 36, card.price),
    ]
    row = y + 42
    for track, steps in zip(TRACKS, card.values):
        if steps:
            colour = COLOUR_INK[TRACK_COLOUR[track]]
            parts.append(rect(x + 8, row - 11, 14, 14, colour, "none", 3))
            parts.append(text_at(x + 28, row, f"+{steps} {track}", 12, colour, weight="bold"))
            row += 17
    if card.ability:
        for line in wrap(ability_words(card.ability, card.params), 18)[:3]:
            parts.append(text_at(x + 8, row, line, 11, COLOUR_INK["purple"], style="italic"))
            row += 14
    parts.append(f'<circle cx="{x + w - 18:.1f}" cy="{y + h - 18:.1f}" r="13" fill="{INK}"/>')
    parts.append(text_at(x + w - 18, y + h - 14, str(card.points), 12, "#fff", "middle", "bold"))
    parts.append(text_at(x + w - 36, y + h - 14, "points", 10, MUTED, "end"))
    return group(parts, class_="card", data_card=card.id, data_colour=card.colour)


def card_back(x: float, y: float, colour: str, w: float = 56, h: float = 76) -> str:
    """A face-down card: the colour of its stack, no id."""
    return group(
        [
            rect(x, y, w, h, BACK, COLOUR_INK[colour], 5, 3),
            rect(x + 7, y + 7, w - 14, h - 14, "none", "#8c7360", 3),
            f'<circle cx="{x + w / 2:.1f}" cy="{y + h / 2:.1f}" r="9" '
            f'fill="{COLOUR_INK[colour]}"/>',
        ],
        class_="card-back",
        data_colour=colour,
    )


def card_chip(x: float, y: float, w: float, card: Card, tile: str | None = None) -> str:
    """A card in a display: one line with its id and points."""
    ink, light = COLOUR_INK[card.colour], COLOUR_LIGHT[card.colour]
    parts = [
        rect(x, y, w, 15, light, ink, 3),
        text_at(x + 5, y + 11.5, card.id, 10, INK),
        text_at(x + w - 4, y + 11.5, str(card.points), 10, INK, "end", "bold"),
    ]
    if tile:
        # the bonus tile assigned to the card: a stripe in its track's colour
        parts.append(rect(x, y, 4, 15, COLOUR_INK[TRACK_COLOUR[tile]], "none", 1))
    return group(parts, class_="card", data_card=card.id, data_colour=card.colour, data_tile=tile)


# --- header ------------------------------------------------------------------------
