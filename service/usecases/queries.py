"""The queries: positions as a viewer sees them, legal moves, records, diffs, audits.

Nothing here writes. Every answer passes through the game's redaction for the
caller: a seat sees what the rules show it, a spectator what the table shows,
the arbiter everything.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any
from uuid import UUID

from gamelog.games import all_rules
from gamelog.games.codec import decode
from gamelog.games.protocol import ARBITER, JSON, GameType, Viewer
from gamelog.replay.audit import audit_records
from gamelog.replay.audit_report import AuditReport
from gamelog.replay.checks import quoted
from gamelog.replay.clock import millis
from gamelog.replay.fold import line_records
from gamelog.replay.record import Record
from gamelog.replay.redact import is_redacted, redact_record
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import (
    DataLoss,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    Unauthenticated,
)
from gamelog.service.model.server_clock import record_time
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases.access import Access
from gamelog.service.usecases.answers import LegalMoves, LineDiff, PositionView, Shown
from gamelog.service.usecases.showing import shown
from gamelog.service.usecases.timekeeper import Timekeeper


class Queries:
    """The use cases that only read."""

    def __init__(self, store: GameStore, access: Access, timekeeper: Timekeeper) -> None:
        self.store = store
        self.access = access
        self.timekeeper = timekeeper

    def state_at(self, game_id: UUID, position: int | None = None) -> Game:
        """The game as it stood after ``position`` (the latest when None)."""
        if position is not None and position < 0:
            raise InvalidArgument("bad-position", "positions start at 0 (the deal)")
        return self.store.game(game_id, position)

    def view(
        self,
        game_id: UUID,
        token: str | None,
        position: int | None = None,
        picture: bool = False,
    ) -> PositionView:
        """What the caller may see at a position, optionally with a picture."""
        viewer = self.access.viewer(game_id, token)
        game = self.state_at(game_id, position)
        if position is None and self.timekeeper.enforce_clock(game_id, game):
            game = self.state_at(game_id)
        latest = game if position is None else self.store.game(game_id)
        rules = game.rules
        to_act = list(rules.to_act(game.state)) if not game.is_finished else []
        undo = game.undo_request
        return PositionView(
            game_id=game_id,
            game=rules.name,
            position=game.position,
            last_position=latest.position,
            ply=game.ply,
            viewer=viewer,
            view=rules.view(game.state, viewer),
            to_act=to_act,
            finished=game.is_finished,
            result=game.result,
            text=rules.render_text(game.state, viewer),
            pending_undo=dict(undo) if undo else None,
            svg=rules.render_svg(game.state, viewer) if picture else "",
            tags={str(k): str(v) for k, v in game.record_created.get("metadata", {}).items()},
            clocks=self._clocks(game, position is None),
            undo_policy=game.undo_policy,
        )

    @staticmethod
    def _clocks(game: Game, latest: bool) -> dict[str, JSON] | None:
        """Each seat's time left (ms) and whose clock runs, read now for the
        latest position, else as the clocks stood at that position's record."""
        clock = game.clock
        if clock is None:
            return None
        now = millis(record_time()) if latest else clock.since_ms
        return {
            "time_control": clock.control.text(),
            "on_timeout": clock.control.on_timeout,
            "remaining_ms": {seat: max(0, clock.remaining(seat, now)) for seat in game.seats},
            "running": list(clock.running) if latest else [],
            "out_of_time": list(clock.out_of_time),
        }

    def legal_moves(self, game_id: UUID, token: str | None, seat: str | None = None) -> LegalMoves:
        """The legal moves of the caller's seat now; the arbiter may ask for
        any seat's (a hot-seat front end or a bot host holds one key)."""
        caller = self.access.seat(game_id, token)
        game = self.store.game(game_id)
        if seat and seat != caller:
            if caller != ARBITER:
                raise PermissionDenied(
                    "arbiter-only", "a seat lists its own moves; only the arbiter names a seat"
                )
            if seat not in game.seats and seat != ARBITER:
                raise InvalidArgument("not-a-seat", f"{quoted(seat)} does not play in this game")
        whose = seat or caller
        if game.is_finished:
            return LegalMoves(whose, game.position, [])
        rules = game.rules
        moves = list(rules.legal_moves(game.state, whose))
        note = rules.sampled(game.state, whose) if moves else None
        return LegalMoves(whose, game.position, moves, note)

    def visible_records(
        self,
        game_id: UUID,
        token: str | None,
        from_position: int = 0,
        to_position: int | None = None,
    ) -> list[Shown]:
        """The stored records from ``from_position`` to ``to_position``
        (inclusive; None: the last) as the caller may see them, each with its
        line in the game's notation."""
        if from_position < 0:
            raise InvalidArgument("bad-position", "positions start at 0 (the deal)")
        if to_position is not None and to_position < from_position:
            raise InvalidArgument(
                "bad-position", f"to_position {to_position} is before from_position {from_position}"
            )
        viewer = self.access.viewer(game_id, token)
        game = self.store.game(game_id)
        records = self.store.records(game_id, from_position, to_position)
        return shown(self.store, game_id, game, records, viewer)

    @staticmethod
    def game_types() -> list[GameType[Any]]:
        return all_rules()

    def line_of_play(self, game_id: UUID, position: int | None = None) -> list[tuple[UUID, Record]]:
        """The move records of the line that stands at ``position`` (the
        latest when None), from the root game's deal on, each with the game
        that stored it."""
        records = self.store.records(game_id, 0, position)
        parent = records[0].get("parent")
        before = self.line_of_play(UUID(parent["game_id"]), parent["position"]) if parent else []
        own = line_records(records, len(records) - 1)
        return before + [(game_id, record) for record in own]

    def _check_token_of_either(self, game_id: UUID, other_id: UUID, token: str | None) -> None:
        """A diff's token, when given, is one of either game's (a fork's
        arbiter compares the fork with the game it came from)."""
        if not token:
            return
        try:
            self.access.viewer(game_id, token)
        except Unauthenticated:
            try:
                self.access.viewer(other_id, token)
            except Unauthenticated:
                raise Unauthenticated(
                    "bad-token",
                    f"this token belongs to no seat of game {game_id} nor of game {other_id}",
                ) from None

    def _rights(self, game_id: UUID, token: str | None) -> Viewer:
        """What ``token`` may see of a game: everything (ARBITER) once it is
        finished or as its arbiter, else its seat's or a spectator's part."""
        if self.store.game(game_id).is_finished:
            return ARBITER
        return self.access.viewer_or_spectator(game_id, token)

    def diff(self, game_id: UUID, other_id: UUID, token: str | None) -> LineDiff:
        """Compare two lines of play ply by ply, to the first difference, as
        the caller may see them. Two plies are compared as the one viewer
        whose rights the caller holds in both games that stored them (the
        arbiter for finished games): what a running game hides from the
        caller is never compared, or a diff against a game of one's own made
        to match a guess would confirm the guess. The first differing plies
        are shown as each one's game logs them for the caller. A token, when
        given, is one of either game's."""
        games = (self.store.game(game_id), self.store.game(other_id))
        if games[0].record_created["game"] != games[1].record_created["game"]:
            raise InvalidArgument("different-games", "these are records of different games")
        self._check_token_of_either(game_id, other_id, token)
        rules = games[0].rules
        first, second = self.line_of_play(game_id), self.line_of_play(other_id)
        rights: dict[UUID, Viewer] = {}
        for gid in [game_id, other_id, *(stored_in for stored_in, _ in first + second)]:
            if gid not in rights:
                rights[gid] = self._rights(gid, token)
        common, cut = 0, False
        for (gid_a, a), (gid_b, b) in zip(first, second):
            viewer = _common_viewer(rights[gid_a], rights[gid_b])
            seen_a = redact_record(rules, a, viewer, False)
            seen_b = redact_record(rules, b, viewer, False)
            # Whether a ply was cut is no secret: the caller's records say so.
            cut = cut or is_redacted(seen_a) or is_redacted(seen_b)
            if _ply(seen_a) != _ply(seen_b):
                break
            common += 1
        seen = " as you may see them (what is hidden from you is not compared)" if cut else ""
        if common == len(first) == len(second):
            return LineDiff(common, True, f"the lines are identical{seen} ({common} plies)")
        parts = [f"the lines share {common} plies{seen}"]
        for label, line in (("first", first), ("second", second)):
            if common < len(line):
                stored_in, move = line[common]
                # The ply as its game's own log shows it to the caller.
                as_logged = shown(
                    self.store, stored_in, self.store.game(stored_in), [move], rights[stored_in]
                )[0]
                parts.append(f"{label}: ply {common + 1}: {as_logged.notation}")
            else:
                parts.append(f"{label}: ends after ply {common}")
        return LineDiff(common, False, "; ".join(parts))

    # -- audit ------------------------------------------------------------------------

    def audit(self, game_id: UUID, token: str | None = None) -> AuditReport:
        """Audit a stored game with the server's copy of its seed (which the
        report never shows), and the states the store caches beside the
        records (at take-backs and in snapshots) against the records.

        While the game runs, what was stored and what the rules give at a
        difference may hold hidden cards: only the arbiter sees them."""
        viewer = self.access.viewer(game_id, token)
        # Read as stored: the audit is what reports a damaged cache.
        game = self.store.game(game_id, checked=False)
        records = self.store.records(game_id)
        parent_records = None
        parent = records[0].get("parent")
        if parent:
            with contextlib.suppress(NotFound, DataLoss):
                parent_records = self.store.records(UUID(parent["game_id"]), 0, parent["position"])
        report = audit_records(
            records,
            seed=game.seed,
            seed_nonce=bytes.fromhex(game.seed_nonce_hex) if game.seed_nonce_hex else None,
            parent_records=parent_records,
            cached_states=self._cached_states(game_id),
        )
        first = report.first_difference
        if first is not None and not game.is_finished and viewer != ARBITER:
            report.first_difference = replace(first, stored=None, expected=None)
        return report

    def _cached_states(self, game_id: UUID) -> dict[int, Any]:
        """States the store keeps beside the records, by position: each
        take-back's restored state, and each snapshot's game state."""
        cached: dict[int, Any] = {}
        for event in self.store.events.get(game_id):
            if isinstance(event, Game.MovesTakenBack):
                cached[event.originator_version - 1] = decode(event.restored_state)
        if self.store.snapshots is not None:
            for snapshot in self.store.snapshots.get(game_id):
                state = getattr(snapshot, "state", {}).get("state")
                cached[snapshot.originator_version - 1] = decode(state)
        return cached


def _common_viewer(one: Viewer, other: Viewer) -> Viewer:
    """The viewer whose rights are within both: the same one, the seat where
    the other is the arbiter, else a spectator.

    >>> _common_viewer("ann", ARBITER), _common_viewer("ann", "bob"), _common_viewer(None, None)
    ('ann', None, None)
    """
    if one == other or other == ARBITER:
        return one
    if one == ARBITER:
        return other
    return None


def _ply(record: Record) -> tuple[Any, Any, Any]:
    return record["seat"], record["move"], record["events"]
