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

This module is the walk over a game's records (and over a record file's
games, ``audit_entries``): it keeps the state, the line of play and the
clocks from one record to the next, and asks ``audit_steps`` whether each
record is what the service would have stored there. What it finds is an
``audit_report.AuditReport``.

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
from dataclasses import replace
from typing import Any

from gamelog.games import get_rules
from gamelog.games.protocol import ARBITER, RulesError, rng_for
from gamelog.replay.audit_report import AuditReport, Difference
from gamelog.replay.audit_steps import (
    SealedRandom,
    audit_clock,
    audit_creation,
    audit_end,
    audit_move,
    audit_timeout,
    due_after,
    is_due,
    take_back_step,
)
from gamelog.replay.clock import (
    ClockError,
    Clocks,
    time_control_of,
    timed_seats,
    timeout_result,
)
from gamelog.replay.export import GameEntry
from gamelog.replay.fold import start_state
from gamelog.replay.line import Line, LineRefusal
from gamelog.replay.record import Record, as_stored, seed_commitment, verify_chain
from gamelog.replay.redact import is_redacted
from gamelog.replay.seated_games import DUPLICATE_TAG

UNREADABLE = (KeyError, TypeError, ValueError, AttributeError, IndexError)
"""What rules raise when they choke on a record instead of refusing it."""


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
        return rng_for(seed, ply) if seed is not None else SealedRandom()

    failed = audit_creation(report, rules, created, rng, parent_records)
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
        due = due_after(rules, state, clocks, over is not None, held)
        if due is not None and not is_due(record, due):
            return report.fail(
                Difference(position, f"a {kind} record where {due[1]} should come", kind)
            )
        mover: str | None = None
        timed_out: list[str] = []
        if kind == "move":
            if over is not None:
                return report.fail(Difference(position, "a move after the game was over"))
            failed = audit_clock(report, rules, state, clocks, record)
            if failed is None:
                failed = audit_move(report, rules, state, line, record, rng)
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
            failed = audit_timeout(report, clocks, record, over)
            if failed is not None:
                return failed
            timed_out = record["seats"]
        elif kind == "finished":
            failed = audit_end(report, record, over, metadata, seats)
            if failed is not None:
                return failed
            line = line.after_finish()
        else:
            try:
                line, state = take_back_step(line, record, states, state)
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
        due = due_after(rules, state, clocks, over is not None, held)
        if due is not None:
            problem = "the game is over but no end is recorded" if due[0] == "finished" else due[1]
            return report.fail(Difference(records[-1]["position"], problem))
        if over is not None:
            report.notes.append(
                "over, its end held until the round's last table is over (duplicate play)"
            )
    return report


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
