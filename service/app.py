"""The gamelog application: the service layer over the event store.

``GameLog`` is an eventsourcing ``Application``. Its methods are the use cases,
one module per concept: ``commands`` (create a game, play a move, take back,
fork), ``queries`` (a position, legal moves, records, diff, audit), ``listing``
(stored games and trees), ``following`` (live streams) and ``record_files``
(export, import), all over ``store.GameStore`` (loading, saving, tokens);
and the tournaments: ``tournaments`` (commands), ``tournament_queries`` and
``tournament_files`` (archives), with results flowing in from finished tables
(``table_results``) and clocks kept (``clocks``: on every read and move, and
in a sweep the server runs every second).
Nothing here knows about gRPC: the adapter in ``grpc_api`` maps calls and
errors onto it.

    app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                       "SQLITE_DBNAME": "gamelog.sqlite"})
    created = app.create_game("three-too-many", ["ann", "ben"])
    app.play(created.game_id, created.tokens["ann"], {"card": 42}, at_position=0)
"""

from __future__ import annotations

from gamelog.service.clocks import ClockSweep
from gamelog.service.errors import GamelogError, PermissionDenied
from gamelog.service.following import Following
from gamelog.service.outcomes import CreatedGame, GameSummary, Played, PositionView
from gamelog.service.store import event_record, parse_game_id
from gamelog.service.tournament_files import TournamentFiles


class GameLog(ClockSweep, TournamentFiles, Following):
    """The service's use cases over the event store."""

    # The store's tables and environment variables are named after this.
    name = "gamelog"


__all__ = [
    "CreatedGame",
    "GameLog",
    "GameSummary",
    "GamelogError",
    "PermissionDenied",
    "Played",
    "PositionView",
    "event_record",
    "parse_game_id",
]
