"""The tournament's HTML pages word places as everywhere else in gamelog:
standard competition ranking (a shared place, then the next place skips)."""

from __future__ import annotations

import json
from types import SimpleNamespace

from gamelog.cli.tournament_html import Site


def _site() -> Site:
    site = Site.__new__(Site)
    site.summary = SimpleNamespace(
        name="Club night", site="", dates="", rounds=[], tournament_id="t", origin_id="t"
    )
    site.names = {"ann": "Ann", "ben": "Ben", "cy": "Cy"}
    return site


def test_a_round_page_numbers_shared_places_as_competition_ranking() -> None:
    result = {"ranking": [["ann", "ben"], ["cy"]], "scores": {"ann": 5, "ben": 5, "cy": 1}}
    table = SimpleNamespace(number=1, seats=["ann", "ben", "cy"], result_json=json.dumps(result))
    seated = SimpleNamespace(number=1, tables=[table], byes=[], duplicate="none")
    page = _site().round_page(seated)
    assert "1st: Ann" in page and "3rd: Cy" in page
    assert "2nd" not in page
