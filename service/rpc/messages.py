"""The answers of ``gamelog.v1.GameLog`` built from what the use cases answer.

Plain data in (``usecases.answers``, records, reports), protobuf messages
out: one function per message, so that the servicer reads as a list of calls.
"""

from __future__ import annotations

from typing import Any

from gamelog.games import get_rules
from gamelog.replay.audit_report import AuditReport
from gamelog.replay.record import Record, compact_json
from gamelog.replay.redact import redact_record
from gamelog.service.live.game_feed import Entry
from gamelog.service.usecases.answers import CreatedGame, GameSummary, PositionView, Shown
from gamelog.v1 import gamelog_pb2 as pb


def record_message(record: Record, notation: str = "") -> pb.Record:
    return pb.Record(
        position=record["position"],
        kind=record["kind"],
        record_json=compact_json(record),
        notation=notation,
    )


def shown_messages(shown: list[Shown]) -> list[pb.Record]:
    return [record_message(s.record, s.notation) for s in shown]


def entry_message(entry: Entry) -> pb.Record:
    return pb.Record(
        position=entry.position, kind=entry.kind, record_json=entry.json, notation=entry.notation
    )


def created_message(created: CreatedGame) -> pb.CreateGameResponse:
    """A new game's ids and tokens, and its creation record as a spectator
    sees it (a secret deal or option stays hidden)."""
    record = created.record
    spectators_copy = redact_record(get_rules(record["game"]), record, None, False)
    return pb.CreateGameResponse(
        game_id=str(created.game_id),
        seat_tokens=created.tokens,
        arbiter_token=created.arbiter_token,
        seed_commitment=created.commitment,
        record_json=compact_json(spectators_copy),
    )


def state_message(view: PositionView) -> pb.GameState:
    return pb.GameState(
        game_id=str(view.game_id),
        game=view.game,
        position=view.position,
        last_position=view.last_position,
        ply=view.ply,
        viewer=view.viewer or "",
        view_json=compact_json(view.view),
        to_act=view.to_act,
        finished=view.finished,
        result_json=compact_json(view.result) if view.result is not None else "",
        text=view.text,
        pending_undo_json=compact_json(view.pending_undo) if view.pending_undo else "",
        svg=view.svg,
        tags=view.tags,
        undo_policy=view.undo_policy,
        **clock_fields(view.clocks),
    )


def clock_fields(clocks: dict[str, Any] | None) -> dict[str, Any]:
    """GameState's clock fields (none for an untimed game)."""
    if not clocks:
        return {}
    return {
        "time_control": clocks["time_control"],
        "clock_remaining_ms": clocks["remaining_ms"],
        "clock_running": clocks["running"],
        "out_of_time": clocks["out_of_time"],
    }


def summary_message(summary: GameSummary) -> pb.GameSummary:
    return pb.GameSummary(
        game_id=str(summary.game_id),
        game=summary.game,
        rules_version=summary.rules_version,
        seats=summary.seats,
        finished=summary.finished,
        created_at=summary.created_at,
        parent_json=compact_json(summary.parent) if summary.parent else "",
        metadata={k: str(v) for k, v in summary.metadata.items()},
        last_position=summary.last_position,
        status=summary.status,
        tournament_id=summary.tournament_id,
    )


def audit_message(subject_id: str, report: AuditReport) -> pb.AuditReport:
    """An audit of a game or a tournament (``subject_id``)."""
    first = report.first_difference
    return pb.AuditReport(
        game_id=subject_id,
        ok=report.ok,
        positions_checked=report.positions_checked,
        seed_checked=report.seed_checked,
        failed_position=first.position if first else -1,
        problem=first.problem if first else "",
        stored_json=compact_json(first.stored) if first else "",
        expected_json=compact_json(first.expected) if first else "",
        report_json=compact_json(report.to_json()),
    )
