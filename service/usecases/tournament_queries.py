"""The tournament queries: the tournament as it stands, its standings, its
records, its audit.

Everything a tournament records is public (its records hold no hidden part:
a duplicate deal lives only in the tables' games), so these need no token.
The standings are computed from the records every time, through the pure core
(``gamelog.tournaments.standings``), with the server's copy of the seed for
the last tie-break (a lot that gives nothing of the seed away).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from gamelog.replay.audit_report import AuditReport
from gamelog.replay.record import Record
from gamelog.replay.tournament_audit import audit_tournament
from gamelog.replay.tournament_state import SeatedRound
from gamelog.service.model.refusals import DataLoss, NotFound
from gamelog.service.model.tournament import Tournament
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases.tournament_answers import (
    PlayerEntry,
    SeatedTable,
    StandingRow,
    TournamentSummary,
)
from gamelog.service.usecases.tournament_answers import (
    SeatedRound as SeatedRoundView,
)
from gamelog.tournaments.points import exact_text


class TournamentQueries:
    """The tournament use cases that only read."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def tournament(self, tournament_id: UUID) -> TournamentSummary:
        tournament = self.store.tournament(tournament_id)
        state = tournament.state
        created = tournament.record_created
        active = set(state.active(min(state.next_round, state.settings.rounds)))
        return TournamentSummary(
            tournament_id=tournament_id,
            name=created["name"],
            site=created["site"],
            dates=created["dates"],
            game=created["game"],
            settings=settings_json(created),
            players=[
                PlayerEntry(p.id, p.name, p.rating, p.club, p.first_round, p.id in active)
                for p in state.players
            ],
            rounds=[self._round_view(tournament, seated) for seated in state.rounds],
            finished=state.finished,
            position=tournament.position,
            origin_id=tournament.origin_id,
        )

    @staticmethod
    def _round_view(tournament: Tournament, seated: SeatedRound) -> SeatedRoundView:
        tables = []
        for table in seated.tables:
            result = seated.effective(table.number)
            shown: dict[str, Any] | None = None
            if result is not None:
                shown = {
                    "ranking": [list(place) for place in result.ranking],
                    "scores": dict(result.scores),
                    "forfeited": sorted(result.forfeited),
                    "source": "director" if table.number in seated.directed else "game",
                }
            tables.append(
                SeatedTable(
                    table.number,
                    list(table.seats),
                    tournament.game_id_of(seated.games[table.number]),
                    shown,
                )
            )
        return SeatedRoundView(seated.number, tables, list(seated.byes), seated.duplicate)

    def round_view(self, tournament_id: UUID, number: int) -> SeatedRoundView:
        """One round's seating and results, as ``tournament`` shows it."""
        tournament = self.store.tournament(tournament_id)
        return self._round_view(tournament, tournament.state.rounds[number - 1])

    def tiebreak_names(self, tournament_id: UUID) -> list[str]:
        """The tie-breaks the standings use, in the director's order."""
        return list(self.store.tournament(tournament_id).state.settings.tiebreaks)

    def standings(self, tournament_id: UUID) -> list[StandingRow]:
        """Every player's standing after the results in so far, the leader first."""
        tournament = self.store.tournament(tournament_id)
        names = {p.id: p.name for p in tournament.state.players}
        return [
            StandingRow(
                place=row.place,
                player=row.player,
                name=names[row.player],
                points=exact_text(row.points),
                tiebreaks=[exact_text(value) for value in row.tiebreaks],
                lot=row.lot,
                played=row.played,
                byes=row.byes,
                by_round=[exact_text(p) if p is not None else None for p in row.by_round],
            )
            for row in tournament.standings()
        ]

    def tournament_records(self, tournament_id: UUID) -> list[Record]:
        """The tournament's stored records, in order (all of them public)."""
        self.store.tournament(tournament_id)
        return self.store.tournament_records(tournament_id)

    def tournament_games(self, tournament_id: UUID) -> dict[str, UUID]:
        """Every game the tournament created (tables, and games an override
        replaced): the hash of its creation record → its id here."""
        tournament = self.store.tournament(tournament_id)
        return {h: UUID(gid) for h, gid in tournament.game_ids.items()}

    def audit_tournament(self, tournament_id: UUID) -> AuditReport:
        """Audit the tournament's records with the server's copy of its seed
        (never shown), against every one of its games' records."""
        tournament = self.store.tournament(tournament_id)
        games: dict[str, list[Record]] = {}
        for game_hash, game_id in tournament.game_ids.items():
            try:
                games[game_hash] = self.store.records(UUID(game_id))
            except (NotFound, DataLoss):
                continue  # the audit names the game that is missing
        return audit_tournament(
            self.tournament_records(tournament_id),
            seed=tournament.seed,
            seed_nonce=bytes.fromhex(tournament.seed_nonce_hex),
            games=games,
            tournament_id=str(tournament.origin_id),
        )


def settings_json(created: Record) -> dict[str, Any]:
    """The tournament's settings as its creation record has them."""
    keys = (
        "game",
        "rules_version",
        "options",
        "undo_policy",
        "table_size",
        "rounds",
        "system",
        "duplicate",
        "time_control",
        "on_timeout",
        "points",
        "tiebreaks",
        "bye_points",
        "bye_place",
        "forfeit_points",
    )
    return {**{key: created[key] for key in keys}, "seeding": created.get("seeding", "lot")}
