"""Checking every field of a record file before anything of it is stored.

A record file comes from outside: whoever made it may have written anything.
``check_records`` looks at each record of one game, field by field, and names
the first thing wrong: a missing or unknown field, a wrong type, a size over the
limits every game created through the API meets (seat names, tags, options),
a hash that is not a hash. Only a file that passes here is audited (the rules
re-run every move) and stored, so nothing malformed ever reaches the store,
where it could break listings or exports for everyone.

>>> check_records([{"position": 0, "kind": "created", "format": 2}], redacted=False)
'record 0: created needs prev_hash, hash, time, game, rules_version, seats, ...'
>>> check_records([{"kind": "move"}], redacted=False)
'record 0: position must be a whole number from 0'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gamelog.games import get_rules
from gamelog.games.protocol import ARBITER, RulesError
from gamelog.replay.checks import quoted, seat_names_problem, tags_problem
from gamelog.replay.clock import ON_TIMEOUT, time_control_problem
from gamelog.replay.line import UNDO_POLICIES
from gamelog.replay.record import RECORD_FORMAT, Record, canonical_json

MAX_GAMES_PER_FILE = 256
MAX_RECORDS_PER_GAME = 50_000
MAX_OPTIONS_BYTES = 1024 * 1024
MAX_MOVE_BYTES = 64 * 1024
MAX_EVENTS_BYTES = 1024 * 1024
MAX_POSITION = 2**40

HEX64 = re.compile(r"[0-9a-f]{64}")
SALT = re.compile(r"[0-9a-f]{32}")
SEED_HEX = re.compile(r"(?:[0-9a-f]{2}){1,64}")
NONCE_HEX = re.compile(r"[0-9a-f]{64}")

COMMON = ("position", "kind", "prev_hash", "hash", "time")
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
OPTIONAL = ("timestamp", "salts")
FIELDS: dict[str, tuple[str, ...]] = {
    "created": (
        "format",
        "game",
        "rules_version",
        "seats",
        "options",
        "options_hash",
        "undo_policy",
        "metadata",
        "commitment",
        "parent",
        "base_ply",
        "events",
        "event_hashes",
    ),
    "move": ("seat", "ply", "move", "move_hash", "events", "event_hashes"),
    "undo-request": ("seat", "to_position"),
    "undo-approve": ("seat", "to_position"),
    "undo-decline": ("seat", "to_position"),
    "takeback": ("to_position", "by", "approved_by", "ply"),
    "finished": ("result", "seed", "seed_nonce"),
    "timeout": ("seats", "on_timeout"),
}
OPTIONAL_BY_KIND: dict[str, tuple[str, ...]] = {
    "move": ("request_id", "by_rule", "by_arbiter"),
    "finished": ("by_director", "reason"),
}
FORMAT_1_LACKS: dict[str, tuple[str, ...]] = {"created": ("format",), "finished": ("seed_nonce",)}
"""Fields a format-1 record (written before hiding commitments) does not have."""


class Problem(Exception):
    """What is wrong with one field of a record file."""


def check_records(records: Sequence[Any], redacted: bool) -> str | None:
    """The first problem with one game's records, or None if every field is sound.

    ``redacted`` allows the cut-out parts of a spectator's copy (null moves and
    options, events without salts)."""
    if not records:
        return "a game needs at least its creation record"
    if len(records) > MAX_RECORDS_PER_GAME:
        return f"a game holds at most {MAX_RECORDS_PER_GAME} records"
    salted = isinstance(records[0], dict) and records[0].get("format") == RECORD_FORMAT
    seats: list[str] = []
    for index, record in enumerate(records):
        try:
            if not isinstance(record, dict):
                raise Problem("is not an object")
            _check_record(record, salted, redacted, seats)
            if index == 0:
                if record["kind"] != "created":
                    raise Problem("the first record must be the creation")
                seats = list(record["seats"])
            elif record["kind"] == "created":
                raise Problem("only the first record is a creation")
        except Problem as problem:
            return f"record {index}: {problem}"
    return None


def check_secret(text: Any, what: str, pattern: re.Pattern[str]) -> str | None:
    """A secret seed or seed nonce given in a file: lowercase hex of the right length."""
    if text is None:
        return None
    if not isinstance(text, str) or not pattern.fullmatch(text):
        return f"{what} must be lowercase hexadecimal of the right length"
    return None


# -- one record ---------------------------------------------------------------------


def _check_record(record: Record, salted: bool, redacted: bool, seats: list[str]) -> None:
    position: Any = record.get("position")
    if not _is_count(position) or position > MAX_POSITION:
        raise Problem("position must be a whole number from 0")
    kind = record.get("kind")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise Problem(f"kind must be one of {', '.join(FIELDS)}")
    lacks = () if salted else (*FORMAT_1_LACKS.get(kind, ()), "time")
    required = [f for f in (*COMMON, *FIELDS[kind]) if f not in lacks]
    allowed = {*required, *OPTIONAL, *OPTIONAL_BY_KIND.get(kind, ())}
    missing = [f for f in required if f not in record]
    if missing:
        shown = ", ".join(missing[:6]) + (", ..." if len(missing) > 6 else "")
        raise Problem(f"{kind} needs {shown}")
    unknown = sorted(set(record) - allowed)
    if unknown:
        raise Problem(f"{kind} has fields no record of this format has: {', '.join(unknown[:5])}")
    expected_prev = _text(record, "prev_hash", 64)
    if (position == 0) != (expected_prev == ""):
        raise Problem("prev_hash is empty for the creation and a hash after it")
    if expected_prev:
        _hash(record, "prev_hash")
    _hash(record, "hash")
    if "timestamp" in record:
        _text(record, "timestamp", 64)
    if "time" in record and (
        not isinstance(record["time"], str) or not TIME.fullmatch(record["time"])
    ):
        raise Problem("time must be ISO 8601 UTC with milliseconds, e.g. 2026-11-30T20:00:00.000Z")
    if salted != ("salts" in record):
        raise Problem("salts come with every record of format 2 and no other")
    CHECKS[kind](record, seats, redacted)
    if salted:
        _check_salts(record, redacted)


def _check_created(record: Record, seats: list[str], redacted: bool) -> None:
    if "format" in record and record["format"] != RECORD_FORMAT:
        raise Problem(f"format must be {RECORD_FORMAT}")
    game = _text(record, "game", 64)
    try:
        rules = get_rules(game)
    except RulesError as refusal:
        raise Problem(refusal.message) from None
    _text(record, "rules_version", 16)
    names = record["seats"]
    if not isinstance(names, list):
        raise Problem("seats must be a list of names")
    seat_problem = seat_names_problem(names)
    if seat_problem:
        raise Problem(seat_problem[1])
    if not rules.min_players <= len(names) <= rules.max_players:
        raise Problem(f"{game} is for {rules.min_players}–{rules.max_players} players")
    _json_part(record, "options", dict, MAX_OPTIONS_BYTES, redacted)
    _hash(record, "options_hash")
    if record["undo_policy"] not in UNDO_POLICIES:
        raise Problem(f"undo_policy must be one of {', '.join(UNDO_POLICIES)}")
    problem = tags_problem(record["metadata"]) or time_control_problem(record["metadata"])
    if problem:
        raise Problem(f"metadata: {problem}")
    _hash(record, "commitment")
    parent = record["parent"]
    if parent is not None:
        if not isinstance(parent, dict) or set(parent) != {"game_id", "position", "hash"}:
            raise Problem("parent must be null or {game_id, position, hash}")
        _text(parent, "game_id", 64)
        if not _is_count(parent["position"]) or parent["position"] > MAX_POSITION:
            raise Problem("parent position must be a whole number from 0")
        _hash(parent, "hash")
    if not _is_count(record["base_ply"]) or record["base_ply"] > MAX_POSITION:
        raise Problem("base_ply must be a whole number from 0")
    _events(record, redacted)


def _check_move(record: Record, seats: list[str], redacted: bool) -> None:
    seat = record["seat"]
    if seat != ARBITER and seat not in seats:
        raise Problem(f"seat {quoted(seat)} does not play in this game")
    _count(record, "ply")
    _json_part(record, "move", dict, MAX_MOVE_BYTES, redacted)
    _hash(record, "move_hash")
    if "request_id" in record:
        _text(record, "request_id", 128)
    if "by_rule" in record and record["by_rule"] is not True:
        raise Problem("by_rule is true or absent")
    if "by_arbiter" in record and record["by_arbiter"] is not True:
        raise Problem("by_arbiter is true or absent")
    _events(record, redacted)


def _check_undo_step(record: Record, seats: list[str], redacted: bool) -> None:
    if record["seat"] not in seats:
        raise Problem(f"seat {quoted(record['seat'])} does not play in this game")
    _count(record, "to_position")


def _check_takeback(record: Record, seats: list[str], redacted: bool) -> None:
    _count(record, "to_position")
    _count(record, "ply")
    if record["by"] != ARBITER and record["by"] not in seats:
        raise Problem(f"by {quoted(record['by'])} is neither a seat nor the arbiter")
    approved = record["approved_by"]
    if not isinstance(approved, list) or not all(s in seats for s in approved):
        raise Problem("approved_by must list seats of this game")


def _check_finished(record: Record, seats: list[str], redacted: bool) -> None:
    result = record["result"]
    if not isinstance(result, dict):
        raise Problem("result must be an object")
    if set(result) != {"scores", "ranking", "winners", "details"}:
        raise Problem("result holds scores, ranking, winners and details")
    scores, ranking = result["scores"], result["ranking"]
    if not isinstance(scores, dict) or not all(
        s in seats and _is_int(v) for s, v in scores.items()
    ):
        raise Problem("result scores must give seats whole numbers")
    if not isinstance(ranking, list) or not all(
        isinstance(place, list) and all(isinstance(s, str) for s in place) for place in ranking
    ):
        raise Problem("result ranking must be a list of places, each a list of seats")
    if not isinstance(result["winners"], list) or not isinstance(result["details"], dict):
        raise Problem("result winners must be a list and details an object")
    if len(canonical_json(result)) > MAX_EVENTS_BYTES:
        raise Problem(f"result is over {MAX_EVENTS_BYTES} bytes")
    if ("by_director" in record) != ("reason" in record):
        raise Problem("a director's end has by_director and a reason; any other end neither")
    if "by_director" in record:
        if record["by_director"] is not True:
            raise Problem("by_director is true or absent")
        _text(record, "reason", 1000)
    if not isinstance(record["seed"], str) or not SEED_HEX.fullmatch(record["seed"]):
        raise Problem("seed must be 1 to 64 bytes of lowercase hexadecimal")
    if "seed_nonce" in record and check_secret(record["seed_nonce"], "seed_nonce", NONCE_HEX):
        raise Problem("seed_nonce must be 32 bytes of lowercase hexadecimal")


def _check_timeout(record: Record, seats: list[str], redacted: bool) -> None:
    late = record["seats"]
    if not isinstance(late, list) or not late or not all(s in seats for s in late):
        raise Problem("a time-out names seats of this game")
    if len(set(late)) != len(late):
        raise Problem("a time-out names each seat once")
    if record["on_timeout"] not in ON_TIMEOUT:
        raise Problem(f"on_timeout must be one of {', '.join(ON_TIMEOUT)}")


CHECKS: dict[str, Callable[[Record, list[str], bool], None]] = {
    "timeout": _check_timeout,
    "created": _check_created,
    "move": _check_move,
    "undo-request": _check_undo_step,
    "undo-approve": _check_undo_step,
    "undo-decline": _check_undo_step,
    "takeback": _check_takeback,
    "finished": _check_finished,
}


# -- fields -----------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return _is_int(value) and value >= 0


def _count(record: Mapping[str, Any], key: str) -> int:
    value = record[key]
    if not _is_count(value) or value > MAX_POSITION:
        raise Problem(f"{key} must be a whole number from 0")
    return int(value)


def _text(record: Mapping[str, Any], key: str, limit: int) -> str:
    value = record[key]
    if not isinstance(value, str) or len(value) > limit:
        raise Problem(f"{key} must be text of at most {limit} characters")
    return value


def _hash(record: Mapping[str, Any], key: str) -> None:
    value = record[key]
    if not isinstance(value, str) or not HEX64.fullmatch(value):
        raise Problem(f"{key} must be a SHA-256 in lowercase hexadecimal")


def _json_part(record: Record, key: str, kind: type, limit: int, redacted: bool) -> None:
    value = record[key]
    if value is None and redacted:
        return
    if not isinstance(value, kind):
        raise Problem(f"{key} must be a JSON {kind.__name__.replace('dict', 'object')}")
    if len(canonical_json(value)) > limit:
        raise Problem(f"{key} is over {limit} bytes")


def _events(record: Record, redacted: bool) -> None:
    events, hashes = record["events"], record["event_hashes"]
    if not isinstance(events, list) or not all(
        isinstance(e, dict) and isinstance(e.get("type"), str) for e in events
    ):
        raise Problem('events must be a list of objects, each with a "type"')
    if not isinstance(hashes, list) or len(hashes) != len(events):
        raise Problem("event_hashes must give one hash per event")
    if not all(isinstance(h, str) and HEX64.fullmatch(h) for h in hashes):
        raise Problem("each event hash must be a SHA-256 in lowercase hexadecimal")
    if len(canonical_json(events)) > MAX_EVENTS_BYTES:
        raise Problem(f"events are over {MAX_EVENTS_BYTES} bytes")


def _check_salts(record: Record, redacted: bool) -> None:
    salts = record["salts"]
    if not isinstance(salts, dict) or not set(salts) <= {"options", "move", "events"}:
        raise Problem("salts must be an object with options, move and events")
    for key in ("options", "move"):
        if key in record:
            salt = salts.get(key)
            if salt is None and not (redacted and record[key] is None):
                raise Problem(f"{key} comes without its salt")
            if salt is not None and (not isinstance(salt, str) or not SALT.fullmatch(salt)):
                raise Problem(f"the salt of {key} must be 16 bytes of lowercase hexadecimal")
        elif key in salts:
            raise Problem(f"a salt for {key}, which this record does not have")
    if "events" in record:
        event_salts = salts.get("events")
        if not isinstance(event_salts, list) or len(event_salts) != len(record["events"]):
            raise Problem("salts must give one salt per event")
        for salt in event_salts:
            if salt is None and redacted:
                continue
            if not isinstance(salt, str) or not SALT.fullmatch(salt):
                raise Problem("each event's salt must be 16 bytes of lowercase hexadecimal")
    elif "events" in salts:
        raise Problem("salts for events this record does not have")
