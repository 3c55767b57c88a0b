"""Checking every field of a tournament's records before anything is audited.

A tournament archive comes from outside, like a record file: each record is
looked at field by field (kind, required and allowed fields, types, sizes,
hashes), and the first thing wrong is named. Only records that pass are
folded and audited (``tournament_audit``).

>>> check_tournament_records([{"position": 0, "kind": "created"}])
'record 0: created needs prev_hash, hash, time, format, name, site, ...'
>>> check_tournament_records([])
'a tournament needs at least its creation record'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gamelog.replay.checks import SEAT_NAME
from gamelog.replay.record import RECORD_FORMAT
from gamelog.replay.validation import (
    COMMON,
    HEX64,
    NONCE_HEX,
    OPTIONAL,
    SALT,
    SEED_HEX,
    TIME,
    Problem,
)
from gamelog.tournaments.settings import MAX_ROUNDS

MAX_RECORDS = 200_000
MAX_TEXT = 1024
FIELDS: dict[str, tuple[str, ...]] = {
    "created": (
        "format",
        "name",
        "site",
        "dates",
        "game",
        "rules_version",
        "options",
        "options_hash",
        "undo_policy",
        "table_size",
        "rounds",
        "system",
        "duplicate",
        "time_control",
        "on_timeout",
        "points",
        "tiebreaks",
        "bye_points",
        "bye_place",
        "forfeit_points",
        "commitment",
    ),
    "player-registered": ("player", "round"),
    "player-withdrawn": ("player", "round", "reason"),
    "player-reentered": ("player", "round", "reason"),
    "round-paired": ("round", "tables", "byes", "duplicate"),
    "seating-overridden": ("round", "tables", "byes", "reason"),
    "result-recorded": ("round", "table", "game", "end", "ranking", "scores"),
    "result-entered": ("round", "table", "ranking", "scores", "reason"),
    "result-corrected": ("round", "table", "ranking", "scores", "reason"),
    "forfeit-declared": ("round", "table", "ranking", "forfeited", "reason"),
    "round-withdrawn": ("round", "reason"),
    "finished": ("seed", "seed_nonce", "standings"),
}


OPTIONAL_BY_KIND: dict[str, tuple[str, ...]] = {"created": ("seeding",)}
"""Fields a record of that kind may lack (``seeding``: round 1 by lot)."""


def check_tournament_records(records: Sequence[Any]) -> str | None:
    """The first problem with a tournament's records, or None."""
    if not records:
        return "a tournament needs at least its creation record"
    if len(records) > MAX_RECORDS:
        return f"a tournament holds at most {MAX_RECORDS} records"
    for index, record in enumerate(records):
        try:
            if not isinstance(record, dict):
                raise Problem("is not an object")
            _check(record)
            if (index == 0) != (record["kind"] == "created"):
                raise Problem("the creation comes first, and only there")
        except Problem as problem:
            return f"record {index}: {problem}"
    return None


def _check(record: dict[str, Any]) -> None:
    if not _count(record.get("position")):
        raise Problem("position must be a whole number from 0")
    kind = record.get("kind")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise Problem(f"kind must be one of {', '.join(FIELDS)}")
    required = (*COMMON, *FIELDS[kind])
    missing = [f for f in required if f not in record]
    if missing:
        raise Problem(
            f"{kind} needs {', '.join(missing[:6])}" + (", ..." if len(missing) > 6 else "")
        )
    unknown = sorted(set(record) - {*required, *OPTIONAL, *OPTIONAL_BY_KIND.get(kind, ())})
    if unknown:
        raise Problem(f"{kind} has fields no tournament record has: {', '.join(unknown[:5])}")
    prev = record["prev_hash"]
    if (record["position"] == 0) != (prev == "") or (prev and not _hash(prev)):
        raise Problem("prev_hash is empty for the creation and a hash after it")
    if not _hash(record["hash"]):
        raise Problem("hash must be a SHA-256 in lowercase hexadecimal")
    if not isinstance(record["time"], str) or not TIME.fullmatch(record["time"]):
        raise Problem("time must be ISO 8601 UTC with milliseconds")
    if "timestamp" in record and not _text(record["timestamp"], 64):
        raise Problem("timestamp must be short text")
    salts = record.get("salts")
    if not isinstance(salts, dict):
        raise Problem("salts come with every record")
    allowed_salts = {"options"} if kind == "created" else set()
    if set(salts) != allowed_salts or not all(
        isinstance(v, str) and SALT.fullmatch(v) for v in salts.values()
    ):
        raise Problem("salts hold the salt of the options, and only in the creation")
    CHECKS[kind](record)


def _count(value: Any, most: int = 2**40) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most


def _text(value: Any, limit: int = MAX_TEXT) -> bool:
    return isinstance(value, str) and len(value) <= limit


def _hash(value: Any) -> bool:
    return isinstance(value, str) and bool(HEX64.fullmatch(value))


def _ids(value: Any, at_least: int = 0) -> bool:
    return (
        isinstance(value, list)
        and len(value) >= at_least
        and all(isinstance(p, str) and SEAT_NAME.fullmatch(p) for p in value)
    )


def _exact(value: Any) -> bool:
    return _text(value, 64) and all(c in "0123456789-/" for c in value) and bool(value)


def _created(record: dict[str, Any]) -> None:
    if record["format"] != RECORD_FORMAT:
        raise Problem(f"format must be {RECORD_FORMAT}")
    for key in ("name", "site", "dates", "game", "rules_version", "undo_policy", "system"):
        if not _text(record[key], 200):
            raise Problem(f"{key} must be text of at most 200 characters")
    for key in ("duplicate", "time_control", "on_timeout"):
        if not _text(record[key], 64):
            raise Problem(f"{key} must be short text")
    if not isinstance(record["options"], dict) or not _hash(record["options_hash"]):
        raise Problem("options must be an object, with its hash")
    size = record["table_size"]
    if not isinstance(size, list) or len(size) != 2 or not all(_count(n, 64) for n in size):
        raise Problem("table_size must be [smallest, largest]")
    if not _count(record["rounds"], MAX_ROUNDS) or record["rounds"] < 1:
        raise Problem(f"rounds must be a whole number from 1 to {MAX_ROUNDS}")
    points = record["points"]
    if not isinstance(points, list) or not all(
        isinstance(row, list) and all(_exact(p) for p in row) for row in points
    ):
        raise Problem("points must be rows of exact numbers as text")
    tiebreaks = record["tiebreaks"]
    if not isinstance(tiebreaks, list) or not all(_text(t, 64) for t in tiebreaks):
        raise Problem("tiebreaks must be a list of names")
    if record["bye_points"] is not None and not _exact(record["bye_points"]):
        raise Problem("bye_points must be null or an exact number as text")
    if record["bye_place"] is not None and not _count(record["bye_place"], 64):
        raise Problem("bye_place must be null or a place")
    if not _exact(record["forfeit_points"]):
        raise Problem("forfeit_points must be an exact number as text")
    if not _hash(record["commitment"]):
        raise Problem("commitment must be a SHA-256 in lowercase hexadecimal")
    if record.get("seeding", "lot") not in ("lot", "rating"):
        raise Problem("seeding is lot or rating")


def _registered(record: dict[str, Any]) -> None:
    player = record["player"]
    if not isinstance(player, dict) or set(player) != {"id", "name", "rating", "club"}:
        raise Problem("player must be {id, name, rating, club}")
    if not _ids([player["id"]]) or not _text(player["name"], 200):
        raise Problem("a player has a seat-name id and a name")
    if player["rating"] is not None and not _count(player["rating"], 10_000):
        raise Problem("a rating is a whole number")
    if player["club"] is not None and not _text(player["club"], 200):
        raise Problem("a club is text")
    _round(record)


def _roster(record: dict[str, Any]) -> None:
    if not _ids([record["player"]]):
        raise Problem("player must be a player id")
    _round(record)
    _reason(record)


def _seating(record: dict[str, Any]) -> None:
    _round(record)
    tables = record["tables"]
    if not isinstance(tables, list) or not all(
        isinstance(t, dict)
        and set(t) == {"table", "seats", "game"}
        and _count(t["table"], 100_000)
        and _ids(t["seats"], 1)
        and _hash(t["game"])
        for t in tables
    ):
        raise Problem("tables must be [{table, seats, game}]")
    if not _ids(record["byes"]):
        raise Problem("byes must list player ids")
    if "reason" in record:
        _reason(record)
    if "duplicate" in record and record["duplicate"] not in ("none", "seed", "deal"):
        raise Problem("duplicate is none, seed or deal")


def _result(record: dict[str, Any]) -> None:
    _round(record)
    if not _count(record["table"], 100_000):
        raise Problem("table must be a table number")
    ranking = record["ranking"]
    if not isinstance(ranking, list) or not ranking or not all(_ids(p, 1) for p in ranking):
        raise Problem("ranking must be a list of places, each a list of player ids")
    scores = record.get("scores", {})
    if not isinstance(scores, dict) or not all(
        _ids([k]) and isinstance(v, int) and not isinstance(v, bool) for k, v in scores.items()
    ):
        raise Problem("scores must give player ids whole numbers")
    if "forfeited" in record and not _ids(record["forfeited"], 1):
        raise Problem("forfeited must list player ids")
    for key in ("game", "end"):
        if key in record and not _hash(record[key]):
            raise Problem(f"{key} must be a SHA-256 in lowercase hexadecimal")
    if "reason" in record:
        _reason(record)


def _finished(record: dict[str, Any]) -> None:
    if not isinstance(record["seed"], str) or not SEED_HEX.fullmatch(record["seed"]):
        raise Problem("seed must be 1 to 64 bytes of lowercase hexadecimal")
    if not isinstance(record["seed_nonce"], str) or not NONCE_HEX.fullmatch(record["seed_nonce"]):
        raise Problem("seed_nonce must be 32 bytes of lowercase hexadecimal")
    rows = record["standings"]
    if not isinstance(rows, list) or not all(
        isinstance(r, dict)
        and set(r) == {"place", "player", "points"}
        and _count(r["place"])
        and _ids([r["player"]])
        and _exact(r["points"])
        for r in rows
    ):
        raise Problem("standings must be [{place, player, points}]")


def _withdrawn(record: dict[str, Any]) -> None:
    _round(record)
    _reason(record)


def _round(record: Mapping[str, Any]) -> None:
    if not _count(record["round"], MAX_ROUNDS) or record["round"] < 1:
        raise Problem("round must be a round number from 1")


def _reason(record: Mapping[str, Any]) -> None:
    if not _text(record["reason"], 1000):
        raise Problem("reason must be text of at most 1000 characters")


CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "created": _created,
    "player-registered": _registered,
    "player-withdrawn": _roster,
    "player-reentered": _roster,
    "round-paired": _seating,
    "seating-overridden": _seating,
    "result-recorded": _result,
    "result-entered": _result,
    "result-corrected": _result,
    "forfeit-declared": _result,
    "round-withdrawn": _withdrawn,
    "finished": _finished,
}
