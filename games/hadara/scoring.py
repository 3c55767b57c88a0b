"""Final scoring, row by row as on the score pad, and the tie-break by coins.

Rows: colonies (front points if plundered, back points if allied), busts (the
bust's points, plus the reward for a tile on its point side, plus the bust
card's 2 per such bust), silver seals (half the track, each rounded up; one
seal per full-points card scores the whole track), golden seals (7 per set of
five colours per seal; the wildcard card lets one set miss a card; the
set-points card adds 4 per set), card points, and 1 point per 5 coins; the
coins kept after that (fewer than 5) break a tie on points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games.hadara.cards import COLOURS
from gamelog.games.hadara.state import HadaraState, Player, colour_counts, tracks
from gamelog.games.protocol import Result, rank_by

CATEGORIES: tuple[tuple[str, str], ...] = (
    ("colonies", "Colonies"),
    ("busts", "Busts"),
    ("silver_seals", "Silver seals"),
    ("golden_seals", "Golden seals"),
    ("cards", "Cards"),
    ("coins", "Coins (1 per 5)"),
)


def complete_sets(counts: dict[str, int], wildcards: int = 0) -> int:
    """Sets of five different colours; each wildcard lets one set miss one card."""
    sets = min(counts[colour] for colour in COLOURS)
    while True:
        missing = sum(max(0, sets + 1 - counts[colour]) for colour in COLOURS)
        if missing > min(wildcards, sets + 1):
            return sets
        sets += 1


def silver_points(values: list[int], full_point_seals: int) -> int:
    """Half the track per seal, rounded up per seal; ``full_point_seals`` of
    them (the highest) score the whole track."""
    ordered = sorted(values, reverse=True)
    return sum(v if i < full_point_seals else (v + 1) // 2 for i, v in enumerate(ordered))


def coin_points(coins: int, per_point: int = 5) -> int:
    return coins // per_point


def coins_kept(coins: int, per_point: int = 5) -> int:
    """Coins left after handing in every 5 for a point: they break a tie
    ("1 Münze behältst du für einen möglichen Gleichstand")."""
    return coins - per_point * coin_points(coins, per_point)


def player_scores(state: HadaraState, player: Player) -> dict[str, int]:
    components = state.components
    abilities: dict[str, list[dict[str, Any]]] = {}
    points_on_cards = 0
    for card_id in player.cards:
        card = components.card(card_id)
        points_on_cards += card.points
        if card.ability:
            abilities.setdefault(card.ability, []).append(dict(card.params))
    colonies = 0
    for slot, allied in player.colonies:
        colony = components.colony_by_id[state.colony_slots[slot]]
        colonies += colony.back_points if allied else colony.front_points
    busts = 0
    point_side_bonus = sum(
        p["points_per_point_side_bust"] for p in abilities.get("bust_step_bonus", [])
    )
    for number, _, side in player.busts:
        bust = components.busts[player.side][number - 1]
        busts += bust.points
        if side == "back":
            busts += bust.reward_steps + point_side_bonus
    values = tracks(player, state)
    full = sum(p["seals"] for p in abilities.get("silver_seal_full_points", []))
    silver = silver_points([values[track] for track in player.silver_seals], full)
    counts = colour_counts(player, components)
    wildcards = sum(p["sets"] for p in abilities.get("golden_set_wildcard", []))
    golden = 0
    if player.golden_seals:
        golden = (
            components.golden_points_per_set
            * player.golden_seals
            * complete_sets(counts, wildcards)
        )
    golden += sum(p["points_per_set"] for p in abilities.get("set_points", [])) * (
        complete_sets(counts)
    )
    return {
        "colonies": colonies,
        "busts": busts,
        "silver_seals": silver,
        "golden_seals": golden,
        "cards": points_on_cards,
        "coins": coin_points(player.coins, components.coins_per_end_point),
    }


def score_sheet(state: HadaraState) -> dict[str, Any]:
    """The score pad: one row per category, one column per seat, and a total
    row; ``coins_left`` gives the tie-break: the coins each seat keeps after
    handing in every 5 coins for a point."""
    per_seat = {player.seat: player_scores(state, player) for player in state.players}
    rows: list[dict[str, Any]] = [
        {"category": key, "label": label, "scores": {s: per_seat[s][key] for s in state.seats}}
        for key, label in CATEGORIES
    ]
    totals = {s: sum(per_seat[s].values()) for s in state.seats}
    rows.append({"category": "total", "label": "Total", "scores": totals})
    return {
        "columns": list(state.seats),
        "rows": rows,
        "coins_left": {
            p.seat: coins_kept(p.coins, state.components.coins_per_end_point) for p in state.players
        },
    }


def sheet_result(sheet: Mapping[str, Any], seats: Sequence[str]) -> Result:
    """The result a final score sheet gives: most points first, then most
    coins kept; seats equal on both share a place."""
    totals = next(r["scores"] for r in sheet["rows"] if r["category"] == "total")
    coins = sheet["coins_left"]
    keys = {seat: (totals[seat], coins[seat]) for seat in seats}
    return Result(
        scores={seat: totals[seat] for seat in seats},
        ranking=rank_by(keys, seats),
        details={"score_sheet": dict(sheet), "tie_break": "coins kept after handing in 5s"},
    )


def final_result(state: HadaraState) -> Result | None:
    if state.final_sheet is None:
        return None
    return sheet_result(state.final_sheet, state.seats)


def sheet_table(sheet: Mapping[str, Any]) -> str:
    """The score sheet as a plain-text table: a row per category, a column
    per seat, the total, and the coins each seat keeps for a tie.

    >>> sheet = {"columns": ["ann", "bob"], "coins_left": {"ann": 1, "bob": 4},
    ...          "rows": [{"label": "Cards", "scores": {"ann": 12, "bob": 9}},
    ...                   {"label": "Total", "scores": {"ann": 12, "bob": 9}}]}
    >>> print(sheet_table(sheet))
                           ann   bob
    Cards                   12     9
    --------------------  ----  ----
    Total                   12     9
    coins kept (ties)        1     4
    """
    columns = list(sheet["columns"])
    width = 20
    cell = max([len(c) for c in columns] + [4])

    def line(label: str, cells: list[str]) -> str:
        return (label.ljust(width) + "".join("  " + c.rjust(cell) for c in cells)).rstrip()

    lines = [line("", columns)]
    for row in sheet["rows"]:
        if row["label"] == "Total":
            lines.append(line("-" * width, ["-" * cell] * len(columns)))
        lines.append(line(row["label"], [str(row["scores"][c]) for c in columns]))
    coins = sheet.get("coins_left", {})
    lines.append(line("coins kept (ties)", [str(coins.get(c, "")) for c in columns]))
    return "\n".join(lines)
