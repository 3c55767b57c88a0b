"""A new tournament, checked: its settings and its first record.

Everything a director chooses at creation is checked here, in this order,
before anything is stored: the name, site and
dates; the game and its options, which may not hold a duplicate deal (that
is given when a round is paired and stays hidden in the tables' games,
while this record is public); the rounds, table sizes, system, points,
tie-breaks, byes and forfeits (``tournament_input.settings_of``); that the
game's rules take every table size and its options at each; the undo
policy, the time control and what a time-out does; the duplicate mode; the
seed. The seed is drawn at random unless given, and only its commitment
goes into the record, with a nonce of its own, as a game's does
(``creation``).

``TournamentCommands.create_tournament`` stores what this makes, under a
new id, with the director's token.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from fractions import Fraction

from gamelog.games.protocol import JSON
from gamelog.replay.clock import ON_TIMEOUT, ClockError, parse_time_control
from gamelog.replay.record import RECORD_FORMAT, Record, new_seed_nonce, seed_commitment
from gamelog.replay.tournament_record import DUPLICATE_MODES
from gamelog.service.model.refusals import InvalidArgument
from gamelog.service.model.server_clock import record_time
from gamelog.service.usecases.creation import (
    check_clock,
    checked_undo_policy,
    prepare_game,
    rules_named,
)
from gamelog.service.usecases.tournament_input import one_line, settings_of
from gamelog.tournaments.points import exact_text

__all__ = ["creation_record"]


def creation_record(
    name: str,
    game: str,
    rounds: int,
    table_size: tuple[int, int] = (2, 2),
    *,
    site: str = "",
    dates: str = "",
    options: Mapping[str, JSON] | None = None,
    system: str = "swiss",
    undo_policy: str = "none",
    time_control: str = "",
    on_timeout: str = "lose",
    points: Sequence[Sequence[str | int]] = (),
    tiebreaks: Sequence[str] | None = None,
    bye_points: str | None = None,
    bye_place: int | None = None,
    forfeit_points: str = "0",
    duplicate: str = "none",
    seed: bytes | None = None,
    seeding: str = "lot",
) -> tuple[Record, bytes, bytes]:
    """A new tournament's first record, not yet sealed, with its seed and
    the nonce of the seed's commitment; refused with a reason if any
    setting is wrong."""
    name = one_line(name, "name", required=True)
    site, dates = one_line(site, "site"), one_line(dates, "dates", 64)
    rules = rules_named(game)
    options = dict(options or {})
    if "deal" in options:
        raise InvalidArgument(
            "bad-options",
            "a duplicate deal is given when a round is paired (it stays hidden in the "
            "tables' games), not in the tournament's record, which everyone may read",
        )
    settings = settings_of(
        rounds,
        table_size,
        system,
        points,
        tiebreaks,
        bye_points,
        bye_place,
        forfeit_points,
        seeding,
    )
    smallest, largest = settings.table_size
    if not rules.min_players <= smallest <= largest <= rules.max_players:
        raise InvalidArgument(
            "bad-table-size",
            f"{rules.name} is for {rules.min_players}–{rules.max_players} players",
        )
    for size in range(smallest, largest + 1):  # the options must suit every table
        prepare_game(game, [f"s{n}" for n in range(size)], options, undo_policy)
    checked_undo_policy(undo_policy)
    if on_timeout not in ON_TIMEOUT:
        raise InvalidArgument("bad-on-timeout", f"on_timeout is one of {', '.join(ON_TIMEOUT)}")
    if time_control:
        try:
            parse_time_control(time_control, on_timeout)
        except ClockError as error:
            raise InvalidArgument("bad-time-control", str(error)) from None
        check_clock(rules, {"TimeControl": time_control})
    if duplicate not in DUPLICATE_MODES:
        raise InvalidArgument("bad-duplicate", f"duplicate is one of {list(DUPLICATE_MODES)}")
    if seed is not None and not 1 <= len(seed) <= 64:
        raise InvalidArgument("bad-seed", "a seed is 1 to 64 bytes")
    seed = seed if seed is not None else secrets.token_bytes(32)
    nonce = new_seed_nonce()
    record = {
        "position": 0,
        "kind": "created",
        "prev_hash": "",
        "format": RECORD_FORMAT,
        "time": record_time(),
        "name": name,
        "site": site,
        "dates": dates,
        "game": rules.name,
        "rules_version": rules.rules_version,
        "options": options,
        "undo_policy": undo_policy,
        "table_size": [smallest, largest],
        "rounds": settings.rounds,
        "system": settings.system,
        "duplicate": duplicate,
        "time_control": time_control,
        "on_timeout": on_timeout if time_control else "lose",
        "points": [
            [exact_text(p) for p in settings.place_points(len(row))] for row in settings.points
        ],
        "tiebreaks": list(settings.tiebreaks),
        "bye_points": exact_text(Fraction(bye_points)) if bye_points is not None else None,
        "bye_place": bye_place,
        "forfeit_points": exact_text(settings.forfeit_score()),
        "commitment": seed_commitment(seed, nonce),
    }
    if settings.seeding != "lot":  # absent: by lot, as every record before it
        record["seeding"] = settings.seeding
    return record, seed, nonce
