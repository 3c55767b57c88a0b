"""CSV that a spreadsheet opens safely: text never read as a formula, numbers as numbers.

A cell a spreadsheet reads as a formula runs when the file is opened (OWASP,
"CSV Injection"): a player may register as ``=HYPERLINK("http://x","y")``. So
every *text* cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is written with a single quote in front, which spreadsheets
show as text. Numbers are passed as numbers and written as they are, so
``-1.5`` stays a number a spreadsheet sums.

>>> csv_text(["player", "points"], [["=1+2", -1.5], ["ann", 6.5]])
"player,points\\n'=1+2,-1.5\\nann,6.5\\n"
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | None


def safe_cell(cell: Cell) -> str:
    """One cell as written: a number as it is, text defused, None empty.

    >>> safe_cell("@SUM(A1)"), safe_cell(3), safe_cell(None), safe_cell("Ann")
    ("'@SUM(A1)", '3', '', 'Ann')
    """
    if cell is None:
        return ""
    if isinstance(cell, (int, float)) and not isinstance(cell, bool):
        return str(cell)
    text = str(cell)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    """The whole file: a header row and the rows, every cell through ``safe_cell``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([safe_cell(h) for h in header])
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return out.getvalue()
