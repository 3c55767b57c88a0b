"""Who may open another follow stream: seats and the arbiter never wait for
spectators.

Anyone may follow a game without a token, so spectators could otherwise take
every stream a process can hold, and the players of a game could no longer
follow their own game. Two pools are kept apart:

- **spectators** (no token): at most ``spectators`` streams in the process, and
  at most ``spectators_per_game`` on one game, so that one crowded game
  cannot take the whole pool from the others;
- **players** (a seat's or the arbiter's token, which only works for its own
  game): at most ``per_player`` streams for one seat (or the arbiter) of one
  game, a few devices each, and ``player_streams`` in the process.

A spectator flood therefore never refuses a player, and a player never takes a
spectator's place.

    >>> admission = Admission(FollowLimits(spectators=1, per_player=1))
    >>> from uuid import UUID
    >>> game = UUID(int=1)
    >>> crowd = admission.admit(game, None)
    >>> try:
    ...     admission.admit(game, None)
    ... except TooManyFollowers as refused:
    ...     print(refused.code)
    too-many-spectators
    >>> ann = admission.admit(game, "ann")       # the seat still gets in
    >>> crowd.release()
    >>> admission.admit(game, None).release()    # and the spectator's place is free again
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from gamelog.games.protocol import ARBITER, Viewer
from gamelog.service.model.refusals import GamelogError


class TooManyFollowers(GamelogError):
    status = "RESOURCE_EXHAUSTED"


@dataclass(frozen=True)
class FollowLimits:
    """How many follow streams one process holds, by kind of caller."""

    spectators: int = 10_000
    spectators_per_game: int = 10_000
    player_streams: int = 5_000
    per_player: int = 4

    @property
    def total(self) -> int:
        return self.spectators + self.player_streams


class Ticket:
    """One admitted stream; ``release`` gives its place back (once)."""

    __slots__ = ("_admission", "_key")

    def __init__(self, admission: Admission, key: tuple[UUID, Viewer]) -> None:
        self._admission: Admission | None = admission
        self._key = key

    def release(self) -> None:
        if self._admission is not None:
            self._admission._release(self._key)
            self._admission = None

    def __enter__(self) -> Ticket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class Admission:
    """Counts the open streams and refuses one that would pass a limit.

    Not thread-safe: the fan-out calls it from the event loop only."""

    def __init__(self, limits: FollowLimits) -> None:
        self.limits = limits
        self.spectators = 0
        self.players = 0
        self._by_key: dict[tuple[UUID, Viewer], int] = {}

    def admit(self, game_id: UUID, viewer: Viewer) -> Ticket:
        """A place for ``viewer``'s stream of ``game_id``, or TooManyFollowers."""
        key = (game_id, viewer)
        here = self._by_key.get(key, 0)
        limits = self.limits
        if viewer is None:
            if self.spectators >= limits.spectators:
                raise TooManyFollowers(
                    "too-many-spectators",
                    f"this server holds {limits.spectators} spectator streams already; "
                    "retry later (seats and the arbiter have places of their own)",
                )
            if here >= limits.spectators_per_game:
                raise TooManyFollowers(
                    "too-many-spectators",
                    f"game {game_id} has {limits.spectators_per_game} spectators on this "
                    "server already; retry later",
                )
            self.spectators += 1
        else:
            who = "the arbiter" if viewer == ARBITER else f"seat {viewer}"
            if here >= limits.per_player:
                raise TooManyFollowers(
                    "too-many-streams-for-seat",
                    f"{who} already follows game {game_id} in {limits.per_player} streams "
                    "on this server; close one first",
                )
            if self.players >= limits.player_streams:
                raise TooManyFollowers(
                    "too-many-followers",
                    f"this server holds {limits.player_streams} player streams already; "
                    "retry later",
                )
            self.players += 1
        self._by_key[key] = here + 1
        return Ticket(self, key)

    def _release(self, key: tuple[UUID, Viewer]) -> None:
        if key[1] is None:
            self.spectators -= 1
        else:
            self.players -= 1
        left = self._by_key[key] - 1
        if left:
            self._by_key[key] = left
        else:
            del self._by_key[key]
