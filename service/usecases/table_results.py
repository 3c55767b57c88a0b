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
no finished table shows the deal the others still play.
"""

from __future__ import annotations

from uuid import UUID

from gamelog.service.model.game import Game
from gamelog.service.model.refusals import NotFound
from gamelog.service.model.server_clock import record_time
from gamelog.service.model.tournament import Tournament
from gamelog.service.storage.store import GameStore


class TableResults:
    """Saving a game, and a tournament table's result with it."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def save_game(self, game_id: UUID, game: Game) -> None:
        """Save what a command on ``game`` triggered (the caller holds the
        game's lock), with the tournament's record of its result if it ended
        a tournament's table."""
        held = game.end_held and game.is_over and not game.is_finished
        if held and not game.pending_events:
            held = False  # nothing new: it was over before this command
        ended = any(isinstance(e, Game.Finished) for e in game.pending_events)
        if not (ended or held):
            self.store.commit(game)
            return
        tournament_id = game.tournament_id
        if tournament_id is None:
            self._finish_unheld(game)
            return
        # Lock order: a game's lock, then its tournament's; never the other way.
        with self.store.locks.tournament(tournament_id):
            try:
                tournament = self.store.tournament(tournament_id)
            except NotFound:
                self._finish_unheld(game)
                return
            if tournament.table_of(game_id) is None:
                # Not (or no longer) one of its tables: a fork, an override's
                # leftover, a game that merely names the tournament.
                self._finish_unheld(game)
                return
            if held:
                where = tournament.table_of(game_id)
                assert where is not None
                stored = self.end_round(tournament, where[0], {game_id: game})
                others = [each for each in stored if each is not game]
            else:
                others = []
                assert game.result is not None
                tournament.record_result(game_id, game.result, game.last_hash)
            self.store.commit(game, *others, tournament)
        for other in others:
            self.store.remember(other)

    def _finish_unheld(self, game: Game) -> None:
        """A game that holds its end with no round to wait for ends at once."""
        game.finish_held()
        self.store.commit(game)

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
