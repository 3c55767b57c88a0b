"""The tournament commands: create, register, withdraw and re-enter, seat a
round, override a seating, enter or correct a result, finish.

Each command authenticates the director, takes the tournament's lock, lets
the ``Tournament`` aggregate decide (it folds the new record through the same
checks the audit runs), and saves everything it caused in one transaction: a
round's seating with every table's game, a registration with the players'
tokens. A refused command stores nothing.

Tables are ordinary games, created here through the same path as
``create_game``, with these tags: ``Event``, ``Site``, ``Date``, ``Round``,
``Table``, ``Tournament`` (the tournament's id where it was created: an
imported tournament's tables go on naming that one), the tournament's
``TimeControl`` and ``OnTimeout``, and ``Duplicate`` in a duplicate round;
the tournament's id here is kept beside each table's creation record
(``Game.Created.tournament_id``).
A seat is named by the id of the player who holds it, so the seat → player
pairs of every table are its seats themselves (``Players``), and a player id
is a valid seat name by construction: the name's letters and digits, made
unique (``ann-smith``, ``ann-smith-2``).
"""

from __future__ import annotations

import contextlib
import secrets
import uuid
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any
from uuid import UUID

from gamelog.games.protocol import JSON
from gamelog.replay.clock import ON_TIMEOUT, ClockError, parse_time_control
from gamelog.replay.record import RECORD_FORMAT, new_seed_nonce, seed_commitment
from gamelog.replay.tournament_record import (
    DUPLICATE_MODES,
    DUPLICATE_TAG,
    NAMES_TAG,
    TOURNAMENT_TAG,
    event_tags,
    names_digest,
    table_seed,
)
from gamelog.service.model.credentials import Credentials
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import Conflict, InvalidArgument, Refused
from gamelog.service.model.server_clock import record_time
from gamelog.service.model.tournament import Tournament
from gamelog.service.model.tournament_credentials import TournamentCredentials
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases import tournament_input
from gamelog.service.usecases.access import Access
from gamelog.service.usecases.creation import (
    check_clock,
    checked_undo_policy,
    prepare_game,
    rules_named,
)
from gamelog.service.usecases.signing import Signing
from gamelog.service.usecases.table_results import TableResults
from gamelog.service.usecases.tournament_answers import CreatedTournament, RegisteredPlayer
from gamelog.service.usecases.tournament_input import (
    check_duplicate_seats,
    one_line,
    player_entry,
    settings_of,
)
from gamelog.tournaments.points import exact_text
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
        name = one_line(name, "name", required=True)
        site, dates = one_line(site, "site"), one_line(dates, "dates", 64)
        rules = rules_named(game)
        options = dict(options or {})
        if "deal" in options:
            raise InvalidArgument(
                "bad-options",
                "a duplicate deal is given when a round is paired (it stays hidden in the "
                "tables' games), not in the tournament's record, which everyone may read",
            )
        settings = settings_of(
            rounds,
            table_size,
            system,
            points,
            tiebreaks,
            bye_points,
            bye_place,
            forfeit_points,
            seeding,
        )
        smallest, largest = settings.table_size
        if not rules.min_players <= smallest <= largest <= rules.max_players:
            raise InvalidArgument(
                "bad-table-size",
                f"{rules.name} is for {rules.min_players}–{rules.max_players} players",
            )
        for size in range(smallest, largest + 1):  # the options must suit every table
            prepare_game(game, [f"s{n}" for n in range(size)], options, undo_policy)
        checked_undo_policy(undo_policy)
        if on_timeout not in ON_TIMEOUT:
            raise InvalidArgument("bad-on-timeout", f"on_timeout is one of {', '.join(ON_TIMEOUT)}")
        if time_control:
            try:
                parse_time_control(time_control, on_timeout)
            except ClockError as error:
                raise InvalidArgument("bad-time-control", str(error)) from None
            check_clock(rules, {"TimeControl": time_control})
        if duplicate not in DUPLICATE_MODES:
            raise InvalidArgument("bad-duplicate", f"duplicate is one of {list(DUPLICATE_MODES)}")
        if seed is not None and not 1 <= len(seed) <= 64:
            raise InvalidArgument("bad-seed", "a seed is 1 to 64 bytes")
        seed = seed if seed is not None else secrets.token_bytes(32)
        nonce = new_seed_nonce()
        record = {
            "position": 0,
            "kind": "created",
            "prev_hash": "",
            "format": RECORD_FORMAT,
            "time": record_time(),
            "name": name,
            "site": site,
            "dates": dates,
            "game": rules.name,
            "rules_version": rules.rules_version,
            "options": options,
            "undo_policy": undo_policy,
            "table_size": [smallest, largest],
            "rounds": settings.rounds,
            "system": settings.system,
            "duplicate": duplicate,
            "time_control": time_control,
            "on_timeout": on_timeout if time_control else "lose",
            "points": [
                [exact_text(p) for p in settings.place_points(len(row))] for row in settings.points
            ],
            "tiebreaks": list(settings.tiebreaks),
            "bye_points": exact_text(Fraction(bye_points)) if bye_points is not None else None,
            "bye_place": bye_place,
            "forfeit_points": exact_text(settings.forfeit_score()),
            "commitment": seed_commitment(seed, nonce),
        }
        if settings.seeding != "lot":  # absent: by lot, as every record before it
            record["seeding"] = settings.seeding
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
            games, aggregates = self._table_games(tournament, seated, duplicate, deal)
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
            self._refuse_if_started(tournament, "round-played", "it can be withdrawn")
            record = tournament.withdraw_round(number, reason)
            self._commit(tournament)
        return record

    def _refuse_if_started(self, tournament: Tournament, code: str, what: str) -> None:
        """Refuse when a table of the round paired last has a move or a result."""
        last = tournament.state.rounds[-1]
        for game_hash in last.games.values():
            game_id = tournament.game_id_of(game_hash)
            if (game_id is not None and self.store.has_moves(game_id)) or (
                last.recorded or last.directed
            ):
                raise Refused(
                    code,
                    f"round {last.number} is played (a table has moves or a result); "
                    f"{what} only before the round starts: correct its results instead",
                )

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
            self._refuse_if_started(tournament, "round-started", "a seating changes")
            seated = Round(
                last.number,
                tuple(Table(n, tuple(seats)) for n, seats in enumerate(tables, start=1)),
                tuple(byes),
            )
            if last.duplicate != "none":
                check_duplicate_seats(last, seated)
            kept = {
                t.number: (last.games[t.number], tournament.game_id_of(last.games[t.number]))
                for t in seated.tables
                if any(old == t for old in last.tables)
            }
            changed = Round(
                seated.number, tuple(t for t in seated.tables if t.number not in kept), ()
            )
            deal = None
            if last.duplicate == "deal":
                first = tournament.game_id_of(next(iter(last.games.values())))
                assert first is not None
                deal = self.store.peek_game(first).record_created["options"]["deal"]
            new_games, aggregates = self._table_games(
                tournament, changed, last.duplicate, deal, overriding=True
            )
            games: dict[int, tuple[str, UUID]] = {}
            for number, (game_hash, game_id) in {**kept, **new_games}.items():
                assert game_id is not None
                games[number] = (game_hash, game_id)
            tournament.seat_round(seated, games, last.duplicate, reason)
            self._commit(*aggregates, tournament)
        return seated, {n: gid for n, (_, gid) in games.items()}

    def _table_games(
        self,
        tournament: Tournament,
        seated: Round,
        duplicate: str,
        deal: JSON | None,
        overriding: bool = False,
    ) -> tuple[dict[int, tuple[str, UUID]], list[Game | Credentials]]:
        """Each table's new game (creation hash, id), and the aggregates to save
        (``overriding``: games replacing others, seeded apart from them)."""
        created = tournament.record_created
        options = dict(created["options"])
        if deal is not None:
            options["deal"] = deal
        tags = {
            **event_tags(created),
            "Round": str(seated.number),
            TOURNAMENT_TAG: str(tournament.origin_id),
        }
        if created["time_control"]:
            tags["TimeControl"] = created["time_control"]
            tags["OnTimeout"] = created["on_timeout"]
        if duplicate != "none":
            tags[DUPLICATE_TAG] = f"round {seated.number}: every table of a size has one deal"
        names = {player.id: player.name for player in tournament.state.players}
        games: dict[int, tuple[str, UUID]] = {}
        aggregates: list[Game | Credentials] = []
        for table in seated.tables:
            seed = table_seed(
                tournament.seed,
                seated.number,
                table.number,
                len(table.seats),
                duplicate,
                table.seats if overriding else None,
                tournament.state.withdrawals(seated.number),
            )
            game, credentials, made = prepare_game(
                created["game"],
                table.seats,
                options,
                created["undo_policy"],
                {
                    **{k: v for k, v in tags.items() if v},
                    "Table": str(table.number),
                    NAMES_TAG: names_digest([names[seat] for seat in table.seats]),
                },
                seed,
                tournament_id=tournament.id,
            )
            games[table.number] = (made.record["hash"], made.game_id)
            aggregates += [game, credentials]
        return games, aggregates

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
