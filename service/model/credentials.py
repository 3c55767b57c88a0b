"""Seat and arbiter tokens of one game, kept apart from its record.

The hashes of a game's tokens live in their own aggregate, ``Credentials``, so
the game's record stays portable (an export carries no secrets, an import gets
new tokens) and the secrets never travel with it.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from gamelog.games.protocol import ARBITER, Viewer
from gamelog.service.model import tokens as token_util
from gamelog.service.model.refusals import Unauthenticated


class Credentials(Aggregate):
    """The hashes of a game's seat and arbiter tokens, kept apart from the
    game's record so the record stays portable and the secrets never travel."""

    class Issued(Aggregate.Created):
        game_id: UUID
        seat_token_hashes: dict[str, str]
        arbiter_token_hash: str

    def __init__(
        self, game_id: UUID, seat_token_hashes: dict[str, str], arbiter_token_hash: str
    ) -> None:
        self.game_id = game_id
        self.seat_token_hashes = seat_token_hashes
        self.arbiter_token_hash = arbiter_token_hash

    @staticmethod
    def id_for(game_id: UUID) -> UUID:
        return uuid5(game_id, "credentials")

    @classmethod
    def issue(cls, game_id: UUID, seats: Sequence[str]) -> tuple[Credentials, dict[str, str], str]:
        seat_tokens = {seat: token_util.new_token() for seat in seats}
        arbiter_token = token_util.new_token()
        credentials = cls._create(
            cls.Issued,
            id=cls.id_for(game_id),
            game_id=game_id,
            seat_token_hashes={s: token_util.token_hash(t) for s, t in seat_tokens.items()},
            arbiter_token_hash=token_util.token_hash(arbiter_token),
        )
        return credentials, seat_tokens, arbiter_token

    def viewer_for(self, token: str | None) -> Viewer:
        """The seat (or ARBITER) a token belongs to; None for no token."""
        if not token:
            return None
        # Compare against every hash so the time taken says nothing about which matched.
        presented = token_util.token_hash(token)
        found: Viewer = None
        matched = False
        for seat, stored in self.seat_token_hashes.items():
            if hmac.compare_digest(presented, stored):
                found, matched = seat, True
        if hmac.compare_digest(presented, self.arbiter_token_hash):
            found, matched = ARBITER, True
        if not matched:
            raise Unauthenticated("bad-token", "this token belongs to no seat of this game")
        return found
