"""Results flow in: a tournament table's game that ends puts its result into
the tournament, in the same transaction as its end.

Every command that may end a game (a move, a move that ends it on time, an
arbiter's result in ``freeform``) saves through ``TableResults.save_game``.
A game that no tournament here created (``Game.tournament_id`` is None) is
saved alone, without reading anything more. For a table of a tournament, the tournament's
``result-recorded`` is appended and both are saved together, so the standings
can never miss a finished table, nor count one that was not stored.

A duplicate round's tables hold their ends (``Game.end_held``): the last one
to be over stores every table's end and every result in one transaction, so
no finished table shows the deal the others still play. A table over before
the others records so in the tournament (``end-held``), so that every such
save writes the tournament: when two tables end at once on two processes,
the two transactions meet on the tournament's next position, and the one
that loses is made again from the tournament as the other left it, and so
ends the round. No round can stall that way; ``release_held_rounds`` ends
any that did before (and any a lost process left), at start-up and in a
sweep.

Every save that writes a tournament is made again, up to ``RETRIES`` times,
when the tournament's record moved on meanwhile (another table's result came
in elsewhere): the move itself was never in question.
"""

from __future__ import annotations

import logging
from uuid import UUID

from gamelog.replay.seated_games import DUPLICATE_TAG
from gamelog.service.index.follower import IndexFollower
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import Conflict, GamelogError, NotFound
from gamelog.service.model.server_clock import record_time
from gamelog.service.model.tournament import Tournament
from gamelog.service.storage.copies import working_copy
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases.signing import Signing

log = logging.getLogger(__name__)

RETRIES = 10
"""How often a save is made again when a tournament's record moved on meanwhile."""
SWEEP_PAGE = 500


class TableResults:
    """Saving a game, and a tournament table's result with it."""

    def __init__(self, store: GameStore, index: IndexFollower, signing: Signing) -> None:
        self.store = store
        self.index = index
        self.signing = signing

    def save_game(self, game_id: UUID, game: Game) -> Game:
        """Save what a command on ``game`` triggered (the caller holds the
        game's lock), with the tournament's record of its result if it ended
        a tournament's table; the game as saved (a held end may have been
        stored with it, the round's last)."""
        held = game.end_held and game.is_over and not game.is_finished
        if held and not game.pending_events:
            held = False  # nothing new: it was over before this command
        ended = any(isinstance(e, Game.Finished) for e in game.pending_events)
        if not (ended or held):
            self.store.commit(game)
            return game
        tournament_id = game.tournament_id
        if tournament_id is None:
            self._finish_unheld(game)
            return game
        first_new = game.position - len(game.pending_events) + 1
        for attempt in range(RETRIES + 1):
            # Each attempt works on its own copy: a failed one leaves nothing behind.
            trying = working_copy(game, pending=True)
            try:
                ended_here = self._save_table(game_id, trying, tournament_id, held)
                self.signing.games_ended(ended_here)
                return trying
            except Conflict:
                lost_the_game = self.store.last_position(game_id) >= first_new
                if lost_the_game or attempt == RETRIES:
                    raise
                log.info("tournament %s moved on while table %s was saved", tournament_id, game_id)
        raise AssertionError("unreachable")

    def _save_table(self, game_id: UUID, game: Game, tournament_id: UUID, held: bool) -> list[Game]:
        """The games saved (to sign those whose end was stored)."""
        # Lock order: a game's lock, then its tournament's; never the other way.
        with self.store.locks.tournament(tournament_id):
            try:
                tournament = self.store.tournament(tournament_id)
            except NotFound:
                self._finish_unheld(game)
                return []
            if tournament.table_of(game_id) is None:
                # Not (or no longer) one of its tables: a fork, an override's
                # leftover, a game that merely names the tournament.
                self._finish_unheld(game)
                return []
            others: list[Game] = []
            if held:
                where = tournament.table_of(game_id)
                assert where is not None
                stored = self.end_round(tournament, where[0], {game_id: game})
                if stored:
                    others = [each for each in stored if each is not game]
                else:
                    tournament.hold_end(game_id)
            else:
                assert game.result is not None
                tournament.record_result(game_id, game.result, game.last_hash)
            self.store.commit(game, *others, tournament)
        for other in others:
            self.store.remember(other)
        return [game, *others]

    def _finish_unheld(self, game: Game) -> None:
        """A game that holds its end with no round to wait for ends at once."""
        game.finish_held()
        self.store.commit(game)
        self.signing.games_ended([game])

    def end_round(
        self, tournament: Tournament, round_number: int, known: dict[UUID, Game]
    ) -> list[Game]:
        """If every table of a duplicate round is over (or has the director's
        result: a table that stalled), store each held end and its result in
        ``tournament``; the games whose ends it stored (to save with it)."""
        seated = tournament.state.seated(round_number)
        over: dict[UUID, Game] = {}
        for table in seated.tables:
            game_id = tournament.game_id_of(seated.games[table.number])
            if game_id is None:
                continue
            # Read without the other games' locks (lock order): a game that
            # is over takes no more moves, and the store's unique key on
            # (game, position) stops any write that raced this one.
            game = known.get(game_id) or self.store.peek_game(game_id)
            if game.is_over:
                over[game_id] = game
            elif table.number not in seated.directed:
                return []  # still playing
        now = record_time()
        ended = []
        for game_id, game in over.items():
            if game.finish_held(now):
                assert game.result is not None
                tournament.record_result(game_id, game.result, game.last_hash)
                ended.append(game)
        return ended

    def release_held_rounds(self) -> int:
        """End every duplicate round whose tables are all over but whose ends
        are still held (a round that stalled, or whose last table's process
        went away before it could end the round); how many games ended."""
        ended = 0
        after = 0
        view = self.index.current()
        while True:
            page = view.running_with_tag(DUPLICATE_TAG, SWEEP_PAGE, after)
            for game_id, _ in page:
                try:
                    ended += self._release(game_id)
                except GamelogError as error:  # damaged, or stored meanwhile elsewhere
                    log.debug("held end of %s not released this time: %s", game_id, error)
            if len(page) < SWEEP_PAGE:
                return ended
            after = page[-1][1]

    def _release(self, game_id: UUID) -> int:
        with self.store.locks.game(game_id):
            game = self.store.game(game_id)
            if not (game.end_held and game.is_over and not game.is_finished):
                return 0
            tournament_id = game.tournament_id
            if tournament_id is None:
                self._finish_unheld(game)
                return 1
            with self.store.locks.tournament(tournament_id):
                tournament = self.store.tournament(tournament_id)
                where = tournament.table_of(game_id)
                if where is None:
                    self._finish_unheld(game)
                    return 1
                stored = self.end_round(tournament, where[0], {game_id: game})
                if not stored:
                    if not tournament.hold_end(game_id):
                        return 0
                    self.store.commit(tournament)  # recorded as over: a table stored before
                    return 0
                self.store.commit(*stored, tournament)
            for each in stored:
                self.store.remember(each)
            self.signing.games_ended(stored)
            return len(stored)
