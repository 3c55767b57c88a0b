"""Canonical JSON, the bytes every hash is taken over, stays byte for byte the
standard library's form that docs/record-format.md specifies, whether orjson
or the standard library writes it."""

from __future__ import annotations

import enum
import hashlib
import json
import uuid
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gamelog.replay.record import (
    as_stored,
    canonical_json,
    compact_json,
    seal,
    stdlib_canonical_json,
    stored_form,
    verify_chain,
)

# Two records sealed with fixed salts. Their hashes were computed by the
# standard library's encoder before orjson came in; they must never change.
CREATED = {
    "position": 0,
    "kind": "created",
    "prev_hash": "",
    "format": 2,
    "time": "2026-11-30T12:00:00.000Z",
    "game": "three-too-many",
    "rules_version": "1.0",
    "seats": ["ann", "bén"],
    "options": {"component_set": "three-too-many/house-1"},
    "undo_policy": "none",
    "metadata": {"Event": "Club night ♣", "Round": "3"},
    "commitment": "c0" * 32,
    "parent": None,
    "base_ply": 0,
    "events": [{"type": "DisplayDealt", "cards": [3, 41, 77]}],
    "salts": {"options": "0" * 32, "events": ["1" * 32]},
}
MOVE = {
    "position": 1,
    "kind": "move",
    "time": "2026-11-30T12:00:01.500Z",
    "seat": "bén",
    "ply": 1,
    "move": {"card": 42},
    "events": [
        {"type": "CardPlaced", "seat": "bén", "card": 42, "row": 1},
        {"type": "CardsDrawn", "seat": "bén", "cards": [5, 88]},
    ],
    "request_id": "retry-key",
    "salts": {"move": "2" * 32, "events": ["3" * 32, "4" * 32]},
}


def test_a_known_record_keeps_its_hashes() -> None:
    created = seal(CREATED)
    move = seal({**MOVE, "prev_hash": created["hash"]})
    assert created["hash"] == "3f7240adf344ae05c690298f71b277aadfda7ea55c1234bbe5fe17f8f389221a"
    assert created["options_hash"] == (
        "751229b0bf857de4815dbe5ebec47634ea8e1775e1d5831136bd2def78e78a9c"
    )
    assert created["event_hashes"] == [
        "4569f3d409a3f02d177717415cbfeb0fcfc12244123d4e7deef5a09142577dc6"
    ]
    assert move["hash"] == "0e5f8f533c5957400f7ac896248f29b3dc06e00105fd30e6e915618144fc63ab"
    assert move["move_hash"] == "681fb5b6a79dc7bdaaf626120df60e0b618e885c88801898d351da10e0a43c9f"
    assert move["event_hashes"] == [
        "e05faaea32537a4bfcae1af94c850860cf4b9b520603f63cd761281796b919a9",
        "3eb8374e865ed3c3b0c1a1b5d8b17865e35597c709d709c5bab70a31f7bc111e",
    ]
    assert verify_chain([created, move]) is None


def test_the_reference_form_is_the_documented_one() -> None:
    value = {"b": [1, True, None], "a": 'ü\n"\\\x7f\u2028', "é": {}}
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert stdlib_canonical_json(value) == expected.encode("utf-8")
    assert canonical_json(value) == stdlib_canonical_json(value)


# Everything JSON can hold, and then some: floats, big integers, lone
# surrogates, non-str keys, tuples, deep nesting, subclasses of str and int.
class Colour(enum.StrEnum):
    RED = "red"


class Rank(enum.IntEnum):
    ACE = 1


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text()
    | st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x3000))
    | st.sampled_from([Colour.RED, Rank.ACE, "\ud800", "a\udfffb", 2**63, 2**64, -(2**63) - 1])
)
KEYS = st.text() | st.sampled_from(["\ud800x", "", "~t", "é", "\x00"])
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=5).map(tuple)
        | st.dictionaries(KEYS, inner, max_size=5)
        | st.dictionaries(st.integers() | st.booleans() | st.none(), inner, max_size=3)
    ),
    max_leaves=30,
)


@settings(max_examples=800, deadline=None)
@given(VALUES)
def test_canonical_json_is_the_standard_librarys_bytes(value: Any) -> None:
    try:
        expected: bytes | type[Exception] = stdlib_canonical_json(value)
    except (TypeError, ValueError, UnicodeEncodeError) as error:
        expected = type(error)
    try:
        actual: bytes | type[Exception] = canonical_json(value)
    except (TypeError, ValueError, UnicodeEncodeError) as error:
        actual = type(error)
    assert actual == expected


def test_values_the_standard_library_refuses_are_still_refused() -> None:
    for value in (uuid.uuid4(), {"at": uuid.uuid4()}, b"bytes", {1.5j}):
        try:
            stdlib_canonical_json(value)
        except TypeError:
            pass
        else:
            raise AssertionError(f"the standard library writes {value!r}")
        try:
            canonical_json(value)
        except TypeError:
            continue
        raise AssertionError(f"canonical_json wrote {value!r}")


def test_deep_nesting_is_decided_by_the_reference_path() -> None:
    value: Any = "leaf"
    for _ in range(300):  # deeper than orjson goes
        value = [value]
    assert canonical_json(value) == stdlib_canonical_json(value)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_replies_and_stored_values_are_the_standard_librarys(value: Any) -> None:
    def outcome(call: Any) -> Any:
        try:
            return call()
        except (TypeError, ValueError, UnicodeEncodeError) as error:
            return type(error)

    reference = outcome(lambda: json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    assert outcome(lambda: compact_json(value)) == reference
    stored = outcome(lambda: json.loads(json.dumps(value)))
    assert outcome(lambda: as_stored(value)) == stored


@settings(max_examples=400, deadline=None)
@given(VALUES, st.lists(VALUES, max_size=3), st.sampled_from([True, False]))
def test_a_sealed_records_hashes_are_the_standard_librarys(
    move: Any, events: list[Any], salted: bool
) -> None:
    """However its parts are made, a record is hashed over the reference bytes
    (or refused as the reference refuses it), whichever writer ``seal`` takes."""
    record: dict[str, Any] = {"position": 1, "kind": "move", "move": move, "events": events}
    if salted:
        record["salts"] = {"move": "5" * 32, "events": ["6" * 32 for _ in events]}

    def reference_hash(value: Any) -> str:
        return hashlib.sha256(stdlib_canonical_json(value)).hexdigest()

    def part(value: Any, salt: str) -> str:
        return reference_hash({"salt": salt, "value": value} if salted else value)

    try:
        expected: Any = {
            "move_hash": part(move, "5" * 32),
            "event_hashes": [part(event, "6" * 32) for event in events],
        }
        content = {"position": 1, "kind": "move", **expected}
        expected["hash"] = reference_hash(content)
    except (TypeError, ValueError, UnicodeEncodeError) as error:
        expected = type(error)
    try:
        sealed = seal(record, salted=salted)
        actual: Any = {key: sealed[key] for key in ("move_hash", "event_hashes", "hash")}
    except (TypeError, ValueError, UnicodeEncodeError) as error:
        actual = type(error)
    assert actual == expected


@settings(max_examples=300, deadline=None)
@given(VALUES, st.lists(VALUES, max_size=3))
def test_parts_known_alike_are_sealed_as_parts_looked_at(move: Any, events: list[Any]) -> None:
    """What ``stored_form`` calls alike, ``seal`` may skip looking at: the
    hashes are the same as when it looks."""
    try:
        (move, events), alike = stored_form([move, events])
    except (TypeError, ValueError, UnicodeEncodeError):
        return  # nothing the standard library stores either
    record = {"position": 1, "kind": "move", "move": move, "events": events}
    record["salts"] = {"move": "7" * 32, "events": ["8" * 32 for _ in events]}
    known = frozenset({"move", "events"}) if alike else frozenset()
    try:
        looked: Any = seal(record)
    except (TypeError, ValueError, UnicodeEncodeError) as error:
        looked = type(error)
    try:
        skipped: Any = seal(record, alike_fields=known)
    except (TypeError, ValueError, UnicodeEncodeError) as error:
        skipped = type(error)
    assert skipped == looked
