"""The table as one standalone SVG, as one viewer sees it.

Top: the interim bonus stack and the three rows, each with its start card,
the cards laid, its free places and the place where the next card takes.
Below, one panel per seat: score and how it is made, the collection by colour
(face-up cards with their numbers, face-down triples as backs), the hand and
the draw pile. A hand shows its faces only to its owner (the arbiter sees
every hand); anyone else sees backs, which carry no card number. Draw piles
are backs with a count for everybody.

Cards are painted in the component set's ``swatches`` (``data/house-1.json``);
a colour without a swatch (an inline set's own names) takes one from a fixed
palette by its place in the set. Elements say what they are for browser tests:
``<g class="row" data-row="1">``, ``<g class="card" data-card="31">``,
``<g class="seat" data-seat="ann">``, ``<g class="card-back">``.

>>> from gamelog.games.three_too_many.rules import RULES
>>> seats = ("ann", "ben")
>>> state = RULES.start(seats, RULES.normalize_options({}, seats))
>>> '<g class="row" data-row="2"' in render_svg(state, None)
True
"""

from __future__ import annotations

import functools
from html import escape
from typing import TYPE_CHECKING

from gamelog.games.components import load_json
from gamelog.games.protocol import ARBITER, Viewer
from gamelog.games.three_too_many.collection import PAIR_POINTS, score_collection
from gamelog.games.three_too_many.display import ROW_LIMIT
from gamelog.games.three_too_many.scoring import totals
from gamelog.games.three_too_many.text import (
    ROW_RANGES,
    TURNS_EACH,
    free_places,
    row_state,
    status_line,
    to_act,
)
from gamelog.games.wording import counted

if TYPE_CHECKING:
    from gamelog.games.three_too_many.state import ThreeTooManyState

WIDTH = 1100
FALLBACK_PALETTE = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6")
TABLE_CLOTH = "#eef3ea"
INK = "#1f2430"
BACK = "#2b3a67"
START_CARD = "#fbf8ef"
NO_COLOUR = "#d9d9d9"
BONUS_GOLD = "#e9c46a"
TAKE_RED = "#c0392b"

BIG = (56, 80)
"""Cards on the table and in the viewer's own hand."""
SMALL = (30, 42)
"""Cards in collections and other hands."""


@functools.cache
def _house_swatches() -> dict[str, str]:
    data = load_json("gamelog.games.three_too_many", "house-1.json")
    return dict(data.get("swatches", {}))


def swatch(state: ThreeTooManyState, colour: str | None) -> str:
    if colour is None:
        return NO_COLOUR
    known = _house_swatches().get(colour)
    if known:
        return known
    index = state.components.colours.index(colour)
    return FALLBACK_PALETTE[index % len(FALLBACK_PALETTE)]


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (``#rrggbb``)."""
    red, green, blue = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"


def _text(x: float, y: float, words: str, size: int = 14, **attributes: str) -> str:
    # ``class_`` stands for ``class`` (a Python keyword); ``font_weight`` for ``font-weight``.
    extra = "".join(
        f' {key.rstrip("_").replace("_", "-")}="{value}"' for key, value in attributes.items()
    )
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}"{extra}>{escape(words)}</text>'


def card_face(
    state: ThreeTooManyState, card: int, x: float, y: float, size: tuple[int, int]
) -> str:
    """A card face up: its colour and its number (start cards cream, 15/45/75 grey)."""
    w, h = size
    if card in (0, 30, 60):
        fill, kind = START_CARD, "start card"
    else:
        colour = state.components.colour_of[card]
        fill, kind = swatch(state, colour), colour or "no colour"
    ink = ink_on(fill)
    big = 26 if w >= BIG[0] else 15
    parts = [
        f'<g class="card" data-card="{card}" data-colour="{escape(kind)}">',
        f'<rect x="{x:g}" y="{y:g}" width="{w}" height="{h}" rx="{w // 8}" fill="{fill}" '
        f'stroke="{INK}" stroke-width="1.2"/>',
        _text(
            x + w / 2,
            y + h / 2 + big / 3,
            str(card),
            big,
            fill=ink,
            text_anchor="middle",
            font_weight="bold",
        ),
    ]
    if w >= BIG[0]:
        parts.append(_text(x + 5, y + 14, str(card), 11, fill=ink))
        parts.append(_text(x + w / 2, y + h - 7, kind, 9, fill=ink, text_anchor="middle"))
    parts.append("</g>")
    return "".join(parts)


def card_back(x: float, y: float, size: tuple[int, int], stripe: str | None = None) -> str:
    """A face-down card: the back only, never a number."""
    w, h = size
    inner = (
        f'<rect x="{x + 3:g}" y="{y + 3:g}" width="{w - 6}" height="{h - 6}" rx="{w // 10}" '
        f'fill="none" stroke="{stripe or "#8aa0d6"}" stroke-width="{3 if stripe else 1.5}"/>'
    )
    return (
        f'<g class="card-back"><rect x="{x:g}" y="{y:g}" width="{w}" height="{h}" '
        f'rx="{w // 8}" fill="{BACK}" stroke="{INK}" stroke-width="1"/>{inner}</g>'
    )


def render_svg(state: ThreeTooManyState, viewer: Viewer) -> str:
    columns = 2
    panel_w, panel_h = 530, 250
    panels_top = 400
    rows_of_panels = (len(state.seats) + columns - 1) // columns
    height = panels_top + rows_of_panels * (panel_h + 16) + 40
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" fill="{INK}">',
        f'<rect class="table" width="{WIDTH}" height="{height}" fill="{TABLE_CLOTH}"/>',
        *_header(state),
        *_bonus_stack(state),
        *_rows(state),
        *_box_and_legend(state),
    ]
    for i in range(len(state.seats)):
        x = 15 + (i % columns) * (panel_w + 10)
        y = panels_top + (i // columns) * (panel_h + 16)
        out.extend(_seat_panel(state, viewer, i, x, y, panel_w, panel_h))
    out.append(
        _text(15, height - 16, _viewer_note(state, viewer), 13, fill="#555", class_="viewer")
    )
    out.append("</svg>")
    return "\n".join(out)


def _header(state: ThreeTooManyState) -> list[str]:
    return [
        _text(20, 36, "3 sind eine zu viel!", 26, font_weight="bold"),
        _text(300, 36, status_line(state), 20, class_="status"),
    ]


def _bonus_stack(state: ThreeTooManyState) -> list[str]:
    x, y = 20, 70
    out = ['<g class="bonus-stack">', _text(x, y + 12, "interim bonus", 13, font_weight="bold")]
    stack = state.interim_stack
    for depth in range(len(stack) - 1, -1, -1):
        dx = dy = 4 * depth
        top = depth == 0
        out.append(
            f'<rect x="{x + dx}" y="{y + 22 + dy}" width="{BIG[0] + 10}" height="{BIG[1]}" '
            f'rx="7" fill="{BONUS_GOLD}" stroke="{INK}" stroke-width="1"/>'
        )
        if top:
            out.append(
                f'<g class="interim-bonus" data-points="{stack[0]}">'
                + _text(
                    x + 33, y + 70, f"+{stack[0]}", 26, text_anchor="middle", font_weight="bold"
                )
                + "</g>"
            )
    if not stack:
        out.append(
            f'<rect x="{x}" y="{y + 22}" width="{BIG[0] + 10}" height="{BIG[1]}" rx="7" '
            f'fill="none" stroke="#999" stroke-dasharray="5 4"/>'
        )
        out.append(_text(x + 33, y + 66, "empty", 13, text_anchor="middle", fill="#777"))
    under = f"{len(stack)} left" + (f": {', '.join(map(str, stack))}" if stack else "")
    out.append(_text(x, y + 130, under, 12))
    out.append(_text(x, y + 146, "for all colours", 12, fill="#555"))
    out.append(_text(x, y + 160, "face up", 12, fill="#555"))
    out.append("</g>")
    return out


def _rows(state: ThreeTooManyState) -> list[str]:
    out: list[str] = []
    left, top, pitch = 150, 62, 108
    step = BIG[0] + 12
    for number, row in enumerate(state.display):
        y = top + number * pitch
        out.append(f'<g class="row" data-row="{number + 1}" data-free="{free_places(row)}">')
        out.append(_text(left, y + 36, f"row {number + 1}", 17, font_weight="bold"))
        out.append(_text(left, y + 56, ROW_RANGES[number], 13, fill="#555"))
        x0 = left + 80
        for place, card in enumerate((row.start, *row.cards)):
            out.append(card_face(state, card, x0 + place * step, y, BIG))
        laid = 1 + len(row.cards)
        for place in range(laid, ROW_LIMIT + 1):
            x = x0 + place * step
            takes = place == ROW_LIMIT
            colour = TAKE_RED if takes else "#9aa39a"
            out.append(
                f'<rect class="{"take-place" if takes else "free-place"}" x="{x}" y="{y}" '
                f'width="{BIG[0]}" height="{BIG[1]}" rx="7" fill="none" stroke="{colour}" '
                f'stroke-width="1.6" stroke-dasharray="6 4"/>'
            )
            if takes:
                out.append(
                    _text(
                        x + BIG[0] / 2,
                        y + 38,
                        "5th",
                        13,
                        fill=TAKE_RED,
                        text_anchor="middle",
                        font_weight="bold",
                    )
                )
                out.append(
                    _text(x + BIG[0] / 2, y + 54, "takes", 13, fill=TAKE_RED, text_anchor="middle")
                )
        if to_act(state):
            out.append(_text(x0 + (ROW_LIMIT + 1) * step + 6, y + 46, row_state(row), 14))
        out.append("</g>")
    return out


def _box_and_legend(state: ThreeTooManyState) -> list[str]:
    x, y = 800, 80
    lines = [
        ("scoring", True),
        ("one face-up card of a colour: 1 point", False),
        (f"two face-up cards of a colour: {PAIR_POINTS} points", False),
        ("a third card turns all three face down:", False),
        ("    -1 point for each face-down card", False),
        ("    (drawn as a back with a rim of its colour)", False),
        ("a fourth card counts as a new first", False),
        ("final bonus: 6 colours face up 5, 7 colours 10", False),
        ("", False),
        ("box", True),
        (f"{counted(len(state.box), 'card')} never dealt", False),
    ]
    if state.colourless:
        taken = ", ".join(str(c) for c in state.colourless)
        lines.append((f"colourless cards taken: {taken}", False))
    if state.last_hands:
        returned = sum(len(h) for h in state.last_hands)
        lines.append((f"{counted(returned, 'last hand card')}, unscored", False))
    out = ['<g class="legend">']
    for n, (words, bold) in enumerate(lines):
        if bold:
            out.append(_text(x, y + 19 * n, words, 14, font_weight="bold"))
        elif words:
            out.append(_text(x, y + 19 * n, words, 13))
    out.append("</g>")
    return out


def _seat_panel(
    state: ThreeTooManyState, viewer: Viewer, i: int, x: float, y: float, w: int, h: int
) -> list[str]:
    seat = state.seats[i]
    acting = seat == to_act(state)
    score = score_collection(state.collections[i])
    total = totals(state)[i]
    flag = ' data-to-act="true"' if acting else ""
    out = [
        f'<g class="seat" data-seat="{escape(seat)}" data-score="{total}"{flag}>',
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="10" fill="#ffffff" '
        f'stroke="{TAKE_RED if acting else "#b8c2b8"}" stroke-width="{3 if acting else 1.2}"/>',
        _text(x + 14, y + 28, seat + ("  (to play)" if acting else ""), 19, font_weight="bold"),
        _text(x + w - 14, y + 28, f"{total} points", 19, text_anchor="end", font_weight="bold"),
    ]
    parts = [f"collection {score.points}"]
    if state.interim_bonus[i]:
        parts.append(f"interim bonus {state.interim_bonus[i]}")
    if state.ended and state.final_bonus[i]:
        parts.append(f"final bonus {state.final_bonus[i]}")
    if len(parts) > 1:
        out.append(_text(x + 14, y + 46, " + ".join(parts), 12, fill="#555"))
    out.extend(_bonus_cards(state, i, x + w - 250, y + 10))
    out.extend(_collection(state, i, x + 14, y + 58))
    out.extend(_hand_and_pile(state, viewer, i, x + 14, y + 176, w))
    out.append("</g>")
    return out


def _bonus_cards(state: ThreeTooManyState, i: int, x: float, y: float) -> list[str]:
    """The bonus cards a seat has earned, as small gold cards."""
    earned = []
    if state.interim_bonus[i]:
        earned.append(("interim-bonus", state.interim_bonus[i], "interim"))
    if state.ended and state.final_bonus[i]:
        earned.append(("final-bonus", state.final_bonus[i], "final"))
    out = []
    for n, (kind, points, label) in enumerate(earned):
        cx = x + n * 58
        out.append(
            f'<g class="{kind}" data-points="{points}">'
            f'<rect x="{cx}" y="{y}" width="52" height="36" rx="5" fill="{BONUS_GOLD}" '
            f'stroke="{INK}" stroke-width="1"/>'
            + _text(cx + 26, y + 17, f"+{points}", 15, text_anchor="middle", font_weight="bold")
            + _text(cx + 26, y + 31, label, 10, text_anchor="middle")
            + "</g>"
        )
    return out


def _collection(state: ThreeTooManyState, i: int, x: float, y: float) -> list[str]:
    collection = state.collections[i]
    column = 70
    out = ['<g class="collection">']
    if not collection.cards():
        out.append(_text(x, y + 52, "no cards taken yet", 13, fill="#777"))
    for k, colour in enumerate(state.components.colours):
        cx = x + k * column
        fill = swatch(state, colour)
        up, down = collection.face_up[k], collection.face_down[k]
        out.append(
            f'<g class="colour" data-colour="{escape(colour)}" data-face-up="{len(up)}" '
            f'data-face-down="{len(down)}">'
        )
        out.append(
            f'<rect x="{cx}" y="{y}" width="{column - 6}" height="16" rx="4" fill="{fill}"/>'
        )
        out.append(
            _text(
                cx + (column - 6) / 2, y + 12, colour, 10, fill=ink_on(fill), text_anchor="middle"
            )
        )
        for n, card in enumerate(sorted(up)):
            out.append(card_face(state, card, cx + n * (SMALL[0] + 2), y + 22, SMALL))
        triples = len(down) // 3
        for t in range(triples):
            out.append(card_back(cx + t * 8, y + 70 + t * 4, SMALL, stripe=fill))
        if triples:
            out.append(
                _text(
                    cx + 34 + 8 * (triples - 1),
                    y + 96,
                    f"-{len(down)}",
                    12,
                    fill=TAKE_RED,
                    font_weight="bold",
                )
            )
        out.append("</g>")
    out.append("</g>")
    return out


def _hand_and_pile(
    state: ThreeTooManyState, viewer: Viewer, i: int, x: float, y: float, w: int
) -> list[str]:
    seat = state.seats[i]
    sees = viewer in (seat, ARBITER)
    held = state.last_hands[i] if state.ended and state.last_hands else state.hands[i]
    label = "last two cards, to the box" if state.ended else "hand"
    out = [
        f'<g class="hand" data-seat="{escape(seat)}" data-count="{len(held)}">',
        _text(x, y + 12, f"{label} ({len(held)})", 12, font_weight="bold"),
    ]
    for n, card in enumerate(held):
        cx = x + n * (SMALL[0] + 4)
        out.append(
            card_face(state, card, cx, y + 20, SMALL) if sees else card_back(cx, y + 20, SMALL)
        )
    out.append("</g>")
    pile = len(state.piles[i])
    px = x + w - 175
    out.append(f'<g class="pile" data-seat="{escape(seat)}" data-count="{pile}">')
    out.append(_text(px, y + 12, "draw pile", 12, font_weight="bold"))
    if pile:
        out.append(card_back(px, y + 20, SMALL))
    out.append(_text(px + 38, y + 46, counted(pile, "card"), 12))
    out.append("</g>")
    out.append(_text(px + 68, y + 12, f"played {state.played[i]}/{TURNS_EACH}", 12, fill="#555"))
    return out


def _viewer_note(state: ThreeTooManyState, viewer: Viewer) -> str:
    if viewer == ARBITER:
        return "seen by the arbiter: every hand face up"
    if viewer in state.seats:
        return f"seen by {viewer}: only {viewer}'s hand face up"
    return "seen by a spectator: hands face down"
