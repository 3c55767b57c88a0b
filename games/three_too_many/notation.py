"""The move notation: one line per stored move, as a reader of the record sees it.

A turn reads ``<seat> plays <card> on row <r>`` (rows 1, 2, 3 as the
rulebook counts them: 1–29, 31–59, 61–89), then what the card caused: the
cards taken with their colours, the colours whose third card turned a triple
face down, the interim bonus, the refill, and after the last turn the final
bonuses and the result. A refill names the cards only when the reader may see
them (the drawer and the arbiter); everybody else reads how many.

Philipp's turn from the rulebook (he lays 28 as the row's fifth card and takes
the 10):

>>> from gamelog.games.three_too_many.rules import RULES
>>> seats = ("philipp", "ben")
>>> state = RULES.start(seats, RULES.normalize_options({}, seats))
>>> events = [
...     {"type": "CardPlaced", "seat": "philipp", "card": 28, "row": 0},
...     {"type": "CardsTaken", "seat": "philipp", "row": 0, "cards": [10],
...      "to_box": [], "turned_face_down": []},
... ]
>>> notate_turn(state, "philipp", events)
'philipp plays 28 on row 1, takes 10 (light-blue)'
>>> drawn = {"type": "CardsDrawn", "seat": "ben", "cards": [4, 12, 19, 33, 50, 71]}
>>> notate_turn(state, "ben", [drawn])
'ben draws 4, 12, 19, 33, 50 and 71'
>>> notate_turn(state, "ben", [RULES.redact(drawn, "philipp")])
'ben draws 6 cards'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gamelog.games.protocol import Event, rank_by
from gamelog.games.wording import and_list, counted, standings_line

if TYPE_CHECKING:
    from gamelog.games.three_too_many.state import ThreeTooManyState


def row_name(row: int) -> str:
    """Rows as the rulebook counts them: the first row holds 1–29."""
    return f"row {row + 1}"


def card_with_colour(state: ThreeTooManyState, card: int) -> str:
    colour = state.components.colour_of[card]
    return f"{card} ({colour})" if colour else f"{card} (no colour, to the box)"


def notate_deal(state: ThreeTooManyState, events: Sequence[Event]) -> str:
    """The creation's events: display, piles, first hands, box, start seat."""
    parts: list[str] = []
    draws = [e for e in events if e["type"] == "CardsDrawn"]
    for event in events:
        if event["type"] == "DisplayDealt":
            parts.append(f"display {and_list(event['cards'])}")
        elif event["type"] == "PilesDealt":
            sizes = sorted({_size(pile) for pile in event["piles"].values()})
            pile = " or ".join(counted(size, "card") for size in sizes)
            parts.append(f"a face-down pile of {pile} to each seat")
            parts.append(f"{counted(_size(event['box']), 'card')} stay in the box unseen")
    counts = {_size(e.get("cards", e.get("count"))) for e in draws}
    if draws and len(counts) == 1 and not any("cards" in e for e in draws):
        parts.append(f"each seat draws {counted(counts.pop(), 'card')}")
    else:
        parts.extend(f"{e['seat']} draws {_drawn(e)}" for e in draws)
    parts.append(f"{state.seats[state.turn]} starts")
    return "deal: " + "; ".join(parts)


def _size(value: Any) -> int:
    """A pile as stored (a list of cards) or as redacted (a count)."""
    return len(value) if isinstance(value, list) else int(value)


def _drawn(event: Mapping[str, Any]) -> str:
    """The cards drawn when the reader may see them, else how many."""
    cards = event.get("cards")
    return and_list(cards) if cards is not None else counted(event["count"], "card")


def notate_turn(state: ThreeTooManyState, seat: str, events: Sequence[Event]) -> str:
    """One turn: the card played and everything it caused, in the events' order."""
    parts: list[str] = []
    ending = ""
    for event in events:
        kind = event["type"]
        if kind == "CardPlaced":
            parts.append(f"{seat} plays {event['card']} on {row_name(event['row'])}")
        elif kind == "CardsTaken":
            taken = and_list(card_with_colour(state, card) for card in event["cards"])
            parts.append(f"takes {taken}")
            turned = event["turned_face_down"]
            if turned:
                triples = "triple" if len(turned) == 1 else "triples"
                parts.append(f"turns the {and_list(turned)} {triples} face down")
        elif kind == "InterimBonusTaken":
            parts.append(f"takes the interim bonus of {event['points']} (all colours face up)")
        elif kind == "CardsDrawn":
            drawn = _drawn(event)
            parts.append(f"draws {drawn}" if parts else f"{event['seat']} draws {drawn}")
        elif kind == "GameEnded":
            ending = "; " + game_end(state, event)
    return ", ".join(parts) + ending


def game_end(state: ThreeTooManyState, event: Mapping[str, Any]) -> str:
    """The end: the last hands go to the box, the final bonuses, the result."""
    bonus = event["final_bonus"]
    earned = [f"{seat} {points}" for seat, points in bonus.items() if points]
    bonus_words = f"final bonus {and_list(earned)}" if earned else "no final bonus"
    scores = event["scores"]
    result = {"scores": scores, "ranking": rank_by(scores, state.seats)}
    return (
        "game over, the last two cards of each hand go to the box unscored; "
        f"{bonus_words}; result {standings_line(result)}"
    )
