"""Records as lines a person reads: every game's move notation, and ours for the rest.

A move's line comes from its game (``Rules.notate``), given the record as the
reader may see it, so it hides exactly what the redacted record hides. The
other records (the creation's deal aside) are the log's own: take-backs, their
requests and answers, and the end.

>>> from gamelog.games.freeform import RULES
>>> state = RULES.start(("ann", "ben"), RULES.normalize_options({}, ("ann", "ben")))
>>> move = {"position": 1, "kind": "move", "seat": "ann", "move": {"say": "e4"},
...     "events": [{"type": "MoveRecorded", "seat": "ann", "move": {"say": "e4"}}]}
>>> record_line(RULES, state, move)
'ann: say: e4'
>>> record_line(RULES, state, {"position": 4, "kind": "takeback", "to_position": 2,
...     "by": "ann", "approved_by": ["ben"]})
'ann takes back to position 2, approved by ben'
>>> record_line(RULES, state, {"position": 5, "kind": "finished", "seed": "00",
...     "result": {"scores": {"ann": 1, "ben": 1}, "ranking": [["ann", "ben"]]}})
'game over: 1. ann 1, 1. ben 1'
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import Any

from gamelog.games.protocol import ARBITER, GameType, Presentation, Viewer
from gamelog.games.wording import and_list, standings_line
from gamelog.replay.record import Record
from gamelog.replay.redact import redact_record

log = logging.getLogger(__name__)


def record_line_or_kind(rules: Presentation[Any], state_before: Any, record: Record) -> str:
    """``record_line``, or the record's kind where the rules cannot word it:
    a stored record is answered and followed all the same."""
    try:
        return record_line(rules, state_before, record)
    except Exception:  # a game's notate failing must not cost an answer
        log.exception(
            "no notation for a %s record at %s", record.get("kind"), record.get("position")
        )
        return str(record.get("kind"))


def record_line(rules: Presentation[Any], state_before: Any, record: Record) -> str:
    """The line for one record as received (already cut for its reader).
    ``state_before`` is the game's state before the record (the empty table,
    ``rules.start``, for the creation)."""
    kind = record["kind"]
    if kind == "created":
        return str(rules.notate(state_before, None, None, record["events"]))
    if kind == "move":
        line = str(rules.notate(state_before, record["seat"], record.get("move"), record["events"]))
        if record.get("by_rule"):
            return f"{line} (by rule: out of time)"
        return f"{line} (by the arbiter)" if record.get("by_arbiter") else line
    if kind == "undo-request":
        return f"{record['seat']} asks to take back to position {record['to_position']}"
    if kind == "undo-approve":
        return f"{record['seat']} agrees to take back to position {record['to_position']}"
    if kind == "undo-decline":
        return f"{record['seat']} declines taking back to position {record['to_position']}"
    if kind == "takeback":
        by = "the arbiter" if record["by"] == ARBITER else record["by"]
        line = f"{by} takes back to position {record['to_position']}"
        approved = record.get("approved_by") or []
        return f"{line}, approved by {and_list(approved)}" if approved else line
    if kind == "finished":
        line = f"game over: {standings_line(record['result'])}"
        if record.get("by_director"):
            return f"{line} (entered by the director: {record.get('reason', '')})"
        return line
    if kind == "timeout":
        late = and_list(record["seats"])
        if record["on_timeout"] == "lose":
            return f"time is up for {late}: lost on time"
        return f"time is up for {late}: the rest of their moves are made by rule"
    return str(kind)


def notated(
    rules: GameType[Any],
    records: Sequence[Record],
    viewer: Viewer,
    finished: bool,
    state_before: Any = None,
    states: dict[int, Any] | None = None,
) -> Iterator[tuple[Record, str]]:
    """Each of ``records`` (full stored records, consecutive) cut for
    ``viewer`` (``finished``: the game is over, so nothing is cut), with its
    line. ``state_before`` is the state before the first of them (None when
    they start with the creation); ``states`` holds the states of positions
    before them that a take-back among them returns to."""
    known: dict[int, Any] = dict(states or {})
    state = state_before
    for record in records:
        shown = redact_record(rules, record, viewer, finished)
        if record["kind"] == "created":
            state = rules.start(tuple(record["seats"]), record["options"])
        yield shown, record_line(rules, state, shown)
        if record["kind"] in ("created", "move"):
            for event in record["events"]:
                state = rules.evolve(state, event)
        elif record["kind"] == "takeback" and record["to_position"] in known:
            state = known[record["to_position"]]
        known[record["position"]] = state
