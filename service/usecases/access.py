"""Who may see and do what: a token's seat in a game, the director of a tournament.

A token is a seat's, the arbiter's, or (for a tournament's table) the
tournament director's or a player's. Rights never carry over from one game to
another, not to its forks either: a token of one game is a spectator of any
other. No token is a spectator, who sees what the table shows; except at a
running table of a duplicate round, which shows spectators nothing (the
round's other tables play the same deal).

A caller with a wrong token, or none, never makes the server fold a whole
game: what a game's creation fixes (its tournament, its ``Duplicate`` tag) is
read from the cached game or from the creation event alone.

>>> from gamelog.service.storage.store import GameStore
>>> from gamelog.service.usecases.creation import prepare_game
>>> store = GameStore(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
>>> game, credentials, created = prepare_game("freeform", ["ann", "ben"])
>>> store.commit(game, credentials)
>>> access = Access(store)
>>> access.viewer(created.game_id, created.tokens["ben"]), access.viewer(created.game_id, None)
('ben', None)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TypeVar
from uuid import UUID

from gamelog.games.protocol import ARBITER, Viewer
from gamelog.replay.seated_games import DUPLICATE_TAG
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import NotFound, PermissionDenied, Unauthenticated
from gamelog.service.model.tournament import Tournament
from gamelog.service.model.tournament_credentials import DIRECTOR, TournamentCredentials
from gamelog.service.model.tournament_tables import tournament_of
from gamelog.service.storage.store import GameStore

_Fact = TypeVar("_Fact")


class Access:
    """Tells each caller's rights from their token."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    # -- games ------------------------------------------------------------------------

    def viewer(self, game_id: UUID, token: str | None) -> Viewer:
        """The seat (or ARBITER) ``token`` stands for in ``game_id``; None
        for no token. A token that is not one of the game's own is tried, for
        a tournament's table, against that tournament's (the one here that
        created it, ``Game.tournament_id``): its director is the arbiter, a
        player holds the seat that player sits in. Nothing else, and nothing
        across tournaments; a game no tournament seated pays nothing for this."""
        try:
            viewer = self.store.credentials(game_id).viewer_for(token)
        except Unauthenticated as refused:
            tournament_id = self._tournament_of(game_id)
            if tournament_id is None:
                raise naming_the_game(refused, game_id) from None
            try:
                return self._tournament_viewer(tournament_id, game_id, token)
            except Unauthenticated as refused_too:
                raise naming_the_game(refused_too, game_id) from None
        if viewer is None:
            self.check_spectator(game_id)
        return viewer

    def viewer_or_spectator(self, game_id: UUID, token: str | None) -> Viewer:
        """What ``token`` may see of ``game_id``: its seat or the arbiter when
        the token is one of that game's, a spectator otherwise."""
        try:
            return self.viewer(game_id, token)
        except Unauthenticated:
            self.check_spectator(game_id)
            return None

    def seat(self, game_id: UUID, token: str | None) -> str:
        """The seat (or ARBITER) that acts with ``token``: a command needs one."""
        # No token is no spectator here: refused as such, whatever the game.
        viewer = (
            self.viewer(game_id, token)
            if token
            else self.store.credentials(game_id).viewer_for(None)
        )
        if viewer is None:
            raise Unauthenticated("token-required", "this needs a seat's or the arbiter's token")
        return viewer

    def check_spectator(self, game_id: UUID) -> None:
        """Refuse a spectator a running table of a duplicate round (tag
        ``Duplicate``, its forks too): the round's tables of one size share
        one deal, so a card one table plays openly names a card the same
        seat holds at the others. Its seats and the director read it; every
        table is public once the round is over (its end stored). A fork is
        public only then too, though it may finish before: its creation
        holds the table's deal."""
        if self._is_duplicate(game_id) and not self._round_over(game_id):
            raise PermissionDenied(
                "duplicate-table",
                "a table of a duplicate round shows nothing to spectators until the round "
                "is over: the round's other tables play the same deal",
            )

    def _round_over(self, game_id: UUID) -> bool:
        """Whether the table a duplicate game is, or was forked from, is
        finished: a table's end is held until its round is over."""
        game = self.store.game(game_id)
        # Parents are created before their forks, so the chain ends.
        while parent := game.record_created.get("parent"):
            game = self.store.game(UUID(parent["game_id"]))
        return game.is_finished

    def _is_duplicate(self, game_id: UUID) -> bool:
        return self._fixed_at_creation(
            game_id,
            lambda game: game.end_held,
            lambda created: DUPLICATE_TAG in (created.record.get("metadata") or {}),
        )

    def _tournament_of(self, game_id: UUID) -> UUID | None:
        return self._fixed_at_creation(
            game_id,
            lambda game: game.tournament_id,
            # An event stored before the field was kept lacks it.
            lambda created: tournament_of(created.record, getattr(created, "tournament_id", None)),
        )

    def _fixed_at_creation(
        self,
        game_id: UUID,
        of_game: Callable[[Game], _Fact],
        of_creation: Callable[[Game.Created], _Fact],
    ) -> _Fact:
        """A fact about a game that its creation fixes: from the cached game,
        else from the creation event alone."""
        cached = self.store.cached(game_id)
        if isinstance(cached, Game):
            return of_game(cached)
        created = self.store.creation(game_id)
        if created is not None:
            return of_creation(created)
        return of_game(self.store.game(game_id))

    def _tournament_viewer(self, tournament_id: UUID, game_id: UUID, token: str | None) -> Viewer:
        refused = Unauthenticated("bad-token", "this token belongs to no seat of this game")
        try:
            holder = self._tournament_holder(tournament_id, token)
            tournament = self._tournament_owning(tournament_id, game_id)
        except (NotFound, Unauthenticated):
            raise refused from None
        # The tag alone grants nothing: the tournament must have seated this game.
        if tournament is None:
            raise refused
        if holder == DIRECTOR:
            return ARBITER
        seat = tournament.seat_of(holder, game_id)
        if seat is None:
            raise refused
        return seat

    def _tournament_holder(self, tournament_id: UUID, token: str | None) -> str:
        """Who ``token`` is in a tournament: kept credentials first, read
        again when they do not know it (a player registered since, elsewhere)."""
        known = self.store.known_tournament_credentials(tournament_id)
        if known is not None:
            with contextlib.suppress(Unauthenticated):
                return known.holder_of(token)
        return self.store.tournament_credentials(tournament_id).holder_of(token)

    def _tournament_owning(self, tournament_id: UUID, game_id: UUID) -> Tournament | None:
        """The tournament, if it created ``game_id``: the cached copy when it
        knows the game (no store read), else read again."""
        cached = self.store.cached(tournament_id)
        if isinstance(cached, Tournament) and cached.owns(game_id):
            return cached
        tournament = self.store.tournament(tournament_id)
        return tournament if tournament.owns(game_id) else None

    # -- tournaments --------------------------------------------------------------------

    def director(self, tournament_id: UUID, token: str | None) -> TournamentCredentials:
        """The tournament's credentials, once ``token`` proved to be its director's."""
        credentials = self.store.tournament_credentials(tournament_id)
        if credentials.holder_of(token) != DIRECTOR:
            raise PermissionDenied("director-only", "only the tournament's director may do this")
        return credentials

    def is_director(self, tournament_id: UUID, token: str | None) -> bool:
        return self.store.tournament_credentials(tournament_id).is_director(token)

    def holder(self, tournament_id: UUID, token: str | None) -> str | None:
        """``DIRECTOR``, a player's id, or None for no token; a token that is
        nobody's in the tournament is refused."""
        if not token:
            return None
        return self.store.tournament_credentials(tournament_id).holder_of(token)


def naming_the_game(refused: Unauthenticated, game_id: UUID) -> Unauthenticated:
    """A token refused as none of a game's, with the game named: a caller
    holding several games' tokens (a fork's, a tournament's) learns which
    game it did not fit."""
    if refused.code != "bad-token":
        return refused
    return Unauthenticated("bad-token", f"this token belongs to no seat of game {game_id}")
