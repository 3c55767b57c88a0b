"""The ``GameType`` aggregate: one game's log, guarded by its rules.

Every stored event carries one plain *record* (``gamelog.replay.record``): the
creation with its deal, each accepted move with the rules' events, each step of
a take-back, and the end with the revealed seed. The aggregate holds the current
game state, folded from those records with the game's ``evolve``, and refuses
anything the rules or the log's invariants do not allow, before anything is
written.

Positions count stored events: the creation is position 0, the first move 1.
The *ply* counts moves in the current line of play; a take-back shortens the
line, and the random source of a decision depends on (seed, ply), so the same
position always draws the same cards.

A game with a time control keeps every seat's clock from the records' own
times, and records a seat out of time (``game_time``). A table of a
duplicate round (tag ``Duplicate``) holds its end: when its rules say it is
over, the ``finished`` record (which makes the whole record public) waits
until the tournament finishes every table of the round at once, so no
finished table shows the deal the other tables still play.

The aggregate is told in four modules, split as its rules are, decide
apart from evolve: here its events, what it is and its commands, each
checking before it triggers one event; ``game_records``, what each command
writes; ``game_fold``, what each stored record does to the game;
``game_time``, what the commands ask of a time control's clocks.
"""

from __future__ import annotations

import logging
from typing import Any, cast
from uuid import UUID

from eventsourcing.domain import Aggregate

from gamelog.games import get_rules
from gamelog.games.codec import decode, encode
from gamelog.games.protocol import ARBITER, GameType, Move, lazy_rng_for
from gamelog.replay.checks import quoted
from gamelog.replay.clock import (
    Clocks,
    millis,
    seat_by_rule,
    timeout_result,
)
from gamelog.replay.fold import start_state
from gamelog.replay.line import Line, LineRefusal
from gamelog.replay.record import RECORD_FORMAT, Record, as_stored, seal, stored_form
from gamelog.replay.seated_games import DUPLICATE_TAG
from gamelog.service.model.deciding import Decided, decide, folded_ahead
from gamelog.service.model.game_fold import fold_record
from gamelog.service.model.game_records import finished_record, move_record, next_record, sealed
from gamelog.service.model.game_time import lost_on_time, moves_by_rule, out_of_time
from gamelog.service.model.refusals import UNREADABLE, Conflict, PermissionDenied, Refused
from gamelog.service.model.server_clock import record_time
from gamelog.service.model.snapshots import GameSnapshot
from gamelog.service.model.tournament_tables import tournament_of
from gamelog.service.model.unreadable import reading

__all__ = ["Game"]
log = logging.getLogger(__name__)


class Game(Aggregate):
    """One game's log. Commands check and then trigger exactly one event."""

    Snapshot = GameSnapshot

    class Created(Aggregate.Created):
        record: dict[str, Any]
        seed_hex: str
        seed_nonce_hex: str = ""
        """The nonce in the seed's commitment (empty for a format-1 game)."""
        tournament_id: str | None = None
        """The stored form of the tournament here that created this game as
        one of its tables: its id, ``""`` for none, None in events stored
        before it was kept (``tournament_tables`` reads it)."""

    class Recorded(Aggregate.Event):
        """An event after the creation: each carries one stored record."""

        record: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            with reading(self.originator_version - 1):
                cast(Game, aggregate).fold(self)

    class MovePlayed(Recorded):
        pass

    class UndoRequested(Recorded):
        pass

    class UndoApproved(UndoRequested):
        pass

    class UndoDeclined(UndoRequested):
        pass

    class MovesTakenBack(Recorded):
        restored_state: Any
        """The state at ``to_position``, encoded: a cache so that a load
        never needs the older states. Derived, so not part of the hash; audit
        recomputes it from the records."""

    class Finished(Recorded):
        pass

    class TimedOut(Recorded):
        pass

    def __init__(
        self,
        record: dict[str, Any],
        seed_hex: str,
        seed_nonce_hex: str = "",
        tournament_id: str | None = None,
    ) -> None:
        self.tournament_id = tournament_of(record, tournament_id)
        """The tournament here whose table this game may be; its
        ``table_of`` says whether it is."""
        with reading(0):
            self._start(record, seed_hex, seed_nonce_hex)

    def _start(self, record: dict[str, Any], seed_hex: str, seed_nonce_hex: str) -> None:
        self.record_created = record
        self.seed_hex = seed_hex
        self.seed_nonce_hex = seed_nonce_hex
        self.last_hash: str = record["hash"]
        self.line = Line(
            seats=tuple(record["seats"]),
            policy=str(record["undo_policy"]),
            base_ply=record.get("base_ply", 0),
        )
        self.request_ids: dict[str, int] = {}
        self.result: dict[str, Any] | None = None
        self.state = start_state(self.rules, record)
        # The trailing run of simultaneous parts: where it starts, and each
        # seat's last position in it.
        self.concurrent_from = 1
        self.concurrent_last: dict[str, int] = {}
        self.restorations: tuple[tuple[int, int], ...] = ()
        """(position, to_position) of every take-back folded here: its state
        comes from the store's cache beside the record, which the store
        checks against the records before the game is served."""
        self.clock = Clocks.at_creation(record, self.rules, self.state)

    # -- what the game is ------------------------------------------------------

    @property
    def rules(self) -> GameType[Any]:
        return get_rules(self.record_created["game"])

    @property
    def seats(self) -> list[str]:
        return list(self.record_created["seats"])

    @property
    def undo_policy(self) -> str:
        return str(self.record_created["undo_policy"])

    @property
    def position(self) -> int:
        """The position of the last stored event (0 right after creation)."""
        return self.version - 1

    @property
    def ply(self) -> int:
        return self.line.ply

    @property
    def salted(self) -> bool:
        """Whether this game's records hide their parts behind salts (format 2)."""
        return self.record_created.get("format") == RECORD_FORMAT

    @property
    def undo_request(self) -> dict[str, Any] | None:
        """The take-back request waiting for answers, as plain data."""
        pending = self.line.pending
        if pending is None:
            return None
        return {
            "seat": pending.seat,
            "to_position": pending.to_position,
            "approved": list(pending.approved),
        }

    @property
    def is_finished(self) -> bool:
        return self.result is not None

    @property
    def end_held(self) -> bool:
        """A duplicate round's table: its end waits for the round's other tables."""
        return DUPLICATE_TAG in (self.record_created.get("metadata") or {})

    @property
    def lost_on_time(self) -> tuple[str, ...]:
        """Seats whose time ran out in a game they lose that way (``lose``)."""
        return lost_on_time(self.clock)

    def outcome(self) -> dict[str, Any] | None:
        """The result the end records (or recorded): the rules' result, or
        the time-out result once a seat lost on time; None while it goes on."""
        if self.result is not None:
            return self.result
        if self.lost_on_time:
            return timeout_result(self.seats, self.lost_on_time)
        result = self.rules.result(self.state)
        return as_stored(result.to_json()) if result is not None else None

    @property
    def is_over(self) -> bool:
        """Nothing more can be played: finished, or over with its end held."""
        return self.outcome() is not None

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.seed_hex)

    # -- creating ------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game_id: UUID,
        record: Record,
        seed: bytes,
        seed_nonce: bytes,
        tournament_id: UUID | None = None,
    ) -> Game:
        """A new game; ``tournament_id``: the tournament here that seats it
        at one of its tables."""
        return cls._create(
            cls.Created,
            id=game_id,
            record=seal(record, salted=record.get("format") == RECORD_FORMAT),
            seed_hex=seed.hex(),
            seed_nonce_hex=seed_nonce.hex(),
            tournament_id=str(tournament_id) if tournament_id is not None else "",
        )

    # -- commands: each checks, then triggers what ``game_records`` writes ----------

    def expect_position(self, at_position: int) -> None:
        """Refuse a command played at another position than the last."""
        if at_position != self.position:
            raise Conflict(
                "stale-position",
                f"the game is at position {self.position}, not {at_position}; reload and retry",
                {"position": str(self.position)},
            )

    def expect_position_for_move(self, seat: str, at_position: int) -> None:
        """A move names the position its seat saw. An older position is still
        good when everything stored since is other seats' parts of a
        simultaneous step (``Rules.concurrent``): nothing this seat could see
        changed, so seats acting at once need no reload-and-retry. The move
        is decided against the game as it stands now."""
        if (
            at_position < self.position
            and at_position + 1 >= self.concurrent_from
            and self.concurrent_last.get(seat, -1) <= at_position
        ):
            return
        self.expect_position(at_position)

    def play(
        self,
        seat: str,
        move: Move,
        at_position: int,
        request_id: str = "",
        now: str | None = None,
        by_arbiter: bool = False,
    ) -> None:
        """Validate ``move`` with the rules and store it with what happened,
        then whatever follows by itself (moves by rule, the end).
        ``by_arbiter``: the arbiter plays ``seat``'s move on its behalf (a
        player who left the table), and the record says so."""
        now = now or record_time()
        self.expect_position_for_move(seat, at_position)
        # Without a clock or a held end, a game that is over is finished (its
        # end is stored with the move that ends it): no need to ask the rules.
        if self.is_finished or ((self.clock is not None or self.end_held) and self.is_over):
            raise Refused("game-over", "the game is over")
        if seat != ARBITER and seat not in self.seats:
            raise Refused("not-a-seat", f"{quoted(seat)} does not play in this game")
        to_act = self.rules.to_act(self.state)
        if seat not in to_act:
            raise PermissionDenied(
                "not-your-turn",
                f"{seat} may not move now; to act: {', '.join(to_act) or 'nobody'}",
                {"to_act": ",".join(to_act)},
            )
        if out_of_time(self.clock, seat, now):
            raise Refused("out-of-time", f"{seat}'s time has run out")
        ply = self.ply + 1
        try:
            decided = decide(self.rules, self.state, seat, move, lazy_rng_for(self.seed, ply))
        except UNREADABLE as error:
            log.warning("rules %s failed on move %r: %r", self.rules.name, move, error)
            raise Refused("bad-move", f"this move cannot be read: {quoted(error, 200)}") from None
        self._store_move(
            now, seat, ply, move, decided, request_id=request_id, by_arbiter=by_arbiter
        )
        self._settle(now)

    def _store_move(
        self,
        now: str,
        seat: str,
        ply: int,
        move: Move,
        decided: Decided,
        request_id: str = "",
        by_rule: bool = False,
        by_arbiter: bool = False,
    ) -> None:
        """Store ``move`` with what the rules decided."""
        decided_events, after = decided
        (move, events), alike = stored_form([move, decided_events])
        record = move_record(
            self, now, seat, ply, (move, events), alike, request_id, by_rule, by_arbiter
        )
        # The decided state is what a replay reaches only if the store gives
        # back the very events decided: plain JSON (``alike``) and equal.
        if after is not None and alike and events == decided_events:
            with folded_ahead(events, after):
                self.trigger_event(self.MovePlayed, record=record)
        else:
            self.trigger_event(self.MovePlayed, record=record)

    def flag(self, now: str | None = None) -> bool:
        """Record every seat whose time has run out by ``now`` (and what
        follows: the end, or moves by rule). True if anything was recorded."""
        now = now or record_time()
        clock = self.clock
        if clock is None or self.is_over:
            return False
        late = clock.expired(millis(now))
        if not late:
            return False
        record = next_record(
            self, "timeout", now, seats=list(late), on_timeout=clock.control.on_timeout
        )
        self.trigger_event(self.TimedOut, record=sealed(self, record))
        self._settle(now)
        return True

    def finish_held(self, now: str | None = None) -> bool:
        """Store the held end of a game that is over (a duplicate round's
        table, once the round's last table is over). True if stored."""
        outcome = self.outcome()
        if self.is_finished or outcome is None:
            return False
        self._finish(outcome, now or record_time())
        return True

    def end_by_director(self, result: dict[str, Any], reason: str, now: str | None = None) -> None:
        """End a game still on with a tournament director's result (a table
        played on paper): a ``finished`` record that says so (``by_director``)
        and why, revealing the seed as every end does."""
        if self.is_over:
            raise Refused("game-over", "the game is over already")
        finished = finished_record(
            self, now or record_time(), result, by_director=True, reason=reason
        )
        self.trigger_event(self.Finished, record=finished)

    def _settle(self, now: str) -> None:
        """What follows a stored record by itself: the moves of seats out of
        time under ``play-by-rule`` (each the first of their legal moves), and
        the end once the game is over (unless its end is held)."""
        for seat, ply, move, decided in moves_by_rule(self):
            self._store_move(now, seat, ply, move, decided, by_rule=True)
        outcome = self.outcome()
        if outcome is not None and not self.is_finished and not self.end_held:
            self._finish(outcome, now)

    def seat_by_rule(self) -> str | None:
        """The seat whose move the service makes by rule now, if any: the
        first seat to act that ran out of time under ``play-by-rule``."""
        # Without a clock nobody moves by rule: no need to ask whether it is over.
        if self.clock is None or self.is_over:
            return None
        return seat_by_rule(self.rules, self.state, self.clock)

    def _finish(self, outcome: dict[str, Any], now: str) -> None:
        self.trigger_event(self.Finished, record=finished_record(self, now, outcome))

    def request_undo(self, seat: str, to_position: int, at_position: int) -> None:
        self.expect_position(at_position)
        self._check(self.line.check_request, seat, to_position)
        record = next_record(
            self, "undo-request", record_time(), seat=seat, to_position=to_position
        )
        self.trigger_event(self.UndoRequested, record=sealed(self, record))

    def answer_undo(self, seat: str, approve: bool, at_position: int) -> None:
        self.expect_position(at_position)
        self._check(self.line.check_answer, seat)
        assert self.line.pending is not None
        kind = "undo-approve" if approve else "undo-decline"
        record = next_record(
            self, kind, record_time(), seat=seat, to_position=self.line.pending.to_position
        )
        event_class = self.UndoApproved if approve else self.UndoDeclined
        self.trigger_event(event_class, record=sealed(self, record))

    def pending_undo_complete(self) -> bool:
        return self.line.request_complete()

    def take_back(
        self, to_position: int, by: str, approved_by: list[str], restored_state: Any
    ) -> None:
        """Return the game to the state of ``to_position`` (appending, never deleting)."""
        self._check(self.line.check_takeback, to_position, by, approved_by)
        record = next_record(
            self,
            "takeback",
            record_time(),
            to_position=to_position,
            by=by,
            approved_by=approved_by,
            ply=self.line.ply_at(to_position),
        )
        self.trigger_event(
            self.MovesTakenBack, record=sealed(self, record), restored_state=encode(restored_state)
        )

    def check_takeback_target(self, to_position: int, by_arbiter: bool) -> None:
        self._check(self.line.check_target, to_position, by_arbiter)

    def restore(self, record: Record, restored_state: Any = None) -> None:
        """Append an already validated record (an import, after its audit)."""
        self.expect_position(record["position"] - 1)
        chained = {**record, "prev_hash": self.last_hash}
        if record["kind"] == "takeback":
            self.trigger_event(
                self.MovesTakenBack, record=chained, restored_state=encode(restored_state)
            )
        else:
            self.trigger_event(_EVENT_OF_KIND[record["kind"]], record=chained)

    @staticmethod
    def _check(rule: Any, *args: Any) -> None:
        try:
            rule(*args)
        except LineRefusal as refusal:
            raise Refused(refusal.code, refusal.message) from None

    # -- applying stored events ------------------------------------------------

    def fold(self, event: Recorded) -> None:
        """Apply one stored record (its event's ``apply`` calls this);
        ``game_fold`` says what each kind of record does to the game."""
        restored = None
        if event.record["kind"] == "takeback":
            restored = decode(cast(Game.MovesTakenBack, event).restored_state)
        fold_record(self, event.record, restored)


_EVENT_OF_KIND: dict[str, type[Game.Recorded]] = {
    "move": Game.MovePlayed,
    "undo-request": Game.UndoRequested,
    "undo-approve": Game.UndoApproved,
    "undo-decline": Game.UndoDeclined,
    "finished": Game.Finished,
    "timeout": Game.TimedOut,
}
