"""Each player's board in Hadara's picture: tracks, coins, cards by colour,
colonies, busts and seals, laid out in rows under the game board."""

from __future__ import annotations

from gamelog.games.hadara.cards import COLOURS, TRACKS
from gamelog.games.hadara.drawing import (
    BOARD_H,
    BOARD_Y,
    COLOUR_INK,
    GOLD,
    INK,
    MARGIN,
    MUTED,
    PANEL,
    SILVER,
    TRACK_COLOUR,
    WIDTH,
    card_chip,
    coin,
    group,
    rect,
    text_at,
    wrap,
)
from gamelog.games.hadara.scoring import score_sheet
from gamelog.games.hadara.state import HadaraState, Player, free_tiles, tracks
from gamelog.games.protocol import ARBITER, Viewer

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
        rect(x, y, w, h, PANEL, GOLD if acting else "#d9c9a8", 8, 3 if acting else 1),
        text_at(x + 12, y + 26, player.seat, 18, INK, weight="bold"),
        text_at(
            x + 12,
            y + 44,
            f"board {player.side} · {player.start_card} · initiative {player.initiative}",
            11,
            MUTED,
        ),
        group(
            [coin(x + w - 108, y + 24, player.coins, 15), text_at(x + w - 88, y + 29, "coins", 11)],
            class_="coins",
            data_coins=player.coins,
        ),
        group(
            [text_at(x + w - 12, y + 29, f"{points} pts", 13, INK, "end", "bold")],
            class_="points",
            data_points=points,
        ),
    ]
    if acting:
        parts.append(text_at(x + w - 12, y + 45, "to act", 11, "#8a6a1c", "end", "bold"))
    parts.append(track_rows(state, player, x + 12, y + 58, w - 24))
    parts.append(display(state, player, x + 12, y + 152, w - 24))
    bottom = y + 170 + 17 * _chip_rows(state)
    parts.append(holdings(state, player, viewer, x + 12, bottom, w - 24))
    return group(parts, class_="seat", data_seat=player.seat)


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
        parts = [text_at(x, ry + 14, track, 12, ink, weight="bold")]
        for field in range(1, 11):
            cx = x + 62 + (field - 1) * cell
            filled = field == position
            parts.append(rect(cx, ry + 2, cell - 2, 16, ink if filled else "#fff", ink, 3, 1))
            if filled:
                parts.append(
                    text_at(cx + (cell - 2) / 2, ry + 14, str(field), 10, "#fff", "middle")
                )
        if tens:
            parts.append(
                text_at(x + 66 + 10 * cell, ry + 14, f"+{10 * tens}", 11, ink, weight="bold")
            )
        parts.append(text_at(x + w, ry + 15, str(value), 14, INK, "end", "bold"))
        rows.append(group(parts, class_="track", data_track=track, data_value=value))
    return group(rows, class_="tracks")


def display(state: HadaraState, player: Player, x: float, y: float, w: float) -> str:
    column_w = w / 5
    parts = []
    for index, colour in enumerate(COLOURS):
        cx = x + index * column_w
        ids = [c for c in player.cards if state.components.card(c).colour == colour]
        column = [
            rect(cx, y, column_w - 4, 14, COLOUR_INK[colour], radius=3),
            text_at(cx + (column_w - 4) / 2, y + 11, f"{colour} {len(ids)}", 10, "#fff", "middle"),
        ]
        for row, card_id in enumerate(ids):
            card = state.components.card(card_id)
            tile = player.card_tiles.get(card_id)
            column.append(card_chip(cx, y + 18 + 17 * row, column_w - 4, card, tile))
        parts.append(group(column, class_="cards", data_colour=colour, data_count=len(ids)))
    return group(parts, class_="display")


def holdings(
    state: HadaraState, player: Player, viewer: Viewer, x: float, y: float, w: float
) -> str:
    """Colonies, busts, seals, free bonus tiles, cards sold face down, a draw."""
    parts = [text_at(x, y + 12, "colonies", 11, MUTED)]
    for index, (slot, allied) in enumerate(player.colonies):
        cx = x + 58 + index * 52
        parts.append(
            group(
                [
                    rect(cx, y, 48, 17, "#e2d3b4" if not allied else "#cfe0c0", "#b59a6a", 3),
                    text_at(
                        cx + 24, y + 12.5, f"{slot} {'A' if allied else 'P'}", 10, INK, "middle"
                    ),
                ],
                class_="colony-owned",
                data_slot=slot,
                data_allied="true" if allied else "false",
            )
        )
    if not player.colonies:
        parts.append(text_at(x + 58, y + 12, "none", 11, MUTED))
    by = y + 26
    parts.append(text_at(x, by + 22, "busts", 11, MUTED))
    carved = {number: (tile, side) for number, tile, side in player.busts}
    bust_w = min(70, (w - 58) / 4 - 6)
    for index, bust in enumerate(state.components.busts[player.side], start=1):
        cx = x + 58 + (index - 1) * (bust_w + 6)
        tile_side = carved.get(index)
        bust_parts = [
            rect(cx, by, bust_w, 36, "#ece3d3" if tile_side else "none", "#b5a58a", 5),
            text_at(cx + 5, by + 13, f"{bust.requirement} culture", 9, MUTED),
            text_at(cx + bust_w - 5, by + 31, f"{bust.points} pts", 10, INK, "end"),
        ]
        if tile_side:
            tile, side = tile_side
            ink = COLOUR_INK[TRACK_COLOUR[tile]]
            bust_parts.append(rect(cx + 5, by + 19, 14, 14, ink, radius=3))
            mark = f"+{bust.reward_steps}" if side == "front" else f"{bust.reward_steps}p"
            bust_parts.append(text_at(cx + 22, by + 31, mark, 10, ink, weight="bold"))
        bust_parts_attrs = {"class_": "bust", "data_bust": index}
        if tile_side:
            bust_parts_attrs.update(data_tile=tile_side[0], data_side=tile_side[1])
        parts.append(group(bust_parts, **bust_parts_attrs))
    sy = by + 46
    parts.append(text_at(x, sy + 14, "seals", 11, MUTED))
    limits = state.components
    for index in range(limits.max_silver_seals):
        cx = x + 70 + index * 26
        track = player.silver_seals[index] if index < len(player.silver_seals) else None
        fill = COLOUR_INK[TRACK_COLOUR[track]] if track else "none"
        parts.append(
            group(
                [
                    f'<circle cx="{cx}" cy="{sy + 10}" r="10" fill="{SILVER}" '
                    f'stroke="#6d747c" stroke-dasharray="{"none" if track else "3 2"}" '
                    f'fill-opacity="{1 if track else 0.25}"/>',
                    rect(cx - 4, sy + 6, 8, 8, fill, radius=1),
                ],
                class_="seal silver",
                data_track=track,
            )
        )
    for index in range(limits.max_golden_seals):
        cx = x + 130 + index * 26
        bought = index < player.golden_seals
        parts.append(
            group(
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
    parts.append(text_at(x + 172, sy + 14, "free tiles", 11, MUTED))
    for index, track in enumerate(TRACKS):
        cx = x + 228 + index * 30
        ink = COLOUR_INK[TRACK_COLOUR[track]]
        parts.append(
            group(
                [
                    rect(cx, sy + 2, 14, 14, ink if free[track] else "none", ink, 3),
                    text_at(cx + 18, sy + 14, str(free[track]), 11, INK),
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
    lines = wrap(sold_words, int(w / 5.8))[:SOLD_LINES]
    parts.append(
        group(
            [text_at(x, dy + 12 + 13 * i, line, 10.5, MUTED) for i, line in enumerate(lines)],
            class_="sold",
            data_count=sold,
        )
    )
    dy += 13 * (len(lines) - 1)
    drawn = state.drawn.get(player.seat, ())
    if drawn and viewer in (player.seat, ARBITER):
        chips = [text_at(x, dy + 34, "draw", 11, INK, weight="bold")]
        for index, card_id in enumerate(drawn):
            chips.append(
                card_chip(x + 40 + index * 116, dy + 23, 110, state.components.card(card_id))
            )
        choice = state.chosen.get(player.seat)
        if choice:
            chips.append(text_at(x + 274, dy + 34, f"chosen: {choice['action']}", 11, MUTED))
            laid = drawn.index(choice["place"])
            chips.append(
                text_at(x + 40 + laid * 116 + 55, dy + 50, "laid face up", 10, MUTED, "middle")
            )
        parts.append(group(chips, class_="draw", data_seat=player.seat))
    elif drawn:
        label = "chosen (sealed)" if player.seat in state.chosen else "choosing"
        backs = [text_at(x, dy + 34, f"draw: 2 cards, {label}", 11, INK)]
        parts.append(group(backs, class_="draw", data_seat=player.seat, data_count=len(drawn)))
    return group(parts, class_="holdings")


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
    return group(boards, class_="players"), PLAYERS_Y + rows * (h + 16)
