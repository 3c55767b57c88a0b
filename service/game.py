"""The ``Game`` aggregate: one game's log, guarded by its rules.

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
"""

from __future__ import annotations

import logging
from typing import Any, cast
from uuid import UUID

from eventsourcing.domain import Aggregate, Snapshot

from gamelog.games import get_rules
from gamelog.games.codec import decode, encode
from gamelog.games.protocol import ARBITER, Move, Rules, rng_for
from gamelog.replay.fold import start_state
from gamelog.replay.record import Record, as_stored, seal
from gamelog.service.errors import UNREADABLE, Conflict, PermissionDenied, Refused

UNDO_POLICIES = ("none", "consent", "arbiter", "free")
log = logging.getLogger(__name__)


class GameSnapshot(Snapshot):
    """A snapshot whose game state is stored through the state codec."""

    @classmethod
    def take(cls, aggregate: Any) -> GameSnapshot:
        snapshot = super().take(aggregate)
        state = dict(snapshot.state)
        state["state"] = encode(state["state"])
        return cls(
            originator_id=snapshot.originator_id,
            originator_version=snapshot.originator_version,
            timestamp=snapshot.timestamp,
            topic=snapshot.topic,
            state=state,
        )

    def mutate(self, _: None) -> Any:
        aggregate = super().mutate(None)
        aggregate.__dict__["state"] = decode(aggregate.__dict__["state"])
        return aggregate


class Game(Aggregate):
    """One game's log. Commands check and then trigger exactly one event."""

    Snapshot = GameSnapshot

    class Created(Aggregate.Created):
        record: dict[str, Any]
        seed_hex: str

    class MovePlayed(Aggregate.Event):
        record: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            cast(Game, aggregate)._apply_move(self.record)

    class UndoRequested(Aggregate.Event):
        record: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            cast(Game, aggregate)._apply_undo_step(self.record)

    class UndoApproved(UndoRequested):
        pass

    class UndoDeclined(UndoRequested):
        pass

    class MovesTakenBack(Aggregate.Event):
        record: dict[str, Any]
        restored_state: Any
        """The state at ``to_position``, encoded: a cache so that a load
        never needs the older states. Derived, so not part of the hash; audit
        recomputes it from the records."""

        def apply(self, aggregate: Aggregate) -> None:
            cast(Game, aggregate)._apply_takeback(self.record, decode(self.restored_state))

    class Finished(Aggregate.Event):
        record: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            cast(Game, aggregate)._apply_finish(self.record)

    def __init__(self, record: dict[str, Any], seed_hex: str) -> None:
        self.record_created = record
        self.seed_hex = seed_hex
        self.last_hash: str = record["hash"]
        self.base_ply: int = record.get("base_ply", 0)
        self.line: list[int] = [0]
        self.reveals_in_line: list[int] = []
        self.request_ids: dict[str, int] = {}
        self.undo_request: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.state = start_state(self.rules, record)

    # -- what the game is ------------------------------------------------------

    @property
    def rules(self) -> Rules[Any]:
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
        return self.base_ply + len(self.line) - 1

    @property
    def is_finished(self) -> bool:
        return self.result is not None

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.seed_hex)

    # -- creating ------------------------------------------------------------------

    @classmethod
    def create(cls, game_id: UUID, record: Record, seed: bytes) -> Game:
        return cls._create(cls.Created, id=game_id, record=seal(record), seed_hex=seed.hex())

    # -- commands ------------------------------------------------------------------

    def _next(self, kind: str, **fields: Any) -> Record:
        return {"position": self.position + 1, "kind": kind, "prev_hash": self.last_hash, **fields}

    def _expect(self, at_position: int) -> None:
        if at_position != self.position:
            raise Conflict(
                "stale-position",
                f"the game is at position {self.position}, not {at_position}; reload and retry",
            )

    def play(self, seat: str, move: Move, at_position: int, request_id: str = "") -> None:
        """Validate ``move`` with the rules and store it with what happened."""
        self._expect(at_position)
        if self.is_finished:
            raise Refused("game-over", "the game is over")
        if seat != ARBITER and seat not in self.seats:
            raise Refused("not-a-seat", f"{seat!r} does not play in this game")
        if seat not in self.rules.to_act(self.state):
            raise PermissionDenied("not-your-turn", f"{seat} may not move now")
        ply = self.ply + 1
        try:
            events = self.rules.decide(self.state, seat, move, rng_for(self.seed, ply))
        except UNREADABLE as error:
            log.warning("rules %s failed on move %r: %r", self.rules.name, move, error)
            raise Refused("bad-move", f"this move cannot be read: {error!r}") from None
        move, events = as_stored([move, events])
        record = self._next("move", seat=seat, ply=ply, move=move, events=events)
        if request_id:
            record["request_id"] = request_id
        self.trigger_event(self.MovePlayed, record=seal(record))
        result = self.rules.result(self.state)
        if result is not None:
            self.trigger_event(
                self.Finished,
                record=seal(self._next("finished", result=result.to_json(), seed=self.seed_hex)),
            )

    def request_undo(self, seat: str, to_position: int, at_position: int) -> None:
        self._expect(at_position)
        self._check_takeback_target(to_position, ordered_by_arbiter=False)
        if self.undo_request is not None:
            raise Refused("undo-pending", "another take-back request is waiting for answers")
        record = self._next("undo-request", seat=seat, to_position=to_position)
        self.trigger_event(self.UndoRequested, record=seal(record))

    def answer_undo(self, seat: str, approve: bool, at_position: int) -> None:
        self._expect(at_position)
        request = self.undo_request
        if request is None:
            raise Refused("no-undo-request", "there is no take-back request to answer")
        if seat == request["seat"]:
            raise Refused("own-request", "the other seats answer a take-back request")
        if seat in request["approved"]:
            raise Refused("already-answered", "you approved this request already")
        kind = "undo-approve" if approve else "undo-decline"
        record = self._next(kind, seat=seat, to_position=request["to_position"])
        event_class = self.UndoApproved if approve else self.UndoDeclined
        self.trigger_event(event_class, record=seal(record))

    def pending_undo_complete(self) -> bool:
        request = self.undo_request
        if request is None:
            return False
        others = [s for s in self.seats if s != request["seat"]]
        return all(s in request["approved"] for s in others)

    def take_back(
        self,
        to_position: int,
        by: str,
        approved_by: list[str],
        restored_state: Any,
        ordered_by_arbiter: bool,
    ) -> None:
        """Return the game to the state of ``to_position`` (appending, never deleting)."""
        self._check_takeback_target(to_position, ordered_by_arbiter)
        ply = self.base_ply + self.line.index(to_position)
        record = self._next(
            "takeback", to_position=to_position, by=by, approved_by=approved_by, ply=ply
        )
        self.trigger_event(
            self.MovesTakenBack, record=seal(record), restored_state=encode(restored_state)
        )

    def restore(self, record: Record, restored_state: Any = None) -> None:
        """Append an already validated record (an import, after its audit)."""
        self._expect(record["position"] - 1)
        sealed = seal({**record, "prev_hash": self.last_hash})
        if record["kind"] == "takeback":
            self.trigger_event(
                self.MovesTakenBack, record=sealed, restored_state=encode(restored_state)
            )
        else:
            self.trigger_event(_EVENT_OF_KIND[record["kind"]], record=sealed)

    def _check_takeback_target(self, to_position: int, ordered_by_arbiter: bool) -> None:
        if self.is_finished:
            raise Refused("game-over", "a finished game cannot take moves back; fork it instead")
        if to_position not in self.line or to_position == self.line[-1]:
            raise Refused(
                "bad-takeback-target",
                f"position {to_position} is not an earlier position of the current line of play",
            )
        crossed = [p for p in self.reveals_in_line if p > to_position]
        if crossed and not ordered_by_arbiter:
            raise Refused(
                "takeback-across-hidden",
                f"taking back to {to_position} would cross position {crossed[0]}, where hidden "
                "information was drawn or revealed; only the arbiter can order that",
            )

    # -- applying stored events ------------------------------------------------

    def _apply_move(self, record: Record) -> None:
        rules = self.rules
        state = self.state
        for event in record["events"]:
            state = rules.evolve(state, event)
        # Containers are replaced, never changed in place: a loaded game is a
        # shallow copy of the cached one, which must stay as it was.
        self.state = state
        self.line = [*self.line, record["position"]]
        if any(rules.shows_hidden(event) for event in record["events"]):
            self.reveals_in_line = [*self.reveals_in_line, record["position"]]
        if record.get("request_id"):
            self.request_ids = {**self.request_ids, record["request_id"]: record["position"]}
        self.last_hash = record["hash"]

    def _apply_undo_step(self, record: Record) -> None:
        kind = record["kind"]
        if kind == "undo-request":
            self.undo_request = {
                "seat": record["seat"],
                "to_position": record["to_position"],
                "approved": [],
            }
        elif kind == "undo-approve" and self.undo_request is not None:
            self.undo_request = {
                **self.undo_request,
                "approved": [*self.undo_request["approved"], record["seat"]],
            }
        elif kind == "undo-decline":
            self.undo_request = None
        self.last_hash = record["hash"]

    def _apply_takeback(self, record: Record, restored_state: Any) -> None:
        to_position = record["to_position"]
        self.line = [p for p in self.line if p <= to_position]
        self.reveals_in_line = [p for p in self.reveals_in_line if p <= to_position]
        self.state = restored_state
        self.undo_request = None
        self.last_hash = record["hash"]

    def _apply_finish(self, record: Record) -> None:
        self.result = record["result"]
        self.last_hash = record["hash"]


_EVENT_OF_KIND: dict[str, type[Aggregate.Event]] = {
    "move": Game.MovePlayed,
    "undo-request": Game.UndoRequested,
    "undo-approve": Game.UndoApproved,
    "undo-decline": Game.UndoDeclined,
    "finished": Game.Finished,
}
