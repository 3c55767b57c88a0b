"""The director's and the players' tokens of one tournament, kept apart from its record.

As with a game's ``Credentials``, only SHA-256 hashes are stored, in an
aggregate of their own, so the tournament's record stays portable and no
secret travels with it.

* One **director token** per tournament, drawn at random when it is created.
  It is the arbiter of every game the tournament seated, and of nothing else.
* One **player token** per player. It moves for that player at whatever table
  and seat the player sits. A player's token is derived from the director's
  token (HMAC-SHA256 over the tournament id and the player id): the director
  hands the tokens out and sees every one at registration anyway, so this
  gives the director nothing new, and lets the director print a lost token
  again or play every seat of a demonstration holding the one token.

>>> from uuid import UUID
>>> tid = UUID(int=7)
>>> player_token("director-secret", tid, "ann") == player_token("director-secret", tid, "ann")
True
>>> player_token("director-secret", tid, "ann") == player_token("director-secret", tid, "ben")
False
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Iterable
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from gamelog.service.model import tokens as token_util
from gamelog.service.model.refusals import Unauthenticated

DIRECTOR = "#director"


def player_token(director_token: str, tournament_id: UUID, player: str) -> str:
    """A player's token: 32 url-safe characters, like every token."""
    digest = hmac.new(
        director_token.encode("utf-8", "surrogatepass"),
        f"{tournament_id}/{player}".encode(),
        hashlib.sha256,
    ).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


class TournamentCredentials(Aggregate):
    class Issued(Aggregate.Created):
        tournament_id: UUID
        director_token_hash: str

    class PlayerTokensIssued(Aggregate.Event):
        token_hashes: dict[str, str]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, TournamentCredentials)
            aggregate.player_token_hashes = {**aggregate.player_token_hashes, **self.token_hashes}
            aggregate.players_by_hash = {h: p for p, h in aggregate.player_token_hashes.items()}

    def __init__(self, tournament_id: UUID, director_token_hash: str) -> None:
        self.tournament_id = tournament_id
        self.director_token_hash = director_token_hash
        self.player_token_hashes: dict[str, str] = {}
        self.players_by_hash: dict[str, str] = {}

    @staticmethod
    def id_for(tournament_id: UUID) -> UUID:
        return uuid5(tournament_id, "tournament-credentials")

    @classmethod
    def issue(cls, tournament_id: UUID) -> tuple[TournamentCredentials, str]:
        director_token = token_util.new_token()
        credentials = cls._create(
            cls.Issued,
            id=cls.id_for(tournament_id),
            tournament_id=tournament_id,
            director_token_hash=token_util.token_hash(director_token),
        )
        return credentials, director_token

    def issue_players(self, director_token: str, players: Iterable[str]) -> dict[str, str]:
        """Each new player's token (derived from the director's), stored hashed."""
        tokens = {p: player_token(director_token, self.tournament_id, p) for p in players}
        fresh = {p: t for p, t in tokens.items() if p not in self.player_token_hashes}
        if fresh:
            hashes = {p: token_util.token_hash(t) for p, t in fresh.items()}
            self.trigger_event(self.PlayerTokensIssued, token_hashes=hashes)
        return tokens

    def holder_of(self, token: str | None) -> str:
        """``DIRECTOR`` or the player id the token belongs to."""
        if not token:
            raise Unauthenticated("token-required", "this needs the director's or a player's token")
        presented = token_util.token_hash(token)
        # Found by its hash (a field of hundreds of players), then compared in
        # constant time. The time a lookup takes can only tell whether the
        # SHA-256 of a presented token is stored, which helps no one guess one.
        found = ""
        player = self.players_by_hash.get(presented)
        if player is not None and hmac.compare_digest(presented, self.player_token_hashes[player]):
            found = player
        if hmac.compare_digest(presented, self.director_token_hash):
            found = DIRECTOR
        if not found:
            raise Unauthenticated("bad-token", "this token belongs to nobody in this tournament")
        return found

    def is_director(self, token: str | None) -> bool:
        try:
            return self.holder_of(token) == DIRECTOR
        except Unauthenticated:
            return False
