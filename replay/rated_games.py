"""Which games count for ratings, read from their records.

``rated_game`` turns one game's full records into what
``tournaments.ratings.rate`` needs, or ``None`` when the game must not be
rated:

* it did not finish (no ``finished`` record);
* its records do not audit clean (``audit_records``: the hash chain, the
  seed, every move re-run, the end where the rules put it);
* it is a fork: a branch replays another game's line from a position on, so
  rating it would count that line twice; a study is not a game played;
* its result names no two places (nothing to learn of skill).

A result the arbiter or a tournament's director entered (a declared fact,
which audit checks for consistency only) counts: the director's word is the
record of a game played on paper.

``ratings_from_records`` is the recomputation: ratings from exported
records alone. The service's ratings read model must always equal it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gamelog.replay.audit import audit_records
from gamelog.tournaments.ratings import PlayerRating, RatedGame, RatingFilter, rate

Record = dict[str, Any]


def rated_game(game_id: str, records: Sequence[Record]) -> RatedGame | None:
    """The game's facts for rating, or None (see the module's list)."""
    if not records or records[-1].get("kind") != "finished":
        return None
    created = records[0]
    if created.get("parent"):
        return None
    result = records[-1].get("result") or {}
    places = tuple(tuple(str(seat) for seat in place) for place in result.get("ranking") or ())
    if len(places) < 2:
        return None
    report = audit_records(records)
    if not report.ok or report.deferred:
        return None
    tags = created.get("metadata") or {}
    return RatedGame(
        game_id=game_id,
        game=str(created["game"]),
        finished_at=str(records[-1].get("time") or records[-1].get("timestamp") or ""),
        event=str(tags.get("Event", "")),
        tournament=str(tags.get("Tournament", "")),
        places=places,
        creation_hash=str(created.get("hash", "")),
    )


def ratings_from_records(
    games: Iterable[tuple[str, Sequence[Record]]], wanted: RatingFilter | None = None
) -> dict[str, dict[str, PlayerRating]]:
    """Ratings recomputed from games' records ((game id, records) pairs):
    every game that counts and ``wanted`` admits."""
    wanted = wanted or RatingFilter()
    rated = (rated_game(game_id, records) for game_id, records in games)
    return rate(g for g in rated if g is not None and wanted.admits(g))


__all__ = ["rated_game", "ratings_from_records"]
