"""The audit's checks of one record at a time, against the state the walk reached.

``replay.audit`` walks a game's records from its creation on, keeping the
state, the line of play and the clocks; at each record it asks one of these
whether the record is what the service would have stored there. Each check
takes the report, and returns it failed at the first difference, or None:

- ``audit_creation``: the options as the rules store them; the deal set-up
  gives with the seed, or a fork's start from its parent's line;
- ``audit_clock`` and ``audit_move``: a move in time (or made by rule as the
  service would), by a seat the rules let act, giving the stored events;
- ``audit_timeout``: a time-out naming exactly the seats out of time;
- ``audit_end``: the end the rules give, or a director's paper result;
- ``take_back_step``: a take-back, request or answer the line allows;
- ``due_after`` and ``is_due``: what the service stores at once after a
  record (an end, a move by rule), so that nothing else may come first.

Without the seed a decision that draws cannot be re-run: the random source
then refuses to be used (``SealedRandom``), and the check defers it.

>>> try:
...     SealedRandom().choice(["a deal", "another deal"])
... except SeedDeferred:
...     print("deferred until the seed is revealed")
deferred until the seed is revealed
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gamelog.games.protocol import ARBITER, Rules, RulesError
from gamelog.replay.audit_report import AuditReport, Difference
from gamelog.replay.clock import Clocks, millis, seat_by_rule
from gamelog.replay.fold import line_events
from gamelog.replay.line import Line, LineRefusal
from gamelog.replay.record import Record, as_stored
from gamelog.replay.seated_games import TOURNAMENT_TAG

RandomSource = Callable[[int], random.Random]
"""The random source of a ply: drawn from the seed, or sealed without it."""


class SeedDeferred(Exception):
    """The decision needs the seed, which is not revealed yet."""


class SealedRandom(random.Random):
    """A random source that refuses to be used: stands in for an unknown seed."""

    def random(self) -> float:
        raise SeedDeferred

    def getrandbits(self, k: int) -> int:
        raise SeedDeferred


def due_after(
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


def is_due(record: Record, due: tuple[str, str]) -> bool:
    """Whether ``record`` is what ``due_after`` said comes next."""
    if due[0] == "finished":
        return bool(record["kind"] == "finished")
    return record["kind"] == "move" and bool(record.get("by_rule"))


def audit_creation(
    report: AuditReport,
    rules: Rules[Any],
    created: Record,
    rng: RandomSource,
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


def audit_clock(
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


def audit_move(
    report: AuditReport,
    rules: Rules[Any],
    state: Any,
    line: Line,
    record: Record,
    rng: RandomSource,
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


def audit_timeout(
    report: AuditReport, clocks: Clocks | None, record: Record, over: Any
) -> AuditReport | None:
    """A time-out: in a game with clocks, not over, naming exactly the seats
    whose time had run out by then, under the game's rule for it."""
    position = record["position"]
    if clocks is None:
        return report.fail(Difference(position, "a time-out in a game without clocks"))
    expired = list(clocks.expired(millis(record["time"])))
    if over is not None or record["seats"] != expired:
        return report.fail(
            Difference(position, "the time-out names other seats", record["seats"], expired)
        )
    if record["on_timeout"] != clocks.control.on_timeout:
        return report.fail(Difference(position, "the time-out's rule differs"))
    return None


def audit_end(
    report: AuditReport, record: Record, over: Any, metadata: Mapping[str, Any], seats: list[str]
) -> AuditReport | None:
    """An end: the result the rules (or the clocks) give for a game that is
    over; or a tournament director's result for a table played on paper,
    while the game was still on, ranking its seats."""
    position = record["position"]
    if record.get("by_director"):
        if TOURNAMENT_TAG not in metadata:
            return report.fail(Difference(position, "only a tournament's table has a director"))
        if over is not None:
            return report.fail(Difference(position, "the director ended a game that was over"))
        ranked = sorted(seat for place in record["result"]["ranking"] for seat in place)
        if ranked != sorted(seats):
            return report.fail(
                Difference(position, "the director's result does not rank every seat once")
            )
        return None
    if over is None:
        return report.fail(Difference(position, "recorded as finished, but it is not over"))
    if over != record["result"]:
        return report.fail(
            Difference(position, "the stored result differs", record["result"], over)
        )
    return None


def take_back_step(
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
