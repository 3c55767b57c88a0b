"""The stored record of a game: one plain JSON dict per stored event.

Every stored event (the creation, each accepted move, each take-back step, the
end) is a *record*. Records form a hash chain: each names the hash of the one
before it, and its own hash covers everything that matters about it. A changed
byte anywhere breaks the chain, and ``verify_chain`` names the first record
that no longer fits.

Hidden parts (a move, a dealt hand, an explicit deal in the options) are hashed
one by one, so a record whose secrets are cut out for a spectator still proves
its place in the chain. A part's hash is a *hiding commitment*: the SHA-256 of
the part together with a random salt stored beside it (``salts``). A reader
gets a part's salt only with the part itself, so the hash of a card it may not
see cannot be tested against the few cards it could be:

>>> created = {"position": 0, "kind": "created", "prev_hash": "", "format": 2,
...     "game": "freeform", "rules_version": "1.0", "seats": ["a"], "options": {},
...     "undo_policy": "free", "metadata": {}, "commitment": "c0", "parent": None,
...     "events": [{"type": "Dealt", "card": 17}]}
>>> created = seal(created)
>>> verify_chain([created]) is None
True
>>> created["event_hashes"][0] == json_hash({"type": "Dealt", "card": 17})
False
>>> tampered = dict(created, seats=["b"])
>>> verify_chain([tampered]).position
0

Record fields by kind (all records: ``position``, ``kind``, ``prev_hash``,
``time`` (when the server stored it, hashed: a clock cannot be edited later),
``hash``; plus ``timestamp`` and ``salts``, which are not hashed themselves):

========== ==================================================================
created    format (2), game, rules_version, seats, options (+options_hash),
           undo_policy, metadata, commitment (SHA-256 of the seed nonce and
           the secret seed), parent ({game_id, position, hash} or None),
           base_ply, events (+event_hashes: the deal)
move       seat, ply, move (+move_hash), events (+event_hashes), request_id
           (not hashed: it is the client's retry key, not part of the game),
           by_rule or by_arbiter (true: a move made for the seat by the
           service, out of time, or by the arbiter)
takeback   to_position, by, approved_by, ply
undo-request / undo-approve / undo-decline     seat, to_position
finished   result, seed and seed_nonce (revealed, hex)
========== ==================================================================

Records of format 1 (no ``format`` field; written before hiding commitments)
hash their parts without salts and commit to the bare seed. They still verify;
see docs/record-format.md for what import does with them.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

Record = dict[str, Any]

RECORD_FORMAT = 2
"""The record format this code writes: salted part hashes, a nonce in the commitment."""

# Fields that are not part of the hashed content.
_UNHASHED = frozenset({"hash", "timestamp", "request_id", "game_id", "salts"})
# Hidden-capable fields, hashed through their own hash so they can be cut out.
_HASHED_SEPARATELY = {"options": "options_hash", "move": "move_hash"}


def compact_json(value: Any) -> str:
    """A JSON value as short text, for replies and messages (the same text
    from orjson where it writes it alike, see ``canonical_json``)."""
    try:
        if orjson_writes_it_alike(value):
            return orjson.dumps(value).decode()
    except (orjson.JSONEncodeError, RecursionError):
        pass
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def as_stored(value: Any) -> Any:
    """``value`` as the store gives it back: plain JSON (lists, not tuples), so
    what is folded now and what is folded later from the store never differ."""
    return stored_form(value)[0]


def stored_form(value: Any) -> tuple[Any, bool]:
    """``as_stored``, and whether orjson writes the stored form alike: true
    when orjson wrote and read it back itself, as it does for every value of
    the kinds games decide (``seal`` then needs not look at it again)."""
    try:
        if orjson_writes_it_alike(value):
            return orjson.loads(orjson.dumps(value)), True
    except (orjson.JSONEncodeError, RecursionError):
        pass
    return json.loads(json.dumps(value)), False


def canonical_json(value: Any) -> bytes:
    """The one byte form of a JSON value that every hash is taken over: the
    standard library's ``json.dumps`` with sorted keys, no spaces and UTF-8
    (docs/record-format.md). orjson writes the same bytes several times
    faster for the values records hold, so it writes those; anything it
    might write differently takes the standard library's path:

    >>> canonical_json({"b": [1, "ü"], "a": None})
    b'{"a":null,"b":[1,"\xc3\xbc"]}'
    >>> canonical_json({"x": 0.5}) == stdlib_canonical_json({"x": 0.5})
    True
    """
    return _alike_canonical_json(value) if _is_alike(value) else stdlib_canonical_json(value)


def _alike_canonical_json(value: Any) -> bytes:
    """``canonical_json`` of a value ``orjson_writes_it_alike`` passed."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except (orjson.JSONEncodeError, RecursionError):
        # A lone surrogate, nesting past orjson's limit: the reference path decides.
        return stdlib_canonical_json(value)


def _is_alike(value: Any) -> bool:
    """``orjson_writes_it_alike``, false where the look itself nests too deep."""
    try:
        return orjson_writes_it_alike(value)
    except RecursionError:
        return False


def stdlib_canonical_json(value: Any) -> bytes:
    """The reference form of ``canonical_json``, as the record format specifies it."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


_INT64 = range(-(2**63), 2**64)
_PLAIN = frozenset({str, bool, type(None)})


def orjson_writes_it_alike(value: Any) -> bool:
    """True for a value made only of what orjson writes byte for byte as the
    standard library does: dicts with str keys, lists, tuples, str, bool,
    None and ints of at most 64 bits. Not floats (the two print exponents
    and some fractions differently), not subclasses (an IntEnum, a str
    enum), not the types orjson writes and the standard library refuses
    (dataclasses, UUIDs, datetimes). A str with a lone surrogate passes here
    and orjson refuses it. (Loops rather than ``all()``: it runs over every
    record several times a move.)"""
    kind = type(value)
    if kind in _PLAIN:
        return True
    if kind is int:
        return value in _INT64
    if kind is dict:
        for key in value:
            if type(key) is not str:
                return False
        items = value.values()
    elif kind is list or kind is tuple:
        items = value
    else:
        return False
    for item in items:
        kind = type(item)
        if kind in _PLAIN:
            continue
        if kind is int:
            if item not in _INT64:
                return False
        elif not orjson_writes_it_alike(item):
            return False
    return True


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def json_hash(value: Any) -> str:
    return sha256_hex(canonical_json(value))


def part_hash(value: Any, salt: str | None) -> str:
    """The hash of one hidden-capable part: of ``{"salt": salt, "value": value}``
    (format 2), or of the bare value for a format-1 record (``salt`` None)."""
    return _part_hash(json_hash, value, salt)


def new_salt() -> str:
    """128 random bits, hex: enough that no one guesses a salt to test a part."""
    return _SALTS.take(16).hex()


class _RandomBytes:
    """The operating system's random bytes, read a few kilobytes at a time.

    A move seals two or three salts, and one system call per salt cost the
    server more than the rest of the salt (the call holds the GIL). The
    bytes are the same kind (``os.urandom``), each handed out once; a forked
    child drops what its parent had read ahead, so no two processes share
    a salt."""

    def __init__(self, chunk: int = 4096) -> None:
        self._chunk = chunk
        self._lock = threading.Lock()
        self._drop()
        os.register_at_fork(after_in_child=self._drop)

    def _drop(self) -> None:
        self._buffer = b""
        self._offset = 0
        self._lock = threading.Lock()  # a lock held in the parent at fork

    def take(self, size: int) -> bytes:
        with self._lock:
            end = self._offset + size
            if end > len(self._buffer):
                self._buffer = os.urandom(max(self._chunk, size))
                self._offset, end = 0, size
            taken = self._buffer[self._offset : end]
            self._offset = end
            return taken


_SALTS = _RandomBytes()


def new_seed_nonce() -> bytes:
    return secrets.token_bytes(32)


def seed_commitment(seed: bytes, nonce: bytes | None = None) -> str:
    """What is published at creation: the SHA-256 of the nonce followed by the
    secret seed. The 32-byte random nonce hides even a short seed a creator
    chose; both are revealed at the end. Without a nonce (format 1), the
    SHA-256 of the seed alone."""
    return sha256_hex((nonce or b"") + seed)


def is_salted(record: Record) -> bool:
    """True for a record whose parts carry salts (format 2 and later)."""
    return isinstance(record.get("salts"), dict)


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


def seal(record: Record, salted: bool = True, alike_fields: frozenset[str] = frozenset()) -> Record:
    """Fill in the salts, the part hashes and the record's own hash.

    ``salted`` False writes a format-1 record (a game created before hiding
    commitments goes on in its own format). ``alike_fields`` names fields
    whose values orjson is known to write alike (``stored_form`` said so).
    """
    sealed = dict(record)
    # One look over the record says whether orjson may write every part of
    # it: a part, a salt and a hash are then alike too.
    rest = {k: v for k, v in record.items() if k not in alike_fields} if alike_fields else record
    hash_of = _alike_json_hash if _is_alike(rest) else json_hash
    salts: dict[str, Any] = dict(sealed.get("salts") or {}) if salted else {}
    for key, hash_key in _HASHED_SEPARATELY.items():
        if key in sealed and hash_key not in sealed:
            if salted:
                salts.setdefault(key, new_salt())
            sealed[hash_key] = _part_hash(hash_of, sealed[key], salts.get(key))
    if "events" in sealed and "event_hashes" not in sealed:
        if salted:
            salts.setdefault("events", [new_salt() for _ in sealed["events"]])
        event_salts = salts.get("events") or [None] * len(sealed["events"])
        sealed["event_hashes"] = [
            _part_hash(hash_of, event, salt) for event, salt in zip(sealed["events"], event_salts)
        ]
    if salted:
        sealed["salts"] = salts
    sealed["hash"] = hash_of(hashed_content(sealed))
    return sealed


def _part_hash(hash_of: Callable[[Any], str], value: Any, salt: str | None) -> str:
    """``part_hash`` through ``hash_of``."""
    return hash_of(value if salt is None else {"salt": salt, "value": value})


def _alike_json_hash(value: Any) -> str:
    """``json_hash`` of a value ``orjson_writes_it_alike`` already passed."""
    return sha256_hex(_alike_canonical_json(value))


@dataclass(frozen=True)
class ChainBreak:
    """The first place where a record does not fit the chain."""

    position: int
    problem: str
    stored: Any
    expected: Any


def verify_record(record: Record, redacted: bool = False) -> ChainBreak | None:
    """Check one record's parts against their hashes and its own hash.

    In a redacted record (a spectator's copy) a part that was cut out comes
    without its salt (format 2) and is skipped; everything present is checked,
    and the hash over the part hashes still is. Outside a redacted copy every
    part of a salted record must come with its salt.
    """
    position = record.get("position", -1)
    salted = is_salted(record)
    salts: dict[str, Any] = record.get("salts") or {}
    for key, hash_key in _HASHED_SEPARATELY.items():
        if key not in record or hash_key not in record:
            continue
        salt = salts.get(key)
        if record[key] is None or (salted and salt is None):
            if salted and not redacted:
                return ChainBreak(position, f"{key} comes without its salt", None, hash_key)
            continue
        actual = part_hash(record[key], salt if salted else None)
        if actual != record[hash_key]:
            return ChainBreak(position, f"{key} does not match its hash", actual, record[hash_key])
    if "events" in record:
        hashes = record.get("event_hashes", [])
        events = record["events"]
        event_salts = salts.get("events") if salted else [None] * len(events)
        if not isinstance(hashes, list) or len(hashes) != len(events):
            return ChainBreak(position, "events do not match their hashes", len(events), hashes)
        if not isinstance(event_salts, list) or len(event_salts) != len(events):
            return ChainBreak(position, "events come without their salts", None, len(events))
        for index, (event, salt, stored) in enumerate(zip(events, event_salts, hashes)):
            if (salted and salt is None) or (not salted and redacted):
                if not redacted:
                    return ChainBreak(
                        position, f"event {index} comes without its salt", None, stored
                    )
                continue
            actual = part_hash(event, salt)
            if actual != stored:
                return ChainBreak(
                    position, f"event {index} does not match its hash", actual, stored
                )
    actual = json_hash(hashed_content(record))
    if actual != record.get("hash"):
        return ChainBreak(
            position, "record hash does not match its content", actual, record.get("hash")
        )
    return None


def verify_chain(records: Sequence[Record], redacted: bool = False) -> ChainBreak | None:
    """Check every record and every link; return the first break or None."""
    previous_hash: str | None = None
    salted = bool(records) and records[0].get("format") == RECORD_FORMAT
    for expected_position, record in enumerate(records):
        if is_salted(record) != salted:
            return ChainBreak(
                expected_position,
                "the record is not in the format its game was created in",
                record.get("salts"),
                "salts" if salted else None,
            )
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
