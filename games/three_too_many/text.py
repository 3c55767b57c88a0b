"""The table as text for the terminal, as one viewer sees it.

Every number says what it counts; the one abbreviation (``[..]`` for a
triple turned face down) is explained on the board itself::

    3 sind eine zu viel!  ann to play
    rows (a row holds its start card and 3 more; the card after that takes):
      row 1 (1-29)    [0]  10  19  24    full: the next card here takes
      ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamelog.games.protocol import ARBITER, Viewer, rank_by
from gamelog.games.three_too_many.collection import score_collection
from gamelog.games.three_too_many.display import ROW_LIMIT, Row
from gamelog.games.three_too_many.options import PILE_SIZE, REFILL_AT
from gamelog.games.three_too_many.scoring import totals
from gamelog.games.wording import and_list, counted, standings_line

if TYPE_CHECKING:
    from gamelog.games.three_too_many.state import ThreeTooManyState

TURNS_EACH = PILE_SIZE - REFILL_AT
"""Cards each player plays: all of the pile but the last two hand cards."""
ROW_RANGES = ("1-29", "31-59", "61-89")
LEGEND = (
    "collection: face-up cards by colour, [..] a triple turned face down; "
    "one face-up card of a colour scores 1, two score 5, each face-down card -1"
)


def free_places(row: Row) -> int:
    """Cards that still fit before the next one takes (the start card counts)."""
    return ROW_LIMIT - 1 - len(row.cards)


def row_state(row: Row) -> str:
    free = free_places(row)
    if free <= 0:
        return "full: the next card here takes"
    return f"{counted(free, 'free place')}, then a card takes"


def to_act(state: ThreeTooManyState) -> str | None:
    """The seat to play, or None before the deal and after the end."""
    return state.seats[state.turn] if not state.ended and any(state.hands) else None


def status_line(state: ThreeTooManyState) -> str:
    """Whose turn it is, or the result once the game is over."""
    seat = to_act(state)
    if seat is not None:
        return f"{seat} to play"
    if not state.ended:
        return "before the deal"
    scores = dict(zip(state.seats, totals(state)))
    ranking = rank_by(scores, state.seats)
    return f"game over: {standings_line({'scores': scores, 'ranking': ranking})}"


def render_text(state: ThreeTooManyState, viewer: Viewer) -> str:
    acting = to_act(state)
    lines = [f"3 sind eine zu viel!  {status_line(state)}"]
    lines.append("rows (a row holds its start card and 3 more; the card after that takes):")
    for number, row in enumerate(state.display):
        cards = "  ".join(f"{c:2d}" for c in row.cards)
        label = f"row {number + 1} ({ROW_RANGES[number]})"
        note = row_state(row) if acting else ""
        start = f"[{row.start}]"
        lines.append(f"  {label:<15} {start:<4} {cards:<12}  {note}".rstrip())
    stack = and_list(state.interim_stack) if state.interim_stack else "empty"
    lines.append(f"interim bonus stack (top first, for all colours face up): {stack}")
    lines.append("players (* to play):")
    scores = totals(state)
    for i, seat in enumerate(state.seats):
        marker = "*" if seat == acting else " "
        lines.append(f"{marker} {seat}: score {scores[i]}{_score_parts(state, i)}")
        lines.append(
            f"    hand {counted(len(state.hands[i]), 'card')}, "
            f"pile {counted(len(state.piles[i]), 'card')}, "
            f"played {state.played[i]} of {TURNS_EACH}"
        )
        lines.append(f"    collection: {_collection_words(state, i)}")
    lines.append(LEGEND)
    if state.colourless:
        lines.append(f"colourless cards taken, in the box: {and_list(state.colourless)}")
    lines.extend(_hidden_cards(state, viewer))
    return "\n".join(lines)


def _score_parts(state: ThreeTooManyState, i: int) -> str:
    parts = [f"collection {score_collection(state.collections[i]).points}"]
    if state.interim_bonus[i]:
        parts.append(f"interim bonus {state.interim_bonus[i]}")
    if state.ended and state.final_bonus[i]:
        parts.append(f"final bonus {state.final_bonus[i]}")
    return f" ({' + '.join(parts)})" if len(parts) > 1 else ""


def _collection_words(state: ThreeTooManyState, i: int) -> str:
    collection = state.collections[i]
    words = []
    for k, colour in enumerate(state.components.colours):
        up, down = collection.face_up[k], collection.face_down[k]
        if not up and not down:
            continue
        shown = [" ".join(str(c) for c in sorted(up))] if up else []
        for t in range(0, len(down), 3):
            shown.append(f"[{' '.join(str(c) for c in sorted(down[t : t + 3]))}]")
        words.append(f"{colour} {' '.join(shown)}")
    return " | ".join(words) or "no cards yet"


def _hidden_cards(state: ThreeTooManyState, viewer: Viewer) -> list[str]:
    """The hands the viewer may see: its own, or every hand for the arbiter."""
    lines: list[str] = []
    if viewer in state.seats:
        i = state.seats.index(viewer)
        if state.ended:
            last = " ".join(str(c) for c in state.last_hands[i])
            lines.append(f"your last two cards (to the box, unscored): {last}")
        else:
            lines.append("your hand: " + (" ".join(str(c) for c in state.hands[i]) or "empty"))
    elif viewer == ARBITER:
        held = state.last_hands if state.ended else state.hands
        what = "last two cards (to the box)" if state.ended else "hand"
        for i, seat in enumerate(state.seats):
            lines.append(f"{seat}'s {what}: {' '.join(str(c) for c in held[i]) or 'empty'}")
            if state.piles[i]:
                lines.append(f"{seat}'s pile: {' '.join(str(c) for c in state.piles[i])}")
        lines.append(f"box (never dealt): {' '.join(str(c) for c in state.box) or 'empty'}")
    return lines
