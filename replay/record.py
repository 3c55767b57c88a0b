"""The stored record of a game: one plain JSON dict per stored event.

Every stored event (the creation, each accepted move, each take-back step, the
end) is a *record*. Records form a hash chain: each names the hash of the one
before it, and its own hash covers everything that matters about it. A changed
byte anywhere breaks the chain, and ``verify_chain`` names the first record
that no longer fits.

Hidden parts (a move, a dealt hand) are hashed one by one, so a record whose
secrets are cut out for a spectator still proves its place in the chain:

>>> created = {"position": 0, "kind": "created", "prev_hash": "", "game": "freeform",
...     "rules_version": "1.0", "seats": ["a"], "options": {}, "undo_policy": "free",
...     "metadata": {}, "commitment": "c0", "parent": None, "events": []}
>>> created = seal(created)
>>> verify_chain([created]) is None
True
>>> tampered = dict(created, seats=["b"])
>>> verify_chain([tampered]).position
0

Record fields by kind (all records: ``position``, ``kind``, ``prev_hash``,
``hash``; plus ``timestamp``, which is not hashed):

========== ==================================================================
created    game, rules_version, seats, options (+options_hash), undo_policy,
           metadata, commitment (SHA-256 of the secret seed), parent
           ({game_id, position, hash} or None), events (the deal)
move       seat, ply, move (+move_hash), events (+event_hashes), request_id
           (not hashed: it is the client's retry key, not part of the game)
takeback   to_position, by, approved_by, ply
undo-request / undo-approve / undo-decline     seat, to_position
finished   result, seed (revealed, hex)
========== ==================================================================
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Record = dict[str, Any]

# Fields that are not part of the hashed content.
_UNHASHED = frozenset({"hash", "timestamp", "request_id", "game_id"})
# Hidden-capable fields, hashed through their own hash so they can be cut out.
_HASHED_SEPARATELY = {"options": "options_hash", "move": "move_hash"}


def compact_json(value: Any) -> str:
    """A JSON value as short text, for replies and messages."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def as_stored(value: Any) -> Any:
    """``value`` as the store gives it back: plain JSON (lists, not tuples), so
    what is folded now and what is folded later from the store never differ."""
    return json.loads(json.dumps(value))


def canonical_json(value: Any) -> bytes:
    """The one byte form of a JSON value that every hash is taken over."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def json_hash(value: Any) -> str:
    return sha256_hex(canonical_json(value))


def seed_commitment(seed: bytes) -> str:
    """What is published at creation: the SHA-256 of the secret seed."""
    return sha256_hex(seed)


def hashed_content(record: Record) -> dict[str, Any]:
    """The part of a record its hash covers, with hidden parts as their hashes."""
    content: dict[str, Any] = {}
    for key, value in record.items():
        if key in _UNHASHED or key in _HASHED_SEPARATELY or key == "events":
            continue
        content[key] = value
    if isinstance(content.get("parent"), dict):
        # The parent is named by its hash; its id changes when a file is imported.
        content["parent"] = {k: v for k, v in content["parent"].items() if k != "game_id"}
    for hash_key in _HASHED_SEPARATELY.values():
        if hash_key in record:
            content[hash_key] = record[hash_key]
    if "event_hashes" in record:
        content["event_hashes"] = record["event_hashes"]
    return content


def seal(record: Record) -> Record:
    """Fill in the part hashes and the record's own hash."""
    sealed = dict(record)
    for key, hash_key in _HASHED_SEPARATELY.items():
        if key in sealed and hash_key not in sealed:
            sealed[hash_key] = json_hash(sealed[key])
    if "events" in sealed and "event_hashes" not in sealed:
        sealed["event_hashes"] = [json_hash(event) for event in sealed["events"]]
    sealed["hash"] = json_hash(hashed_content(sealed))
    return sealed


@dataclass(frozen=True)
class ChainBreak:
    """The first place where a record does not fit the chain."""

    position: int
    problem: str
    stored: Any
    expected: Any


def verify_record(record: Record, redacted: bool = False) -> ChainBreak | None:
    """Check one record's parts against their hashes and its own hash.

    In a redacted record (a spectator's copy) cut-out parts are skipped: only
    what is present is checked, and the hash over the part hashes still is.
    """
    position = record.get("position", -1)
    for key, hash_key in _HASHED_SEPARATELY.items():
        if key in record and record[key] is not None and hash_key in record:
            actual = json_hash(record[key])
            if actual != record[hash_key]:
                return ChainBreak(
                    position, f"{key} does not match its hash", actual, record[hash_key]
                )
    if "events" in record and not redacted:
        hashes = record.get("event_hashes", [])
        actual_hashes = [json_hash(event) for event in record["events"]]
        if actual_hashes != hashes:
            return ChainBreak(position, "events do not match their hashes", actual_hashes, hashes)
    actual = json_hash(hashed_content(record))
    if actual != record.get("hash"):
        return ChainBreak(
            position, "record hash does not match its content", actual, record.get("hash")
        )
    return None


def verify_chain(records: Sequence[Record], redacted: bool = False) -> ChainBreak | None:
    """Check every record and every link; return the first break or None."""
    previous_hash: str | None = None
    for expected_position, record in enumerate(records):
        if record.get("position") != expected_position:
            return ChainBreak(
                expected_position,
                "position out of sequence",
                record.get("position"),
                expected_position,
            )
        if previous_hash is not None and record.get("prev_hash") != previous_hash:
            return ChainBreak(
                expected_position,
                "prev_hash does not name the record before",
                record.get("prev_hash"),
                previous_hash,
            )
        broken = verify_record(record, redacted=redacted)
        if broken is not None:
            return broken
        previous_hash = record["hash"]
    return None
