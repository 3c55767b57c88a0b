"""Ratings through the real interfaces: ``gamelog ratings`` against a
recomputation from ``gamelog export``'s record files, the rating column of
the standings, and the player's page with its chart in Chromium (screenshots
at phone and laptop sizes into .ci/screenshots/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.process import ServerProcess, WebProcess
from gamelog.replay.export import parse_record_file
from gamelog.replay.rated_games import ratings_from_records
from gamelog.tournaments.ratings import RatingFilter

from support.cli import gamelog, gamelog_json
from support.page import SCREENSHOTS

PLAYERS = ["Astrid", "Bjorn", "Cato", "Dagny", "Eirik"]
ROUNDS = 3


@pytest.fixture(scope="module")
def event(sqlite_server: ServerProcess) -> dict[str, Any]:
    """A tournament of five at tables of 2-3, three rounds played by selfplay."""
    created = gamelog_json(
        sqlite_server,
        "tournament",
        "new",
        "Ratings evening",
        "--game",
        "three-too-many",
        "--table-size",
        "2-3",
        "--rounds",
        str(ROUNDS),
        "--seed",
        "31",
    )
    tid, director = created["tournament_id"], created["director_token"]
    gamelog(sqlite_server, "tournament", "register", tid, *PLAYERS, "--token", director)
    for _ in range(ROUNDS):
        gamelog(sqlite_server, "tournament", "pair", tid, "--token", director)
        gamelog(sqlite_server, "tournament", "selfplay", tid, "--token", director, "--seed", "5")
    shown = gamelog_json(sqlite_server, "tournament", "show", tid)
    games = [t["game_id"] for r in shown["rounds"] for t in r["tables"]]
    return {"tournament_id": tid, "games": games}


def test_gamelog_ratings_equals_a_recomputation_from_the_exported_record_files(
    sqlite_server: ServerProcess, event: dict[str, Any], tmp_path: Path
) -> None:
    records = []
    for game_id in event["games"]:
        path = tmp_path / f"{game_id}.json"
        gamelog(sqlite_server, "export", game_id, "-o", str(path))
        records += [(e.game_id, e.records) for e in parse_record_file(json.loads(path.read_text()))]
    wanted = RatingFilter(event=event["tournament_id"])
    recomputed = ratings_from_records(records, wanted)["three-too-many"]
    served = gamelog_json(sqlite_server, "ratings", "--event", event["tournament_id"])
    assert {r["player"] for r in served["ratings"]} == {p.lower() for p in PLAYERS}
    for row in served["ratings"]:
        mine = recomputed[row["player"]]
        assert (row["mu"], row["sigma"], row["games"]) == (
            round(mine.mu, 3),
            round(mine.sigma, 3),
            mine.games,
        )
    assert sum(r["games"] for r in served["ratings"]) == sum(
        len(r.history) for r in recomputed.values()
    )
    history = gamelog_json(
        sqlite_server, "ratings", "--player", "astrid", "--event", event["tournament_id"]
    )
    [rated] = history["ratings"]
    assert len(rated["history"]) == rated["games"] == recomputed["astrid"].games


def test_the_standings_show_each_players_rating(
    sqlite_server: ServerProcess, event: dict[str, Any]
) -> None:
    served = gamelog_json(sqlite_server, "ratings", "--game", "three-too-many")
    rating = {r["player"]: r["rating"] for r in served["ratings"]}
    rows = gamelog_json(sqlite_server, "tournament", "standings", event["tournament_id"])
    assert all(row["rating"] == round(rating[row["player"]], 2) for row in rows)
    csv = gamelog(
        sqlite_server, "tournament", "standings", event["tournament_id"], "--csv"
    ).stdout.splitlines()
    assert csv[0].endswith(",rating")
    assert f"{rating['astrid']:.2f}" in next(line for line in csv if ",astrid," in line)


def test_a_bad_date_is_refused_with_its_reason(sqlite_server: ServerProcess) -> None:
    refused = gamelog(sqlite_server, "ratings", "--since", "yesterday", check=False)
    assert refused.returncode == 1 and "since is a date, YYYY-MM-DD" in refused.stderr


@pytest.mark.parametrize(
    "size", [{"width": 390, "height": 844}, {"width": 1280, "height": 720}], ids=["phone", "laptop"]
)
def test_the_player_page_draws_the_rating_history_at_phone_and_laptop_sizes(
    web: WebProcess, browser: Any, event: dict[str, Any], size: dict[str, int]
) -> None:
    page = browser.new_page(viewport=size)
    try:
        page.goto(f"{web.url.rstrip('/')}/players/astrid")
        chart = page.locator("svg.chart:visible").first
        chart.wait_for()
        games = int(page.locator("p.facts").first.inner_text().split("·")[-1].split()[0])
        points = chart.locator("polyline.rating").get_attribute("points") or ""
        assert len(points.split()) == games + 1  # the start, then one point a game
        box = chart.bounding_box()
        assert box is not None and box["width"] <= size["width"]
        assert page.evaluate("document.scrollingElement.scrollWidth") <= size["width"]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        name = "phone" if size["width"] < 500 else "laptop"
        page.screenshot(path=str(SCREENSHOTS / f"player-page-{name}.png"), full_page=True)
    finally:
        page.close()
