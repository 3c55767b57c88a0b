"""What an audit says: clean, or the first difference between the records and the rules.

An audit stops at the first difference it finds (``Difference``: where, what,
and when it helps, what was stored beside what was expected), since every
later position rests on that one. Its report (``AuditReport``) also says how
far it got, whether the seed was checked against its commitment, which
positions had to wait for the seed, which hold declared facts rather than
rule-checked ones, and any notes; ``to_json`` is the form the CLI, the API
and record files show.

Games (``replay.audit``) and tournaments (``replay.tournament_audit``) are
reported alike.

>>> report = AuditReport(positions_checked=3)
>>> report.fail(Difference(2, "wrong ply", 4, 3)).to_json()["first_difference"]
{'position': 2, 'problem': 'wrong ply', 'stored': 4, 'expected': 3}
>>> report.ok
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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
