"""A round on paper: the pairing list and the result slips, written by
``gamelog tournament sheets``, served by the web page, and printed by
Chromium to PDF with one page per slip."""

from __future__ import annotations

import re
import shutil
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.process import ServerProcess, WebProcess

from support.cli import gamelog, gamelog_json
from support.page import CHROMIUM, LAUNCH_ARGS, SCREENSHOTS, require_browser

PLAYERS = ["Ann Smith", "Ben Jones", "Cy Park", "Dee Lowe", "Eve Ng", "Fay Ito", "Gus Orr"]


@pytest.fixture(scope="module")
def paired(sqlite_server: ServerProcess) -> dict[str, Any]:
    """Seven players at tables of 3-4: round 1 paired (a table of 4 and one of 3)."""
    created = gamelog_json(
        sqlite_server,
        "tournament",
        "new",
        "Club night",
        "--game",
        "three-too-many",
        "--table-size",
        "3-4",
        "--rounds",
        "3",
        "--site",
        "Oslo",
        "--dates",
        "2026-11-30",
        "--seed",
        "7",
    )
    tid, director = created["tournament_id"], created["director_token"]
    gamelog(sqlite_server, "tournament", "register", tid, *PLAYERS, "--token", director)
    seated = gamelog_json(sqlite_server, "tournament", "pair", tid, "--token", director)
    return {"tournament_id": tid, "round": seated}


def _write(server: ServerProcess, paired: dict[str, Any], folder: Path) -> dict[str, Any]:
    return gamelog_json(
        server, "tournament", "sheets", paired["tournament_id"], "--out", str(folder)
    )


def test_the_sheets_command_writes_every_table_its_seats_and_short_game_id(
    sqlite_server: ServerProcess, paired: dict[str, Any], tmp_path: Path
) -> None:
    written = _write(sqlite_server, paired, tmp_path)
    tables = paired["round"]["tables"]
    assert written["round"] == 1 and written["tables"] == len(tables) == 2
    wall = Path(written["pairings"]).read_text()
    slips = Path(written["slips"]).read_text()
    assert slips.count('<section class="slip">') == len(tables)
    for table in tables:
        short = table["game_id"][:8]
        assert short in wall and short in slips and table["game_id"] not in wall
    # Seats in seat order on the wall: each table's players appear in order.
    first = tables[0]
    row = wall.split(f"{first['game_id'][:8]}")[0]
    found = [row.rfind(seat) for seat in first["seats"]]
    assert found == sorted(found) and -1 not in found


def test_the_sheets_command_refuses_a_round_not_paired_and_writes_nothing(
    sqlite_server: ServerProcess, paired: dict[str, Any], tmp_path: Path
) -> None:
    refused = gamelog(
        sqlite_server,
        "tournament",
        "sheets",
        paired["tournament_id"],
        "--round",
        "2",
        "--out",
        str(tmp_path / "out"),
        check=False,
    )
    assert refused.returncode == 1
    assert "round 2 is not paired: 1 round(s) are" in refused.stderr
    assert not (tmp_path / "out").exists()


def test_the_web_page_serves_both_sheets_and_refuses_what_is_not_one(
    web: WebProcess, paired: dict[str, Any]
) -> None:
    base = f"{web.url.rstrip('/')}/tournaments/{paired['tournament_id']}/rounds/1"
    with urllib.request.urlopen(f"{base}/slips") as answer:
        assert answer.headers["Content-Type"].startswith("text/html")
        assert answer.read().decode().count('<section class="slip">') == 2
    with urllib.request.urlopen(f"{base}/pairings") as answer:
        assert "Round 1: pairings" in answer.read().decode()
    for wrong in (
        f"{base}/menu",
        f"{web.url.rstrip('/')}/tournaments/{paired['tournament_id']}/rounds/9/slips",
    ):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(wrong)
        assert refused.value.code == 404


def _pdf(html: Path, pdf: Path) -> None:
    subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            *LAUNCH_ARGS,
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            html.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


def _pdfinfo(pdf: Path) -> dict[str, str]:
    text = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
    return dict(
        (key.strip(), value.strip())
        for key, _, value in (line.partition(":") for line in text.splitlines())
    )


def test_chromium_prints_one_a5_page_per_slip_and_the_wall_list_on_a4(
    sqlite_server: ServerProcess, paired: dict[str, Any], tmp_path: Path
) -> None:
    require_browser()
    if shutil.which("pdfinfo") is None or shutil.which("pdftoppm") is None:
        pytest.skip("poppler-utils (pdfinfo, pdftoppm) is not installed")
    written = _write(sqlite_server, paired, tmp_path)
    slips, wall = tmp_path / "slips.pdf", tmp_path / "pairings.pdf"
    _pdf(Path(written["slips"]), slips)
    _pdf(Path(written["pairings"]), wall)
    info = _pdfinfo(slips)
    assert int(info["Pages"]) == written["tables"]
    width, height = map(float, re.findall(r"[\d.]+", info["Page size"])[:2])
    assert (round(width), round(height)) == (595, 420)  # A5 landscape, in points
    info = _pdfinfo(wall)
    assert int(info["Pages"]) == 1
    assert info["Page size"].endswith("(A4)")
    # The printed pages as pictures, for a person to look at (.ci/screenshots/).
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for pdf, name in ((slips, "sheets-slip"), (wall, "sheets-pairings")):
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "80",
                "-f",
                "1",
                "-l",
                "1",
                "-singlefile",
                str(pdf),
                str(SCREENSHOTS / name),
            ],
            check=True,
            timeout=60,
        )
        assert (SCREENSHOTS / f"{name}.png").stat().st_size > 0
