"""The table as one standalone SVG, exactly as a viewer may see it.

Top: round, phase and the player-order track. Middle: the eight location
tiles (production in the top-right corner, as on the printed tiles; the
sundial marker of an activated location; troops and cards per seat; the
resources lying there) and the boats on display. Bottom: each seat's hand,
resources and boats (face down: a back with no number, unless the viewer owns
it or may see it), and a legend of the resources.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from gamelog.games.protocol import ARBITER, Viewer
from gamelog.games.pyramidion.resources import WILDCARD
from gamelog.games.pyramidion.state import PyramidionState
from gamelog.games.pyramidion.text import PHASE_WORDS, goal_words
from gamelog.games.pyramidion.views import sees_points

WIDTH = 1200
SHORT_NOTE = (
    "partly refereed: only page 7 of the rulebook is known. Phases 6 to 8 and the end are "
    "rule-checked; phases 1 to 5 are recorded as declared"
)
SEAT_COLOURS = ("#c0392b", "#2e6fba", "#d4a017", "#2e8b57", "#7d3c98")
RESOURCE_COLOURS = {
    "camel": "#c69c6d",
    "food": "#6aa84f",
    "statue": "#e2b714",
    "stone": "#8d8d8d",
    "worker": "#8b5a2b",
}
OTHER_COLOURS = ("#4a90a4", "#b5651d", "#9c6ade", "#d35d6e", "#5b8c5a")
SAND = "#f4e7c5"
NILE = "#2b6f8f"
INK = "#3b2f1e"


def _t(x: float, y: float, text: str, size: int = 14, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<text x="{x}" y="{y}" font-size="{size}"{extra}>{escape(text)}</text>'


def seat_colour(state: PyramidionState, seat: str) -> str:
    return SEAT_COLOURS[state.seats.index(seat) % len(SEAT_COLOURS)]


def resource_colour(state: PyramidionState, resource: str) -> str:
    if resource in RESOURCE_COLOURS:
        return RESOURCE_COLOURS[resource]
    return OTHER_COLOURS[state.components.resources.index(resource) % len(OTHER_COLOURS)]


def _tokens(state: PyramidionState, x: float, y: float, counts: Mapping[str, int]) -> str:
    """Resource tokens: a coloured disc per kind with its count."""
    parts = []
    for i, (resource, number) in enumerate(sorted(counts.items())):
        cx = x + 11 + i * 40
        parts.append(
            f'<g class="resource" data-resource="{escape(resource)}" data-count="{number}">'
            f'<circle cx="{cx}" cy="{y}" r="10" fill="{resource_colour(state, resource)}" '
            f'stroke="{INK}" stroke-width="1"/>' + _t(cx + 13, y + 5, f"{number}", 13) + "</g>"
        )
    return "".join(parts)


def _header(state: PyramidionState, to_act: Sequence[str]) -> str:
    acting = ", ".join("the arbiter" if s == ARBITER else s for s in to_act) or "nobody"
    parts = [
        f'<rect width="{WIDTH}" height="96" fill="{NILE}"/>',
        _t(20, 34, "Pyramidion", 26, font_weight="bold", fill="#fff8e1"),
        _t(
            190,
            34,
            f"round {state.round} · {PHASE_WORDS[state.phase]} · {goal_words(state.goal)}",
            17,
            fill="#fff8e1",
            class_="phase",
            data_phase=state.phase,
        ),
        _t(20, 58, SHORT_NOTE, 12, fill="#d9ecf2", class_="refereed"),
        _t(20, 82, "player order:", 14, fill="#fff8e1"),
    ]
    for i, seat in enumerate(state.order):
        x = 118 + i * 150
        mark = state.markers.get(seat)
        ring = ' stroke="#fff8e1" stroke-width="3"' if seat == state.loader else ""
        parts.append(
            f'<g class="order" data-place="{i + 1}" data-seat="{escape(seat)}">'
            f'<rect x="{x}" y="66" width="140" height="24" rx="12" '
            f'fill="{seat_colour(state, seat)}"{ring}/>'
            + _t(
                x + 10,
                83,
                f"{i + 1}. {seat[:12]}" + (f" [{mark}]" if mark else ""),
                14,
                fill="#ffffff",
            )
            + "</g>"
        )
    parts.append(
        _t(WIDTH - 20, 82, f"to act: {acting}"[:60], 14, fill="#fff8e1", text_anchor="end")
    )
    return "".join(parts)


def _location(state: PyramidionState, index: int, place: str) -> str:
    column, row = index % 4, index // 4
    x, y = 20 + column * 292, 112 + row * 178
    by_seat = dict((p, s) for p, s in state.activations)
    produced = state.production.get(place)
    parts = [
        f'<g class="location" data-location="{escape(place)}"'
        + (f' data-activated-by="{escape(by_seat[place])}"' if place in by_seat else "")
        + ">",
        f'<rect x="{x}" y="{y}" width="280" height="166" rx="8" fill="{SAND}" '
        f'stroke="{INK}" stroke-width="1.5"/>',
        _t(x + 10, y + 22, state.name(place)[:22], 16, font_weight="bold", fill=INK),
    ]
    # Production in the top-right corner, as on the printed tile.
    if produced:
        shown = produced[:4]
        parts.append(
            _t(x + 256 - len(shown) * 22, y + 20, "produces", 11, fill="#8a7a5a", text_anchor="end")
        )
        for i, resource in enumerate(shown):
            parts.append(
                f'<circle class="produces" data-resource="{escape(resource)}" '
                f'cx="{x + 266 - i * 22}" cy="{y + 16}" r="9" '
                f'fill="{resource_colour(state, resource)}" stroke="{INK}"/>'
            )
    else:
        parts.append(_t(x + 270, y + 20, "produces ?", 11, fill="#8a7a5a", text_anchor="end"))
    if place in by_seat:
        colour = seat_colour(state, by_seat[place])
        parts.append(
            f'<g class="sundial" data-seat="{escape(by_seat[place])}">'
            f'<circle cx="{x + 18}" cy="{y + 44}" r="11" fill="#fff3c4" stroke="{colour}" '
            f'stroke-width="3"/><line x1="{x + 18}" y1="{y + 44}" x2="{x + 18}" y2="{y + 35}" '
            f'stroke="{INK}" stroke-width="2"/></g>'
            + _t(x + 36, y + 49, f"activated by {by_seat[place]}"[:30], 12, fill=INK)
        )
    troops = state.troops.get(place, {})
    used = state.troops_used.get(place, {})
    cards = state.cards.get(place, {})
    present = [seat for seat in state.seats if troops.get(seat) or cards.get(seat)]
    for i, seat in enumerate(present):
        sy = y + 72 + i * 18
        colour = seat_colour(state, seat)
        if troops.get(seat):
            spent = used.get(seat, 0)
            label = f"{troops[seat]} troop{'s' if troops[seat] > 1 else ''}"
            if spent:
                label += f" ({spent} fetched)"
            parts.append(
                f'<g class="troops" data-seat="{escape(seat)}" data-count="{troops[seat]}">'
                f'<polygon points="{x + 10},{sy + 6} {x + 17},{sy - 7} {x + 24},{sy + 6}" '
                f'fill="{colour}"/>' + _t(x + 30, sy + 5, label, 12, fill=INK) + "</g>"
            )
        if cards.get(seat):
            parts.append(
                f'<g class="cards" data-seat="{escape(seat)}" data-count="{cards[seat]}">'
                f'<rect x="{x + 150}" y="{sy - 7}" width="10" height="14" rx="2" fill="{colour}"/>'
                + _t(
                    x + 166,
                    sy + 5,
                    f"{cards[seat]} card{'s' if cards[seat] > 1 else ''}",
                    12,
                    fill=INK,
                )
                + "</g>"
            )
    pile = state.piles.get(place)
    if pile:
        parts.append(_t(x + 10, y + 158, "lying here:", 11, fill=INK))
        parts.append(_tokens(state, x + 78, y + 154, pile))
    parts.append("</g>")
    return "".join(parts)


def _boat_shape(x: float, y: float, fill: str) -> str:
    return (
        f'<path d="M{x},{y + 30} L{x + 150},{y + 30} L{x + 130},{y + 52} L{x + 20},{y + 52} Z" '
        f'fill="{fill}" stroke="{INK}" stroke-width="1.5"/>'
        f'<line x1="{x + 75}" y1="{y + 30}" x2="{x + 75}" y2="{y - 2}" stroke="{INK}" '
        'stroke-width="2"/>'
        f'<path d="M{x + 77},{y} L{x + 112},{y + 26} L{x + 77},{y + 26} Z" fill="#fff8e1" '
        f'stroke="{INK}"/>'
    )


def _display(state: PyramidionState, viewer: Viewer, top: float) -> str:
    parts = [
        f'<rect x="0" y="{top}" width="{WIDTH}" height="150" fill="{NILE}" opacity="0.85"/>',
        _t(20, top + 24, "boats on display", 16, font_weight="bold", fill="#fff8e1"),
    ]
    if state.deck is not None:
        parts.append(
            _t(
                WIDTH - 20,
                top + 24,
                f"deck: {len(state.deck)} boat cards left",
                13,
                fill="#fff8e1",
                text_anchor="end",
            )
        )
    elif state.deck_exhausted:
        parts.append(
            _t(WIDTH - 20, top + 24, "deck: declared empty", 13, fill="#fff8e1", text_anchor="end")
        )
    if not state.display:
        parts.append(_t(20, top + 80, "no boat lies face up", 14, fill="#d9ecf2"))
    for i, number in enumerate(state.display[:7]):
        boat = state.boats[number]
        x = 20 + i * 168
        points = f"{boat.points} pts" if sees_points(state, viewer, None) else "? pts"
        parts.append(
            f'<g class="boat" data-boat="{number}">'
            + _boat_shape(x, top + 40, "#d9b77e")
            + _t(x + 8, top + 60, f"boat {number}", 12, fill=INK)
            + _t(x + 148, top + 64, points, 12, fill=INK, text_anchor="end")
            + _tokens(state, x + 4, top + 122, boat.requirements)
            + "</g>"
        )
    if len(state.display) > 7:
        parts.append(
            _t(
                WIDTH - 20,
                top + 140,
                f"+{len(state.display) - 7} more",
                13,
                fill="#fff8e1",
                text_anchor="end",
            )
        )
    return "".join(parts)


def _seat(state: PyramidionState, viewer: Viewer, index: int, seat: str, top: float) -> str:
    x = 20 + index * 234
    colour = seat_colour(state, seat)
    status = []
    if seat in state.done:
        status.append("done with phases 1–5")
    if seat in state.passed:
        status.append("passed")
    parts = [
        f'<g class="seat" data-seat="{escape(seat)}">',
        f'<rect x="{x}" y="{top}" width="222" height="232" rx="8" fill="#fffaf0" '
        f'stroke="{colour}" stroke-width="3"/>',
        f'<rect x="{x}" y="{top}" width="222" height="28" rx="8" fill="{colour}"/>',
        _t(x + 10, top + 20, seat[:18], 15, font_weight="bold", fill="#ffffff"),
        _t(
            x + 10, top + 48, f"hand: {state.hands.get(seat, 0)} cards", 13, fill=INK, class_="hand"
        ),
        _t(x + 120, top + 48, f"troops: {state.troops_of(seat)}", 13, fill=INK),
        _t(x + 10, top + 68, ", ".join(status) or " ", 12, fill="#6b5b3e"),
        _t(x + 10, top + 90, "resources:" + ("" if state.stock(seat) else " none"), 12, fill=INK),
        _tokens(state, x + 4, top + 108, state.stock(seat)),
    ]
    boats = state.loaded.get(seat, ())
    parts.append(_t(x + 10, top + 138, f"boats: {len(boats)}", 12, fill=INK))
    if state.recruits.get(seat):
        parts.append(_t(x + 120, top + 138, f"recruited: {state.recruits[seat]}", 12, fill=INK))
    for i, number in enumerate(boats[:10]):
        bx, by = x + 10 + (i % 5) * 41, top + 146 + (i // 5) * 38
        if sees_points(state, viewer, seat):
            boat = state.boats[number]
            parts.append(
                f'<g class="boat loaded" data-boat="{number}">'
                f'<rect x="{bx}" y="{by}" width="36" height="32" rx="4" fill="#d9b77e" '
                f'stroke="{INK}"/>'
                + _t(bx + 18, by + 14, f"#{number}", 10, fill=INK, text_anchor="middle")
                + _t(
                    bx + 18,
                    by + 28,
                    f"{boat.points}",
                    13,
                    fill=INK,
                    text_anchor="middle",
                    font_weight="bold",
                )
                + "</g>"
            )
        else:
            parts.append(
                f'<g class="boat face-down"><rect x="{bx}" y="{by}" width="36" height="32" '
                f'rx="4" fill="{NILE}" stroke="{INK}"/>'
                f'<path d="M{bx + 6},{by + 18} L{bx + 30},{by + 18} L{bx + 25},{by + 25} '
                f'L{bx + 11},{by + 25} Z" fill="#d9ecf2"/></g>'
            )
    if seat in state.counts and sees_points(state, viewer, seat):
        parts.append(
            _t(
                x + 212,
                top + 226,
                f"count: {state.counts[seat]}",
                12,
                fill=INK,
                text_anchor="end",
                class_="count",
            )
        )
    if state.troop_bonus == seat:
        parts.append(_t(x + 10, top + 226, "most troops +1", 12, fill=colour))
    parts.append("</g>")
    return "".join(parts)


def _legend(state: PyramidionState, top: float) -> str:
    parts = [_t(20, top + 18, "supply (not counted):", 13, fill=INK)]
    for i, resource in enumerate(state.components.resources):
        x = 170 + i * 120
        parts.append(
            f'<circle cx="{x}" cy="{top + 13}" r="8" fill="{resource_colour(state, resource)}" '
            f'stroke="{INK}"/>'
            + _t(
                x + 12,
                top + 18,
                resource + (" = any" if resource == WILDCARD else ""),
                12,
                fill=INK,
            )
        )
    parts.append(
        _t(
            20,
            top + 40,
            "▲ troops · ▮ cards played this round · ◯ sundial: activated · ? pts: points "
            "hidden · [n]: order marker taken in Gizeh",
            12,
            fill="#6b5b3e",
        )
    )
    return f'<g class="legend">{"".join(parts)}</g>'


def _result(state: PyramidionState, top: float) -> str:
    if state.result is None:
        return ""
    scores = state.result.scores
    text = "  ".join(
        f"{i + 1}. {place[0]} {scores[place[0]]}" for i, place in enumerate(state.result.ranking)
    )
    return (
        f'<g class="result"><rect x="0" y="{top}" width="{WIDTH}" height="34" fill="{INK}"/>'
        + _t(20, top + 23, f"result: {text}"[:140], 15, fill="#fff8e1", font_weight="bold")
        + "</g>"
    )


def svg(state: PyramidionState, viewer: Viewer, to_act: Sequence[str]) -> str:
    shown = state.components.location_ids
    rows = (len(shown) + 3) // 4
    display_top = 112 + rows * 178
    seats_top = display_top + 162
    legend_top = seats_top + 244
    height = legend_top + 52 + (34 if state.result else 0)
    body = [
        _header(state, to_act),
        *(_location(state, i, place) for i, place in enumerate(shown)),
        _display(state, viewer, display_top),
        *(_seat(state, viewer, i, seat, seats_top) for i, seat in enumerate(state.order)),
        _legend(state, legend_top),
        _result(state, legend_top + 52),
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" font-family="sans-serif" class="pyramidion">'
        f'<rect width="{WIDTH}" height="{height}" fill="#efe2bf"/>' + "".join(body) + "</svg>"
    )
