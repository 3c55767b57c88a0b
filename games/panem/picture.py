"""The table as one standalone SVG, exactly as one viewer sees it.

Drawn from ``views.view`` alone (plus the component names), so the picture
can show nothing the view hides: face-down cards are backs with no id, other
hands are backs with a count. Layout, top to bottom:

* the six locations of District 12 with their action spaces (covered ones
  drawn as covered tiles), the figures in the players' colours, the Hob and
  bakery stacks, the discard pile's top card and the advantage cards lying
  beside their locations; on the right the draw pile ("the meadow"), the
  face-down advantage cards, the glass ball and what is happening now;
* the round track with the current round;
* one row per seat: its figure colour, advantage, chip, lots and hand.

Elements carry ``class`` and ``data-*`` attributes (``<g class="card"
data-card="food-2-03">``, ``<g class="seat" data-seat="ann">``,
``<g class="space" data-space="hob-1">``) so browser tests can find them.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from gamelog.games.panem.catalog import (
    BAKERY,
    CAPITOL_STOREHOUSE,
    EVERDEEN_HOUSE,
    FOREST,
    HOB,
    RoundSpec,
)
from gamelog.games.panem.drawing import (
    ACTIONS,
    BACK,
    BOARD,
    BOARD_LAYOUT,
    BOARD_X,
    BOARD_Y,
    BOX_H,
    BOX_W,
    CARD_H,
    CARD_W,
    GOLD,
    GOOD_COLOURS,
    NEUTRAL_COLOUR,
    OTHER_GOOD,
    PAPER,
    PLAYER_COLOURS,
    ROW_H,
    SEATS_Y,
    WIDTH,
    back_stack,
    card_back,
    card_face,
    card_fan,
    chip_row,
    pawn_at,
    text_at,
)
from gamelog.games.panem.seat_rows import seat_rows
from gamelog.games.panem.state import NEUTRAL, PanemState
from gamelog.games.panem.text import round_words
from gamelog.games.panem.views import view as view_of
from gamelog.games.panem.words import (
    LOCATION_NAMES,
    PHASE_NAMES,
    STEP_NAMES,
    advantage_name,
    kind_name,
    space_number,
)
from gamelog.games.protocol import ARBITER, Viewer
from gamelog.games.wording import and_list, counted, places


class _Picture:
    def __init__(self, state: PanemState, viewer: Viewer) -> None:
        self.state = state
        self.catalog = state.catalog
        self.viewer = viewer
        self.v: dict[str, Any] = view_of(state, viewer)
        self.height = SEATS_Y + len(self.v["seats"]) * ROW_H + 36
        self.colour = {
            seat: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, seat in enumerate(self.v["seats"])
        }

    def svg(self) -> str:
        body = "".join(
            [
                self.header(),
                self.board(),
                self.side(),
                self.round_track(),
                seat_rows(self.v, self.catalog, self.viewer, self.colour),
                self.legend(),
            ]
        )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{self.height}" '
            f'viewBox="0 0 {WIDTH} {self.height}" font-family="sans-serif" class="panem-table" '
            f'data-game="panem" data-round="{self.v["round"]}" data-phase="{self.v["phase"]}">'
            f'<rect width="{WIDTH}" height="{self.height}" fill="{PAPER}"/>{body}</svg>'
        )

    # -- header ---------------------------------------------------------------------

    def header(self) -> str:
        v = self.v
        viewer = self.viewer
        who = "the arbiter" if viewer == ARBITER else viewer or "a spectator"
        line = (
            f"{round_words(self.catalog, v['round'])} · {PHASE_NAMES[v['phase']]} · "
            f"start player {v['start_player']} · as {who} sees it"
        )
        return (
            text_at(20, 34, "Die Tribute von Panem", 24, weight="bold")
            + text_at(290, 34, "Überleben in Distrikt 12", 16, fill="#6b5d4f")
            + text_at(WIDTH - 20, 34, line, 14, "end")
        )

    # -- the board ------------------------------------------------------------------

    def board(self) -> str:
        parts = [
            f'<rect x="{BOARD_X - 8}" y="{BOARD_Y - 8}" width="{3 * BOX_W + 2 * 12 + 16}" '
            f'height="{2 * BOX_H + 12 + 16}" rx="10" fill="#d9ccb0"/>'
        ]
        for row, locations in enumerate(BOARD_LAYOUT):
            for column, location in enumerate(locations):
                x = BOARD_X + column * (BOX_W + 12)
                y = BOARD_Y + row * (BOX_H + 12)
                parts.append(self.location(location, x, y))
        return "".join(parts)

    def location(self, location: str, x: float, y: float) -> str:
        v, cat = self.v, self.catalog
        spaces = [s for s in cat.spaces if s.location == location]
        parts = [
            f'<g class="location" data-location="{location}">',
            f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="8" fill="{BOARD}" '
            'stroke="#a8977a"/>',
            text_at(x + 12, y + 24, LOCATION_NAMES[location], 16, weight="bold"),
            text_at(
                x + 12, y + 41, ACTIONS[location], 11, fill="#6b5d4f", extra=' font-style="italic"'
            ),
        ]
        step = BOX_W / (len(spaces) + 1)
        for i, space in enumerate(spaces, start=1):
            cx = x + step * i
            parts.append(self.space(space.id, space.min_players, location, cx, y + 72))
        if location == CAPITOL_STOREHOUSE:
            parts.append(self.discard_pile(x + BOX_W / 2 - CARD_W / 2, y + 106))
        if location == FOREST and v["turn"] and v["turn"]["revealed"]:
            revealed = v["turn"]["revealed"]
            parts.append(text_at(x + 12, y + 150, "turned up:", 11))
            parts.append(card_fan(cat, revealed, x + 76, y + 130, CARD_W + 4))
        turn = v["turn"]
        if location == EVERDEEN_HOUSE and turn and (turn.get("drawn") or turn.get("drawn_count")):
            drawn = turn.get("drawn") or []
            parts.append(text_at(x + 12, y + 150, f"{turn['seat']} drew:", 11))
            if drawn:
                parts.append(card_fan(cat, drawn, x + 76, y + 130, CARD_W + 4))
            else:
                parts += [
                    card_back(x + 76 + i * (CARD_W + 4), y + 130)
                    for i in range(turn["drawn_count"])
                ]
        adv = v["advantages_beside"].get(location)
        if adv is not None:
            parts.append(self.advantage_beside(adv, location, x + 10, y + BOX_H - 36))
        parts.append("</g>")
        return "".join(parts)

    def space(self, space: str, min_players: int, location: str, cx: float, cy: float) -> str:
        v, cat = self.v, self.catalog
        covered = space in v["covered"]
        parts = [
            f'<g class="space" data-space="{space}" data-covered="{str(covered).lower()}">',
        ]
        if covered:
            parts.append(
                f'<rect x="{cx - 20:g}" y="{cy - 20:g}" width="40" height="40" rx="5" '
                'fill="#b4ab9a" stroke="#8c8371"/>'
                f'<line x1="{cx - 14:g}" y1="{cy - 14:g}" x2="{cx + 14:g}" y2="{cy + 14:g}" '
                'stroke="#8c8371" stroke-width="2"/>'
                f'<line x1="{cx + 14:g}" y1="{cy - 14:g}" x2="{cx - 14:g}" y2="{cy + 14:g}" '
                'stroke="#8c8371" stroke-width="2"/>'
                + text_at(cx, cy + 34, f"covered ({min_players}+)", 10, "middle", fill="#6b5d4f")
            )
        else:
            parts.append(
                f'<circle cx="{cx:g}" cy="{cy:g}" r="20" fill="#fffaf0" stroke="#8c7a5b" '
                'stroke-width="2"/>'
                + text_at(cx, cy + 4, space_number(space), 11, "middle", fill="#a8977a")
            )
            for seat, at in v["figures"].items():
                if at == space:
                    mover = v["turn"] is not None and v["turn"]["seat"] == seat
                    parts.append(
                        f'<g class="figure" data-seat="{escape(seat)}" data-space="{space}">'
                        + pawn_at(seat, self.colour[seat], cx, cy, ring=mover)
                        + "</g>"
                    )
            if location == HOB and space in v["hob"]:
                entry = v["hob"][space]
                parts.append(
                    f'<g class="pile hob" data-pile="{space}" data-count="{entry["count"]}">'
                    + back_stack(cx - CARD_W / 2, cy + 30, entry["count"], "")
                    + self.known_chips(entry["known"], cx, cy + 108)
                    + "</g>"
                )
            if location == BAKERY and space in v["bakery"]:
                cards = v["bakery"][space]
                step = min(CARD_W + 3, (96 - CARD_W) / max(len(cards) - 1, 1))
                width = CARD_W + step * max(len(cards) - 1, 0)
                parts.append(
                    f'<g class="pile bakery" data-pile="{space}" data-count="{len(cards)}">'
                    + (
                        card_fan(cat, cards, cx - width / 2, cy + 32, step)
                        if cards
                        else text_at(cx, cy + 60, "empty", 11, "middle", fill="#6b5d4f")
                    )
                    + "</g>"
                )
        parts.append("</g>")
        return "".join(parts)

    def known_chips(self, known: Sequence[str], cx: float, y: float) -> str:
        """The cards of a face-down stack the viewer knows (the arbiter: all)."""
        if not known:
            return ""
        head = "holds" if self.viewer == ARBITER else "you know"
        per_row, room, size = 5, 10, (13, 17)
        shown = list(known) if len(known) <= room else list(known[: room - 1])
        step = size[0] + 3
        left = cx - (step * min(len(shown), per_row) - 3) / 2
        more = ""
        if len(shown) < len(known):
            hidden_count = f"+{len(known) - len(shown)}"
            more = text_at(left + step * 4 + 7, y + 36, hidden_count, 10, "middle", "bold")
        return (
            text_at(cx, y, f"{head}:", 9, "middle", fill="#6b5d4f")
            + chip_row(self.catalog, shown, left, y + 4, per_row, size)
            + more
        )

    def discard_pile(self, x: float, y: float) -> str:
        discard = self.v["discard"]
        top, count = discard["top"], discard["count"]
        parts = [f'<g class="pile discard" data-pile="discard" data-count="{count}">']
        if count > 1:
            parts.append(
                f'<rect x="{x + 4:g}" y="{y - 4:g}" width="{CARD_W}" height="{CARD_H}" rx="4" '
                'fill="#e2d7bf" stroke="#a8977a"/>'
            )
        if top is not None:
            parts.append(card_face(self.catalog, top, x, y))
        parts.append(
            text_at(
                x + CARD_W / 2,
                y + CARD_H + 14,
                f"discard pile: {counted(count, 'card')}",
                11,
                "middle",
            )
        )
        parts.append("</g>")
        return "".join(parts)

    def advantage_beside(self, adv: str, location: str, x: float, y: float) -> str:
        name = advantage_name(self.catalog, adv)
        return (
            f'<g class="advantage" data-advantage="{escape(adv)}" data-location="{location}">'
            f"<title>{escape(self.catalog.advantages[adv].text)}</title>"
            f'<rect x="{x:g}" y="{y:g}" width="{BOX_W - 20}" height="28" rx="5" fill="{GOLD}" '
            'stroke="#9c7c2c"/>' + text_at(x + 10, y + 18, f"★ {name}", 12, weight="bold") + "</g>"
        )

    # -- the right-hand column --------------------------------------------------------

    def side(self) -> str:
        v = self.v
        x = 840
        parts = [
            f'<rect x="{x}" y="{BOARD_Y - 8}" width="{WIDTH - x - 20}" height="{2 * BOX_H + 28}" '
            f'rx="10" fill="{BOARD}" stroke="#a8977a"/>',
            text_at(x + 16, BOARD_Y + 16, "the meadow (draw pile)", 12, weight="bold"),
            f'<g class="pile draw" data-pile="draw" data-count="{v["draw_pile_count"]}">'
            + back_stack(x + 40, BOARD_Y + 32, v["draw_pile_count"])
            + "</g>",
            text_at(x + 190, BOARD_Y + 16, "advantage cards", 12, weight="bold"),
            f'<g class="pile advantages" data-count="{v["hidden_advantages_left"]}">'
            + self.advantage_backs(x + 214, BOARD_Y + 32, v["hidden_advantages_left"])
            + "</g>",
            self.glass_ball(x + 170, BOARD_Y + 192),
            self.now(x + 16, BOARD_Y + 284),
        ]
        return "".join(parts)

    def advantage_backs(self, x: float, y: float, count: int) -> str:
        parts = [
            f'<rect x="{x + 3 * i:g}" y="{y - 3 * i:g}" width="{CARD_W}" height="{CARD_H}" rx="4" '
            f'fill="{GOLD}" stroke="#9c7c2c"/>'
            for i in range(min(count, 3))
        ]
        if not count:
            parts.append(
                f'<rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="4" '
                'fill="none" stroke="#b9ac90" stroke-dasharray="4 3"/>'
            )
        parts.append(
            text_at(x + CARD_W / 2 + 3, y + CARD_H + 14, f"{count} face down", 11, "middle")
        )
        return "".join(parts)

    def glass_ball(self, cx: float, cy: float) -> str:
        ball: dict[str, int] = self.v["glass_ball"]
        total = sum(ball.values())
        parts = [
            f'<g class="glass-ball" data-lots="{total}">',
            f'<circle cx="{cx:g}" cy="{cy:g}" r="54" fill="#dfeef2" stroke="#7aa6b3" '
            'stroke-width="3" fill-opacity="0.9"/>',
            f'<ellipse cx="{cx - 18:g}" cy="{cy - 24:g}" rx="16" ry="8" fill="#fff" '
            'fill-opacity="0.7"/>',
            text_at(cx, cy + 8, str(total), 28, "middle", "bold"),
            text_at(cx, cy + 26, "lots", 11, "middle"),
            text_at(cx, cy - 62, "the glass ball", 12, "middle", "bold"),
        ]
        owners = [*self.v["seats"], *([NEUTRAL] if NEUTRAL in ball else [])]
        for i, owner in enumerate(owners):
            colour = self.colour.get(owner, NEUTRAL_COLOUR)
            ox = cx + 70
            oy = cy - 40 + i * 22
            name = "neutral" if owner == NEUTRAL else owner
            parts.append(
                f'<g class="lots" data-owner="{escape(owner)}" data-lots="{ball.get(owner, 0)}">'
                f'<rect x="{ox:g}" y="{oy - 11:g}" width="12" height="15" rx="2" fill="{colour}"/>'
                + text_at(ox + 18, oy, f"{name} {ball.get(owner, 0)}", 11)
                + "</g>"
            )
        parts.append("</g>")
        return "".join(parts)

    def now(self, x: float, y: float) -> str:
        """What is happening: the turn, trading, the tribute, the hand limit, the end."""
        v, cat = self.v, self.catalog
        lines: list[str] = []
        turn = v["turn"]
        if turn is not None:
            lines.append(f"{turn['seat']} {STEP_NAMES.get(turn['step'], turn['step'])}")
            if turn.get("looking_at"):
                pile = turn["looking_at"]
                where = (
                    "the discard pile"
                    if pile == "discard"
                    else f"the Hob stack {space_number(pile)}"
                )
                lines.append(f"looking at {where}")
            if turn.get("drawn_count"):
                lines.append(f"drew {counted(turn['drawn_count'], 'card')}, keeps one")
        if v["trading"] is not None:
            done = v["trading"]["done"]
            lines.append(f"trading · done: {and_list(done) if done else 'nobody yet'}")
            for offer in v["trading"]["offers"][:6]:
                give = offer["give"]
                gives = (
                    counted(give, "card")
                    if isinstance(give, int)
                    else and_list(kind_name(cat.cards[c].kind) for c in give)
                )
                asks = and_list(kind_name(k) for k in offer["ask"])
                lines.append(
                    f"#{offer['id']} {offer['from']} → {offer['to']}: "
                    f"{gives if give else 'nothing'} for {asks if offer['ask'] else 'nothing'}"
                )
        if v["tribute"] is not None:
            tribute = v["tribute"]
            goods = tribute["goods"]
            lines.append(
                f"tribute: one {goods[0]} card each"
                if len(goods) == 1
                else f"tribute: one card each of {and_list(goods)}"
            )
            sealed = tribute["sealed"]
            lines.append(f"sealed: {and_list(sealed) if sealed else 'nobody yet'}")
        if v["hand_limit"]:
            owed = ", ".join(f"{seat} {n}" for seat, n in v["hand_limit"].items())
            lines.append(f"hand limit {cat.hand_limit}: to discard {owed}")
        if v["result"] is not None:
            owner = v["lot_drawn"]
            lines.append(
                "a neutral lot is drawn"
                if owner == NEUTRAL
                else f"{owner}'s lot is drawn: {owner} is the tribute"
            )
            scores = v["result"]["scores"]
            for place, seats in places(v["result"]["ranking"]):
                for seat in seats:
                    lines.append(f"{place}. {seat} {scores[seat]} points")
        shown = lines[:10]
        texts = "".join(
            text_at(x, y + 20 + 17 * i, line[:52], 12, weight="bold" if i == 0 else "normal")
            for i, line in enumerate(shown)
        )
        pile_cards = turn.get("pile_cards") if turn is not None else None
        if pile_cards:
            texts += chip_row(cat, pile_cards, x, y + 20 + 17 * len(shown) - 8, 15)
        return (
            f'<g class="now">{text_at(x, y, "now", 12, weight="bold", fill="#6b5d4f")}{texts}</g>'
        )

    # -- the round track ----------------------------------------------------------------

    def round_track(self) -> str:
        track = self.catalog.round_track
        y = BOARD_Y + 2 * BOX_H + 42
        width = (WIDTH - 40) / len(track)
        parts = [text_at(20, y - 8, "round track", 12, weight="bold", fill="#6b5d4f")]
        for i, spec in enumerate(track):
            x = 20 + i * width
            current = spec.round == self.v["round"]
            fill = GOLD if current else BOARD
            label = "END" if spec.end else str(spec.round)
            parts.append(
                f'<g class="round" data-round="{spec.round}" data-current="{str(current).lower()}">'
                f'<rect x="{x + 2:g}" y="{y:g}" width="{width - 4:g}" height="78" rx="6" '
                f'fill="{fill}" stroke="{"#9c7c2c" if current else "#a8977a"}" '
                f'stroke-width="{2.5 if current else 1}"/>'
                + text_at(x + width / 2, y + 18, label, 15, "middle", "bold")
                + "".join(
                    text_at(x + width / 2, y + 33 + 11 * j, note, 9, "middle")
                    for j, note in enumerate(self.round_notes(spec)[:4])
                )
                + self.tribute_chips(spec, x + width / 2, y + 33 + 11 * len(self.round_notes(spec)))
                + "</g>"
            )
        return "".join(parts)

    def round_notes(self, spec: RoundSpec) -> list[str]:
        notes = []
        if spec.bakery:
            notes.append(f"bakery +{spec.bakery}")
        if spec.hob:
            notes.append(f"Hob +{spec.hob}")
        if spec.advantages:
            notes.append(f"{spec.advantages} advantage{'s' if spec.advantages > 1 else ''}")
        if spec.trade:
            notes.append("trading")
        if spec.pass_start:
            notes.append("start passes")
        if spec.tribute:
            notes.append("tribute:")
        return notes

    def tribute_chips(self, spec: RoundSpec, cx: float, y: float) -> str:
        """The goods a tribute asks for, as chips in the goods' colours."""
        if not spec.tribute:
            return ""
        left = cx - (14 * len(spec.tribute) - 2) / 2
        chips = "".join(
            f'<rect x="{left + 14 * i:g}" y="{y - 7:g}" width="12" height="12" rx="2" '
            f'fill="{GOOD_COLOURS.get(good, OTHER_GOOD)}"><title>{escape(good)}</title></rect>'
            for i, good in enumerate(spec.tribute)
        )
        return f'<g class="tribute" data-goods="{escape(" ".join(spec.tribute))}">{chips}</g>'

    # -- the seats --------------------------------------------------------------------

    # -- legend -------------------------------------------------------------------------

    def legend(self) -> str:
        y = self.height - 16
        parts = [text_at(20, y, "legend:", 11, weight="bold")]
        x = 76.0
        for good, colour in GOOD_COLOURS.items():
            parts.append(
                f'<rect x="{x:g}" y="{y - 10:g}" width="12" height="12" rx="2" fill="{colour}"/>'
            )
            parts.append(text_at(x + 16, y, good, 11))
            x += 16 + 6.5 * len(good) + 12
        parts.append(text_at(x, y, "card (its number: survival points) ·", 11))
        x += 184
        parts.append(
            f'<rect x="{x:g}" y="{y - 12:g}" width="11" height="15" rx="2" fill="{BACK}" '
            f'stroke="{GOLD}"/>'
        )
        extras = (
            "face-down card · ● figure · ✕ covered space (open from 3 or 4 players) · "
            "★ advantage card beside its location"
        )
        parts.append(text_at(x + 16, y, extras, 11))
        return f'<g class="legend">{"".join(parts)}</g>'


def render_svg(state: PanemState, viewer: Viewer) -> str:
    return _Picture(state, viewer).svg()
