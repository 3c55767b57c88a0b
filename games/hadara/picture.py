"""The table as one standalone SVG, as one viewer may see it.

Top: the epoch and phase, who acts. Left: the game board, one column per
colour: the inner stack (face down, its count), the crest pointing at it in
phase A, the outer stack's top card and count (the cards below never show).
Right: the colonies on offer by level. Below: every player's board (tracks,
coins, cards by colour, colonies, busts, seals), then a legend. Elements
carry ``class`` and ``data-*`` attributes (``<g class="card"
data-card="I-red-03">``, ``<g class="seat" data-seat="ann">``) for browser
tests; face-down cards are backs without ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from gamelog.games.hadara.cards import COLOUR_TRACK, COLOURS, TRACKS, Card
from gamelog.games.hadara.scoring import final_result, score_sheet
from gamelog.games.hadara.state import HadaraState, Player, free_tiles, slot_level, tracks
from gamelog.games.hadara.views import crests
from gamelog.games.hadara.words import STAGES, ability_words, epoch_name
from gamelog.games.protocol import ARBITER, Viewer
from gamelog.games.wording import standings_line

WIDTH = 1280
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


def _attrs(**attributes: object) -> str:
    """``class_="card", data_card="x"`` as ``class="card" data-card="x"``."""
    return " ".join(
        f'{key.rstrip("_").replace("_", "-")}="{escape(str(value))}"'
        for key, value in attributes.items()
        if value is not None
    )


def _text(
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


def _rect(
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


def _group(content: Iterable[str], **attributes: object) -> str:
    return f"<g {_attrs(**attributes)}>{''.join(content)}</g>"


def _coin(x: float, y: float, value: int, r: float = 11) -> str:
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{GOLD}" stroke="#8a6a1c"/>' + _text(
        x, y + 4, str(value), 11 if r >= 10 else 9, "#fff", "middle", "bold"
    )


def _wrap(words: str, width: int) -> list[str]:
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
        _rect(x, y, w, h, light, ink, 6, 2),
        _rect(x, y, w, 22, ink, "none", 6),
        _rect(x, y + 14, w, 8, ink, "none", 0),
        _text(x + 8, y + 16, card.id, 12, "#fff", weight="bold"),
        _coin(x + w - 14, y + 36, card.price),
    ]
    row = y + 42
    for track, steps in zip(TRACKS, card.values):
        if steps:
            colour = COLOUR_INK[TRACK_COLOUR[track]]
            parts.append(_rect(x + 8, row - 11, 14, 14, colour, "none", 3))
            parts.append(_text(x + 28, row, f"+{steps} {track}", 12, colour, weight="bold"))
            row += 17
    if card.ability:
        for line in _wrap(ability_words(card.ability, card.params), 18)[:3]:
            parts.append(_text(x + 8, row, line, 11, COLOUR_INK["purple"], style="italic"))
            row += 14
    parts.append(f'<circle cx="{x + w - 18:.1f}" cy="{y + h - 18:.1f}" r="13" fill="{INK}"/>')
    parts.append(_text(x + w - 18, y + h - 14, str(card.points), 12, "#fff", "middle", "bold"))
    parts.append(_text(x + w - 36, y + h - 14, "points", 10, MUTED, "end"))
    return _group(parts, class_="card", data_card=card.id, data_colour=card.colour)


def card_back(x: float, y: float, colour: str, w: float = 56, h: float = 76) -> str:
    """A face-down card: the colour of its stack, no id."""
    return _group(
        [
            _rect(x, y, w, h, BACK, COLOUR_INK[colour], 5, 3),
            _rect(x + 7, y + 7, w - 14, h - 14, "none", "#8c7360", 3),
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
        _rect(x, y, w, 15, light, ink, 3),
        _text(x + 5, y + 11.5, card.id, 10, INK),
        _text(x + w - 4, y + 11.5, str(card.points), 10, INK, "end", "bold"),
    ]
    if tile:
        # the bonus tile assigned to the card: a stripe in its track's colour
        parts.append(_rect(x, y, 4, 15, COLOUR_INK[TRACK_COLOUR[tile]], "none", 1))
    return _group(parts, class_="card", data_card=card.id, data_colour=card.colour, data_tile=tile)


# --- header ------------------------------------------------------------------------


def header(state: HadaraState, viewer: Viewer, to_act: tuple[str, ...]) -> str:
    parts = [_rect(0, 0, WIDTH, 52, INK, radius=0)]
    parts.append(_text(MARGIN, 34, "Hadara", 26, "#f3d98b", weight="bold"))
    for index in (1, 2, 3):
        current = index == state.epoch
        cx = 170 + 44 * index
        parts.append(
            f'<circle cx="{cx}" cy="26" r="17" fill="{GOLD if current else "#5e4d3f"}" '
            f'stroke="#f3d98b" stroke-width="{2 if current else 0.5}"/>'
        )
        parts.append(_text(cx, 31, epoch_name(index), 13, "#fff", "middle", "bold"))
    for index, phase in enumerate("AB"):
        current = phase == state.phase and state.stage != "over"
        x = 370 + 64 * index
        parts.append(_rect(x, 12, 56, 28, "#f3d98b" if current else "#5e4d3f", radius=14))
        parts.append(
            _text(x + 28, 31, f"phase {phase}", 12, INK if current else "#cbb9a4", "middle")
        )
    if state.stage == "over":
        result = final_result(state)
        doing = "game over: " + (standings_line(result.to_json()) if result else "")
    else:
        doing = STAGES.get(state.stage, state.stage)
        if state.stage == "choose":
            doing += f", draw round {state.draw_round} of {len(COLOURS)}"
        if to_act:
            doing += f"  ·  to act: {', '.join(to_act)}"
    parts.append(_text(510, 31, doing, 15, "#fff"))
    seen_as = "arbiter" if viewer == ARBITER else viewer or "spectator"
    parts.append(_text(WIDTH - MARGIN, 31, f"as {seen_as}", 13, "#cbb9a4", "end"))
    return _group(
        parts,
        class_="status",
        data_epoch=state.epoch,
        data_phase=state.phase or None,
        data_stage=state.stage,
        data_round=state.draw_round if state.phase == "A" else None,
    )


# --- the game board ----------------------------------------------------------------

BOARD_Y = 64
BOARD_H = 344
COLUMN_W = 150


def board(state: HadaraState, viewer: Viewer) -> str:
    x0 = MARGIN
    parts = [_rect(x0, BOARD_Y, COLUMN_W * 5 + 16, BOARD_H, PANEL, "#d9c9a8", 8)]
    pointing = {colour: seat for seat, colour in crests(state).items()}
    # before the start player sets the wheel, the crests point nowhere yet
    show_crests = state.phase == "A" and state.stage not in ("over", "setup", "wheel")
    for index, colour in enumerate(COLOURS):
        x = x0 + 8 + COLUMN_W * index
        ink = COLOUR_INK[colour]
        track = COLOUR_TRACK.get(colour, "abilities")
        column = [
            _rect(x + 4, BOARD_Y + 8, COLUMN_W - 8, 24, ink, radius=5),
            _text(x + COLUMN_W / 2, BOARD_Y + 25, f"{colour} · {track}", 13, "#fff", "middle"),
        ]
        inner = len(state.inner.get(colour, ()))
        inner_parts = [_text(x + 12, BOARD_Y + 50, "face down", 11, MUTED)]
        if inner:
            inner_parts.append(card_back(x + 12, BOARD_Y + 56, colour))
        else:
            inner_parts.append(_rect(x + 12, BOARD_Y + 56, 56, 76, "none", "#cdbd9c", 5))
        inner_parts.append(_text(x + 40, BOARD_Y + 148, f"{inner} left", 12, INK, "middle"))
        column.append(_group(inner_parts, class_="stack", data_stack="inner", data_colour=colour))
        seat = pointing.get(colour)
        if show_crests and seat:
            column.append(crest(x + 78, BOARD_Y + 70, seat, colour))
        outer = state.outer.get(colour, ())
        top = state.top(colour)
        outer_parts = [_text(x + 12, BOARD_Y + 168, "face up", 11, MUTED)]
        if top:
            outer_parts.append(card_face(x + 12, BOARD_Y + 174, state.components.card(top)))
        else:
            outer_parts.append(_rect(x + 12, BOARD_Y + 174, 124, 128, "none", "#cdbd9c", 6))
            outer_parts.append(_text(x + 74, BOARD_Y + 242, "empty", 12, MUTED, "middle"))
        below = max(0, len(outer) - 1)
        if below and viewer == ARBITER:
            # the arbiter sees the whole stack: the cards below, bottom first
            for row, words in enumerate(_wrap("below: " + ", ".join(outer[:-1]), 24)[:3]):
                outer_parts.append(_text(x + 12, BOARD_Y + 316 + 11 * row, words, 9.5, MUTED))
        elif below:
            outer_parts.append(
                _text(x + 74, BOARD_Y + 320, f"+ {below} below, unseen", 11, MUTED, "middle")
            )
        column.append(
            _group(
                outer_parts,
                class_="stack",
                data_stack="outer",
                data_colour=colour,
                data_count=len(outer),
                data_top=top,
            )
        )
        parts.append(_group(column, class_="colour", data_colour=colour))
    return _group(parts, class_="board")


def crest(x: float, y: float, seat: str, colour: str) -> str:
    """A seat's crest: the stack it draws from this round."""
    return _group(
        [
            f'<path d="M{x:.1f},{y:.1f} h56 v34 l-28,16 l-28,-16 z" fill="{INK}" '
            f'stroke="{GOLD}" stroke-width="2"/>',
            _text(x + 28, y + 15, "crest", 9, "#cbb9a4", "middle"),
            _text(x + 28, y + 30, seat[:9], 12, "#fff", "middle", "bold"),
        ],
        class_="crest",
        data_seat=seat,
        data_colour=colour,
    )


# --- colonies ----------------------------------------------------------------------

COLONY_X = MARGIN + COLUMN_W * 5 + 32


def colonies(state: HadaraState, viewer: Viewer) -> str:
    w = WIDTH - MARGIN - COLONY_X
    parts = [
        _rect(COLONY_X, BOARD_Y, w, BOARD_H, PANEL, "#d9c9a8", 8),
        _text(COLONY_X + 12, BOARD_Y + 24, "Colonies", 15, INK, weight="bold"),
        _text(
            COLONY_X + w - 12,
            BOARD_Y + 24,
            "plunder +coins, or ally for coins; points",
            11,
            MUTED,
            "end",
        ),
    ]
    allied = {slot for p in state.players for slot, a in p.colonies if a}
    levels = state.components.colony_levels
    for row, level in enumerate(levels):
        y = BOARD_Y + 38 + row * 57
        parts.append(_text(COLONY_X + 12, y + 24, f"{level}", 16, COLOUR_INK["red"], weight="bold"))
        parts.append(_text(COLONY_X + 12, y + 40, "military", 9, MUTED))
        slots = [s for s in state.colony_slots if slot_level(s) == level]
        tile_w = min(84, (w - 70) / max(1, len(slots)) - 6)
        for index, slot in enumerate(slots):
            x = COLONY_X + 62 + index * (tile_w + 6)
            parts.append(colony_tile(state, viewer, slot, slot in allied, x, y, tile_w))
    return _group(parts, class_="colonies")


def steps_badges(x: float, y: float, values: Sequence[int], size: float = 14) -> str:
    """Track steps as squares in the track's colour with the number inside."""
    parts = []
    for track, steps in zip(TRACKS, values):
        if steps:
            ink = COLOUR_INK[TRACK_COLOUR[track]]
            parts.append(_rect(x, y, size, size, ink, radius=3))
            parts.append(
                _text(x + size / 2, y + size - 3.5, str(steps), size - 4, "#fff", "middle", "bold")
            )
            x += size + 3
    return _group(parts, class_="steps")


def colony_tile(
    state: HadaraState, viewer: Viewer, slot: str, allied: bool, x: float, y: float, w: float
) -> str:
    colony_id = state.colony_slots[slot]
    colony = state.components.colony_by_id[colony_id]
    owner = state.colony_owner.get(slot)
    shows_back = allied or viewer == ARBITER
    parts = [
        _rect(x, y, w, 50, "#efe2c4" if owner is None else "#e2d3b4", "#b59a6a", 5),
        _text(x + 5, y + 13, slot, 10, MUTED),
    ]
    if allied:
        parts.append(steps_badges(x + 5, y + 17, colony.back_values))
        parts.append(_text(x + w - 5, y + 13, f"{colony.back_points} pts", 10, INK, "end"))
    else:
        parts.append(_text(x + 5, y + 28, f"+{colony.plunder_coins}", 12, "#8a6a1c", weight="bold"))
        parts.append(_text(x + w - 5, y + 28, f"ally {colony.alliance_cost}", 10, INK, "end"))
        parts.append(_text(x + w - 5, y + 13, f"{colony.front_points} pts", 10, INK, "end"))
    if owner:
        how = "allied" if allied else "plundered"
        parts.append(_rect(x + 3, y + 34, w - 6, 13, INK, radius=3))
        parts.append(_text(x + w / 2, y + 44, f"{owner[:8]} {how}", 9, "#fff", "middle"))
    elif viewer == ARBITER:
        parts.append(steps_badges(x + 4, y + 36, colony.back_values, 10))
        parts.append(_text(x + w - 5, y + 45, f"{colony.back_points}", 9, MUTED, "end"))
    return _group(
        parts,
        class_="colony",
        data_slot=slot,
        data_level=colony.requirement,
        data_taken_by=owner,
        data_allied="true" if allied else "false",
        data_colony=colony_id if shows_back else None,
    )


# --- players -----------------------------------------------------------------------

PLAYERS_Y = BOARD_Y + BOARD_H + 16


def _per_row(seats: int) -> int:
    return 2 if seats in (2, 4) else 3


def _chip_rows(state: HadaraState) -> int:
    """Rows of card chips a board needs: the longest colour column, at least 4."""
    longest = 4
    for player in state.players:
        for colour in COLOURS:
            count = sum(1 for c in player.cards if state.components.card(c).colour == colour)
            longest = max(longest, count)
    return longest


SOLD_LINES = 3
"""Lines for the cards a seat sold face down (up to 15 in a game)."""


def player_height(state: HadaraState) -> float:
    return 346 + 17 * _chip_rows(state)


def player_board(
    state: HadaraState,
    player: Player,
    viewer: Viewer,
    acting: bool,
    points: int,
    x: float,
    y: float,
    w: float,
) -> str:
    h = player_height(state)
    parts = [
        _rect(x, y, w, h, PANEL, GOLD if acting else "#d9c9a8", 8, 3 if acting else 1),
        _text(x + 12, y + 26, player.seat, 18, INK, weight="bold"),
        _text(
            x + 12,
            y + 44,
            f"board {player.side} · {player.start_card} · initiative {player.initiative}",
            11,
            MUTED,
        ),
        _group(
            [_coin(x + w - 108, y + 24, player.coins, 15), _text(x + w - 88, y + 29, "coins", 11)],
            class_="coins",
            data_coins=player.coins,
        ),
        _group(
            [_text(x + w - 12, y + 29, f"{points} pts", 13, INK, "end", "bold")],
            class_="points",
            data_points=points,
        ),
    ]
    if acting:
        parts.append(_text(x + w - 12, y + 45, "to act", 11, "#8a6a1c", "end", "bold"))
    parts.append(track_rows(state, player, x + 12, y + 58, w - 24))
    parts.append(display(state, player, x + 12, y + 152, w - 24))
    bottom = y + 170 + 17 * _chip_rows(state)
    parts.append(holdings(state, player, viewer, x + 12, bottom, w - 24))
    return _group(parts, class_="seat", data_seat=player.seat)


def track_rows(state: HadaraState, player: Player, x: float, y: float, w: float) -> str:
    values = tracks(player, state)
    cell = (w - 130) / 10
    rows = []
    for index, track in enumerate(TRACKS):
        value = values[track]
        tens = max(0, (value - 1) // 10)
        position = value - 10 * tens
        ink = COLOUR_INK[TRACK_COLOUR[track]]
        ry = y + index * 22
        parts = [_text(x, ry + 14, track, 12, ink, weight="bold")]
        for field in range(1, 11):
            cx = x + 62 + (field - 1) * cell
            filled = field == position
            parts.append(_rect(cx, ry + 2, cell - 2, 16, ink if filled else "#fff", ink, 3, 1))
            if filled:
                parts.append(_text(cx + (cell - 2) / 2, ry + 14, str(field), 10, "#fff", "middle"))
        if tens:
            parts.append(
                _text(x + 66 + 10 * cell, ry + 14, f"+{10 * tens}", 11, ink, weight="bold")
            )
        parts.append(_text(x + w, ry + 15, str(value), 14, INK, "end", "bold"))
        rows.append(_group(parts, class_="track", data_track=track, data_value=value))
    return _group(rows, class_="tracks")


def display(state: HadaraState, player: Player, x: float, y: float, w: float) -> str:
    column_w = w / 5
    parts = []
    for index, colour in enumerate(COLOURS):
        cx = x + index * column_w
        ids = [c for c in player.cards if state.components.card(c).colour == colour]
        column = [
            _rect(cx, y, column_w - 4, 14, COLOUR_INK[colour], radius=3),
            _text(cx + (column_w - 4) / 2, y + 11, f"{colour} {len(ids)}", 10, "#fff", "middle"),
        ]
        for row, card_id in enumerate(ids):
            card = state.components.card(card_id)
            tile = player.card_tiles.get(card_id)
            column.append(card_chip(cx, y + 18 + 17 * row, column_w - 4, card, tile))
        parts.append(_group(column, class_="cards", data_colour=colour, data_count=len(ids)))
    return _group(parts, class_="display")


def holdings(
    state: HadaraState, player: Player, viewer: Viewer, x: float, y: float, w: float
) -> str:
    """Colonies, busts, seals, free bonus tiles, cards sold face down, a draw."""
    parts = [_text(x, y + 12, "colonies", 11, MUTED)]
    for index, (slot, allied) in enumerate(player.colonies):
        cx = x + 58 + index * 52
        parts.append(
            _group(
                [
                    _rect(cx, y, 48, 17, "#e2d3b4" if not allied else "#cfe0c0", "#b59a6a", 3),
                    _text(cx + 24, y + 12.5, f"{slot} {'A' if allied else 'P'}", 10, INK, "middle"),
                ],
                class_="colony-owned",
                data_slot=slot,
                data_allied="true" if allied else "false",
            )
        )
    if not player.colonies:
        parts.append(_text(x + 58, y + 12, "none", 11, MUTED))
    by = y + 26
    parts.append(_text(x, by + 22, "busts", 11, MUTED))
    carved = {number: (tile, side) for number, tile, side in player.busts}
    bust_w = min(70, (w - 58) / 4 - 6)
    for index, bust in enumerate(state.components.busts[player.side], start=1):
        cx = x + 58 + (index - 1) * (bust_w + 6)
        tile_side = carved.get(index)
        bust_parts = [
            _rect(cx, by, bust_w, 36, "#ece3d3" if tile_side else "none", "#b5a58a", 5),
            _text(cx + 5, by + 13, f"{bust.requirement} culture", 9, MUTED),
            _text(cx + bust_w - 5, by + 31, f"{bust.points} pts", 10, INK, "end"),
        ]
        if tile_side:
            tile, side = tile_side
            ink = COLOUR_INK[TRACK_COLOUR[tile]]
            bust_parts.append(_rect(cx + 5, by + 19, 14, 14, ink, radius=3))
            mark = f"+{bust.reward_steps}" if side == "front" else f"{bust.reward_steps}p"
            bust_parts.append(_text(cx + 22, by + 31, mark, 10, ink, weight="bold"))
        bust_parts_attrs = {"class_": "bust", "data_bust": index}
        if tile_side:
            bust_parts_attrs.update(data_tile=tile_side[0], data_side=tile_side[1])
        parts.append(_group(bust_parts, **bust_parts_attrs))
    sy = by + 46
    parts.append(_text(x, sy + 14, "seals", 11, MUTED))
    limits = state.components
    for index in range(limits.max_silver_seals):
        cx = x + 70 + index * 26
        track = player.silver_seals[index] if index < len(player.silver_seals) else None
        fill = COLOUR_INK[TRACK_COLOUR[track]] if track else "none"
        parts.append(
            _group(
                [
                    f'<circle cx="{cx}" cy="{sy + 10}" r="10" fill="{SILVER}" '
                    f'stroke="#6d747c" stroke-dasharray="{"none" if track else "3 2"}" '
                    f'fill-opacity="{1 if track else 0.25}"/>',
                    _rect(cx - 4, sy + 6, 8, 8, fill, radius=1),
                ],
                class_="seal silver",
                data_track=track,
            )
        )
    for index in range(limits.max_golden_seals):
        cx = x + 130 + index * 26
        bought = index < player.golden_seals
        parts.append(
            _group(
                [
                    f'<circle cx="{cx}" cy="{sy + 10}" r="10" fill="{GOLD}" '
                    f'fill-opacity="{1 if bought else 0.2}" stroke="#8a6a1c" '
                    f'stroke-dasharray="{"none" if bought else "3 2"}"/>'
                ],
                class_="seal golden",
                data_bought="true" if bought else "false",
            )
        )
    free = free_tiles(player)
    parts.append(_text(x + 172, sy + 14, "free tiles", 11, MUTED))
    for index, track in enumerate(TRACKS):
        cx = x + 228 + index * 30
        ink = COLOUR_INK[TRACK_COLOUR[track]]
        parts.append(
            _group(
                [
                    _rect(cx, sy + 2, 14, 14, ink if free[track] else "none", ink, 3),
                    _text(cx + 18, sy + 14, str(free[track]), 11, INK),
                ],
                class_="free-tiles",
                data_track=track,
                data_count=free[track],
            )
        )
    dy = sy + 28
    sold = len(player.sold_face_down)
    sold_words = f"sold face down: {sold}"
    if sold and viewer in (player.seat, ARBITER):
        sold_words += f" ({', '.join(player.sold_face_down)})"
    lines = _wrap(sold_words, int(w / 5.8))[:SOLD_LINES]
    parts.append(
        _group(
            [_text(x, dy + 12 + 13 * i, line, 10.5, MUTED) for i, line in enumerate(lines)],
            class_="sold",
            data_count=sold,
        )
    )
    dy += 13 * (len(lines) - 1)
    drawn = state.drawn.get(player.seat, ())
    if drawn and viewer in (player.seat, ARBITER):
        chips = [_text(x, dy + 34, "draw", 11, INK, weight="bold")]
        for index, card_id in enumerate(drawn):
            chips.append(
                card_chip(x + 40 + index * 116, dy + 23, 110, state.components.card(card_id))
            )
        choice = state.chosen.get(player.seat)
        if choice:
            chips.append(_text(x + 274, dy + 34, f"chosen: {choice['action']}", 11, MUTED))
            laid = drawn.index(choice["place"])
            chips.append(
                _text(x + 40 + laid * 116 + 55, dy + 50, "laid face up", 10, MUTED, "middle")
            )
        parts.append(_group(chips, class_="draw", data_seat=player.seat))
    elif drawn:
        label = "chosen (sealed)" if player.seat in state.chosen else "choosing"
        backs = [_text(x, dy + 34, f"draw: 2 cards, {label}", 11, INK)]
        parts.append(_group(backs, class_="draw", data_seat=player.seat, data_count=len(drawn)))
    return _group(parts, class_="holdings")


def players(state: HadaraState, viewer: Viewer, to_act: tuple[str, ...]) -> tuple[str, float]:
    per_row = _per_row(len(state.seats))
    w = (WIDTH - 2 * MARGIN - (per_row - 1) * 16) / per_row
    h = player_height(state)
    sheet = state.final_sheet or score_sheet(state)
    totals = next(r["scores"] for r in sheet["rows"] if r["category"] == "total")
    boards = []
    for index, player in enumerate(state.players):
        row, column = divmod(index, per_row)
        x = MARGIN + column * (w + 16)
        y = PLAYERS_Y + row * (h + 16)
        acting = player.seat in to_act
        boards.append(player_board(state, player, viewer, acting, totals[player.seat], x, y, w))
    rows = (len(state.players) + per_row - 1) // per_row
    return _group(boards, class_="players"), PLAYERS_Y + rows * (h + 16)


def legend(y: float, viewer: Viewer) -> str:
    parts = [_rect(MARGIN, y, WIDTH - 2 * MARGIN, 50, PANEL, "#d9c9a8", 8)]
    x = MARGIN + 14
    for colour in COLOURS:
        parts.append(_rect(x, y + 10, 14, 14, COLOUR_INK[colour], radius=3))
        track = COLOUR_TRACK.get(colour, "abilities")
        parts.append(_text(x + 20, y + 22, f"{colour}: {track}", 12))
        x += 128
    parts.append(_text(x, y + 22, "crest: the seat draws from that stack this round", 12))
    if viewer == ARBITER:
        parts.append(
            _text(
                WIDTH - MARGIN - 14,
                y + 42,
                "arbiter: a free colony's back below its front",
                11,
                MUTED,
                "end",
            )
        )
    parts.append(
        _text(
            MARGIN + 14,
            y + 42,
            "coin: price · dark disc: points · bust tile +n: steps on its track, np: points · "
            "colony A allied, P plundered · seals: silver (with its track tile), golden",
            11,
            MUTED,
        )
    )
    return _group(parts, class_="legend")


def final_sheet(state: HadaraState, y: float) -> tuple[str, float]:
    if state.final_sheet is None:
        return "", y
    sheet = state.final_sheet
    columns = list(sheet["columns"])
    rows = list(sheet["rows"])
    h = 40 + 20 * (len(rows) + 1)
    parts = [
        _rect(MARGIN, y, WIDTH - 2 * MARGIN, h, PANEL, "#d9c9a8", 8),
        _text(MARGIN + 14, y + 24, "Final score sheet", 15, INK, weight="bold"),
    ]
    col_w = 110
    for index, seat in enumerate(columns):
        parts.append(_text(260 + index * col_w, y + 24, seat, 13, INK, "end", "bold"))
    for r, row in enumerate([*rows, {"label": "coins kept (ties)", "scores": sheet["coins_left"]}]):
        ry = y + 44 + 20 * r
        bold = "bold" if row["label"] == "Total" else "normal"
        parts.append(_text(MARGIN + 14, ry, row["label"], 12, INK, weight=bold))
        for index, seat in enumerate(columns):
            parts.append(
                _text(260 + index * col_w, ry, str(row["scores"][seat]), 12, INK, "end", bold)
            )
    return _group(parts, class_="score-sheet"), y + h + 12


def render_svg(state: HadaraState, viewer: Viewer, to_act: Sequence[str]) -> str:
    acting = tuple(to_act)
    body, y = players(state, viewer, acting)
    sheet, y = final_sheet(state, y)
    height = int(y + 62)
    content = [
        _rect(0, 0, WIDTH, height, PAPER, radius=0),
        header(state, viewer, acting),
        board(state, viewer),
        colonies(state, viewer),
        body,
        sheet,
        legend(y, viewer),
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" class="hadara">'
        + "".join(content)
        + "</svg>"
    )
