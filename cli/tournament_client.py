"""A client for ``gamelog.v1.Tournaments``, beside the games' ``Client`` (whose
calls it keeps: a tournament's tables are games).

>>> # with TournamentClient("localhost:50051") as client:
>>> #     created = client.create_tournament("Club night", "panem", rounds=5, table_size=(4, 4))
>>> #     client.register(created.tournament_id, ["Ann", "Ben"], created.director_token)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import grpc

from gamelog.cli.client import Client, api_error, bearer
from gamelog.v1 import tournaments_pb2 as pb
from gamelog.v1 import tournaments_pb2_grpc as pb_grpc


class TournamentClient(Client):
    def __init__(self, server: str = "localhost:50051", ca: str | None = None) -> None:
        super().__init__(server, ca)
        self.tournaments = pb_grpc.TournamentsStub(self.channel)

    def __enter__(self) -> TournamentClient:
        return self

    def _tournament_call(
        self, name: str, request: Any, token: str | None = None, timeout: float = 600
    ) -> Any:
        try:
            call = getattr(self.tournaments, name)
            return call(request, metadata=bearer(token), timeout=timeout)
        except grpc.RpcError as error:
            raise self._explained(api_error(error)) from None

    def create_tournament(
        self,
        name: str,
        game: str,
        rounds: int,
        table_size: tuple[int, int],
        **settings: Any,
    ) -> Any:
        options = settings.pop("options", None)
        points = settings.pop("points", ())
        request = pb.CreateTournamentRequest(
            name=name,
            game=game,
            rounds=rounds,
            table_size_min=table_size[0],
            table_size_max=table_size[1],
            options_json=json.dumps(options or {}),
            points=[pb.PointsRow(points=[str(p) for p in row]) for row in points],
            **settings,
        )
        return self._tournament_call("CreateTournament", request)

    def register(
        self,
        tournament_id: str,
        players: Sequence[str | dict[str, Any]],
        token: str,
        first_round: int | None = None,
    ) -> list[Any]:
        entries = [
            pb.PlayerToRegister(name=p) if isinstance(p, str) else pb.PlayerToRegister(**p)
            for p in players
        ]
        request = pb.RegisterPlayersRequest(tournament_id=tournament_id, players=entries)
        if first_round is not None:
            request.first_round = first_round
        return list(self._tournament_call("RegisterPlayers", request, token).players)

    def change_roster(
        self, tournament_id: str, player: str, plays: bool, reason: str, token: str
    ) -> Any:
        request = pb.ChangeRosterRequest(
            tournament_id=tournament_id, player=player, plays=plays, reason=reason
        )
        return self._tournament_call("ChangeRoster", request, token)

    def pair(self, tournament_id: str, token: str, deal: Any = None) -> Any:
        request = pb.PairRoundRequest(
            tournament_id=tournament_id, deal_json=json.dumps(deal) if deal is not None else ""
        )
        return self._tournament_call("PairRound", request, token)

    def override(
        self,
        tournament_id: str,
        tables: Sequence[Sequence[str]],
        byes: Sequence[str],
        reason: str,
        token: str,
    ) -> Any:
        request = pb.OverrideSeatingRequest(
            tournament_id=tournament_id,
            tables=[pb.SeatingTable(seats=list(t)) for t in tables],
            byes=list(byes),
            reason=reason,
        )
        return self._tournament_call("OverrideSeating", request, token)

    def withdraw_round(
        self, tournament_id: str, reason: str, token: str, round_number: int | None = None
    ) -> Any:
        request = pb.WithdrawRoundRequest(tournament_id=tournament_id, reason=reason)
        if round_number is not None:
            request.round = round_number
        return self._tournament_call("WithdrawRound", request, token)

    def enter_result(
        self,
        tournament_id: str,
        round_number: int,
        table: int,
        ranking: Sequence[Sequence[str]],
        reason: str,
        token: str,
        scores: dict[str, int] | None = None,
        forfeited: Sequence[str] = (),
    ) -> Any:
        request = pb.EnterResultRequest(
            tournament_id=tournament_id,
            round=round_number,
            table=table,
            ranking_json=json.dumps([list(p) for p in ranking]),
            scores_json=json.dumps(scores or {}),
            forfeited=list(forfeited),
            reason=reason,
        )
        return self._tournament_call("EnterResult", request, token)

    def finish(self, tournament_id: str, token: str) -> Any:
        request = pb.FinishTournamentRequest(tournament_id=tournament_id)
        return self._tournament_call("FinishTournament", request, token)

    def tournament(self, tournament_id: str) -> Any:
        request = pb.GetTournamentRequest(tournament_id=tournament_id)
        return self._tournament_call("GetTournament", request)

    def standings(self, tournament_id: str) -> Any:
        request = pb.GetStandingsRequest(tournament_id=tournament_id)
        return self._tournament_call("GetStandings", request)

    def tournament_records(self, tournament_id: str) -> list[Any]:
        request = pb.ListTournamentRecordsRequest(tournament_id=tournament_id)
        response = self._tournament_call("ListTournamentRecords", request)
        return [json.loads(r.record_json) for r in response.records]

    def audit_tournament(self, tournament_id: str) -> Any:
        request = pb.AuditTournamentRequest(tournament_id=tournament_id)
        return self._tournament_call("AuditTournament", request)

    def export_tournament(self, tournament_id: str, token: str | None = None) -> Any:
        request = pb.ExportTournamentRequest(tournament_id=tournament_id)
        return json.loads(self._tournament_call("ExportTournament", request, token).archive_json)

    def import_tournament(self, archive: Any) -> Any:
        request = pb.ImportTournamentRequest(archive_json=json.dumps(archive))
        return self._tournament_call("ImportTournament", request)

    def list_tournaments(
        self,
        name: str = "",
        status: str = "",
        date: str = "",
        limit: int = 50,
        page_token: str = "",
    ) -> Any:
        request = pb.ListTournamentsRequest(
            name=name, status=status, date=date, limit=limit, page_token=page_token
        )
        return self._tournament_call("ListTournaments", request)

    def ratings(self, limit: int = 100, page_token: str = "", **wanted: str) -> Any:
        """One page of ratings (``ListRatings``); ``wanted``: game, event, since, until."""
        request = pb.ListRatingsRequest(
            filter=pb.RatingFilter(**wanted), limit=limit, page_token=page_token
        )
        return self._tournament_call("ListRatings", request)

    def ratings_by_player(self, game: str) -> dict[str, float]:
        """Each rated player's rating at ``game``, across events (rounded to hundredths)."""
        found = self.ratings(10_000, game=game)
        return {r.player: round(r.rating, 2) for r in found.ratings}

    def player_ratings(self, player: str, **wanted: str) -> Any:
        request = pb.GetPlayerRatingsRequest(player=player, filter=pb.RatingFilter(**wanted))
        return self._tournament_call("GetPlayerRatings", request)

    def player_tokens(self, tournament_id: str, token: str) -> dict[str, str]:
        request = pb.GetPlayerTokensRequest(tournament_id=tournament_id)
        return dict(self._tournament_call("GetPlayerTokens", request, token).player_tokens)
