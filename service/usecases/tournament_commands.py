"""The tournament commands: create, register, withdraw and re-enter, seat a
round, override a seating, enter or correct a result, finish.

Each command authenticates the director, takes the tournament's lock, lets
the ``Tournament`` aggregate decide (it folds the new record through the same
checks the audit runs), and saves everything it caused in one transaction: a
round's seating with every table's game, a registration with the players'
tokens. A refused command stores nothing.

What a command needs beyond that flow lives by its concept: a new
tournament's settings checked into its first record
(``tournament_creation``), a round's tables made games
(``tournament_seating``), a director's typing checked
(``tournament_input``). A player id is a valid seat name by construction:
the name's letters and digits, made unique (``ann-smith``, ``ann-smith-2``).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from gamelog.games.protocol import JSON
from gamelog.replay.record import seed_commitment
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import Conflict, InvalidArgument, Refused
from gamelog.service.model.tournament import Tournament
from gamelog.service.model.tournament_credentials import TournamentCredentials
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases import tournament_input
from gamelog.service.usecases.access import Access
from gamelog.service.usecases.signing import Signing
from gamelog.service.usecases.table_results import TableResults
from gamelog.service.usecases.tournament_answers import CreatedTournament, RegisteredPlayer
from gamelog.service.usecases.tournament_creation import creation_record
from gamelog.service.usecases.tournament_input import (
    check_duplicate_seats,
    one_line,
    player_entry,
)
from gamelog.service.usecases.tournament_seating import (
    refuse_if_started,
    reseated_games,
    table_games,
)
from gamelog.tournaments.rounds import Round, Table


class TournamentCommands:
    """The tournament use cases that store something."""

    def __init__(
        self, store: GameStore, access: Access, table_results: TableResults, signing: Signing
    ) -> None:
        self.store = store
        self.access = access
        self.table_results = table_results
        self.signing = signing

    # -- creating -----------------------------------------------------------------------

    def create_tournament(
        self,
        name: str,
        game: str,
        rounds: int,
        table_size: tuple[int, int] = (2, 2),
        *,
        site: str = "",
        dates: str = "",
        options: Mapping[str, JSON] | None = None,
        system: str = "swiss",
        undo_policy: str = "none",
        time_control: str = "",
        on_timeout: str = "lose",
        points: Sequence[Sequence[str | int]] = (),
        tiebreaks: Sequence[str] | None = None,
        bye_points: str | None = None,
        bye_place: int | None = None,
        forfeit_points: str = "0",
        duplicate: str = "none",
        seed: bytes | None = None,
        seeding: str = "lot",
    ) -> CreatedTournament:
        """A new tournament: its settings in its first record, the commitment
        to its secret seed, and the director's token (shown once)."""
        record, seed, nonce = creation_record(
            name,
            game,
            rounds,
            table_size,
            site=site,
            dates=dates,
            options=options,
            system=system,
            undo_policy=undo_policy,
            time_control=time_control,
            on_timeout=on_timeout,
            points=points,
            tiebreaks=tiebreaks,
            bye_points=bye_points,
            bye_place=bye_place,
            forfeit_points=forfeit_points,
            duplicate=duplicate,
            seed=seed,
            seeding=seeding,
        )
        tournament_id = uuid.uuid4()
        tournament = Tournament.create(tournament_id, record, seed, nonce)
        credentials, director_token = TournamentCredentials.issue(tournament_id)
        self.store.commit(tournament, credentials)
        return CreatedTournament(
            tournament_id, director_token, seed_commitment(seed, nonce), tournament.record_created
        )

    def _commit(self, *aggregates: Any) -> None:
        """Commit a command on a tournament. Its lock serializes the commands
        of this process; a table's result coming in on another process at
        the same moment takes the tournament's next position first, and the
        command is then refused for what it is (nothing was stored)."""
        try:
            self.store.commit(*aggregates)
        except Conflict as clash:
            if clash.code != "position-taken":
                raise
            raise Conflict(
                "tournament-moved-on",
                "the tournament's record changed meanwhile (a table's result came in); "
                "nothing was stored: look again and retry",
            ) from None

    # -- players ------------------------------------------------------------------------

    def register_players(
        self,
        tournament_id: UUID,
        token: str | None,
        players: Sequence[Mapping[str, Any]],
        first_round: int | None = None,
    ) -> list[RegisteredPlayer]:
        """Register players (``name``, optionally ``id``, ``rating``, ``club``):
        late entries play from ``first_round`` (default: the next round)."""
        self.access.director(tournament_id, token)
        if not players:
            raise InvalidArgument("no-players", "name at least one player")
        if first_round is not None and first_round < 1:
            raise InvalidArgument("bad-round", "a player's first round is round 1 or later")
        with self.store.locks.tournament(tournament_id):
            credentials = self.store.tournament_credentials(tournament_id)
            tournament = self.store.tournament(tournament_id)
            state = tournament.state
            if len(state.players) + len(players) > tournament_input.MAX_PLAYERS:
                most = tournament_input.MAX_PLAYERS
                raise InvalidArgument("too-many-players", f"at most {most} players")
            taken = {p.id.casefold() for p in state.players}
            entries = []
            for raw in players:
                entry = player_entry(raw, taken)
                taken.add(entry["id"].casefold())
                entries.append(entry)
            first = first_round if first_round is not None else state.next_round
            tournament.register(entries, first)
            tokens = credentials.issue_players(str(token), [e["id"] for e in entries])
            self._commit(tournament, credentials)
        return [RegisteredPlayer(e["id"], e["name"], tokens[e["id"]], first) for e in entries]

    def player_tokens(self, tournament_id: UUID, token: str | None) -> dict[str, str]:
        """Every player's token, derived again from the director's."""
        credentials = self.access.director(tournament_id, token)
        return credentials.issue_players(str(token), sorted(credentials.player_token_hashes))

    def change_roster(
        self,
        tournament_id: UUID,
        token: str | None,
        player: str,
        plays: bool,
        reason: str,
        round_number: int | None = None,
    ) -> dict[str, Any]:
        """Withdraw a player (``plays`` False) or bring them back, from
        ``round_number`` on (default: the next round)."""
        self.access.director(tournament_id, token)
        reason = one_line(reason, "reason", 500, required=True)
        if round_number is not None and round_number < 1:
            raise InvalidArgument("bad-round", "rounds are numbered from 1")
        with self.store.locks.tournament(tournament_id):
            tournament = self.store.tournament(tournament_id)
            number = round_number if round_number is not None else tournament.state.next_round
            record = tournament.change_roster(player, number, plays, reason)
            self._commit(tournament)
        return record

    # -- seating ------------------------------------------------------------------------

    def pair_round(
        self, tournament_id: UUID, token: str | None, deal: JSON | None = None
    ) -> tuple[Round, dict[int, UUID]]:
        """Seat the next round by the tournament's system and create every
        table's game, in one transaction. ``deal``: one explicit deal for
        every table (duplicate play; it stays hidden in the games)."""
        self.access.director(tournament_id, token)
        with self.store.locks.tournament(tournament_id):
            tournament = self.store.tournament(tournament_id)
            seated = tournament.next_round()
            duplicate = "deal" if deal is not None else tournament.record_created["duplicate"]
            games, aggregates = table_games(tournament, seated, duplicate, deal)
            tournament.seat_round(seated, {n: (h, gid) for n, (h, gid) in games.items()}, duplicate)
            self._commit(*aggregates, tournament)
        return seated, {n: gid for n, (_, gid) in games.items()}

    def withdraw_round(
        self, tournament_id: UUID, token: str | None, round_number: int | None, reason: str
    ) -> dict[str, Any]:
        """Take back the round paired last, before any of its tables has a
        move (default: that round): its games are never played, and the
        round's number is free to pair again. A round with a move or a
        result is played: its results are corrected instead."""
        self.access.director(tournament_id, token)
        reason = one_line(reason, "reason", 500, required=True)
        with self.store.locks.tournament(tournament_id):
            tournament = self.store.tournament(tournament_id)
            state = tournament.state
            if not state.rounds:
                raise Refused("no-round", "no round is paired yet")
            last = state.rounds[-1]
            number = round_number if round_number is not None else last.number
            if number != last.number:
                raise Refused(
                    "bad-round",
                    f"only the round paired last (round {last.number}) can be withdrawn",
                )
            refuse_if_started(self.store, tournament, "round-played", "it can be withdrawn")
            record = tournament.withdraw_round(number, reason)
            self._commit(tournament)
        return record

    def override_seating(
        self,
        tournament_id: UUID,
        token: str | None,
        tables: Sequence[Sequence[str]],
        byes: Sequence[str],
        reason: str,
    ) -> tuple[Round, dict[int, UUID]]:
        """The director seats the round paired last again, before any of its
        tables is played: tables that stay as they were keep their games, the
        others get new ones (the old ones are never played)."""
        self.access.director(tournament_id, token)
        reason = one_line(reason, "reason", 500, required=True)
        if not tables:
            # A round of byes alone has no game, and a duplicate round's deal
            # lives in its games.
            raise InvalidArgument("no-tables", "a seating has at least one table")
        with self.store.locks.tournament(tournament_id):
            tournament = self.store.tournament(tournament_id)
            state = tournament.state
            if not state.rounds:
                raise Refused("no-round", "no round is paired yet")
            last = state.rounds[-1]
            refuse_if_started(self.store, tournament, "round-started", "a seating changes")
            seated = Round(
                last.number,
                tuple(Table(n, tuple(seats)) for n, seats in enumerate(tables, start=1)),
                tuple(byes),
            )
            if last.duplicate != "none":
                check_duplicate_seats(last, seated)
            games, aggregates = reseated_games(self.store, tournament, seated)
            tournament.seat_round(seated, games, last.duplicate, reason)
            self._commit(*aggregates, tournament)
        return seated, {n: gid for n, (_, gid) in games.items()}

    # -- results ------------------------------------------------------------------------

    def enter_result(
        self,
        tournament_id: UUID,
        token: str | None,
        round_number: int,
        table: int,
        ranking: Sequence[Sequence[str]],
        reason: str,
        scores: Mapping[str, int] | None = None,
        forfeited: Sequence[str] = (),
    ) -> dict[str, Any]:
        """The director's result for a table: entered (a table played on
        paper, or a game finished off the server), corrected, or a forfeit.
        Each is a record with its reason; nothing is overwritten."""
        self.access.director(tournament_id, token)
        reason = one_line(reason, "reason", 500, required=True)
        places = [list(place) for place in ranking]
        if (
            not places
            or not all(isinstance(p, str) for place in places for p in place)
            or not all(places)
        ):
            raise InvalidArgument("bad-ranking", "a ranking lists places, each of player ids")
        given = dict(scores or {})
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in given.values()):
            raise InvalidArgument("bad-scores", "game scores are integers")
        game_id = self._table_game(tournament_id, round_number, table)
        # Lock order: a game's lock, then its tournament's (as a table's end takes them).
        with (
            self.store.locks.game(game_id) if game_id else contextlib.nullcontext(),
            self.store.locks.tournament(tournament_id),
        ):
            tournament = self.store.tournament(tournament_id)
            record = tournament.direct_result(
                round_number, table, places, given, list(forfeited), reason
            )
            ended: list[Game] = []
            if tournament.state.seated(round_number).duplicate != "none":
                # A duplicate round's stalled table no longer holds up the others' ends.
                ended = self.table_results.end_round(tournament, round_number, {})
            elif game_id is not None and tournament.table_of(game_id) == (round_number, table):
                game = self.store.game(game_id)
                if not game.is_over:
                    game.end_by_director(director_result(record), reason)
                    ended = [game]
            self._commit(*ended, tournament)
        for game in ended:
            self.store.remember(game)
        return record

    def _table_game(self, tournament_id: UUID, round_number: int, table: int) -> UUID | None:
        """The id of the game at ``table`` of ``round_number`` (None for
        none), read before the locks are taken: the command checks it again
        under them."""
        tournament = self.store.tournament(tournament_id)
        rounds = tournament.state.rounds
        if not 1 <= round_number <= len(rounds):
            return None
        game_hash = rounds[round_number - 1].games.get(table)
        return tournament.game_id_of(game_hash) if game_hash else None

    def finish_tournament(self, tournament_id: UUID, token: str | None) -> dict[str, Any]:
        """The end: final standings recorded, the seed and its nonce revealed."""
        self.access.director(tournament_id, token)
        with self.store.locks.tournament(tournament_id):
            tournament = self.store.tournament(tournament_id)
            if tournament.is_finished:
                raise Refused("tournament-over", "the tournament is finished already")
            record = tournament.finish()
            self._commit(tournament)
        self.signing.tournament_finished(tournament)
        return record


def director_result(record: Mapping[str, Any]) -> dict[str, Any]:
    """A table's game result from the director's record (entered, corrected
    or a forfeit), as a game's ``finished`` record holds one.

    >>> director_result({"ranking": [["ann"], ["ben"]], "scores": {"ann": 3}, "forfeited": []})
    {'ranking': [['ann'], ['ben']], 'scores': {'ann': 3}, 'winners': ['ann'], 'details': {}}
    """
    ranking = [list(place) for place in record["ranking"]]
    forfeited = list(record.get("forfeited") or ())
    return {
        "ranking": ranking,
        "scores": dict(record.get("scores") or {}),
        "winners": list(ranking[0]) if ranking else [],
        "details": {"forfeited": forfeited} if forfeited else {},
    }
