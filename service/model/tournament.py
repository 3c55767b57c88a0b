"""The ``Tournament`` aggregate: one tournament's log of records.

Like a ``Game``, every stored event carries one plain record, sealed and
hash-chained by ``replay.record`` (positions 0, 1, 2, …), and the aggregate's
state is the fold of those records (``replay.tournament_record``): players,
roster changes, rounds with their tables and results. A command builds its
record, folds it once to see that it fits (the same fold the audit runs), and
only then triggers the event: a refused command stores nothing, and nothing is
ever overwritten. Standings, pairings and tie-breaks come from the pure core
(``gamelog.tournaments``), always recomputed from the records.

The tournament's secret seed lives beside its creation record (as a game's
does); its commitment is in the record, and the ``finished`` record reveals
seed and nonce. Round 1's draw, every later pairing's lots, and the seeds of
the tables' games all come from that seed, so the whole event can be audited
like one shuffle.

Tables' games are named in the records by the hash of their creation record
(ids change when a tournament is imported elsewhere); the local ids live
beside the records, in the events that seat a round. Likewise the tournament's
own id here need not be the one it was created under (see ``tournament_files``):
that one, ``origin_id``, is kept beside its creation record for what is
hashed or exported (its tables' ``Tournament`` tag, its audit, its archives).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast
from uuid import UUID

from eventsourcing.domain import Aggregate

from gamelog.replay.record import Record, seal
from gamelog.replay.tournament_record import start_tournament, step
from gamelog.replay.tournament_state import TournamentRecordError, TournamentState
from gamelog.service.model.refusals import Refused
from gamelog.service.model.server_clock import record_time
from gamelog.tournaments.pairing import pair_round
from gamelog.tournaments.points import exact_text
from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.rounds import Round
from gamelog.tournaments.standings import Standing, standings


class Tournament(Aggregate):
    """One tournament's log. Commands check, then trigger exactly one event."""

    class Created(Aggregate.Created):
        record: dict[str, Any]
        seed_hex: str
        seed_nonce_hex: str
        origin_id: str | None = None
        """The tournament's id where it was created: its own id, or for an
        import the archive's. None in events stored before it was kept
        (no import kept another id then)."""

    class Recorded(Aggregate.Event):
        record: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            cast(Tournament, aggregate)._apply(self.record)

    class PlayerRegistered(Recorded):
        pass

    class PlayerWithdrawn(Recorded):
        pass

    class PlayerReentered(Recorded):
        pass

    class RoundPaired(Recorded):
        game_ids: dict[str, str]
        """The hash of each new table game's creation record → its id here."""

        def apply(self, aggregate: Aggregate) -> None:
            tournament = cast(Tournament, aggregate)
            tournament._apply(self.record)
            tournament.game_ids = {**tournament.game_ids, **self.game_ids}
            tournament._index_tables()

    class SeatingOverridden(RoundPaired):
        pass

    class RoundWithdrawn(Recorded):
        game_ids: list[str]
        """The ids here of the withdrawn round's games (the game index marks
        them as never to be played)."""

        def apply(self, aggregate: Aggregate) -> None:
            tournament = cast(Tournament, aggregate)
            tournament._apply(self.record)
            tournament._index_tables()

    class EndHeld(Recorded):
        pass

    class ResultRecorded(Recorded):
        pass

    class ResultEntered(Recorded):
        pass

    class ResultCorrected(Recorded):
        pass

    class ForfeitDeclared(Recorded):
        pass

    class Finished(Recorded):
        pass

    def __init__(
        self,
        record: dict[str, Any],
        seed_hex: str,
        seed_nonce_hex: str,
        origin_id: str | None = None,
    ) -> None:
        self.record_created = record
        self.origin = origin_id
        self.seed_hex = seed_hex
        self.seed_nonce_hex = seed_nonce_hex
        self.state: TournamentState = start_tournament(record)
        self.game_ids: dict[str, str] = {}
        self.game_hashes: dict[str, str] = {}
        """Each game's id here → the hash of its creation record (the reverse
        of ``game_ids``)."""
        self.tables: dict[str, tuple[int, int]] = {}
        """Each current table's game (by hash) → (round, table)."""

    def _index_tables(self) -> None:
        """Lookups by game, kept as the seating changes (a token is resolved
        at a table on every call)."""
        self.game_hashes = {gid: h for h, gid in self.game_ids.items()}
        self.tables = {
            game: (seated.number, table)
            for seated in self.state.rounds
            for table, game in seated.games.items()
        }

    def _apply(self, record: Record) -> None:
        # Containers are replaced, never changed in place: a loaded tournament
        # is a shallow copy of the cached one.
        self.state = step(self.state, record)

    # -- what the tournament is ---------------------------------------------------

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.seed_hex)

    @property
    def origin_id(self) -> UUID:
        """The id the tournament's games name in their hashed ``Tournament``
        tag, and its archives name: where it was created (``self.id`` is its
        id in this store)."""
        return UUID(self.origin) if self.origin else self.id

    @property
    def position(self) -> int:
        return self.version - 1

    @property
    def is_finished(self) -> bool:
        return self.state.finished

    def game_hash_of(self, game_id: UUID) -> str | None:
        return self.game_hashes.get(str(game_id))

    def game_id_of(self, game_hash: str) -> UUID | None:
        found = self.game_ids.get(game_hash)
        return UUID(found) if found else None

    def table_of(self, game_id: UUID) -> tuple[int, int] | None:
        """(round, table) whose game ``game_id`` is; None for any other game
        (one an override replaced included)."""
        game_hash = self.game_hash_of(game_id)
        return self.tables.get(game_hash) if game_hash else None

    def owns(self, game_id: UUID) -> bool:
        """The tournament created this game (a table, or one an override replaced)."""
        return self.game_hash_of(game_id) is not None

    def seat_of(self, player: str, game_id: UUID) -> str | None:
        """The seat ``player`` holds at the table whose game this is: a seat
        is named by its player's id."""
        where = self.table_of(game_id)
        if where is None:
            return None
        round_number, table_number = where
        seats = self.state.seated(round_number).table(table_number).seats
        return player if player in seats else None

    def standings(self) -> tuple[Standing, ...]:
        state = self.state
        return standings(state.players, state.core_rounds(), state.settings, self.seed)

    # -- creating -----------------------------------------------------------------

    @classmethod
    def create(
        cls,
        tournament_id: UUID,
        record: Record,
        seed: bytes,
        seed_nonce: bytes,
        origin_id: UUID | None = None,
    ) -> Tournament:
        """A tournament with id ``tournament_id`` here; ``origin_id``: the id
        an imported tournament had where it was created (default: this id)."""
        return cls._create(
            cls.Created,
            id=tournament_id,
            record=seal(record),
            seed_hex=seed.hex(),
            seed_nonce_hex=seed_nonce.hex(),
            origin_id=str(origin_id or tournament_id),
        )

    # -- commands -----------------------------------------------------------------

    def _next(self, kind: str, **fields: Any) -> Record:
        return {
            "position": self.position + 1,
            "kind": kind,
            "prev_hash": self.state.last_hash,
            "time": record_time(),
            **fields,
        }

    def _store(self, event_class: type[Recorded], record: Record, **extra: Any) -> Record:
        """Seal ``record``, fold it once to see that it fits, then store it."""
        sealed = seal(record)
        try:
            step(self.state, sealed)
        except TournamentError as error:
            raise Refused(error.code, error.message) from None
        self.trigger_event(event_class, record=sealed, **extra)
        return sealed

    def register(self, players: Sequence[Mapping[str, Any]], first_round: int) -> None:
        for player in players:
            record = self._next("player-registered", player=dict(player), round=first_round)
            self._store(self.PlayerRegistered, record)

    def change_roster(self, player: str, round_number: int, plays: bool, reason: str) -> Record:
        kind = "player-reentered" if plays else "player-withdrawn"
        event = self.PlayerReentered if plays else self.PlayerWithdrawn
        record = self._next(kind, player=player, round=round_number, reason=reason)
        return self._store(event, record)

    def next_round(self) -> Round:
        """The next round's seating by the pure core (no games yet)."""
        state = self.state
        if state.finished:
            raise Refused("tournament-over", "the tournament is finished")
        if state.rounds and not state.rounds[-1].complete():
            raise Refused(
                "round-not-finished",
                f"round {len(state.rounds)} has tables without a result; "
                "enter them (or forfeits) first",
            )
        playing = len(state.active(state.next_round))
        smallest = state.settings.table_size[0]
        if playing < smallest:
            raise Refused(
                "too-few-players",
                f"{playing} player(s) play in round {state.next_round}, and a table needs at "
                f"least {smallest}: register {smallest - playing} more before pairing",
            )
        try:
            return pair_round(
                state.players, state.changes, state.core_rounds(), state.settings, self.seed
            )
        except TournamentError as error:
            raise Refused(error.code, error.message) from None

    def seat_round(
        self,
        seated: Round,
        games: Mapping[int, tuple[str, UUID]],
        duplicate: str,
        reason: str = "",
    ) -> Record:
        """Store a round's seating (``reason``: a director's override of the
        round paired last) with each table's game: (creation hash, id)."""
        tables = [
            {"table": t.number, "seats": list(t.seats), "game": games[t.number][0]}
            for t in seated.tables
        ]
        game_ids = {games[t.number][0]: str(games[t.number][1]) for t in seated.tables}
        kind, event, last = (
            ("seating-overridden", self.SeatingOverridden, {"reason": reason})
            if reason
            else ("round-paired", self.RoundPaired, {"duplicate": duplicate})
        )
        record = self._next(
            kind, round=seated.number, tables=tables, byes=list(seated.byes), **last
        )
        return self._store(event, record, game_ids=game_ids)

    def withdraw_round(self, round_number: int, reason: str) -> Record:
        """Take back the round paired last before it starts (the caller has
        seen that none of its games has a move): its tables are no longer
        tables, and the round is paired anew."""
        if self.state.finished:
            raise Refused("tournament-over", "the tournament is finished")
        if not self.state.rounds:
            raise Refused("no-round", "no round is paired yet")
        record = self._next("round-withdrawn", round=round_number, reason=reason)
        return self._store(self.RoundWithdrawn, record, game_ids=self._last_round_game_ids())

    def _last_round_game_ids(self) -> list[str]:
        seated = self.state.rounds[-1]
        hashes = (*seated.games.values(), *seated.replaced)
        return [self.game_ids[h] for h in hashes if h in self.game_ids]

    def record_result(self, game_id: UUID, result: Mapping[str, Any], end_hash: str) -> bool:
        """A table's game ended: its result enters the standings. False (and
        nothing stored) for a game that is no table of this tournament, or
        whose result is in already."""
        game_hash = self.game_hash_of(game_id)
        where = self.table_of(game_id)
        if game_hash is None or where is None or self.state.finished:
            return False
        round_number, table = where
        if table in self.state.seated(round_number).recorded:
            return False
        record = self._next(
            "result-recorded",
            round=round_number,
            table=table,
            game=game_hash,
            end=end_hash,
            ranking=result["ranking"],
            scores=dict(result.get("scores") or {}),
        )
        self._store(self.ResultRecorded, record)
        return True

    def hold_end(self, game_id: UUID) -> bool:
        """A duplicate round's table whose game is over while others still
        play: its end is held (the game stores no end yet), and the
        tournament records that it is over. Every such table's save thereby
        writes the tournament too, so two tables over at once on two
        processes cannot both miss being the round's last: one of the two
        saves meets the other's record and is made again. False (nothing
        stored) for a game that is no table of a duplicate round, or held
        already."""
        game_hash = self.game_hash_of(game_id)
        where = self.table_of(game_id)
        if game_hash is None or where is None or self.state.finished:
            return False
        round_number, table = where
        seated = self.state.seated(round_number)
        if seated.duplicate == "none" or table in seated.held or table in seated.recorded:
            return False
        record = self._next("end-held", round=round_number, table=table, game=game_hash)
        self._store(self.EndHeld, record)
        return True

    def direct_result(
        self,
        round_number: int,
        table: int,
        ranking: list[list[str]],
        scores: Mapping[str, int],
        forfeited: Sequence[str],
        reason: str,
    ) -> Record:
        """The director's result: a forfeit when someone forfeited, else an
        entry for a table without a result, or a correction."""
        try:
            seated = self.state.seated(round_number)
            has_result = seated.effective(seated.table(table).number) is not None
        except TournamentRecordError as error:
            raise Refused(error.code, error.message) from None
        fields: dict[str, Any] = {"round": round_number, "table": table, "ranking": ranking}
        if forfeited:
            record = self._next(
                "forfeit-declared", **fields, forfeited=sorted(forfeited), reason=reason
            )
            return self._store(self.ForfeitDeclared, record)
        kind, event = (
            ("result-corrected", self.ResultCorrected)
            if has_result
            else ("result-entered", self.ResultEntered)
        )
        record = self._next(kind, **fields, scores=dict(scores), reason=reason)
        return self._store(event, record)

    def finish(self) -> Record:
        """The end: the seed and its nonce revealed, the final standings."""
        rows = [
            {"place": row.place, "player": row.player, "points": exact_text(row.points)}
            for row in self.standings()
        ]
        record = self._next(
            "finished", seed=self.seed_hex, seed_nonce=self.seed_nonce_hex, standings=rows
        )
        return self._store(self.Finished, record)

    def restore(self, record: Record, game_ids: Mapping[str, str]) -> None:
        """Append an already audited record (an import)."""
        event = _EVENT_OF_KIND[record["kind"]]
        if issubclass(event, Tournament.RoundPaired):
            ids = {t["game"]: game_ids[t["game"]] for t in record["tables"]}
            self.trigger_event(event, record=record, game_ids=ids)
        elif event is Tournament.RoundWithdrawn:
            self.trigger_event(event, record=record, game_ids=self._last_round_game_ids())
        else:
            self.trigger_event(event, record=record)


_EVENT_OF_KIND: dict[str, type[Tournament.Recorded]] = {
    "player-registered": Tournament.PlayerRegistered,
    "player-withdrawn": Tournament.PlayerWithdrawn,
    "player-reentered": Tournament.PlayerReentered,
    "round-paired": Tournament.RoundPaired,
    "seating-overridden": Tournament.SeatingOverridden,
    "end-held": Tournament.EndHeld,
    "round-withdrawn": Tournament.RoundWithdrawn,
    "result-recorded": Tournament.ResultRecorded,
    "result-entered": Tournament.ResultEntered,
    "result-corrected": Tournament.ResultCorrected,
    "forfeit-declared": Tournament.ForfeitDeclared,
    "finished": Tournament.Finished,
}
