"""The gRPC adapter of ``gamelog.v1.Tournaments``: each call onto one use case.

As ``games`` does for games: a call reads its token and fields
(``requests``), calls one tournament use case, and builds its answer; a
refusal becomes its status (``handlers.serve``). gRPC types stop here.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import grpc

from gamelog.replay.record import Record, compact_json
from gamelog.service.index.view import TournamentFilter
from gamelog.service.model.refusals import InvalidArgument
from gamelog.service.rpc.client_json import MAX_JSON_DEPTH, parse_json
from gamelog.service.rpc.messages import audit_message
from gamelog.service.rpc.requests import (
    MAX_MOVE_BYTES,
    MAX_OPTIONS_BYTES,
    MAX_RECORD_FILE_BYTES,
    options_and_seed,
    small_int,
    token_of,
)
from gamelog.service.usecases.application import GameLog
from gamelog.service.usecases.tournament_answers import SeatedRound
from gamelog.tournaments.ratings import MODEL, PlayerRating, RatingFilter
from gamelog.tournaments.rounds import Round
from gamelog.v1 import tournaments_pb2 as pb
from gamelog.v1 import tournaments_pb2_grpc as pb_grpc

SERVICE = pb.DESCRIPTOR.services_by_name["Tournaments"]
SERVICE_NAME = SERVICE.full_name
Context = grpc.ServicerContext


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


class TournamentsServicer(pb_grpc.TournamentsServicer):
    def __init__(self, app: GameLog) -> None:
        self.app = app

    def _tournament_id(self, text: str) -> UUID:
        """The tournament a request names: its id, or a unique prefix of it."""
        return self.app.tournament_listing.resolve_tournament_id(text)

    def ListTournaments(self, request: Any, context: Context) -> Any:
        filters = TournamentFilter(name=request.name, status=request.status, date=request.date)
        page = self.app.tournament_listing.list_tournaments(
            request.limit or 50, filters, request.page_token
        )
        return pb.ListTournamentsResponse(
            tournaments=[
                pb.TournamentSummary(
                    tournament_id=str(t.tournament_id),
                    name=t.name,
                    game=t.game,
                    site=t.site,
                    dates=t.dates,
                    finished=t.finished,
                    created_at=t.created_at,
                    origin_id=t.origin_id,
                )
                for t in page.tournaments
            ],
            next_page_token=page.next_page_token,
        )

    def CreateTournament(self, request: Any, context: Context) -> Any:
        options, seed = options_and_seed(request.options_json, request.seed_hex)
        tiebreaks: list[str] | None = list(request.tiebreaks) or None
        if tiebreaks == ["none"]:
            tiebreaks = []
        smallest = request.table_size_min or 2
        created = self.app.tournaments.create_tournament(
            request.name,
            request.game,
            small_int(request.rounds, "rounds", 1000),
            (
                small_int(smallest, "table-size"),
                small_int(request.table_size_max or smallest, "table-size"),
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
            seeding=request.seeding or "lot",
        )
        return pb.CreateTournamentResponse(
            tournament_id=str(created.tournament_id),
            director_token=created.director_token,
            seed_commitment=created.commitment,
            record_json=compact_json(created.record),
        )

    def RegisterPlayers(self, request: Any, context: Context) -> Any:
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
        registered = self.app.tournaments.register_players(
            self._tournament_id(request.tournament_id), token_of(context), players, first
        )
        return pb.RegisterPlayersResponse(
            players=[
                pb.RegisteredPlayer(id=p.id, name=p.name, token=p.token, first_round=p.first_round)
                for p in registered
            ]
        )

    def ChangeRoster(self, request: Any, context: Context) -> Any:
        record = self.app.tournaments.change_roster(
            self._tournament_id(request.tournament_id),
            token_of(context),
            request.player,
            request.plays,
            request.reason,
            request.round if request.HasField("round") else None,
        )
        return record_message(record)

    def _round(self, tournament_id: UUID, seated: Round) -> pb.TournamentRound:
        return round_message(self.app.tournament_queries.round_view(tournament_id, seated.number))

    def PairRound(self, request: Any, context: Context) -> Any:
        tournament_id = self._tournament_id(request.tournament_id)
        deal = (
            parse_json(request.deal_json, "deal", MAX_OPTIONS_BYTES) if request.deal_json else None
        )
        seated, _ = self.app.tournaments.pair_round(tournament_id, token_of(context), deal)
        return self._round(tournament_id, seated)

    def OverrideSeating(self, request: Any, context: Context) -> Any:
        tournament_id = self._tournament_id(request.tournament_id)
        seated, _ = self.app.tournaments.override_seating(
            tournament_id,
            token_of(context),
            [list(t.seats) for t in request.tables],
            list(request.byes),
            request.reason,
        )
        return self._round(tournament_id, seated)

    def WithdrawRound(self, request: Any, context: Context) -> Any:
        record = self.app.tournaments.withdraw_round(
            self._tournament_id(request.tournament_id),
            token_of(context),
            small_int(request.round, "round", 1000) if request.HasField("round") else None,
            request.reason,
        )
        return record_message(record)

    def EnterResult(self, request: Any, context: Context) -> Any:
        ranking = parse_json(request.ranking_json, "ranking", MAX_MOVE_BYTES)
        scores = parse_json(request.scores_json, "scores", MAX_MOVE_BYTES, empty={})
        if not isinstance(ranking, list) or not all(isinstance(p, list) for p in ranking):
            raise InvalidArgument("bad-ranking", "a ranking is a list of places, each a list")
        if not isinstance(scores, dict):
            raise InvalidArgument("bad-scores", "scores are a JSON object")
        record = self.app.tournaments.enter_result(
            self._tournament_id(request.tournament_id),
            token_of(context),
            small_int(request.round, "round", 1000),
            small_int(request.table, "table"),
            ranking,
            request.reason,
            scores,
            list(request.forfeited),
        )
        return record_message(record)

    def FinishTournament(self, request: Any, context: Context) -> Any:
        record = self.app.tournaments.finish_tournament(
            self._tournament_id(request.tournament_id), token_of(context)
        )
        return record_message(record)

    def GetTournament(self, request: Any, context: Context) -> Any:
        summary = self.app.tournament_queries.tournament(self._tournament_id(request.tournament_id))
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

    def GetStandings(self, request: Any, context: Context) -> Any:
        tournament_id = self._tournament_id(request.tournament_id)
        rows = self.app.tournament_queries.standings(tournament_id)
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
            tiebreaks=self.app.tournament_queries.tiebreak_names(tournament_id),
        )

    def ListTournamentRecords(self, request: Any, context: Context) -> Any:
        records = self.app.tournament_queries.tournament_records(
            self._tournament_id(request.tournament_id)
        )
        return pb.ListTournamentRecordsResponse(records=[record_message(r) for r in records])

    def AuditTournament(self, request: Any, context: Context) -> Any:
        tournament_id = self._tournament_id(request.tournament_id)
        return audit_message(
            str(tournament_id), self.app.tournament_queries.audit_tournament(tournament_id)
        )

    def ExportTournament(self, request: Any, context: Context) -> Any:
        archive = self.app.tournament_files.export_tournament(
            self._tournament_id(request.tournament_id), token_of(context)
        )
        return pb.ExportTournamentResponse(archive_json=compact_json(archive))

    def ImportTournament(self, request: Any, context: Context) -> Any:
        data = parse_json(
            request.archive_json, "archive", MAX_RECORD_FILE_BYTES, depth=MAX_JSON_DEPTH + 8
        )
        imported = self.app.tournament_files.import_tournament(data)
        return pb.ImportTournamentResponse(
            tournament_id=str(imported.tournament_id),
            director_token=imported.director_token,
            player_tokens=imported.player_tokens,
            id_map={old: str(new) for old, new in imported.id_map.items()},
            origin_id=str(imported.origin_id),
            already_stored=[str(t) for t in imported.already_stored],
        )

    def GetPlayerTokens(self, request: Any, context: Context) -> Any:
        tokens = self.app.tournaments.player_tokens(
            self._tournament_id(request.tournament_id), token_of(context)
        )
        return pb.GetPlayerTokensResponse(player_tokens=tokens)

    def ListRatings(self, request: Any, context: Context) -> Any:
        page = self.app.ratings.list_ratings(
            rating_filter(request.filter), request.limit or 100, request.page_token
        )
        return pb.ListRatingsResponse(
            ratings=[rating_message(rank, r) for rank, r in page.rows],
            next_page_token=page.next_page_token,
            model=MODEL,
        )

    def GetPlayerRatings(self, request: Any, context: Context) -> Any:
        found = self.app.ratings.player(request.player, rating_filter(request.filter))
        return pb.GetPlayerRatingsResponse(
            ratings=[
                pb.PlayerRatingHistory(
                    rating=rating_message(rank, r),
                    steps=[
                        pb.RatingStep(
                            game_id=s.game_id,
                            finished_at=s.finished_at,
                            mu=s.mu,
                            sigma=s.sigma,
                            rating=s.ordinal,
                            place=s.place,
                            table_size=s.table_size,
                        )
                        for s in r.history
                    ],
                )
                for rank, r in found
            ],
            model=MODEL,
        )


def rating_filter(message: Any) -> RatingFilter:
    return RatingFilter(
        game=message.game, event=message.event, since=message.since, until=message.until
    )


def rating_message(rank: int, rating: PlayerRating) -> pb.PlayerRating:
    return pb.PlayerRating(
        player=rating.player,
        game=rating.game,
        mu=rating.mu,
        sigma=rating.sigma,
        rating=rating.ordinal,
        games=rating.games,
        rank=rank,
    )


__all__ = ["SERVICE_NAME", "TournamentsServicer"]
