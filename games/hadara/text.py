"""The table as plain text for a terminal, as one viewer may see it.

The score sheet is part of the text, once, as a table: the running count
during play, the final scoring once the game is over.
"""

from __future__ import annotations

from gamelog.games.hadara.cards import COLOURS, TRACKS
from gamelog.games.hadara.scoring import final_result, score_sheet, sheet_table
from gamelog.games.hadara.state import HadaraState, Player, free_tiles, tracks
from gamelog.games.hadara.views import crests
from gamelog.games.hadara.words import (
    STAGES,
    card_named,
    card_words,
    epoch_name,
    outcome_words,
    side_words,
    track_words,
)
from gamelog.games.protocol import ARBITER, Viewer
from gamelog.games.wording import and_list, counted, standings_line

LEGEND = (
    "Tracks: income (yellow cards), military (red), culture (blue), food (green); "
    "purple cards carry abilities. A bust tile on its step side moves its track, "
    "on its point side it scores."
)


def headline(state: HadaraState, to_act: tuple[str, ...]) -> list[str]:
    if state.stage == "over":
        result = final_result(state)
        standings = standings_line(result.to_json()) if result else ""
        return [f"Hadara, game over: {standings}"]
    where = f"epoch {epoch_name(state.epoch)}, phase {state.phase}" if state.epoch else "set-up"
    doing = STAGES.get(state.stage, state.stage)
    if state.stage == "choose":
        doing += f", draw round {state.draw_round} of {len(COLOURS)}"
    lines = [f"Hadara, {where}: {doing}"]
    if state.order:
        lines.append(
            f"start player {state.start_player}; turn order {', '.join(state.order)}; "
            f"to act: {', '.join(to_act) or 'nobody'}"
        )
    return lines


def stacks_lines(state: HadaraState, viewer: Viewer) -> list[str]:
    lines = []
    if state.phase == "A" and state.stage not in ("over", "wheel"):
        wheel = crests(state)
        lines.append("Wheel: " + ", ".join(f"{seat} at {wheel[seat]}" for seat in state.seats))
    lines.append(
        "Inner stacks, face down: "
        + ", ".join(f"{c} {len(state.inner.get(c, ()))}" for c in COLOURS)
    )
    lines.append("Outer stacks, face up (only the top card shows):")
    for colour in COLOURS:
        top = state.top(colour)
        count = len(state.outer.get(colour, ()))
        shown = card_words(state.components.card(top)) if top else "empty"
        under = f", {counted(count - 1, 'card')} below" if count > 1 else ""
        if count > 1 and viewer == ARBITER:
            under += f": {', '.join(state.outer[colour][:-1])}"
        lines.append(f"  {colour:<7} {shown}{under}")
    return lines


def colony_lines(state: HadaraState, viewer: Viewer) -> list[str]:
    if not state.colony_slots:
        return []
    allied = {slot for p in state.players for slot, a in p.colonies if a}
    lines = ["Colonies (military needed: plunder coins or alliance cost, front points):"]
    for slot, colony_id in state.colony_slots.items():
        colony = state.components.colony_by_id[colony_id]
        line = (
            f"  {slot:<4} {colony.requirement:>2} military: plunder +{colony.plunder_coins} "
            f"or ally for {colony.alliance_cost}, {counted(colony.front_points, 'point')}"
        )
        owner = state.colony_owner.get(slot)
        if owner:
            line += f"; taken by {owner}, " + ("allied" if slot in allied else "plundered")
        if slot in allied or viewer == ARBITER:
            line += (
                f" (back {colony_id}: {track_words(colony.back_values)}, "
                f"{counted(colony.back_points, 'point')})"
            )
        lines.append(line)
    return lines


def player_lines(state: HadaraState, player: Player, viewer: Viewer) -> list[str]:
    values = tracks(player, state)
    lines = [
        f"{player.seat}: board {player.side}, {player.start_card or 'no start card'}, "
        f"initiative {player.initiative}",
        f"  {counted(player.coins, 'coin')}; "
        + ", ".join(f"{t} {values[t]}" for t in TRACKS)
        + f"; {counted(len(player.cards), 'card')} to feed",
    ]
    by_colour = []
    for colour in COLOURS:
        ids = [c for c in player.cards if state.components.card(c).colour == colour]
        if ids:
            named = [
                card_named(state.components, c)
                + (f" (tile {player.card_tiles[c]})" if c in player.card_tiles else "")
                for c in ids
            ]
            by_colour.append(f"{colour} {', '.join(named)}")
    lines.append("  cards: " + ("; ".join(by_colour) or "none"))
    colonies = [f"{slot} {'allied' if allied else 'plundered'}" for slot, allied in player.colonies]
    busts = [f"bust {n} ({tile} tile, {side_words(side)})" for n, tile, side in player.busts]
    lines.append(
        f"  colonies: {and_list(colonies) if colonies else 'none'}; "
        f"busts: {and_list(busts) if busts else 'none'}"
    )
    silver = and_list(player.silver_seals) if player.silver_seals else "none"
    free = free_tiles(player)
    lines.append(
        f"  seals: silver {silver}, golden {player.golden_seals} of "
        f"{state.components.max_golden_seals}; free bonus tiles: "
        + ", ".join(f"{t} {free[t]}" for t in TRACKS)
    )
    if player.sold_face_down:
        sold = f"  sold face down: {counted(len(player.sold_face_down), 'card')}"
        if viewer in (player.seat, ARBITER):
            sold += f" ({', '.join(player.sold_face_down)})"
        lines.append(sold)
    if viewer in (player.seat, ARBITER) and state.drawn.get(player.seat):
        drawn = " and ".join(card_named(state.components, c) for c in state.drawn[player.seat])
        line = f"  draw: {drawn}"
        choice = state.chosen.get(player.seat)
        if choice:
            line += f"; chosen: lay {choice['place']} face up, {outcome_words(choice)}"
        lines.append(line)
    elif state.stage == "choose":
        lines.append("  chosen (sealed)" if player.seat in state.chosen else "  choosing")
    return lines


def render_text(state: HadaraState, viewer: Viewer, to_act: tuple[str, ...]) -> str:
    lines = headline(state, to_act)
    if state.epoch and state.stage != "over":
        lines += ["", *stacks_lines(state, viewer)]
    lines += ["", *colony_lines(state, viewer)]
    if state.discard:
        discarded = ", ".join(card_named(state.components, c) for c in state.discard)
        lines.append(f"Discarded face up: {discarded}")
    for player in state.players:
        lines += ["", *player_lines(state, player, viewer)]
    final = state.final_sheet is not None
    lines += [
        "",
        "Final score sheet:" if final else "Running score sheet (if the game ended now):",
        sheet_table(state.final_sheet or score_sheet(state)),
        "",
        LEGEND,
    ]
    return "\n".join(lines)
