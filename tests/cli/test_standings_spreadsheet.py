"""Standings a director opens in a spreadsheet (issue 31.2): decimals, not fractions
a spreadsheet reads as dates, and no cell it runs as a formula.

The CSV is opened by LibreOffice itself (headless ``soffice --convert-to ods``,
Debian's libreoffice-calc-nogui) and read back: every number a number, the
player named ``=HYPERLINK(…)`` text. CI installs LibreOffice and sets
``GAMELOG_REQUIRE_SOFFICE=1``, so that test fails there rather than skip.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest

from gamelog.cli.process import ServerProcess

from support.cli import gamelog, gamelog_json

FORMULA = '=HYPERLINK("http://x","y")'
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"


def _paper_event(server: ServerProcess) -> tuple[str, dict[str, str]]:
    """Four players, one of them named like a formula; a win and a draw from
    paper, with points 5/2 and -3/2: every points column has halves and a
    negative."""
    created = gamelog_json(
        server,
        "tournament",
        "new",
        "Spreadsheet night",
        "--game",
        "freeform",
        "--rounds",
        "1",
        "--points",
        "5/2,-3/2",
        "--seed",
        "3",
    )
    tid, director = created["tournament_id"], created["director_token"]
    players = gamelog_json(
        server, "tournament", "register", tid, "Ann", "Ben", "Cy", FORMULA, "--token", director
    )
    ids = {p["name"]: p["id"] for p in players}
    seated = gamelog_json(server, "tournament", "pair", tid, "--token", director)
    first, second = (t["seats"] for t in seated["tables"])
    for table, places in ((1, first), (2, ["=".join(second)])):
        gamelog(
            server,
            "tournament",
            "result",
            tid,
            str(table),
            *places,
            "--token",
            director,
            "--reason",
            "played on paper",
        )
    return tid, ids


def test_standings_show_decimals_in_json_csv_html_and_the_terminal(
    memory_server: ServerProcess, tmp_path: Path
) -> None:
    tid, ids = _paper_event(memory_server)
    rows = gamelog_json(memory_server, "tournament", "standings", tid)
    assert sorted(r["points"] for r in rows) == [-1.5, 0.5, 0.5, 2.5]
    assert sorted(r["points_exact"] for r in rows) == ["-3/2", "1/2", "1/2", "5/2"]
    assert all(isinstance(r["points"], float) for r in rows)
    text = gamelog(memory_server, "tournament", "standings", tid, "--csv").stdout
    table = list(csv.reader(io.StringIO(text)))
    header = table[0]
    numeric = [header.index(name) for name in ("place", "points", "played", "byes", "r1")]
    for line in table[1:]:
        for column in numeric:
            float(line[column])  # every number a plain decimal
            assert "/" not in line[column]
    names = [line[header.index("name")] for line in table[1:]]
    assert "'" + FORMULA in names and FORMULA not in names
    assert "-1.5" in [line[header.index("points")] for line in table[1:]]
    shown = gamelog(memory_server, "tournament", "standings", tid).stdout
    assert "2.5" in shown and "5/2" not in shown
    assert ids[FORMULA] in [line[1] for line in table[1:]]
    gamelog(memory_server, "tournament", "export", tid, "--html", str(tmp_path / "site"))
    for page in ("index.html", "crosstable.html"):
        html = (tmp_path / "site" / page).read_text()
        assert "<b>2.5</b>" in html and "<b>-1.5</b>" in html and "5/2" not in html


def _soffice() -> str:
    found = shutil.which("soffice")
    if found is None:
        if os.environ.get("GAMELOG_REQUIRE_SOFFICE") == "1":
            pytest.fail("LibreOffice (soffice) is required but missing")
        pytest.skip("no LibreOffice (soffice): apt-get install libreoffice-calc-nogui")
    return found


def test_libreoffice_reads_every_number_as_a_number_and_no_formula(
    memory_server: ServerProcess, tmp_path: Path
) -> None:
    soffice = _soffice()
    tid, _ = _paper_event(memory_server)
    sheet = tmp_path / "standings.csv"
    sheet.write_text(gamelog(memory_server, "tournament", "standings", tid, "--csv").stdout)
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation=file://{tmp_path}/profile",
            "--headless",
            # Comma-separated, '"' quotes, UTF-8, from line 1, in the en-US locale.
            "--infilter=CSV:44,34,76,1,,1033",
            "--convert-to",
            "ods",
            "--outdir",
            str(tmp_path),
            str(sheet),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    with zipfile.ZipFile(tmp_path / "standings.ods") as ods:
        content = ElementTree.fromstring(ods.read("content.xml"))
    cells = []
    for row in content.iter(f"{{{TABLE}}}table-row"):
        read = []
        for cell in row.iter(f"{{{TABLE}}}table-cell"):
            # Equal neighbours are stored once, with how often they repeat.
            repeated = min(int(cell.get(f"{{{TABLE}}}number-columns-repeated", "1")), 64)
            seen = (
                cell.get(f"{{{OFFICE}}}value-type"),
                cell.get(f"{{{OFFICE}}}value"),
                "".join(cell.itertext()),
                cell.get(f"{{{TABLE}}}formula"),
            )
            read += [seen] * repeated
        cells.append(read)
    header = [text for _, _, text, _ in cells[0]]
    body = [row for row in cells[1:] if any(text for _, _, text, _ in row)]
    assert len(body) == 4
    assert not [c for row in cells for c in row if c[3]], "a cell was read as a formula"
    for column in ("place", "points", "played", "byes", "r1"):
        index = header.index(column)
        kinds = {row[index][0] for row in body}
        assert kinds == {"float"}, (column, [row[index] for row in body])
    points = sorted(float(row[header.index("points")][1]) for row in body)
    assert points == [-1.5, 0.5, 0.5, 2.5]
    names = [row[header.index("name")] for row in body]
    assert all(kind == "string" for kind, _, _, _ in names)
    assert any(FORMULA in text for _, _, text, _ in names)
