"""Audit: prove a recorded game is exactly what its rules say happened.

``audit_records`` checks, in order, and reports the first difference:

1. the hash chain (every record's content against its hash, every link);
2. the seed against its published commitment, once the seed is known;
3. the deal: set-up re-run with the seed gives the stored deal events
   (a fork instead starts from its parent's line, checked when the parent's
   records are at hand);
4. every move re-run through ``decide`` from the state before it, with the
   random source of its position, gives the stored events;
5. every take-back returns to a position of the line, and the end is recorded
   exactly when the rules say the game is over, with their result.

A game still running is audited up to its last position with the seed checks
deferred: when the auditor has no seed, a decision that draws cannot be
re-run, and is reported as deferred rather than as a difference.

>>> from gamelog.replay.record import seal
>>> report = audit_records([seal({"position": 0, "kind": "created", "prev_hash": "",
...     "game": "freeform", "rules_version": "1.0", "seats": ["a"], "undo_policy": "free",
...     "options": {"component_set": "freeform/none", "title": ""}, "metadata": {},
...     "commitment": "", "parent": None, "base_ply": 0, "events": []})], seed=b"")
>>> report.ok, report.positions_checked
(True, 1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gamelog.games import get_rules
from gamelog.games.protocol import RulesError, rng_for
from gamelog.replay.export import GameEntry
from gamelog.replay.fold import line_events, start_state
from gamelog.replay.record import Record, as_stored, seed_commitment, verify_chain
from gamelog.replay.redact import is_redacted


@dataclass(frozen=True)
class Difference:
    position: int
    problem: str
    stored: Any = None
    expected: Any = None


@dataclass
class AuditReport:
    ok: bool = True
    positions_checked: int = 0
    seed_checked: bool = False
    first_difference: Difference | None = None
    deferred: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def fail(self, difference: Difference) -> AuditReport:
        self.ok = False
        self.first_difference = difference
        return self

    def to_json(self) -> dict[str, Any]:
        first = self.first_difference
        return {
            "ok": self.ok,
            "positions_checked": self.positions_checked,
            "seed_checked": self.seed_checked,
            "first_difference": None
            if first is None
            else {
                "position": first.position,
                "problem": first.problem,
                "stored": first.stored,
                "expected": first.expected,
            },
            "deferred_positions": self.deferred,
            "notes": self.notes,
        }


class SeedDeferred(Exception):
    """The decision needs the seed, which is not revealed yet."""


class _Sealed(random.Random):
    """A random source that refuses to be used: stands in for an unknown seed."""

    def random(self) -> float:
        raise SeedDeferred

    def getrandbits(self, k: int) -> int:
        raise SeedDeferred


def audit_records(
    records: Sequence[Record],
    seed: bytes | None = None,
    parent_records: Sequence[Record] | None = None,
    redacted: bool = False,
) -> AuditReport:
    """Audit one game's full records. ``seed`` is the server's copy for a
    running game; a finished game's records carry their revealed seed.

    A redacted copy (hidden parts cut out for a spectator) can only have its
    hash chain verified; the report says so."""
    report = AuditReport()
    if not records:
        return report.fail(Difference(0, "the record is empty"))
    cut = redacted or any(is_redacted(r) for r in records)
    broken = verify_chain(records, redacted=cut)
    if broken is not None:
        return report.fail(
            Difference(broken.position, broken.problem, broken.stored, broken.expected)
        )
    if cut:
        report.positions_checked = len(records)
        report.notes.append("redacted copy: hash chain verified; moves not re-run")
        return report

    created = records[0]
    if created.get("kind") != "created":
        return report.fail(Difference(0, "the record does not start with a creation"))
    try:
        rules = get_rules(created["game"])
    except RulesError as error:
        return report.fail(Difference(0, error.message, created["game"], None))
    if created["rules_version"] != rules.rules_version:
        return report.fail(
            Difference(
                0,
                "recorded under another rules version than these rules",
                created["rules_version"],
                rules.rules_version,
            )
        )

    finished = [r for r in records if r["kind"] == "finished"]
    if finished:
        revealed = bytes.fromhex(finished[-1]["seed"])
        if seed_commitment(revealed) != created["commitment"]:
            return report.fail(
                Difference(
                    finished[-1]["position"],
                    "the revealed seed does not match the commitment published at creation",
                    seed_commitment(revealed),
                    created["commitment"],
                )
            )
        seed = revealed
        report.seed_checked = True
    else:
        report.notes.append("game still running: seed checks deferred until it ends")

    def rng(ply: int) -> random.Random:
        return rng_for(seed, ply) if seed is not None else _Sealed()

    # The deal.
    seats = list(created["seats"])
    parent = created.get("parent")
    if parent is None:
        try:
            dealt = rules.setup(created["options"], seats, rng(0))
            if as_stored(dealt) != created["events"]:
                return report.fail(
                    Difference(
                        0,
                        "the deal differs from set-up with this seed",
                        created["events"],
                        as_stored(dealt),
                    )
                )
        except SeedDeferred:
            report.deferred.append(0)
    elif parent_records is not None:
        parent_position = parent["position"]
        if parent_position >= len(parent_records) or (
            parent_records[parent_position]["hash"] != parent["hash"]
        ):
            return report.fail(Difference(0, "the parent's hash at the fork point differs"))
        expected_events, expected_ply = line_events(parent_records, parent_position)
        if as_stored(expected_events) != created["events"] or expected_ply != created["base_ply"]:
            return report.fail(Difference(0, "the fork does not start from its parent's position"))
    else:
        report.notes.append("fork: parent's records not given, start position not re-derived")

    state = start_state(rules, created)
    states: dict[int, Any] = {0: state}
    line: list[int] = [0]
    base_ply = created.get("base_ply", 0)
    ended_at: int | None = None
    report.positions_checked = 1

    for record in records[1:]:
        position = record["position"]
        kind = record["kind"]
        if ended_at is not None and kind != "finished":
            return report.fail(Difference(position, "a record after the end of the game", kind))
        if kind == "move":
            ply = base_ply + len(line)
            if record["ply"] != ply:
                return report.fail(Difference(position, "wrong ply", record["ply"], ply))
            if rules.result(state) is not None:
                return report.fail(Difference(position, "a move after the game was over"))
            try:
                expected = rules.decide(state, record["seat"], record["move"], rng(ply))
            except SeedDeferred:
                report.deferred.append(position)
                expected = record["events"]
            except RulesError as error:
                return report.fail(
                    Difference(position, f"the rules refuse this move: {error}", record["move"])
                )
            if as_stored(expected) != record["events"]:
                return report.fail(
                    Difference(
                        position,
                        "the stored events differ from what the rules give",
                        record["events"],
                        as_stored(expected),
                    )
                )
            for event in record["events"]:
                state = rules.evolve(state, event)
            line.append(position)
        elif kind == "takeback":
            target = record["to_position"]
            if target not in line:
                return report.fail(
                    Difference(position, "take-back to a position outside the line", target)
                )
            line = [p for p in line if p <= target]
            state = states[target]
        elif kind == "finished":
            result = rules.result(state)
            if result is None:
                return report.fail(Difference(position, "recorded as finished, but it is not over"))
            if as_stored(result.to_json()) != record["result"]:
                return report.fail(
                    Difference(
                        position,
                        "the stored result differs",
                        record["result"],
                        as_stored(result.to_json()),
                    )
                )
            ended_at = position
        states[position] = state
        report.positions_checked += 1

    if ended_at is None and rules.result(state) is not None:
        return report.fail(
            Difference(records[-1]["position"], "the game is over but no end is recorded")
        )
    return report


def audit_entries(entries: Sequence[GameEntry]) -> list[tuple[GameEntry, AuditReport]]:
    """Audit every game of a record file: each branch against its parent in
    the same file, a redacted copy for its hash chain only."""
    by_id = {entry.game_id: entry for entry in entries}
    reports = []
    for entry in entries:
        parent = by_id.get(entry.parent_id or "")
        report = audit_records(
            entry.records,
            seed=bytes.fromhex(entry.secret_seed) if entry.secret_seed else None,
            parent_records=parent.records if parent else None,
            redacted=entry.redacted,
        )
        reports.append((entry, report))
    return reports
