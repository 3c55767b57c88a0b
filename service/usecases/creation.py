"""A new game, checked and dealt: what ``create_game``, tournaments' tables and
imports have in common.

Everything a creator chooses is checked here before anything is stored: the
game, the seats (count and names), the undo policy, the tags, the time
control, and the options (by the game's own rules, which then deal). The
seed is drawn at random unless given (a tournament derives its tables'
seeds from its own), and only its commitment goes into the record; the
tokens are issued with the game, shown once to the creator and stored only as
hashes (``Credentials``).

>>> game, credentials, created = prepare_game("freeform", ["ann", "ben"])
>>> game.position, sorted(created.tokens)
(0, ['ann', 'ben'])
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from gamelog.games import get_rules
from gamelog.games.protocol import JSON, InvalidOptions, Rules, RulesError, rng_for
from gamelog.replay.checks import quoted, seat_names_problem, tags_problem
from gamelog.replay.clock import time_control_problem
from gamelog.replay.line import UNDO_POLICIES
from gamelog.replay.record import RECORD_FORMAT, Record, as_stored, new_seed_nonce, seed_commitment
from gamelog.replay.seated_games import DUPLICATE_TAG
from gamelog.service.model.credentials import Credentials
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import UNREADABLE, InvalidArgument
from gamelog.service.model.server_clock import record_time
from gamelog.service.usecases.answers import CreatedGame


def prepare_game(
    game: str,
    seats: Sequence[str],
    options: Mapping[str, JSON] | None = None,
    undo_policy: str = "none",
    metadata: Mapping[str, JSON] | None = None,
    seed: bytes | None = None,
    tournament_id: UUID | None = None,
) -> tuple[Game, Credentials, CreatedGame]:
    """A new game and its credentials, checked and dealt, not yet saved
    (a tournament saves its tables with the round that seats them;
    ``tournament_id``: that tournament's id here)."""
    rules = rules_named(game)
    seats = checked_seats(rules, seats)
    checked_undo_policy(undo_policy)
    metadata = checked_metadata(metadata)
    check_clock(rules, metadata)
    seed = seed if seed is not None else secrets.token_bytes(32)
    seed_nonce = new_seed_nonce()
    try:
        normalized = rules.normalize_options(dict(options or {}), seats)
        deal = rules.setup(normalized, seats, rng_for(seed, 0))
    except RulesError as error:
        raise InvalidArgument(error.code, error.message) from None
    except UNREADABLE as error:  # the rules choked instead of refusing
        raise InvalidArgument(
            "bad-options", f"options cannot be read: {quoted(error, 200)}"
        ) from None
    normalized, deal = as_stored([normalized, deal])
    record = {
        "position": 0,
        "kind": "created",
        "prev_hash": "",
        "format": RECORD_FORMAT,
        "time": record_time(),
        "game": rules.name,
        "rules_version": rules.rules_version,
        "seats": list(seats),
        "options": normalized,
        "undo_policy": undo_policy,
        "metadata": metadata,
        "commitment": seed_commitment(seed, seed_nonce),
        "parent": None,
        "base_ply": 0,
        "events": deal,
    }
    return new_game(record, seed, seed_nonce, tournament_id)


def new_game(
    record: Record, seed: bytes, seed_nonce: bytes, tournament_id: UUID | None = None
) -> tuple[Game, Credentials, CreatedGame]:
    """A game created by ``record`` under a new id, with new tokens."""
    game_id = uuid.uuid4()
    game = Game.create(game_id, record, seed, seed_nonce, tournament_id)
    credentials, seat_tokens, arbiter_token = Credentials.issue(game_id, record["seats"])
    created = CreatedGame(
        game_id, seat_tokens, arbiter_token, record["commitment"], game.record_created
    )
    return game, credentials, created


def rules_named(game: str) -> Rules[Any]:
    try:
        return get_rules(game)
    except InvalidOptions as error:
        raise InvalidArgument(error.code, error.message) from None


def checked_seats(rules: Rules[Any], seats: Sequence[str]) -> list[str]:
    seats = list(seats)
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise InvalidArgument(
            "bad-player-count",
            f"{rules.name} is for {rules.min_players}–{rules.max_players} players, "
            f"not {len(seats)}",
        )
    problem = seat_names_problem(seats)
    if problem:
        raise InvalidArgument(*problem)
    return seats


def checked_undo_policy(policy: str) -> str:
    if policy not in UNDO_POLICIES:
        raise InvalidArgument("bad-undo-policy", f"undo policy must be one of {UNDO_POLICIES}")
    return policy


def check_clock(rules: Rules[Any], metadata: Mapping[str, JSON]) -> None:
    problem = time_control_problem(metadata)
    if problem:
        raise InvalidArgument("bad-time-control", problem)
    if "TimeControl" in metadata and rules.name == "freeform":
        raise InvalidArgument(
            "bad-time-control", "freeform has no turns, so no clock can be fair in it"
        )


def checked_metadata(metadata: Mapping[str, JSON] | None) -> dict[str, JSON]:
    metadata = dict(metadata or {})
    problem = tags_problem(metadata)
    if problem:
        raise InvalidArgument("bad-metadata", problem)
    return metadata


def refuse_duplicate_tag(metadata: Mapping[str, JSON] | None) -> None:
    """Only a tournament tags a game ``Duplicate`` (its round's tables; their
    forks inherit it): the tag withholds a running game from spectators."""
    if DUPLICATE_TAG in (metadata or {}):
        raise InvalidArgument(
            "bad-metadata", f"tag {DUPLICATE_TAG} is set by tournaments (duplicate rounds)"
        )
