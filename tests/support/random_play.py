"""Random legal play: the one way the tests play a game they do not script.

``play_random`` is handed a game as a player sees it, in this process
(``InProcessGame``: the application and the tokens), through a gRPC client
(``GrpcGame``) or each seat's Play stream (``StreamGame``), and a chooser
(a ``random.Random``). At each turn the chooser picks one of the seats to
act (the arbiter only when no seat may, and only if the arbiter's token was
given), then one of that seat's legal moves, as that seat lists them with
its own token. Play stops when the game is over,
when nobody given a token may act, or after ``max_moves`` moves.

>>> import random
>>> from gamelog.service.usecases.application import GameLog
>>> app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
>>> created = app.games.create_game("three-too-many", ["ann", "ben"])
>>> play_random(InProcessGame.of(app, created), random.Random(1), max_moves=5)
5
>>> play_random(InProcessGame.of(app, created), random.Random(1)) > 20
True
>>> app.queries.state_at(created.game_id).is_finished
True
>>> app.close()

The rules alone (no store, no tokens) play out in ``gamelog.games.playout``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from uuid import UUID

from gamelog.cli.client import Client
from gamelog.cli.play_stream import PlayStream, refusal_error
from gamelog.games.protocol import ARBITER
from gamelog.service.model.refusals import Conflict
from gamelog.service.usecases.answers import CreatedGame
from gamelog.service.usecases.application import GameLog


@dataclass(frozen=True)
class Turn:
    """Where a game stands before a move: its last position, who may act,
    whether it is over, and which game it is."""

    position: int
    to_act: tuple[str, ...]
    over: bool
    game: str


class Playable(Protocol):
    """A game as a random player sees it."""

    tokens: Mapping[str, str]
    """Who may act here: each seat's token, and the arbiter's under ``ARBITER``."""

    def turn(self) -> Turn: ...

    def legal_moves(self, seat: str) -> Sequence[Any]: ...

    def play(self, seat: str, move: Any, position: int) -> Any | None:
        """The answer to the move; None when another writer took the position."""


@dataclass
class InProcessGame:
    """A game in an application in this process."""

    app: GameLog
    game_id: UUID
    tokens: Mapping[str, str]

    @classmethod
    def of(cls, app: GameLog, created: CreatedGame, arbiter: bool = True) -> InProcessGame:
        """The game just created, every seat's token, and the arbiter's if asked."""
        tokens = {**created.tokens, **({ARBITER: created.arbiter_token} if arbiter else {})}
        return cls(app, created.game_id, tokens)

    def turn(self) -> Turn:
        game = self.app.queries.state_at(self.game_id)
        to_act = tuple(game.rules.to_act(game.state))
        return Turn(game.position, to_act, game.is_over, game.rules.name)

    def legal_moves(self, seat: str) -> Sequence[Any]:
        return self.app.queries.legal_moves(self.game_id, self.tokens[seat]).moves

    def play(self, seat: str, move: Any, position: int) -> Any | None:
        try:
            return self.app.games.play(self.game_id, self.tokens[seat], move, position)
        except Conflict:
            return None


@dataclass
class GrpcGame:
    """A game on a server, read through ``client``; each seat plays through
    its own client in ``seat_clients`` where it has one, else ``client``."""

    client: Client
    game_id: str
    tokens: Mapping[str, str]
    seat_clients: Mapping[str, Client] = field(default_factory=dict)

    @classmethod
    def of(cls, client: Client, created: Any, arbiter: bool = True) -> GrpcGame:
        """The game ``client.create`` answered, every seat's token, and the arbiter's if asked."""
        tokens = {**created.seat_tokens, **({ARBITER: created.arbiter_token} if arbiter else {})}
        return cls(client, created.game_id, tokens)

    def turn(self) -> Turn:
        state = self.client.state(self.game_id)
        return Turn(state.last_position, tuple(state.to_act), state.finished, state.game)

    def legal_moves(self, seat: str) -> Sequence[Any]:
        return self.seat_clients.get(seat, self.client).legal_moves(self.game_id, self.tokens[seat])

    def play(self, seat: str, move: Any, position: int) -> Any:
        mover = self.seat_clients.get(seat, self.client)
        return mover.play(self.game_id, move, position, self.tokens[seat])


@dataclass
class StreamGame:
    """A game on a server, read through ``client``, each seat playing
    through its own Play stream (``streams``, each having joined the game
    with that seat's token)."""

    client: Client
    game_id: str
    tokens: Mapping[str, str]
    streams: Mapping[str, PlayStream]

    def turn(self) -> Turn:
        state = self.client.state(self.game_id)
        return Turn(state.last_position, tuple(state.to_act), state.finished, state.game)

    def legal_moves(self, seat: str) -> Sequence[Any]:
        return self.client.legal_moves(self.game_id, self.tokens[seat])

    def play(self, seat: str, move: Any, position: int) -> Any | None:
        answer = self.streams[seat].move(self.game_id, move, position)
        if answer.HasField("refusal"):
            refusal = answer.refusal
            if refusal.reason == "stale-position":
                return None
            raise refusal_error(refusal)
        return answer


def play_random(
    game: Playable,
    chooser: random.Random,
    max_moves: int | None = None,
    *,
    freeform_seats_until: int | None = None,
    before_each_move: Callable[[Turn], None] | None = None,
    after_each_move: Callable[[str, Any, Any], None] | None = None,
) -> int:
    """Random legal moves (see the module's docstring); how many were played.

    A freeform game never ends by itself: with ``freeform_seats_until`` its
    seats stop at that position, and its arbiter's legal move, a result,
    ends it. ``before_each_move`` sees each turn a move is about to be
    chosen in; ``after_each_move`` sees the seat, the move and the answer."""
    played = 0
    while max_moves is None or played < max_moves:
        turn = game.turn()
        if turn.over:
            break
        seats = [seat for seat in turn.to_act if seat != ARBITER]
        if freeform_seats_until is not None and turn.game == "freeform":
            seats = seats if turn.position < freeform_seats_until else []
        actors = seats or [s for s in turn.to_act if s == ARBITER and ARBITER in game.tokens]
        if not actors:
            break
        if before_each_move is not None:
            before_each_move(turn)
        seat = chooser.choice(actors)
        legal = game.legal_moves(seat)
        assert legal, f"{seat} may act at {turn.position} but has no legal move"
        move = chooser.choice(legal)
        answer = game.play(seat, move, turn.position)
        if answer is None:
            continue
        if after_each_move is not None:
            after_each_move(seat, move, answer)
        played += 1
    return played


# -- a new game, played at random, with its states -----------------------------------


@dataclass
class PlayedGame:
    created: CreatedGame
    states: list[Any] = field(default_factory=list)
    """The live state after each position, as the aggregate held it while playing."""
    moves: list[tuple[str, Any]] = field(default_factory=list)

    @property
    def game_id(self) -> UUID:
        return self.created.game_id

    def token(self, seat: str) -> str:
        return self.created.arbiter_token if seat == ARBITER else self.created.tokens[seat]


def random_game(
    app: GameLog,
    game: str,
    players: int,
    seed: int,
    max_moves: int = 5000,
    undo_policy: str = "none",
    options: dict[str, Any] | None = None,
) -> PlayedGame:
    """A new game of ``players`` seats (p1, p2, ...) from ``seed``, played at
    random (the chooser seeded alike) to its end, remembering the live state
    after each stored position and every move played."""
    seats = [f"p{i + 1}" for i in range(players)]
    created = app.games.create_game(
        game, seats, options, undo_policy=undo_policy, seed=seed.to_bytes(8, "big")
    )
    played = PlayedGame(created)
    played.states.append(app.queries.state_at(created.game_id).state)

    def remember(seat: str, move: Any, answer: Any) -> None:
        played.moves.append((seat, move))
        state = app.queries.state_at(created.game_id).state
        # One state per stored position: a move, and the end when it came.
        played.states.extend(state for _ in answer.records)

    play_random(
        InProcessGame.of(app, created),
        random.Random(seed),
        max_moves,
        after_each_move=remember,
    )
    return played
