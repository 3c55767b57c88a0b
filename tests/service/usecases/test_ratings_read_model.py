"""The ratings' read model: what it counts, and that it always equals a
recomputation from the games' exported records, before and after a reindex."""

from __future__ import annotations

import copy
import random
from typing import Any
from uuid import UUID, uuid4

import pytest

from gamelog.replay.export import parse_record_file
from gamelog.replay.rated_games import rated_game, ratings_from_records
from gamelog.service.model.refusals import InvalidArgument, NotFound
from gamelog.service.usecases.application import GameLog
from gamelog.tournaments.ratings import RatingFilter

from support.random_play import InProcessGame, play_random

SEATINGS = [
    ["ann", "ben"],
    ["cy", "dee", "ann"],
    ["ben", "cy"],
    ["dee", "ann", "ben", "cy"],
    ["ann", "cy"],
    ["ben", "dee"],
]


def played(app: GameLog, seats: list[str], seed: int, event: str) -> Any:
    created = app.games.create_game(
        "three-too-many", seats, metadata={"Event": event}, seed=f"s{seed}".encode()
    )
    play_random(InProcessGame.of(app, created), random.Random(seed))
    return created


def exported(app: GameLog, game_ids: list[UUID]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Each game's records as its record file holds them (``gamelog export``)."""
    found = []
    for game_id in game_ids:
        for entry in parse_record_file(app.record_files.export(game_id, None)):
            found.append((entry.game_id, entry.records))
    return found


def as_numbers(ratings: dict[str, dict[str, Any]]) -> dict[tuple[str, str], tuple[Any, ...]]:
    return {
        (game, player): (r.mu, r.sigma, r.games, tuple(s.game_id for s in r.history))
        for game, players in ratings.items()
        for player, r in players.items()
    }


@pytest.fixture(params=["sqlite_app", "postgres_app"])
def app(request: pytest.FixtureRequest) -> GameLog:
    """The read model in each database's index (the memory store's is SQLite's)."""
    found: GameLog = request.getfixturevalue(request.param)
    return found


@pytest.fixture
def evening(app: GameLog) -> dict[str, Any]:
    """Six finished games of one event, one still running, one finished fork
    (the event's name is new: a PostgreSQL database serves the whole session)."""
    event = f"Club night {uuid4().hex[:8]}"
    finished = [played(app, seats, n, event) for n, seats in enumerate(SEATINGS)]
    running = app.games.create_game("three-too-many", ["ann", "ben"], seed=b"r")
    first = finished[0]
    fork = app.games.fork(first.game_id, first.tokens["ann"], 1)
    play_random(InProcessGame.of(app, fork), random.Random(99))
    assert app.queries.state_at(fork.game_id).is_finished
    return {"finished": finished, "running": running, "fork": fork, "event": event}


def test_the_read_model_equals_a_recomputation_from_the_exported_records(
    app: GameLog, evening: dict[str, Any]
) -> None:
    every = [g.game_id for g in evening["finished"]] + [
        evening["running"].game_id,
        evening["fork"].game_id,
    ]
    wanted = RatingFilter(event=evening["event"])
    recomputed = ratings_from_records(exported(app, every), wanted)
    served = app.ratings.ratings(wanted)
    assert as_numbers(served) == as_numbers(recomputed)
    assert sorted(served["three-too-many"]) == ["ann", "ben", "cy", "dee"]
    games = {s.game_id for r in served["three-too-many"].values() for s in r.history}
    assert games == {str(g.game_id) for g in evening["finished"]}  # not running, not the fork


def test_a_reindex_rebuilds_the_same_ratings(app: GameLog, evening: dict[str, Any]) -> None:
    wanted = RatingFilter(event=evening["event"])
    before = as_numbers(app.ratings.ratings(wanted))
    app.index.rebuild()
    assert as_numbers(app.ratings.ratings(wanted)) == before != {}


def test_filters_by_event_and_date_equal_the_recomputation_under_them(
    app: GameLog, evening: dict[str, Any]
) -> None:
    open_event = f"Open {uuid4().hex[:8]}"
    other = played(app, ["ann", "dee"], 50, open_event)
    day = app.store.records(other.game_id)[-1]["time"][:10]  # the day it ended
    ids = [g.game_id for g in evening["finished"]] + [other.game_id]
    records = exported(app, ids)
    for wanted in (
        RatingFilter(event=open_event),
        RatingFilter(event=evening["event"], game="three-too-many"),
        RatingFilter(event=evening["event"], since=day, until=day),
        RatingFilter(event=evening["event"], until="2000-01-01"),
    ):
        served = app.ratings.ratings(wanted)
        assert as_numbers(served) == as_numbers(ratings_from_records(records, wanted))
    assert app.ratings.ratings(RatingFilter(event=open_event))["three-too-many"]["ann"].games == 1


def test_a_game_whose_records_do_not_audit_clean_is_never_rated(
    app: GameLog, evening: dict[str, Any]
) -> None:
    game_id = evening["finished"][1].game_id
    records = app.store.records(game_id)
    assert rated_game(str(game_id), records) is not None
    tampered = copy.deepcopy(records)
    tampered[-1]["result"]["ranking"].reverse()  # the result changed after it was sealed
    assert rated_game(str(game_id), tampered) is None
    assert rated_game(str(game_id), records[:-1]) is None  # not finished


def test_pages_list_each_game_type_best_first_and_a_player_gets_a_history(
    app: GameLog, evening: dict[str, Any]
) -> None:
    wanted = RatingFilter(event=evening["event"])
    first = app.ratings.list_ratings(wanted, limit=3)
    rest = app.ratings.list_ratings(wanted, 3, first.next_page_token)
    rows = first.rows + rest.rows
    assert [rank for rank, _ in rows] == [1, 2, 3, 4] and rest.next_page_token == ""
    assert [r.ordinal for _, r in rows] == sorted((r.ordinal for _, r in rows), reverse=True)
    [(rank, ann)] = app.ratings.player("ann", wanted)
    assert ann.games == len(ann.history) == 4 and rows[rank - 1][1] == ann


def test_bad_filters_and_unknown_players_are_refused(sqlite_app: GameLog) -> None:
    with pytest.raises(InvalidArgument, match="since is a date"):
        sqlite_app.ratings.ratings(RatingFilter(since="last week"))
    with pytest.raises(InvalidArgument):
        sqlite_app.ratings.list_ratings(RatingFilter(), limit=0)
    with pytest.raises(NotFound):
        sqlite_app.ratings.player("nobody", RatingFilter())
