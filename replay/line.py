"""The line of play and its take-backs: who may take what back, and when.

A game's *line* is the positions of its moves still standing, from the deal on;
a take-back shortens it (appending a record, never deleting one). These are
pure rules over plain data, shared by the ``Game`` aggregate, which refuses a
command that breaks them, and by the audit, which refuses a record that does:
so a record file cannot hold a take-back the service would never have made.

>>> line = Line(seats=("ann", "ben"), policy="consent")
>>> line = line.after_move(1, shows_hidden=False).after_move(2, shows_hidden=True)
>>> line = line.after_move(3, shows_hidden=False)
>>> line.check_request("ann", 2)
>>> try:
...     line.check_request("ann", 1)
... except LineRefusal as refusal:
...     print(refusal.code)
takeback-across-hidden
>>> line = line.after_request("ann", 2)
>>> try:
...     line.check_takeback(2, "ann", [])
... except LineRefusal as refusal:
...     print(refusal.message)
ann's take-back needs every other seat's approval first
>>> line = line.after_answer("ben", approve=True)
>>> line.check_takeback(2, "ann", ["ben"])
>>> line.after_takeback(2).positions
(0, 1, 2)

Policies (docs/service-decisions.md, "Undo"): ``none`` lets no seat take
back, ``arbiter`` only the arbiter, ``free`` any seat at once, ``consent`` a
seat after every other seat approved its request. The arbiter may order a
take-back under every policy. No seat may take back across a position whose
events showed hidden information; only the arbiter may. A finished game takes
nothing back and takes no request or answer; a request still pending at the end
lapses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from gamelog.games.protocol import ARBITER, Refusal, frozen_replace

UNDO_POLICIES = ("none", "consent", "arbiter", "free")


class LineRefusal(Refusal):
    """A take-back, request or answer the line of play does not allow."""


@dataclass(frozen=True)
class UndoRequest:
    """A seat's request to go back to ``to_position``, and who approved it so far."""

    seat: str
    to_position: int
    approved: tuple[str, ...] = ()


@dataclass(frozen=True)
class Line:
    """The current line of play of one game, and what take-backs may do to it."""

    seats: tuple[str, ...]
    policy: str
    base_ply: int = 0
    """Plies before this game's start: 0, or the parent's ply at a fork."""
    positions: tuple[int, ...] = (0,)
    """The deal's position and each standing move's, in order."""
    reveals: tuple[int, ...] = ()
    """Positions in the line whose events showed hidden information."""
    pending: UndoRequest | None = None
    finished: bool = False

    @property
    def ply(self) -> int:
        return self.base_ply + len(self.positions) - 1

    def ply_at(self, position: int) -> int:
        return self.base_ply + self.positions.index(position)

    # -- what happens -------------------------------------------------------------------

    def after_move(self, position: int, shows_hidden: bool) -> Line:
        reveals = (*self.reveals, position) if shows_hidden else self.reveals
        # Once a move: the cheaper copy, as the rules' states take.
        return frozen_replace(self, positions=(*self.positions, position), reveals=reveals)

    def after_request(self, seat: str, to_position: int) -> Line:
        return replace(self, pending=UndoRequest(seat, to_position))

    def after_answer(self, seat: str, approve: bool) -> Line:
        if not approve or self.pending is None:
            return replace(self, pending=None)
        return replace(self, pending=replace(self.pending, approved=(*self.pending.approved, seat)))

    def after_takeback(self, to_position: int) -> Line:
        return replace(
            self,
            positions=tuple(p for p in self.positions if p <= to_position),
            reveals=tuple(p for p in self.reveals if p <= to_position),
            pending=None,
        )

    def after_finish(self) -> Line:
        """The end: a request still waiting for answers lapses."""
        return replace(self, pending=None, finished=True)

    # -- what may happen ----------------------------------------------------------------

    def request_complete(self) -> bool:
        """Every seat but the asker approved the pending request."""
        if self.pending is None:
            return False
        others = [s for s in self.seats if s != self.pending.seat]
        return all(s in self.pending.approved for s in others)

    def check_target(self, to_position: int, by_arbiter: bool) -> None:
        if self.finished:
            raise LineRefusal(
                "game-over", "a finished game cannot take moves back; fork it instead"
            )
        if to_position not in self.positions or to_position == self.positions[-1]:
            raise LineRefusal(
                "bad-takeback-target",
                f"position {to_position} is not an earlier position of the current line of play",
            )
        crossed = [p for p in self.reveals if p > to_position]
        if crossed and not by_arbiter:
            raise LineRefusal(
                "takeback-across-hidden",
                f"taking back to {to_position} would cross position {crossed[0]}, where hidden "
                "information was drawn or revealed; only the arbiter can order that",
            )

    def check_request(self, seat: str, to_position: int) -> None:
        """A seat asks the others to go back (``consent`` only)."""
        self._check_seat(seat)
        if self.policy != "consent":
            raise LineRefusal(
                "undo-not-allowed", f"under the {self.policy!r} policy nobody asks; see its rules"
            )
        self.check_target(to_position, by_arbiter=False)
        if self.pending is not None:
            raise LineRefusal("undo-pending", "another take-back request is waiting for answers")

    def check_answer(self, seat: str, to_position: int | None = None) -> None:
        """Another seat approves or declines the pending request."""
        self._check_seat(seat)
        if self.finished:
            raise LineRefusal("game-over", "the game is over; its take-back requests lapsed")
        request = self.pending
        if request is None:
            raise LineRefusal("no-undo-request", "there is no take-back request to answer")
        if to_position is not None and to_position != request.to_position:
            raise LineRefusal("bad-takeback-target", "the answer names another position")
        if seat == request.seat:
            raise LineRefusal("own-request", "the other seats answer a take-back request")
        if seat in request.approved:
            raise LineRefusal("already-answered", "you approved this request already")

    def check_takeback(self, to_position: int, by: str, approved_by: Sequence[str]) -> None:
        """Taking back to ``to_position``, ordered by the arbiter or made by a
        seat as its game's policy allows."""
        by_arbiter = by == ARBITER
        if not by_arbiter:
            self._check_seat(by)
        self.check_target(to_position, by_arbiter)
        if by_arbiter:
            if approved_by:
                raise LineRefusal("bad-approval", "an arbiter's take-back needs no approvals")
            return
        if self.policy == "none":
            raise LineRefusal("undo-not-allowed", "this game allows no take-backs")
        if self.policy == "arbiter":
            raise LineRefusal("arbiter-only", "only the arbiter may take moves back")
        if self.policy == "free":
            if approved_by:
                raise LineRefusal("bad-approval", "a free take-back needs no approvals")
            return
        request = self.pending
        if request is None or request.seat != by or request.to_position != to_position:
            raise LineRefusal("not-requested", f"{by} did not ask to go back to {to_position}")
        if not self.request_complete():
            raise LineRefusal(
                "not-approved", f"{by}'s take-back needs every other seat's approval first"
            )
        if list(approved_by) != list(request.approved):
            raise LineRefusal("bad-approval", "the approvals differ from the answers given")

    def _check_seat(self, seat: str) -> None:
        if seat not in self.seats:
            raise LineRefusal("not-a-seat", f"{seat!r} does not play in this game")
