"""A round on paper: the pairing list for the wall and one result slip per table.

Both are plain HTML with print CSS and nothing from outside, so a browser's
print (or ``chromium --headless --print-to-pdf``) makes the paper:

* the pairing list: every table in order, its seats in seat order (first to
  move first) and its game's short id; the byes below;
* the result slips: one A5 page (landscape) per table, so a printer's
  "2 pages per sheet" puts two on an A4; each with the table's seats, a box
  for each seat's score and place, a line for each player's signature, and
  the table's short game id, which ``gamelog tournament result`` and the web
  page accept.

``gamelog tournament sheets`` writes them; the web page serves them at
``/tournaments/{id}/rounds/{n}/pairings`` and ``.../slips``. Both take the
``Tournament`` message of ``GetTournament``.

>>> short_game_id("4f1c2d9e-0b7a-4c1e-9a57-1f0c3e2d4b6a")
'4f1c2d9e'
"""

from __future__ import annotations

from html import escape
from typing import Any

SHORT_ID = 8
"""Characters of a game id printed on paper (any unique prefix names a game)."""

SCREEN = """
body { font: 14px/1.4 system-ui, sans-serif; color: #111; background: #fff; margin: 1.5em; }
h1 { font-size: 1.5em; margin: 0 0 .2em; } p.where { margin: 0 0 1em; color: #444; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #888; padding: .35em .6em; text-align: left; vertical-align: top; }
th { background: #eee; }
.id { font-family: ui-monospace, monospace; font-size: 1.05em; letter-spacing: .04em; }
.pid { color: #555; font-size: .85em; font-family: ui-monospace, monospace; }
td.num { text-align: right; width: 3em; font-weight: 700; font-size: 1.2em; }
"""

PAIRINGS_STYLE = (
    SCREEN
    + """
@page { size: A4 portrait; margin: 12mm; }
@media print { body { margin: 0; } tr { break-inside: avoid; }
               thead { display: table-header-group; } }
ol.seats { margin: 0; padding-left: 1.4em; }
"""
)

SLIPS_STYLE = (
    SCREEN
    + """
@page { size: A5 landscape; margin: 8mm; }
@media print { body { margin: 0; } }
section.slip { break-after: page; page-break-after: always; }
section.slip:last-child { break-after: auto; page-break-after: auto; }
@media screen { section.slip { border: 1px dashed #999; padding: 1em; margin: 0 0 1.5em;
                               max-width: 190mm; } }
.slip header { display: flex; justify-content: space-between; align-items: baseline;
               border-bottom: 2px solid #111; margin-bottom: .5em; }
.slip header h2 { margin: 0; font-size: 1.4em; }
.slip .event { color: #444; font-size: .9em; }
.slip td.box { width: 22mm; height: 12mm; }
.slip td.sign { width: 55mm; }
.slip p.note { font-size: .85em; color: #444; margin: .6em 0 0; }
.slip p.director { margin-top: .8em; }
"""
)


def short_game_id(game_id: str) -> str:
    return game_id[:SHORT_ID]


def find_round(tournament: Any, number: int) -> Any:
    """The paired round ``number``; ``LookupError`` with a reason when there is none."""
    for seated in tournament.rounds:
        if seated.number == number:
            return seated
    paired = len(tournament.rounds)
    raise LookupError(
        f"round {number} is not paired: {paired} round(s) are"
        if paired
        else f"round {number} is not paired: no round is paired yet"
    )


def pairing_list(tournament: Any, number: int) -> str:
    """The wall's pairing list of round ``number``: one HTML page."""
    seated = find_round(tournament, number)
    names = _names(tournament)
    rows = []
    for table in seated.tables:
        seats = "".join(f"<li>{_who(names, p)}</li>" for p in table.seats)
        rows.append(
            f'<tr><td class="num">{table.number}</td><td><ol class="seats">{seats}</ol></td>'
            f'<td class="id">{escape(short_game_id(table.game_id))}</td></tr>'
        )
    byes = (
        "<p><b>Byes:</b> " + ", ".join(_who(names, p) for p in seated.byes) + "</p>"
        if seated.byes
        else ""
    )
    body = (
        "<table><thead><tr><th>Table</th><th>Seats (first to move first)</th>"
        "<th>Game</th></tr></thead><tbody>" + "".join(rows) + f"</tbody></table>{byes}"
    )
    return _page(tournament, f"Round {number}: pairings", PAIRINGS_STYLE, body)


def result_slips(tournament: Any, number: int) -> str:
    """Round ``number``'s result slips, one printed page per table: one HTML page."""
    seated = find_round(tournament, number)
    names = _names(tournament)
    heading = escape(tournament.name)
    slips = []
    for table in seated.tables:
        rows = "".join(
            f'<tr><td class="num">{seat}</td><td>{_who(names, p)}</td>'
            '<td class="box"></td><td class="box"></td><td class="sign"></td></tr>'
            for seat, p in enumerate(table.seats, start=1)
        )
        slips.append(
            '<section class="slip">'
            f"<header><h2>Round {number} · Table {table.number}</h2>"
            f'<span>game <b class="id">{escape(short_game_id(table.game_id))}</b></span></header>'
            f'<div class="event">{heading}</div>'
            "<table><tr><th>Seat</th><th>Player</th><th>Score</th><th>Place</th>"
            f"<th>Signature</th></tr>{rows}</table>"
            '<p class="note">Places: 1 is first; players sharing a place write the same '
            "number. Every player signs; give the slip to the director.</p>"
            '<p class="director">Entered by the director: ____________</p>'
            "</section>"
        )
    return _page(tournament, f"Round {number}: result slips", SLIPS_STYLE, "".join(slips))


def _names(tournament: Any) -> dict[str, str]:
    return {p.id: p.name for p in tournament.players}


def _who(names: dict[str, str], player: str) -> str:
    """The player's name, with the id the director types when it differs."""
    name = names.get(player, player)
    if name == player:
        return escape(name)
    return f'{escape(name)} <span class="pid">{escape(player)}</span>'


def _page(tournament: Any, title: str, style: str, body: str) -> str:
    heading = escape(tournament.name)
    where = " · ".join(escape(x) for x in (tournament.site, tournament.dates, tournament.game) if x)
    # The slips carry the event on each page; the page's own heading is for the screen.
    top = (
        ""
        if style is SLIPS_STYLE
        else f'<h1>{heading}: {escape(title)}</h1><p class="where">{where}</p>'
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · {heading}</title><style>{style}</style></head>"
        f"<body>{top}{body}</body></html>\n"
    )


__all__ = ["find_round", "pairing_list", "result_slips", "short_game_id"]
