"""Cutting a record down to what one viewer may see.

While a game runs, a record shows a viewer only what the rules let that viewer
see: each game event passes through the game's ``redact``; the move itself is
shown to the seat that made it (others learn what happened from the events);
an explicit deal in the options (the future order of every deck) is shown to
nobody but the arbiter. The part hashes stay, so a redacted record still
proves its place in the hash chain; the salt of every part that was cut out
goes with it, so its hash cannot be tested against guesses.

Once the game is finished the seed is revealed and anyone can recompute every
shuffle, so the whole record is public: every part and every salt.
"""

from __future__ import annotations

from typing import Any

from gamelog.games.protocol import ARBITER, Secrecy, Viewer
from gamelog.replay.record import Record


def redact_record(rules: Secrecy[Any], record: Record, viewer: Viewer, finished: bool) -> Record:
    if viewer == ARBITER or finished:
        return record
    events = None
    if "events" in record:
        events = [rules.redact(event, viewer) for event in record["events"]]
        # The mover's own move, when the rules cut none of its events: whole.
        if (
            record.get("kind") == "move"
            and record.get("seat") == viewer
            and all(seen is event for seen, event in zip(events, record["events"]))
        ):
            return record
    shown = dict(record)
    salts = dict(record.get("salts") or {})
    if events is not None:
        if "events" in salts:
            salts["events"] = [
                salt if seen == event else None
                for salt, seen, event in zip(salts["events"], events, shown["events"])
            ]
        shown["events"] = events
    if shown.get("kind") == "move" and shown.get("seat") != viewer:
        shown["move"] = None
        salts.pop("move", None)
    if shown.get("kind") == "created" and rules.secret_options & set(shown.get("options") or {}):
        shown["options"] = None
        salts.pop("options", None)
    if "salts" in shown:
        shown["salts"] = salts
    return shown


def is_redacted(record: Record) -> bool:
    """True if parts of ``record`` were cut out for some viewer."""
    if record.get("move", 0) is None or record.get("options", 0) is None:
        return True
    salts = record.get("salts")
    return isinstance(salts, dict) and None in (salts.get("events") or ())
