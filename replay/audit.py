"""Audit: prove a recorded game is exactly what its rules say happened.

``audit_records`` checks, in order, and reports the first difference:

1. the hash chain (every record's content against its hash, every link);
2. the seed against its published commitment, whenever the seed is known
   (revealed at the end, or the server's or a file's secret copy while the
   game runs);
3. the creation: options in the form the rules store them, and the deal:
   set-up re-run with the seed gives the stored deal events; a fork instead
   starts from its parent's line, which must be at hand (a fork whose parent
   cannot be checked does not audit clean);
4. every move: made by a seat the rules let act, re-run through ``decide``
   from the state before it with the random source of its ply, giving the
   stored events;
5. every take-back, request and answer against the game's undo policy, its
   seats and the rule about hidden information (``line.Line``), and any
   cached state the store keeps beside a take-back or in a snapshot equal to
   the state folded again;
6. the end recorded exactly when the rules say the game is over, with their
   result, and nothing after it (a duplicate round's table may hold its end
   until the round's last table is over);
7. with a time control (``replay.clock``): the clocks run again from the
   records' own times; every ``timeout`` record names exactly the seats whose
   time had run out by then, no seat moved after its time ran out, a game
   lost on time ends at once with the time-out result, and every move made
   by rule for a seat out of time is the one the service makes (the first of
   its legal moves), made as soon as that seat is to act.

A game still running is audited up to its last position; without its seed a
decision that draws cannot be re-run, and is reported as deferred rather than
as a difference. Positions whose events are *declared facts* (``"declared":
true``: recorded as a seat or the arbiter stated them, with consistency checks
only) are listed apart from the rule-checked ones.

>>> from gamelog.replay.record import seal, seed_commitment
>>> seed, nonce = b"seed", bytes(32)
>>> report = audit_records([seal({"position": 0, "kind": "created", "prev_hash": "",
...     "format": 2, "game": "freeform", "rules_version": "1.0", "seats": ["a"],
...     "undo_policy": "free", "options": {"component_set": "freeform/none", "title": ""},
...     "metadata": {}, "commitment": seed_commitment(seed, nonce), "parent": None,
...     "base_ply": 0, "events": []})], seed=seed, seed_nonce=nonce)
>>> report.ok, report.positions_checked, report.seed_checked
(True, 1, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gamelog.games import get_rules
from gamelog.games.protocol import ARBITER, Rules, RulesError, rng_for
from gamelog.replay.clock import (
    ClockError,
    Clocks,
    millis,
    seat_by_rule,
    time_control_of,
    timed_seats,
    timeout_result,
)
from gamelog.replay.export import GameEntry
from gamelog.replay.fold import line_events, start_state
from gamelog.replay.line import Line, LineRefusal
from gamelog.replay.record import Record, as_stored, seed_commitment, verify_chain
from gamelog.replay.redact import is_redacted
from gamelog.replay.tournament_record import DUPLICATE_TAG, TOURNAMENT_TAG

UNREADABLE = (KeyError, TypeError, ValueError, AttributeError, IndexError)
"""What rules raise when they choke on a record instead of refusing it."""


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
    declared: list[int] = field(default_factory=list)
    """Positions holding declared facts: recorded as stated, not rule-checked."""
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
            "declared_positions": self.declared,
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
    seed_nonce: bytes | None = None,
    cached_states: Mapping[int, Any] | None = None,
) -> AuditReport:
    """Audit one game's full records. ``seed`` (with ``seed_nonce``) is the
    server's or the file's secret copy for a running game; a finished game's
    records carry their revealed seed. ``cached_states`` are states the store
    keeps beside the records (at take-backs, in snapshots), by position.

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
    try:
        return _audit_line(report, records, seed, seed_nonce, parent_records, cached_states)
    except UNREADABLE as error:
        # The rules choked on something the checks above let through.
        position = report.positions_checked
        return report.fail(Difference(position, f"the rules cannot read this record: {error!r}"))


def _audit_line(
    report: AuditReport,
    records: Sequence[Record],
    seed: bytes | None,
    seed_nonce: bytes | None,
    parent_records: Sequence[Record] | None,
    cached_states: Mapping[int, Any] | None,
) -> AuditReport:
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
    salted = created.get("format") is not None

    finished = records[-1] if records[-1]["kind"] == "finished" else None
    if finished is not None:
        seed = bytes.fromhex(finished["seed"])
        seed_nonce = bytes.fromhex(finished["seed_nonce"]) if salted else None
    elif seed is None:
        report.notes.append("game still running: seed checks deferred until it ends")
    if seed is not None:
        if seed_commitment(seed, seed_nonce if salted else None) != created["commitment"]:
            where = finished["position"] if finished is not None else 0
            return report.fail(
                Difference(
                    where,
                    "the seed does not match the commitment published at creation",
                    seed_commitment(seed, seed_nonce if salted else None),
                    created["commitment"],
                )
            )
        report.seed_checked = True

    def rng(ply: int) -> random.Random:
        return rng_for(seed, ply) if seed is not None else _Sealed()

    failed = _audit_creation(report, rules, created, rng, parent_records)
    if failed is not None:
        return failed

    state = start_state(rules, created)
    states: dict[int, Any] = {0: state}
    line = Line(
        seats=tuple(created["seats"]),
        policy=created["undo_policy"],
        base_ply=created.get("base_ply", 0),
    )
    report.positions_checked = 1
    metadata = created.get("metadata") or {}
    held = DUPLICATE_TAG in metadata
    try:
        control = time_control_of(metadata) if "time" in created else None
    except ClockError as error:
        return report.fail(Difference(0, f"the time control cannot be read: {error}"))
    seats = list(created["seats"])
    clocks = (
        Clocks.start(control, seats, created["time"], timed_seats(rules, state))
        if control is not None
        else None
    )

    def outcome() -> Any:
        if clocks is not None and clocks.control.on_timeout == "lose" and clocks.out_of_time:
            return timeout_result(seats, clocks.out_of_time)
        result = rules.result(state)
        return as_stored(result.to_json()) if result is not None else None

    for record in records[1:]:
        position = record["position"]
        kind = record["kind"]
        if record.get("time", "") < records[position - 1].get("time", ""):
            return report.fail(
                Difference(position, "the record is older than the one before it", record["time"])
            )
        if line.finished:
            return report.fail(Difference(position, "a record after the end of the game", kind))
        over = outcome()  # before this record: the state and clocks it starts from
        due = _due(rules, state, clocks, over is not None, held)
        if due is not None and not _is(record, due):
            return report.fail(
                Difference(position, f"a {kind} record where {due[1]} should come", kind)
            )
        mover: str | None = None
        timed_out: list[str] = []
        if kind == "move":
            if over is not None:
                return report.fail(Difference(position, "a move after the game was over"))
            failed = _audit_clock(report, rules, state, clocks, record)
            if failed is None:
                failed = _audit_move(report, rules, state, line, record, rng)
            if failed is not None:
                return failed
            for event in record["events"]:
                state = rules.evolve(state, event)
            shows = any(rules.shows_hidden(event) for event in record["events"])
            line = line.after_move(position, shows)
            if record["events"] and all(e.get("declared") is True for e in record["events"]):
                report.declared.append(position)
            if (
                not (record.get("by_rule") or record.get("by_arbiter"))
                and record["seat"] != ARBITER
            ):
                mover = record["seat"]
        elif kind == "timeout":
            if clocks is None:
                return report.fail(Difference(position, "a time-out in a game without clocks"))
            expired = list(clocks.expired(millis(record["time"])))
            if over is not None or record["seats"] != expired:
                return report.fail(
                    Difference(position, "the time-out names other seats", record["seats"], expired)
                )
            if record["on_timeout"] != clocks.control.on_timeout:
                return report.fail(Difference(position, "the time-out's rule differs"))
            timed_out = record["seats"]
        elif kind == "finished" and record.get("by_director"):
            # A tournament director's result for a table played on paper:
            # the game was still on, and the result ranks its seats.
            if TOURNAMENT_TAG not in metadata:
                return report.fail(Difference(position, "only a tournament's table has a director"))
            if over is not None:
                return report.fail(Difference(position, "the director ended a game that was over"))
            ranked = sorted(seat for place in record["result"]["ranking"] for seat in place)
            if ranked != sorted(seats):
                return report.fail(
                    Difference(position, "the director's result does not rank every seat once")
                )
            line = line.after_finish()
        elif kind == "finished":
            expected = over
            if expected is None:
                return report.fail(Difference(position, "recorded as finished, but it is not over"))
            if expected != record["result"]:
                return report.fail(
                    Difference(position, "the stored result differs", record["result"], expected)
                )
            line = line.after_finish()
        else:
            try:
                line, state = _take_back_step(line, record, states, state)
            except LineRefusal as refusal:
                return report.fail(Difference(position, f"{kind}: {refusal.message}", record))
        if clocks is not None:
            clocks = clocks.after(record["time"], mover, timed_seats(rules, state), timed_out)
            if line.finished or outcome() is not None:
                clocks = replace(clocks, running=())
        states[position] = state
        if cached_states and position in cached_states and cached_states[position] != state:
            return report.fail(
                Difference(position, "the state cached in the store differs from the records")
            )
        report.positions_checked += 1

    if not line.finished:
        over = outcome()
        due = _due(rules, state, clocks, over is not None, held)
        if due is not None:
            problem = "the game is over but no end is recorded" if due[0] == "finished" else due[1]
            return report.fail(Difference(records[-1]["position"], problem))
        if over is not None:
            report.notes.append(
                "over, its end held until the round's last table is over (duplicate play)"
            )
    return report


def _due(
    rules: Rules[Any], state: Any, clocks: Clocks | None, over: bool, held: bool
) -> tuple[str, str] | None:
    """What the service stores at once after a record, if anything: the end
    of a game that is over, or a move by rule."""
    if over:
        return None if held else ("finished", "the end of a game that is over")
    seat = seat_by_rule(rules, state, clocks)
    if seat is not None and rules.legal_moves(state, seat):
        return ("by-rule", f"the move by rule for {seat}, who is out of time")
    return None


def _is(record: Record, due: tuple[str, str]) -> bool:
    if due[0] == "finished":
        return bool(record["kind"] == "finished")
    return record["kind"] == "move" and bool(record.get("by_rule"))


def _audit_clock(
    report: AuditReport, rules: Rules[Any], state: Any, clocks: Clocks | None, record: Record
) -> AuditReport | None:
    """A move against the clocks: in time, or made by rule as the service would."""
    position, seat = record["position"], record["seat"]
    if record.get("by_rule"):
        expected = seat_by_rule(rules, state, clocks)
        if expected != seat:
            return report.fail(
                Difference(position, "a move by rule for a seat that is not out of time", seat)
            )
        legal = rules.legal_moves(state, seat)
        if not legal or as_stored(legal[0]) != record["move"]:
            return report.fail(
                Difference(
                    position,
                    "a move by rule other than the first legal move",
                    record["move"],
                    as_stored(legal[0]) if legal else None,
                )
            )
        return None
    if clocks is None:
        return None
    if seat in clocks.out_of_time:
        return report.fail(Difference(position, f"{seat} moved after running out of time"))
    if seat in clocks.running and clocks.remaining(seat, millis(record["time"])) <= 0:
        return report.fail(
            Difference(position, f"{seat} moved after its time ran out, with no time-out recorded")
        )
    return None


def _audit_creation(
    report: AuditReport,
    rules: Rules[Any],
    created: Record,
    rng: Any,
    parent_records: Sequence[Record] | None,
) -> AuditReport | None:
    seats = list(created["seats"])
    try:
        normalized = as_stored(rules.normalize_options(created["options"], seats))
    except RulesError as error:
        return report.fail(Difference(0, f"the rules refuse these options: {error}"))
    if normalized != created["options"]:
        return report.fail(
            Difference(
                0, "the options are not as the rules store them", created["options"], normalized
            )
        )
    parent = created.get("parent")
    if parent is None:
        if created.get("base_ply", 0) != 0:
            return report.fail(Difference(0, "a game that is no fork starts at ply 0"))
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
        return None
    if parent_records is None:
        return report.fail(
            Difference(0, "a fork whose parent's records are not at hand cannot be checked")
        )
    parent_position = parent["position"]
    if parent_position >= len(parent_records) or (
        parent_records[parent_position]["hash"] != parent["hash"]
    ):
        return report.fail(Difference(0, "the parent's hash at the fork point differs"))
    parent_created = parent_records[0]
    if any(
        parent_created.get(key) != created.get(key)
        for key in ("game", "rules_version", "seats", "options")
    ):
        return report.fail(Difference(0, "the fork is not a game of its parent's table"))
    expected_events, expected_ply = line_events(parent_records, parent_position)
    if as_stored(expected_events) != created["events"] or expected_ply != created["base_ply"]:
        return report.fail(Difference(0, "the fork does not start from its parent's position"))
    return None


def _audit_move(
    report: AuditReport,
    rules: Rules[Any],
    state: Any,
    line: Line,
    record: Record,
    rng: Any,
) -> AuditReport | None:
    position = record["position"]
    ply = line.ply + 1
    if record["ply"] != ply:
        return report.fail(Difference(position, "wrong ply", record["ply"], ply))
    if rules.result(state) is not None:
        return report.fail(Difference(position, "a move after the game was over"))
    seat = record["seat"]
    if record.get("by_rule") and not isinstance(record["by_rule"], bool):
        return report.fail(Difference(position, "by_rule is true or absent"))
    if record.get("by_arbiter") and (not isinstance(record["by_arbiter"], bool) or seat == ARBITER):
        return report.fail(Difference(position, "by_arbiter is true, for a seat's move, or absent"))
    if seat not in rules.to_act(state):
        return report.fail(Difference(position, f"{seat} may not move at this point", seat))
    try:
        expected = rules.decide(state, seat, record["move"], rng(ply))
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
    return None


def _take_back_step(
    line: Line, record: Record, states: Mapping[int, Any], state: Any
) -> tuple[Line, Any]:
    """A take-back, a request or an answer, checked against the line as the
    service would have checked it; the line and state after it."""
    kind = record["kind"]
    if kind == "undo-request":
        line.check_request(record["seat"], record["to_position"])
        return line.after_request(record["seat"], record["to_position"]), state
    if kind in ("undo-approve", "undo-decline"):
        line.check_answer(record["seat"], record["to_position"])
        return line.after_answer(record["seat"], kind == "undo-approve"), state
    target = record["to_position"]
    line.check_takeback(target, record["by"], record["approved_by"])
    if record["ply"] != line.ply_at(target):
        raise LineRefusal("wrong-ply", f"the ply after going back to {target} is wrong")
    return line.after_takeback(target), states[target]


def audit_entries(
    entries: Sequence[GameEntry],
    outside_parents: Mapping[str, Sequence[Record]] | None = None,
) -> list[tuple[GameEntry, AuditReport]]:
    """Audit every game of a record file: each branch against its parent in
    the same file (or in ``outside_parents``, by the parent's game id), a
    redacted copy for its hash chain only."""
    by_id = {entry.game_id: entry for entry in entries}
    reports = []
    for entry in entries:
        parent = by_id.get(entry.parent_id or "")
        parent_records: Sequence[Record] | None = parent.records if parent else None
        if parent_records is None and outside_parents and entry.parent_id:
            parent_records = outside_parents.get(entry.parent_id)
        report = audit_records(
            entry.records,
            seed=bytes.fromhex(entry.secret_seed) if entry.secret_seed else None,
            seed_nonce=bytes.fromhex(entry.secret_seed_nonce) if entry.secret_seed_nonce else None,
            parent_records=parent_records,
            redacted=entry.redacted,
        )
        reports.append((entry, report))
    return reports
