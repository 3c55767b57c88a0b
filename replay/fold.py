"""Folding a game's records into its states: replay is ``reduce(evolve, events)``.

``fold`` walks the records of one game and yields the game state after each
position. A take-back returns to the state of an earlier position, so the
states of every position in the current line are kept while folding.

>>> from gamelog.games.freeform import RULES
>>> from gamelog.replay.record import seal
>>> options = RULES.normalize_options({}, ["a", "b"])
>>> created = seal({"position": 0, "kind": "created", "prev_hash": "", "game": "freeform",
...     "rules_version": "1.0", "seats": ["a", "b"], "options": options,
...     "undo_policy": "free", "metadata": {}, "commitment": "", "parent": None, "events": []})
>>> move = {"position": 1, "kind": "move", "seat": "a", "ply": 1, "move": {"x": 1},
...     "events": [{"type": "MoveRecorded", "seat": "a", "move": {"x": 1}}]}
>>> [view["moves"] for view in (RULES.view(s, None) for _, s in fold(RULES, [created, move]))]
[0, 1]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from gamelog.games.protocol import Rules
from gamelog.replay.record import Record


def start_state(rules: Rules[Any], created: Record) -> Any:
    """The state right after the deal recorded in a ``created`` record."""
    state = rules.start(tuple(created["seats"]), created["options"])
    for event in created["events"]:
        state = rules.evolve(state, event)
    return state


def fold(rules: Rules[Any], records: Sequence[Record]) -> Iterator[tuple[int, Any]]:
    """Yield ``(position, state)`` for every record, in order."""
    states: dict[int, Any] = {}
    state: Any = None
    for record in records:
        kind = record["kind"]
        if kind == "created":
            state = start_state(rules, record)
        elif kind == "move":
            for event in record["events"]:
                state = rules.evolve(state, event)
        elif kind == "takeback":
            state = states[record["to_position"]]
        states[record["position"]] = state
        yield record["position"], state


def state_at(rules: Rules[Any], records: Sequence[Record], position: int) -> Any:
    """The state after ``position`` (0 is the deal)."""
    for at, state in fold(rules, records[: position + 1]):
        if at == position:
            return state
    raise IndexError(f"no position {position}; the record ends at {len(records) - 1}")


def line_records(records: Sequence[Record], position: int) -> list[Record]:
    """The move records of the line of play that stands at ``position``, in
    order, with take-backs resolved (a taken-back move is not in the line)."""
    lines: dict[int, list[Record]] = {}
    current: list[Record] = []
    for record in records[: position + 1]:
        if record["kind"] == "move":
            current = [*current, record]
        elif record["kind"] == "takeback":
            current = lines[record["to_position"]]
        lines[record["position"]] = current
    return current


def line_events(records: Sequence[Record], position: int) -> tuple[list[dict[str, Any]], int]:
    """Every game event of the line of play that stands at ``position``, from
    the deal on, and the ply there. A fork starts from these: folding them
    gives the parent's state at that position."""
    created = records[0]
    moves = line_records(records, position)
    events = [*created["events"], *(event for move in moves for event in move["events"])]
    return events, created.get("base_ply", 0) + len(moves)
