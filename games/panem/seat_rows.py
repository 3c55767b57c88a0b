"""The seats' rows in panem's picture: each seat's pawn, badges, advantage,
lots and hand, as one viewer may see them."""

from __future__ import annotations

from html import escape
from typing import Any

from gamelog.games.panem.catalog import (
    Catalog,
)
from gamelog.games.panem.drawing import (
    BOARD,
    CARD_H,
    CARD_W,
    INK,
    ROW_H,
    SEATS_Y,
    WIDTH,
    card_back,
    card_face,
    card_fan,
    pawn_at,
    text_at,
)
from gamelog.games.panem.words import (
    advantage_name,
    location_name,
)
from gamelog.games.protocol import Viewer
from gamelog.games.wording import counted


def seat_rows(v: dict[str, Any], cat: Catalog, viewer: Viewer, colour: dict[str, str]) -> str:
    """One row per seat: its pawn, badges, advantage, lots and hand, as ``viewer`` may see them."""
    y0 = SEATS_Y
    row_h = ROW_H
    parts = []
    for i, seat in enumerate(v["seats"]):
        parts.append(_seat(v, cat, viewer, colour, seat, 20, y0 + i * row_h, row_h - 6))
    return "".join(parts)


def _seat(
    v: dict[str, Any],
    cat: Catalog,
    viewer: Viewer,
    colour: dict[str, str],
    seat: str,
    x: float,
    y: float,
    h: float,
) -> str:
    count = v["hand_counts"][seat]
    you = seat == viewer
    parts = [
        f'<g class="seat" data-seat="{escape(seat)}" data-hand-count="{count}">',
        f'<rect x="{x}" y="{y}" width="{WIDTH - 40}" height="{h}" rx="8" '
        f'fill="{"#fff3d6" if you else BOARD}" stroke="{colour[seat]}" '
        f'stroke-width="{3 if you else 1.5}"/>',
        pawn_at(seat, colour[seat], x + 26, y + h / 2, 14),
        text_at(x + 50, y + 22, seat + (" (you)" if you else ""), 15, weight="bold"),
    ]
    badges = []
    if seat == v["start_player"]:
        badges.append("start player")
    turn = v["turn"]
    if turn is not None and turn["seat"] == seat:
        badges.append("to move")
    if v["trading"] is not None:
        badges.append("done trading" if seat in v["trading"]["done"] else "trading")
    if v["tribute"] is not None:
        badges.append("sealed" if seat in v["tribute"]["sealed"] else "choosing")
    if seat in v["hand_limit"]:
        badges.append(f"discards {v['hand_limit'][seat]}")
    result = v["result"]
    if result is not None:
        badges.append(counted(result["scores"][seat], "point"))
        if seat == result["details"]["tribute"]:
            badges.append("tribute")
        elif seat in result["winners"]:
            badges.append("winner")
    bx = x + 50 + 9 * len(seat) + (48 if you else 0) + 12
    for badge in badges:
        width = 6 * len(badge) + 16
        dark = badge in ("to move", "winner")
        parts.append(
            f'<g class="badge"><rect x="{bx:g}" y="{y + 9:g}" width="{width}" height="17" '
            f'rx="8" fill="{INK if dark else "#cdbf9f"}"/>'
            + text_at(bx + width / 2, y + 21, badge, 10, "middle", fill="#fff" if dark else INK)
            + "</g>"
        )
        bx += width + 6
    advantage = v["advantages"][seat]
    chip = "chip kept" if seat in v["chips"] else "chip given up"
    lots = v["glass_ball"].get(seat, 0)
    last = v["last_locations"].get(seat)
    last_words = f" · last round: {location_name(last)}" if last else ""
    parts.append(
        text_at(
            x + 50,
            y + 43,
            f"advantage {advantage_name(cat, advantage)} · {chip}",
            11,
            fill="#4a4038",
        )
    )
    parts.append(
        text_at(
            x + 50,
            y + 60,
            f"lots: {lots} in the glass ball, {v['lots_left'][seat]} left{last_words}",
            11,
            fill="#4a4038",
        )
    )
    parts.append(_hand(v, cat, viewer, seat, x + 500, y + (h - CARD_H) / 2))
    parts.append("</g>")
    return "".join(parts)


def _hand(v: dict[str, Any], cat: Catalog, viewer: Viewer, seat: str, x: float, y: float) -> str:
    hand = v["hands"].get(seat)
    count = v["hand_counts"][seat]
    parts = [f'<g class="hand" data-seat="{escape(seat)}" data-count="{count}">']
    if hand is not None:
        mine = list(v["tribute"].get("mine", [])) if v["tribute"] and seat == viewer else []
        choices = (v["tribute"] or {}).get("choices", {}).get(seat, [])
        sealed = set(mine) | set(choices)
        step = min(CARD_W + 4, 640 / max(len(hand), 1))
        for i, card in enumerate(hand):
            parts.append(card_face(cat, card, x + i * step, y, "sealed" if card in sealed else ""))
            if card in sealed:
                parts.append(
                    text_at(x + i * step + CARD_W / 2, y - 2, "sealed", 8, "middle", "bold")
                )
        if not hand:
            parts.append(text_at(x, y + 32, "no cards", 12, fill="#6b5d4f"))
    else:
        shown = v["shown"].get(seat, [])
        backs = count - len(shown)
        for i in range(min(backs, 12)):
            parts.append(card_back(x + i * 16, y))
        after = x + (min(backs, 12) - 1) * 16 + CARD_W + 10 if backs else x
        parts.append(
            text_at(after, y + 20, counted(count, "card"), 12, weight="bold")
            if count
            else text_at(x, y + 32, "no cards", 12, fill="#6b5d4f")
        )
        if shown:
            sx = after + 70
            parts.append(text_at(sx, y - 2, "shown to you" if viewer else "shown", 9))
            parts.append(card_fan(cat, shown, sx, y, CARD_W + 3))
    parts.append("</g>")
    return "".join(parts)
