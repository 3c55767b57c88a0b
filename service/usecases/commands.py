"""The commands on games: creating one, playing a move, taking moves back, forking.

Each command authenticates the caller (``Access``), takes the game's lock,
lets the ``Game`` aggregate decide, and commits what it triggered in one
transaction (``TableResults.save_game``, which adds a tournament table's
result): a refused command writes nothing. A move decided on the server's
event loop takes another path to the same checks (``play_on_loop``).

    >>> from gamelog.service.usecases.application import GameLog
    >>> app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    >>> created = app.games.create_game("freeform", ["ann", "ben"])
    >>> played = app.games.play(created.game_id, created.tokens["ann"], {"say": "e4"}, 0)
    >>> played.position, played.shown[0].notation
    (1, 'ann: say: e4')
    >>> app.close()
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from gamelog.games.protocol import ARBITER, JSON, RulesError
from gamelog.replay.checks import quoted
from gamelog.replay.fold import line_events
from gamelog.replay.record import RECORD_FORMAT, new_seed_nonce, seed_commitment
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import (
    Conflict,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    Refused,
)
from gamelog.service.model.server_clock import record_time
from gamelog.service.storage.copies import event_record
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases.access import Access
from gamelog.service.usecases.answers import CreatedGame, Played, TakeBackOutcome
from gamelog.service.usecases.creation import (
    checked_metadata,
    checked_undo_policy,
    new_game,
    prepare_game,
    refuse_duplicate_tag,
)
from gamelog.service.usecases.showing import played, shown
from gamelog.service.usecases.table_results import TableResults
from gamelog.service.usecases.timekeeper import Timekeeper


class GameCommands:
    """The use cases that store something in a game."""

    def __init__(
        self,
        store: GameStore,
        access: Access,
        table_results: TableResults,
        timekeeper: Timekeeper,
    ) -> None:
        self.store = store
        self.access = access
        self.table_results = table_results
        self.timekeeper = timekeeper

    # -- creating ---------------------------------------------------------------------

    def create_game(
        self,
        game: str,
        seats: Sequence[str],
        options: Mapping[str, JSON] | None = None,
        undo_policy: str = "none",
        metadata: Mapping[str, JSON] | None = None,
        seed: bytes | None = None,
    ) -> CreatedGame:
        """Set up a new game: deal it, publish the seed's commitment, issue tokens."""
        refuse_duplicate_tag(metadata)
        game_aggregate, credentials, created = prepare_game(
            game, seats, options, undo_policy, metadata, seed
        )
        self.store.commit(game_aggregate, credentials)
        return created

    # -- playing ----------------------------------------------------------------------

    def play(
        self,
        game_id: UUID,
        token: str | None,
        move: Any,
        at_position: int,
        request_id: str = "",
        as_seat: str = "",
    ) -> Played:
        """Validate and store one move played at ``at_position``. ``as_seat``:
        the arbiter plays that seat's move on its behalf (a player who left
        the table); the record says so (``by_arbiter``)."""
        caller = self.access.seat(game_id, token)
        if not isinstance(move, dict):
            raise InvalidArgument("bad-move", "a move is a JSON object")
        seat, by_arbiter = caller, False
        if as_seat and as_seat != caller:
            if caller != ARBITER:
                raise PermissionDenied(
                    "arbiter-only", "only the arbiter plays a move on a seat's behalf"
                )
            seat, by_arbiter = as_seat, True
        with self.store.locks.game(game_id):
            game = self.store.game_at(game_id, at_position)
            if request_id and request_id in game.request_ids:
                return self._replayed(game_id, game, request_id, seat, move)
            now = record_time()
            if game.flag(now):
                # Time ran out before this move came: that is stored, the move is not.
                game = self.table_results.save_game(game_id, game)
                self.store.remember(game)
                _refuse_after_timeout(game, seat, at_position)
            before = game.state
            try:
                game.play(seat, move, at_position, request_id, now, by_arbiter)
            except RulesError as error:
                raise Refused(error.code, error.message) from None
            records = [event_record(event) for event in game.pending_events]
            try:
                game = self.table_results.save_game(game_id, game)
            except Conflict:
                # Another process may have stored this very request already.
                return self.after_lost_race(game_id, request_id, seat, move)
            self.store.remember(game)
        return played(game, before, records, seat, caller)

    def after_lost_race(self, game_id: UUID, request_id: str, seat: str, move: Any) -> Played:
        """After a lost race for a position: the answer to this very request
        if another process stored it already, else the conflict."""
        with self.store.locks.game(game_id):
            fresh = self.store.game(game_id)
            if request_id and request_id in fresh.request_ids:
                return self._replayed(game_id, fresh, request_id, seat, move)
        raise Conflict(
            "position-taken", "another move was stored at this position first; reload and retry"
        )

    def _replayed(self, game_id: UUID, game: Game, request_id: str, seat: str, move: Any) -> Played:
        """The first answer again, for a retried request id."""
        position = game.request_ids[request_id]
        # The move, and the end it may have caused: nothing later matters.
        records = self.store.records(game_id, position, position + 1)
        first = records[0]
        if first["seat"] != seat or first["move"] != move:
            raise InvalidArgument(
                "request-id-reused",
                f"request id {quoted(request_id)} was used for a different move "
                f"at position {position}",
            )
        following = [
            r for r in records[1:] if r["kind"] == "finished" and r["position"] == position + 1
        ]
        records = [first, *following]
        return Played(
            position + len(following),
            records,
            replayed=True,
            seat=seat,
            finished=bool(following) or game.is_finished,
            game=game.record_created["game"],
            shown=shown(self.store, game_id, game, records, seat),
        )

    # -- taking back ------------------------------------------------------------------

    def take_back(
        self, game_id: UUID, token: str | None, action: str, to_position: int, at_position: int
    ) -> TakeBackOutcome:
        """Ask for, answer, or (as arbiter) order a take-back, as the game's
        undo policy allows. Taking back appends; nothing is deleted."""
        viewer = self.access.seat(game_id, token)
        if action not in ("request", "approve", "decline"):
            raise InvalidArgument("bad-action", "action is request, approve or decline")
        with self.store.locks.game(game_id):
            game = self.store.game(game_id)
            policy = game.undo_policy
            if viewer == ARBITER:
                if action != "request":
                    raise InvalidArgument(
                        "bad-action", "the arbiter orders a take-back; no answers"
                    )
                game.expect_position(at_position)
                self._take_back_now(game, game_id, to_position, ARBITER, [])
            elif action == "request":
                if policy == "none":
                    raise Refused("undo-not-allowed", "this game allows no take-backs")
                if policy == "arbiter":
                    raise PermissionDenied("arbiter-only", "only the arbiter may take moves back")
                if policy == "free":
                    game.expect_position(at_position)
                    self._take_back_now(game, game_id, to_position, viewer, [])
                else:
                    game.request_undo(viewer, to_position, at_position)
                    if game.pending_undo_complete():  # a one-seat game: nobody to ask
                        self._take_back_now(game, game_id, to_position, viewer, [])
            else:
                if policy != "consent":
                    raise Refused("no-undo-request", "this game's policy has no requests to answer")
                request = game.undo_request
                game.answer_undo(viewer, action == "approve", at_position)
                if request is not None and game.pending_undo_complete():
                    assert game.undo_request is not None
                    self._take_back_now(
                        game,
                        game_id,
                        request["to_position"],
                        request["seat"],
                        list(game.undo_request["approved"]),
                    )
            records = [event_record(event) for event in game.pending_events]
            self.store.commit(game)
            self.store.remember(game)
        taken_back = any(r["kind"] == "takeback" for r in records)
        return TakeBackOutcome(
            game.position,
            taken_back,
            records,
            seat=viewer,
            game=game.record_created["game"],
            shown=shown(self.store, game_id, game, records, viewer),
        )

    def _take_back_now(
        self,
        game: Game,
        game_id: UUID,
        to_position: int,
        by: str,
        approved_by: list[str],
    ) -> None:
        game.check_takeback_target(to_position, by_arbiter=by == ARBITER)
        restored = self.store.game(game_id, to_position).state
        game.take_back(to_position, by, approved_by, restored)

    # -- branching --------------------------------------------------------------------

    def fork(
        self,
        game_id: UUID,
        token: str | None,
        at_position: int,
        keep_seed: bool = False,
        metadata: Mapping[str, JSON] | None = None,
        undo_policy: str | None = None,
    ) -> CreatedGame:
        """Start a new game from the state of any position of another."""
        refuse_duplicate_tag(metadata)
        viewer = self.access.viewer(game_id, token)
        parent = self.store.game(game_id)
        if at_position > parent.position:
            raise NotFound("no-such-position", f"game {game_id} has no position {at_position}")
        if not parent.is_finished and viewer != ARBITER:
            raise PermissionDenied(
                "arbiter-only", "forking a game still in progress is the arbiter's action"
            )
        if keep_seed and not parent.is_finished:
            raise Refused("seed-secret", "only a finished game's seed can be kept by a fork")
        records = self.store.records(game_id, 0, at_position)
        created = records[0]
        rules = parent.rules
        if created["rules_version"] != rules.rules_version:
            raise Refused("old-rules", "this game was played under rules this server no longer has")
        events, ply = line_events(records, at_position)
        state = self.store.game(game_id, at_position).state
        if rules.result(state) is not None:
            raise Refused("nothing-to-play", f"the game is already over at position {at_position}")
        seed = parent.seed if keep_seed else secrets.token_bytes(32)
        seed_nonce = new_seed_nonce()
        policy = checked_undo_policy(undo_policy or created["undo_policy"])
        record = {
            "position": 0,
            "kind": "created",
            "prev_hash": "",
            "format": RECORD_FORMAT,
            "time": record_time(),
            "game": created["game"],
            "rules_version": created["rules_version"],
            "seats": created["seats"],
            "options": created["options"],
            "undo_policy": policy,
            # A fork keeps its parent's tags, Duplicate among them, but cannot add it.
            "metadata": {**created["metadata"], **checked_metadata(metadata)},
            "commitment": seed_commitment(seed, seed_nonce),
            "parent": {
                "game_id": str(game_id),
                "position": at_position,
                "hash": records[at_position]["hash"],
            },
            "base_ply": ply,
            "events": events,
        }
        game, credentials, made = new_game(record, seed, seed_nonce)
        self.store.commit(game, credentials)
        return made


def _refuse_after_timeout(game: Game, seat: str, at_position: int) -> None:
    """Refuse a move whose seat's time, or the game's, ran out before it came."""
    if game.is_over:
        raise Refused("game-over", "the game is over: time ran out")
    if game.clock is not None and seat in game.clock.out_of_time:
        raise Refused("out-of-time", f"{seat}'s time has run out")
    game.expect_position_for_move(seat, at_position)
    raise Conflict(
        "stale-position",
        f"time ran out for a seat; the game is at position {game.position}",
        {"position": str(game.position)},
    )
