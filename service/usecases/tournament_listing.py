"""Finding tournaments: the listing, short ids, and copies of one archive.

Every answer comes from the tournaments' part of the game index (a read
model of the log, ``gamelog.service.index``), brought up to the log first, as
``listing`` does for games: its cost is the size of the answer, not of the
store.

    app.tournament_listing.list_tournaments(20, TournamentFilter(name="club"))
    app.tournament_listing.resolve_tournament_id("3f2a9c")   # a unique prefix → the id
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from gamelog.service.index.follower import IndexFollower
from gamelog.service.index.view import IndexedTournament, TournamentFilter
from gamelog.service.model.refusals import InvalidArgument
from gamelog.service.usecases.listing import page_start, resolve_short_id

__all__ = ["TournamentFilter", "TournamentListing", "TournamentsPage"]

MAX_TOURNAMENTS = 1000
"""Tournaments one page lists at most."""


@dataclass(frozen=True)
class TournamentsPage:
    tournaments: list[IndexedTournament]
    next_page_token: str = ""
    """Where the next (older) page starts; empty when there is none."""


class TournamentListing:
    """The stored tournaments, newest first, and their short ids."""

    def __init__(self, index: IndexFollower) -> None:
        self.index = index

    def list_tournaments(
        self, limit: int = 50, filters: TournamentFilter | None = None, page_token: str = ""
    ) -> TournamentsPage:
        """The newest ``limit`` tournaments ``filters`` lets through;
        ``page_token`` (a page's ``next_page_token``) goes on from there."""
        filters = filters or TournamentFilter()
        problem = filters.problem()
        if problem:
            raise InvalidArgument("bad-filter", problem)
        if not 1 <= limit <= MAX_TOURNAMENTS:
            raise InvalidArgument(
                "bad-limit", f"a listing has 1–{MAX_TOURNAMENTS} tournaments, not {limit}"
            )
        found = self.index.current().tournaments(filters, limit + 1, page_start(page_token))
        page = found[:limit]
        return TournamentsPage(page, str(page[-1].seq) if len(found) > limit else "")

    def resolve_tournament_id(self, text: str) -> UUID:
        """The tournament ``text`` names: a full id as it is (dashes
        optional), or the one tournament whose id starts with ``text`` (at
        least four hex digits), as games take short ids."""
        index = self.index.current()
        return resolve_short_id(
            text,
            "tournament",
            index.tournament_ids_with_prefix,
            index.count_tournaments_with_prefix,
        )

    def copies_of(self, creation_hash: str) -> list[UUID]:
        """The stored tournaments whose creation record has this hash, oldest
        first: one archive imported twice gives both the same."""
        return self.index.current().tournament_ids_with_creation_hash(creation_hash)
