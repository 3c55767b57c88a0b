"""The gRPC adapter of ``gamelog.v1.Tournaments``: calls onto the ``GameLog`` application.

As ``grpc_api`` does for games: each call reads its token from the
``authorization`` metadata, parses and bounds its JSON, calls one use case,
and maps a refusal onto a status code through ``grpc_api.status_for`` (a
``google.rpc.ErrorInfo`` detail with the machine-readable reason). gRPC types
stop here.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import grpc

from gamelog.replay.record import Record, compact_json
from gamelog.service.app import GameLog
from gamelog.service.client_json import MAX_JSON_DEPTH, parse_json
from gamelog.service.errors import InvalidArgument
from gamelog.service.grpc_api import (
    MAX_MOVE_BYTES,
    MAX_OPTIONS_BYTES,
    MAX_RECORD_FILE_BYTES,
    audit_message,
    options_and_seed,
    refusals_as_status,
    token_of,
)
from gamelog.service.tournament_outcomes import SeatedRound
from gamelog.tournaments.rounds import Round
from gamelog.v1 import tournaments_pb2 as pb
from gamelog.v1 import tournaments_pb2_grpc as pb_grpc

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Tournaments"].full_name


def tournament_id_of(text: str) -> UUID:
    try:
        return UUID(text)
    except (ValueError, AttributeError, TypeError):
        raise InvalidArgument("bad-tournament-id", f"{text!r} is not a tournament id") from None


def record_message(record: Record) -> pb.TournamentRecord:
    return pb.TournamentRecord(
        position=record["position"], kind=record["kind"], record_json=compact_json(record)
    )


def round_message(seated: SeatedRound) -> pb.TournamentRound:
    return pb.TournamentRound(
        number=seated.number,
        tables=[
            pb.TournamentTable(
                number=t.number,
                seats=t.seats,
                game_id=str(t.game_id) if t.game_id else "",
                result_json=compact_json(t.result) if t.result is not None else "",
            )
            for t in seated.tables
        ],
        byes=seated.byes,
        duplicate=seated.duplicate,
    )


def _small_int(value: int, what: str, most: int = 100_000) -> int:
    if not 0 <= value <= most:
        raise InvalidArgument(f"bad-{what}", f"{what} must be between 0 and {most}")
    return value


class TournamentsServicer(pb_grpc.TournamentsServicer):
    def __init__(self, app: GameLog) -> None:
        self.app = app

    @refusals_as_status
    def CreateTournament(self, request: Any, context: grpc.ServicerContext) -> Any:
        options, seed = options_and_seed(request.options_json, request.seed_hex)
        tiebreaks: list[str] | None = list(request.tiebreaks) or None
        if tiebreaks == ["none"]:
            tiebreaks = []
        smallest = request.table_size_min or 2
        created = self.app.create_tournament(
            request.name,
            request.game,
            _small_int(request.rounds, "rounds", 1000),
            (
                _small_int(smallest, "table-size"),
                _small_int(request.table_size_max or smallest, "table-size"),
            ),
            site=request.site,
            dates=request.dates,
            options=options,
            system=request.system or "swiss",
            undo_policy=request.undo_policy or "none",
            time_control=request.time_control,
            on_timeout=request.on_timeout or "lose",
            points=[list(row.points) for row in request.points],
            tiebreaks=tiebreaks,
            bye_points=request.bye_points if request.HasField("bye_points") else None,
            bye_place=request.bye_place if request.HasField("bye_place") else None,
            forfeit_points=request.forfeit_points or "0",
            duplicate=request.duplicate or "none",
            seed=seed,
        )
        return pb.CreateTournamentResponse(
            tournament_id=str(created.tournament_id),
            director_token=created.director_token,
            seed_commitment=created.commitment,
            record_json=compact_json(created.record),
        )

    @refusals_as_status
    def RegisterPlayers(self, request: Any, context: grpc.ServicerContext) -> Any:
        players = [
            {
                "name": p.name,
                "id": p.id,
                "rating": p.rating if p.HasField("rating") else None,
                "club": p.club or None,
            }
            for p in request.players
        ]
        first = request.first_round if request.HasField("first_round") else None
        registered = self.app.register_players(
            tournament_id_of(request.tournament_id), token_of(context), players, first
        )
        return pb.RegisterPlayersResponse(
            players=[
                pb.RegisteredPlayer(id=p.id, name=p.name, token=p.token, first_round=p.first_round)
                for p in registered
            ]
        )

    @refusals_as_status
    def ChangeRoster(self, request: Any, context: grpc.ServicerContext) -> Any:
        record = self.app.change_roster(
            tournament_id_of(request.tournament_id),
            token_of(context),
            request.player,
            request.plays,
            request.reason,
            request.round if request.HasField("round") else None,
        )
        return record_message(record)

    def _round(self, tournament_id: UUID, seated: Round) -> pb.TournamentRound:
        return round_message(self.app.round_view(tournament_id, seated.number))

    @refusals_as_status
    def PairRound(self, request: Any, context: grpc.ServicerContext) -> Any:
        tournament_id = tournament_id_of(request.tournament_id)
        deal = (
            parse_json(request.deal_json, "deal", MAX_OPTIONS_BYTES) if request.deal_json else None
        )
        seated, _ = self.app.pair_round(tournament_id, token_of(context), deal)
        return self._round(tournament_id, seated)

    @refusals_as_status
    def OverrideSeating(self, request: Any, context: grpc.ServicerContext) -> Any:
        tournament_id = tournament_id_of(request.tournament_id)
        seated, _ = self.app.override_seating(
            tournament_id,
            token_of(context),
            [list(t.seats) for t in request.tables],
            list(request.byes),
            request.reason,
        )
        return self._round(tournament_id, seated)

    @refusals_as_status
    def EnterResult(self, request: Any, context: grpc.ServicerContext) -> Any:
        ranking = parse_json(request.ranking_json, "ranking", MAX_MOVE_BYTES)
        scores = parse_json(request.scores_json, "scores", MAX_MOVE_BYTES, empty={})
        if not isinstance(ranking, list) or not all(isinstance(p, list) for p in ranking):
            raise InvalidArgument("bad-ranking", "a ranking is a list of places, each a list")
        if not isinstance(scores, dict):
            raise InvalidArgument("bad-scores", "scores are a JSON object")
        record = self.app.enter_result(
            tournament_id_of(request.tournament_id),
            token_of(context),
            _small_int(request.round, "round", 1000),
            _small_int(request.table, "table"),
            ranking,
            request.reason,
            scores,
            list(request.forfeited),
        )
        return record_message(record)

    @refusals_as_status
    def FinishTournament(self, request: Any, context: grpc.ServicerContext) -> Any:
        record = self.app.finish_tournament(
            tournament_id_of(request.tournament_id), token_of(context)
        )
        return record_message(record)

    @refusals_as_status
    def GetTournament(self, request: Any, context: grpc.ServicerContext) -> Any:
        summary = self.app.tournament(tournament_id_of(request.tournament_id))
        return pb.Tournament(
            tournament_id=str(summary.tournament_id),
            name=summary.name,
            site=summary.site,
            dates=summary.dates,
            game=summary.game,
            settings_json=compact_json(summary.settings),
            players=[
                pb.TournamentPlayer(
                    id=p.id,
                    name=p.name,
                    rating=p.rating,
                    club=p.club or "",
                    first_round=p.first_round,
                    active=p.active,
                )
                for p in summary.players
            ],
            rounds=[round_message(r) for r in summary.rounds],
            finished=summary.finished,
            position=summary.position,
            origin_id=str(summary.origin_id),
        )

    @refusals_as_status
    def GetStandings(self, request: Any, context: grpc.ServicerContext) -> Any:
        tournament_id = tournament_id_of(request.tournament_id)
        rows = self.app.standings(tournament_id)
        return pb.GetStandingsResponse(
            standings=[
                pb.Standing(
                    place=r.place,
                    player=r.player,
                    name=r.name,
                    points=r.points,
                    tiebreaks=r.tiebreaks,
                    lot=r.lot,
                    played=r.played,
                    byes=r.byes,
                    by_round=[p or "" for p in r.by_round],
                )
                for r in rows
            ],
            tiebreaks=self.app.tiebreak_names(tournament_id),
        )

    @refusals_as_status
    def ListTournamentRecords(self, request: Any, context: grpc.ServicerContext) -> Any:
        records = self.app.tournament_records(tournament_id_of(request.tournament_id))
        return pb.ListTournamentRecordsResponse(records=[record_message(r) for r in records])

    @refusals_as_status
    def AuditTournament(self, request: Any, context: grpc.ServicerContext) -> Any:
        tournament_id = tournament_id_of(request.tournament_id)
        return audit_message(str(tournament_id), self.app.audit_tournament(tournament_id))

    @refusals_as_status
    def ExportTournament(self, request: Any, context: grpc.ServicerContext) -> Any:
        archive = self.app.export_tournament(
            tournament_id_of(request.tournament_id), token_of(context)
        )
        return pb.ExportTournamentResponse(archive_json=compact_json(archive))

    @refusals_as_status
    def ImportTournament(self, request: Any, context: grpc.ServicerContext) -> Any:
        data = parse_json(
            request.archive_json, "archive", MAX_RECORD_FILE_BYTES, depth=MAX_JSON_DEPTH + 8
        )
        imported = self.app.import_tournament(data)
        return pb.ImportTournamentResponse(
            tournament_id=str(imported.tournament_id),
            director_token=imported.director_token,
            player_tokens=imported.player_tokens,
            id_map={old: str(new) for old, new in imported.id_map.items()},
            origin_id=str(imported.origin_id),
        )

    @refusals_as_status
    def GetPlayerTokens(self, request: Any, context: grpc.ServicerContext) -> Any:
        tokens = self.app.player_tokens(tournament_id_of(request.tournament_id), token_of(context))
        return pb.GetPlayerTokensResponse(player_tokens=tokens)


__all__ = ["SERVICE_NAME", "TournamentsServicer"]
