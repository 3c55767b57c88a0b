"""The gamelog application: the service's use cases over one event store.

``GameLog`` puts the service together. It opens the store (``GameStore``,
the eventsourcing application) and the game index beside it, and hands them
to the collaborators that hold the use cases, one concept each:

============================  ==========================================================
``games``                     create a game, play a move, take back, fork (``commands``)
``play_on_loop``              a move from a coroutine on the server's event loop
``queries``                   a position as a viewer sees it, legal moves, records, diff, audit
``listing``                   stored games, trees of branches, short ids, reindex
``record_files``              export a game with its branches, import record files
``timekeeper``                time-outs: on every move and read, and a sweep
``table_results``             a table's result with its game's end; held rounds released
``following``                 what live streams read
``tournaments``               create, register, pair, results, finish (``tournament_commands``)
``tournament_queries``        a tournament, its standings, records and audit
``tournament_files``          tournament archives: export and import
``tournament_listing``        the stored tournaments, newest first; short tournament ids
``ratings``                   ratings across events per game type, from the index
``access``                    who may see and do what, from a token
``store``                     loading and saving (eventsourcing's application)
============================  ==========================================================

Nothing here knows about gRPC: the adapters in ``gamelog.service.rpc`` map
calls and refusals onto these, and the CLI's ``reindex`` uses them directly.

>>> app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
>>> created = app.games.create_game("three-too-many", ["ann", "ben"], seed=b"example")
>>> view = app.queries.view(created.game_id, created.tokens["ann"])
>>> view.position, view.to_act
(0, ['ann'])
>>> app.close()
"""

from __future__ import annotations

from collections.abc import Mapping

from gamelog.replay.signatures import SigningKey
from gamelog.service.index.adapters import open_index
from gamelog.service.storage.signing_key import KeyRing
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases.access import Access
from gamelog.service.usecases.commands import GameCommands
from gamelog.service.usecases.following import Following
from gamelog.service.usecases.listing import Listing
from gamelog.service.usecases.play_on_loop import PlayOnLoop
from gamelog.service.usecases.queries import Queries
from gamelog.service.usecases.ratings import Ratings
from gamelog.service.usecases.record_files import RecordFiles
from gamelog.service.usecases.signing import Signing
from gamelog.service.usecases.table_results import TableResults
from gamelog.service.usecases.timekeeper import Timekeeper
from gamelog.service.usecases.tournament_commands import TournamentCommands
from gamelog.service.usecases.tournament_files import TournamentFiles
from gamelog.service.usecases.tournament_listing import TournamentListing
from gamelog.service.usecases.tournament_queries import TournamentQueries


class GameLog:
    """The service's use cases over one event store."""

    def __init__(self, env: Mapping[str, str] | None = None, keys: KeyRing | None = None) -> None:
        # A server signs with its key file's key (``storage.signing_key``);
        # an application made without one signs with a key of its own that
        # lasts as long as it does.
        keys = keys or KeyRing(SigningKey.generate())
        self.store = GameStore(env)
        self.index = open_index(self.store)
        self.access = Access(self.store)
        self.signing = Signing(self.store, keys)
        self.table_results = TableResults(self.store, self.index, self.signing)
        table_results = self.table_results
        self.timekeeper = Timekeeper(self.store, table_results, self.index)
        self.games = GameCommands(self.store, self.access, table_results, self.timekeeper)
        self.play_on_loop = PlayOnLoop(self.store, self.games, self.signing)
        self.queries = Queries(self.store, self.access, self.timekeeper)
        self.listing = Listing(self.store, self.index)
        self.record_files = RecordFiles(self.store, self.access, self.listing, self.signing)
        self.following = Following(self.store)
        self.tournaments = TournamentCommands(self.store, self.access, table_results, self.signing)
        self.tournament_queries = TournamentQueries(self.store)
        self.tournament_listing = TournamentListing(self.index)
        self.tournament_files = TournamentFiles(
            self.store, self.access, self.tournament_listing, self.signing
        )
        self.ratings = Ratings(self.index)

    def close(self) -> None:
        self.index.close()
        self.store.close()
