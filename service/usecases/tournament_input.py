"""Checking what a tournament director types: names, settings, players, seatings.

Everything here is pure: it turns the director's input into what the
``Tournament`` aggregate records, or refuses it with a reason
(``InvalidArgument``, or ``Refused`` for a seating the rules of a duplicate
round forbid) before anything is stored.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.replay.checks import SEAT_NAME, quoted
from gamelog.replay.tournament_state import SeatedRound
from gamelog.service.model.refusals import InvalidArgument, Refused
from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.rounds import Round
from gamelog.tournaments.settings import MAX_ROUNDS, Settings

MAX_PLAYERS = 5000
MAX_TEXT = 200
PLAYER_ID_LENGTH = 24


def player_id_for(name: str, taken: set[str]) -> str:
    """A readable, stable id from a display name, unique among ``taken``
    (compared ignoring case); it names the player's seat at every table.

    >>> player_id_for("Ann Smith", set()), player_id_for("Ann  Smith", {"ann-smith"})
    ('ann-smith', 'ann-smith-2')
    >>> player_id_for("Åse Ødegård", set()), player_id_for("李", set())
    ('ase-degard', 'player')
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:PLAYER_ID_LENGTH]
    slug = slug.strip("-") or "player"
    candidate, n = slug, 1
    while candidate.casefold() in taken:
        n += 1
        candidate = f"{slug}-{n}"
    return candidate


def one_line(value: Any, what: str, limit: int = MAX_TEXT, required: bool = False) -> str:
    if not isinstance(value, str) or len(value) > limit or any(c in value for c in "\n\r\x00"):
        raise InvalidArgument(f"bad-{what}", f"{what} is one line of at most {limit} characters")
    if required and not value.strip():
        raise InvalidArgument(f"bad-{what}", f"{what} is required")
    return value.strip()


def settings_of(
    rounds: int,
    table_size: tuple[int, int],
    system: str,
    points: Sequence[Sequence[str | int]],
    tiebreaks: Sequence[str] | None,
    bye_points: str | None,
    bye_place: int | None,
    forfeit_points: str,
    seeding: str = "lot",
) -> Settings:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidArgument("bad-rounds", f"a tournament has 1 to {MAX_ROUNDS} rounds")
    try:
        extra = {} if tiebreaks is None else {"tiebreaks": tuple(tiebreaks)}
        return Settings(
            rounds=rounds,
            table_size=(table_size[0], table_size[1]),
            system=system,
            points=tuple(tuple(str(p) for p in row) for row in points),
            bye_points=bye_points,
            bye_place=bye_place,
            forfeit_points=forfeit_points,
            seeding=seeding,
            **extra,  # type: ignore[arg-type]
        )
    except TournamentError as error:
        raise InvalidArgument(error.code, error.message) from None


def player_entry(raw: Mapping[str, Any], taken: set[str]) -> dict[str, Any]:
    name = one_line(raw.get("name"), "player-name", 100, required=True)
    given = raw.get("id") or ""
    if given:
        if not isinstance(given, str) or not SEAT_NAME.fullmatch(given):
            raise InvalidArgument(
                "bad-player-id",
                f"player id {quoted(given)} must be 1–32 letters, digits, '_', '.' or '-', "
                "starting with a letter or digit (it names the player's seat)",
            )
        if given.casefold() in taken:
            raise InvalidArgument("duplicate-player", f"player id {quoted(given)} is taken")
        player_id = given
    else:
        player_id = player_id_for(name, taken)
    rating = raw.get("rating")
    if rating is not None and (
        isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 10_000
    ):
        raise InvalidArgument("bad-rating", "a rating is a whole number from 0 to 10000")
    club = raw.get("club")
    if club is not None:
        club = one_line(club, "club", 100) or None
    return {"id": player_id, "name": name, "rating": rating, "club": club}


def check_duplicate_seats(paired: SeatedRound, seated: Round) -> None:
    """In a duplicate round the tables of one size share one deal, and each
    player has seen their seat's cards since the round was paired. Seated
    again at that size, a player keeps their seat number: at another seat
    they would hold cards they have not seen, and know a rival's."""
    was = {
        player: (len(table.seats), index)
        for table in paired.tables
        for index, player in enumerate(table.seats)
    }
    for table in seated.tables:
        for index, player in enumerate(table.seats):
            size, before = was.get(player, (0, index))
            if size == len(table.seats) and before != index:
                raise Refused(
                    "duplicate-seat-moved",
                    f"in a duplicate round {player} keeps seat {before + 1} at a table of "
                    f"{size}: that seat's cards are the ones they have seen",
                )
