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

from collections.abc import Sequence

from gamelog.games.hadara.cards import COLOUR_TRACK, COLOURS, TRACKS
from gamelog.games.hadara.drawing import (
    BOARD_H,
    BOARD_Y,
    COLOUR_INK,
    COLUMN_W,
    GOLD,
    INK,
    MARGIN,
    MUTED,
    PANEL,
    PAPER,
    TRACK_COLOUR,
    WIDTH,
    card_back,
    card_face,
    group,
    rect,
    text_at,
    wrap,
)
from gamelog.games.hadara.player_boards import players
from gamelog.games.hadara.scoring import final_result
from gamelog.games.hadara.state import HadaraState, slot_level
from gamelog.games.hadara.views import crests
from gamelog.games.hadara.words import STAGES, epoch_name
from gamelog.games.protocol import ARBITER, Viewer
from gamelog.games.wording import standings_line


def header(state: HadaraState, viewer: Viewer, to_act: tuple[str, ...]) -> str:
    parts = [rect(0, 0, WIDTH, 52, INK, radius=0)]
    parts.append(text_at(MARGIN, 34, "Hadara", 26, "#f3d98b", weight="bold"))
    for index in (1, 2, 3):
        current = index == state.epoch
        cx = 170 + 44 * index
        parts.append(
            f'<circle cx="{cx}" cy="26" r="17" fill="{GOLD if current else "#5e4d3f"}" '
            f'stroke="#f3d98b" stroke-width="{2 if current else 0.5}"/>'
        )
        parts.append(text_at(cx, 31, epoch_name(index), 13, "#fff", "middle", "bold"))
    for index, phase in enumerate("AB"):
        current = phase == state.phase and state.stage != "over"
        x = 370 + 64 * index
        parts.append(rect(x, 12, 56, 28, "#f3d98b" if current else "#5e4d3f", radius=14))
        parts.append(
            text_at(x + 28, 31, f"phase {phase}", 12, INK if current else "#cbb9a4", "middle")
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
    parts.append(text_at(510, 31, doing, 15, "#fff"))
    seen_as = "arbiter" if viewer == ARBITER else viewer or "spectator"
    parts.append(text_at(WIDTH - MARGIN, 31, f"as {seen_as}", 13, "#cbb9a4", "end"))
    return group(
        parts,
        class_="status",
        data_epoch=state.epoch,
        data_phase=state.phase or None,
        data_stage=state.stage,
        data_round=state.draw_round if state.phase == "A" else None,
    )


# --- the game board ----------------------------------------------------------------


def board(state: HadaraState, viewer: Viewer) -> str:
    x0 = MARGIN
    parts = [rect(x0, BOARD_Y, COLUMN_W * 5 + 16, BOARD_H, PANEL, "#d9c9a8", 8)]
    pointing = {colour: seat for seat, colour in crests(state).items()}
    # before the start player sets the wheel, the crests point nowhere yet
    show_crests = state.phase == "A" and state.stage not in ("over", "setup", "wheel")
    for index, colour in enumerate(COLOURS):
        x = x0 + 8 + COLUMN_W * index
        ink = COLOUR_INK[colour]
        track = COLOUR_TRACK.get(colour, "abilities")
        column = [
            rect(x + 4, BOARD_Y + 8, COLUMN_W - 8, 24, ink, radius=5),
            text_at(x + COLUMN_W / 2, BOARD_Y + 25, f"{colour} · {track}", 13, "#fff", "middle"),
        ]
        inner = len(state.inner.get(colour, ()))
        inner_parts = [text_at(x + 12, BOARD_Y + 50, "face down", 11, MUTED)]
        if inner:
            inner_parts.append(card_back(x + 12, BOARD_Y + 56, colour))
        else:
            inner_parts.append(rect(x + 12, BOARD_Y + 56, 56, 76, "none", "#cdbd9c", 5))
        inner_parts.append(text_at(x + 40, BOARD_Y + 148, f"{inner} left", 12, INK, "middle"))
        column.append(group(inner_parts, class_="stack", data_stack="inner", data_colour=colour))
        seat = pointing.get(colour)
        if show_crests and seat:
            column.append(crest(x + 78, BOARD_Y + 70, seat, colour))
        outer = state.outer.get(colour, ())
        top = state.top(colour)
        outer_parts = [text_at(x + 12, BOARD_Y + 168, "face up", 11, MUTED)]
        if top:
            outer_parts.append(card_face(x + 12, BOARD_Y + 174, state.components.card(top)))
        else:
            outer_parts.append(rect(x + 12, BOARD_Y + 174, 124, 128, "none", "#cdbd9c", 6))
            outer_parts.append(text_at(x + 74, BOARD_Y + 242, "empty", 12, MUTED, "middle"))
        below = max(0, len(outer) - 1)
        if below and viewer == ARBITER:
            # the arbiter sees the whole stack: the cards below, bottom first
            for row, words in enumerate(wrap("below: " + ", ".join(outer[:-1]), 24)[:3]):
                outer_parts.append(text_at(x + 12, BOARD_Y + 316 + 11 * row, words, 9.5, MUTED))
        elif below:
            outer_parts.append(
                text_at(x + 74, BOARD_Y + 320, f"+ {below} below, unseen", 11, MUTED, "middle")
            )
        column.append(
            group(
                outer_parts,
                class_="stack",
                data_stack="outer",
                data_colour=colour,
                data_count=len(outer),
                data_top=top,
            )
        )
        parts.append(group(column, class_="colour", data_colour=colour))
    return group(parts, class_="board")


def crest(x: float, y: float, seat: str, colour: str) -> str:
    """A seat's crest: the stack it draws from this round."""
    return group(
        [
            f'<path d="M{x:.1f},{y:.1f} h56 v34 l-28,16 l-28,-16 z" fill="{INK}" '
            f'stroke="{GOLD}" stroke-width="2"/>',
            text_at(x + 28, y + 15, "crest", 9, "#cbb9a4", "middle"),
            text_at(x + 28, y + 30, seat[:9], 12, "#fff", "middle", "bold"),
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
        rect(COLONY_X, BOARD_Y, w, BOARD_H, PANEL, "#d9c9a8", 8),
        text_at(COLONY_X + 12, BOARD_Y + 24, "Colonies", 15, INK, weight="bold"),
        text_at(
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
        parts.append(
            text_at(COLONY_X + 12, y + 24, f"{level}", 16, COLOUR_INK["red"], weight="bold")
        )
        parts.append(text_at(COLONY_X + 12, y + 40, "military", 9, MUTED))
        slots = [s for s in state.colony_slots if slot_level(s) == level]
        tile_w = min(84, (w - 70) / max(1, len(slots)) - 6)
        for index, slot in enumerate(slots):
            x = COLONY_X + 62 + index * (tile_w + 6)
            parts.append(colony_tile(state, viewer, slot, slot in allied, x, y, tile_w))
    return group(parts, class_="colonies")


def steps_badges(x: float, y: float, values: Sequence[int], size: float = 14) -> str:
    """Track steps as squares in the track's colour with the number inside."""
    parts = []
    for track, steps in zip(TRACKS, values):
        if steps:
            ink = COLOUR_INK[TRACK_COLOUR[track]]
            parts.append(rect(x, y, size, size, ink, radius=3))
            parts.append(
                text_at(
                    x + size / 2, y + size - 3.5, str(steps), size - 4, "#fff", "middle", "bold"
                )
            )
            x += size + 3
    return group(parts, class_="steps")


def colony_tile(
    state: HadaraState, viewer: Viewer, slot: str, allied: bool, x: float, y: float, w: float
) -> str:
    colony_id = state.colony_slots[slot]
    colony = state.components.colony_by_id[colony_id]
    owner = state.colony_owner.get(slot)
    shows_back = allied or viewer == ARBITER
    parts = [
        rect(x, y, w, 50, "#efe2c4" if owner is None else "#e2d3b4", "#b59a6a", 5),
        text_at(x + 5, y + 13, slot, 10, MUTED),
    ]
    if allied:
        parts.append(steps_badges(x + 5, y + 17, colony.back_values))
        parts.append(text_at(x + w - 5, y + 13, f"{colony.back_points} pts", 10, INK, "end"))
    else:
        parts.append(
            text_at(x + 5, y + 28, f"+{colony.plunder_coins}", 12, "#8a6a1c", weight="bold")
        )
        parts.append(text_at(x + w - 5, y + 28, f"ally {colony.alliance_cost}", 10, INK, "end"))
        parts.append(text_at(x + w - 5, y + 13, f"{colony.front_points} pts", 10, INK, "end"))
    if owner:
        how = "allied" if allied else "plundered"
        parts.append(rect(x + 3, y + 34, w - 6, 13, INK, radius=3))
        parts.append(text_at(x + w / 2, y + 44, f"{owner[:8]} {how}", 9, "#fff", "middle"))
    elif viewer == ARBITER:
        parts.append(steps_badges(x + 4, y + 36, colony.back_values, 10))
        parts.append(text_at(x + w - 5, y + 45, f"{colony.back_points}", 9, MUTED, "end"))
    return group(
        parts,
        class_="colony",
        data_slot=slot,
        data_level=colony.requirement,
        data_taken_by=owner,
        data_allied="true" if allied else "false",
        data_colony=colony_id if shows_back else None,
    )


def legend(y: float, viewer: Viewer) -> str:
    parts = [rect(MARGIN, y, WIDTH - 2 * MARGIN, 50, PANEL, "#d9c9a8", 8)]
    x = MARGIN + 14
    for colour in COLOURS:
        parts.append(rect(x, y + 10, 14, 14, COLOUR_INK[colour], radius=3))
        track = COLOUR_TRACK.get(colour, "abilities")
        parts.append(text_at(x + 20, y + 22, f"{colour}: {track}", 12))
        x += 128
    parts.append(text_at(x, y + 22, "crest: the seat draws from that stack this round", 12))
    if viewer == ARBITER:
        parts.append(
            text_at(
                WIDTH - MARGIN - 14,
                y + 42,
                "arbiter: a free colony's back below its front",
                11,
                MUTED,
                "end",
            )
        )
    parts.append(
        text_at(
            MARGIN + 14,
            y + 42,
            "coin: price · dark disc: points · bust tile +n: steps on its track, np: points · "
            "colony A allied, P plundered · seals: silver (with its track tile), golden",
            11,
            MUTED,
        )
    )
    return group(parts, class_="legend")


def final_sheet(state: HadaraState, y: float) -> tuple[str, float]:
    if state.final_sheet is None:
        return "", y
    sheet = state.final_sheet
    columns = list(sheet["columns"])
    rows = list(sheet["rows"])
    h = 40 + 20 * (len(rows) + 1)
    parts = [
        rect(MARGIN, y, WIDTH - 2 * MARGIN, h, PANEL, "#d9c9a8", 8),
        text_at(MARGIN + 14, y + 24, "Final score sheet", 15, INK, weight="bold"),
    ]
    col_w = 110
    for index, seat in enumerate(columns):
        parts.append(text_at(260 + index * col_w, y + 24, seat, 13, INK, "end", "bold"))
    for r, row in enumerate([*rows, {"label": "coins kept (ties)", "scores": sheet["coins_left"]}]):
        ry = y + 44 + 20 * r
        bold = "bold" if row["label"] == "Total" else "normal"
        parts.append(text_at(MARGIN + 14, ry, row["label"], 12, INK, weight=bold))
        for index, seat in enumerate(columns):
            parts.append(
                text_at(260 + index * col_w, ry, str(row["scores"][seat]), 12, INK, "end", bold)
            )
    return group(parts, class_="score-sheet"), y + h + 12


def render_svg(state: HadaraState, viewer: Viewer, to_act: Sequence[str]) -> str:
    acting = tuple(to_act)
    body, y = players(state, viewer, acting)
    sheet, y = final_sheet(state, y)
    height = int(y + 62)
    content = [
        rect(0, 0, WIDTH, height, PAPER, radius=0),
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
