"""The tournaments' part of the index (issue 31.4): listing, short ids, copies.

Run in process on each store the index lives beside: memory, SQLite and
PostgreSQL (marked ``postgres`` there). The index is a projection of the log,
so ``reindex`` builds the same listing again from the events alone.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest

from gamelog.service.index.adapters import INDEX_FOLLOW
from gamelog.service.index.view import TournamentFilter
from gamelog.service.model.refusals import InvalidArgument, NotFound
from gamelog.service.storage.settings import postgres_env
from gamelog.service.usecases import tournament_commands
from gamelog.service.usecases.application import GameLog

from support.tournaments import start


@pytest.fixture(params=["popo", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameLog]:
    env = {INDEX_FOLLOW: "n"}
    if request.param == "sqlite":
        env |= {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{tmp_path}/g.db"}
    elif request.param == "postgres":
        env |= postgres_env(request.getfixturevalue("postgres_dsn"))
    else:
        env |= {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    application = GameLog(env=env)
    yield application
    application.close()


def _names(app: GameLog, filters: TournamentFilter, limit: int = 50) -> list[str]:
    page = app.tournament_listing.list_tournaments(limit, filters)
    return [t.name for t in page.tournaments]


def test_tournaments_list_newest_first_filtered_by_name_status_and_date(app: GameLog) -> None:
    # A name unique to this run keeps the other tests' tournaments (the
    # PostgreSQL database is the session's) out of the answers.
    tag = f"t{id(app)}"
    spring = start(app, "freeform", 1, (2, 2), ["Ann", "Ben"], name=f"{tag} Spring open")
    start(app, "freeform", 1, (2, 2), name=f"{tag} Club night", dates="2026-11-30")
    start(app, "freeform", 1, (2, 2), name=f"{tag} club NIGHT", dates="2026-12-07")
    spring.pair()
    app.tournaments.enter_result(
        spring.tournament_id, spring.director, 1, 1, [["ann"], ["ben"]], "on paper"
    )
    app.tournaments.finish_tournament(spring.tournament_id, spring.director)
    assert _names(app, TournamentFilter(name=tag)) == [
        f"{tag} club NIGHT",
        f"{tag} Club night",
        f"{tag} Spring open",
    ]
    assert _names(app, TournamentFilter(name=f"{tag} club night")) == [
        f"{tag} club NIGHT",
        f"{tag} Club night",
    ]
    assert _names(app, TournamentFilter(name=tag, status="finished")) == [f"{tag} Spring open"]
    assert _names(app, TournamentFilter(name=tag, status="running")) == [
        f"{tag} club NIGHT",
        f"{tag} Club night",
    ]
    assert _names(app, TournamentFilter(name=tag, date="2026-11")) == [f"{tag} Club night"]
    today = app.tournament_listing.list_tournaments(1).tournaments[0].created_at[:10]
    assert len(_names(app, TournamentFilter(name=tag, date=today))) == 3
    assert _names(app, TournamentFilter(name="%")) == _names(app, TournamentFilter(name="_%_"))
    # Pages: each tournament once, newest first.
    first = app.tournament_listing.list_tournaments(2, TournamentFilter(name=tag))
    rest = app.tournament_listing.list_tournaments(
        2, TournamentFilter(name=tag), first.next_page_token
    )
    assert [t.name for t in [*first.tournaments, *rest.tournaments]] == _names(
        app, TournamentFilter(name=tag)
    )
    assert rest.next_page_token == ""
    before = app.tournament_listing.list_tournaments(50, TournamentFilter(name=tag))
    app.listing.reindex()
    assert app.tournament_listing.list_tournaments(50, TournamentFilter(name=tag)) == before


def test_bad_tournament_filters_are_refused(app: GameLog) -> None:
    for filters in (TournamentFilter(status="paused"), TournamentFilter(date="30.11.2026")):
        with pytest.raises(InvalidArgument) as refused:
            app.tournament_listing.list_tournaments(10, filters)
        assert refused.value.code == "bad-filter"


def test_a_unique_prefix_names_its_tournament_and_an_ambiguous_one_is_refused(
    app: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix = UUID(int=id(app) % 2**32).hex[-8:-4]  # apart from other tests' tournaments
    ids = iter(UUID(f"{prefix}{i}" + "0" * 27) for i in range(3))
    monkeypatch.setattr(tournament_commands, "uuid", types.SimpleNamespace(uuid4=lambda: next(ids)))
    made = [start(app, "freeform", 1, (2, 2)).tournament_id for _ in range(3)]
    resolve = app.tournament_listing.resolve_tournament_id
    assert resolve(f"{prefix}1") == made[1]
    assert resolve(str(made[2]).upper()) == made[2]
    with pytest.raises(InvalidArgument) as refused:
        resolve(prefix)
    assert refused.value.code == "ambiguous-tournament-id"
    assert "3 tournaments" in refused.value.message
    with pytest.raises(NotFound):
        resolve(f"{prefix}9")
    for text in ("abc", "xyz1", ""):
        with pytest.raises(InvalidArgument):
            resolve(text)


def test_an_archive_imported_again_names_the_copies_already_stored(app: GameLog) -> None:
    running = start(app, "freeform", 1, (2, 2), ["Ann", "Ben"])
    running.pair()
    app.tournaments.enter_result(
        running.tournament_id, running.director, 1, 1, [["ann"], ["ben"]], "on paper"
    )
    app.tournaments.finish_tournament(running.tournament_id, running.director)
    archive = app.tournament_files.export_tournament(running.tournament_id, running.director)
    first = app.tournament_files.import_tournament(archive)
    assert first.already_stored == [running.tournament_id]
    second = app.tournament_files.import_tournament(archive)
    assert second.already_stored == [running.tournament_id, first.tournament_id]
