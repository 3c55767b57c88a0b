"""A tournament as a static web site: standings, crosstable, pairings, every table's moves.

``write_site`` writes plain HTML files into one folder, each page with its
own small style sheet and nothing from outside (no scripts, fonts or
pictures), so the folder can be posted anywhere:

* ``index.html``: the tournament, its settings and the standings;
* ``crosstable.html``: each player's rounds: table, place, points, opponents
  (by their place in the standings);
* ``round-N.html``: each round's tables, seats, results and byes;
* ``round-N-table-T.html``: a table's game, record by record in the game's
  readable notation, with its tags and result.

The site shows what a spectator sees: a table still running has its hidden
parts cut out, as ``ListEvents`` gives them to a caller without a token.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from gamelog.cli.client import loads
from gamelog.cli.tournament_client import TournamentClient
from gamelog.games.wording import ordinal, places, standings_line
from gamelog.tournaments.points import decimal_text

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em;
       padding: 0 1em; color: #222; background: #fdfdfb; }
h1 { margin-bottom: .1em; } h1 + p { margin-top: 0; color: #555; }
nav { margin: 1em 0; padding: .5em 0; border-bottom: 1px solid #ddd; }
nav a { margin-right: 1em; }
a { color: #1d4f91; text-decoration: none; } a:hover { text-decoration: underline; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: .3em .6em; text-align: left; vertical-align: top; }
th { background: #eef1f5; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #f6f7f9; }
.small { color: #555; font-size: .85em; }
ol.moves { font-family: ui-monospace, monospace; font-size: .9em; }
ol.moves li { margin: .15em 0; }
.tags td:first-child { font-weight: 600; }
"""


def write_site(client: TournamentClient, tournament_id: str, folder: Path) -> list[Path]:
    """Write the site for ``tournament_id`` into ``folder``; the pages written."""
    folder.mkdir(parents=True, exist_ok=True)
    site = Site(client, tournament_id)
    pages = {
        "index.html": site.index(),
        "crosstable.html": site.crosstable(),
    }
    for seated in site.summary.rounds:
        pages[f"round-{seated.number}.html"] = site.round_page(seated)
        for table in seated.tables:
            if table.game_id:
                name = f"round-{seated.number}-table-{table.number}.html"
                pages[name] = site.table_page(seated, table)
    written = []
    for name, text in pages.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def shown(points: str) -> str:
    """Exact points (``"13/2"``) as the page shows them: ``6.5``; empty for none."""
    return decimal_text(points) if points else ""


class Site:
    """The tournament's data, read once, and its pages."""

    def __init__(self, client: TournamentClient, tournament_id: str) -> None:
        self.client = client
        self.summary = client.tournament(tournament_id)
        standings = client.standings(tournament_id)
        self.standings = list(standings.standings)
        self.tiebreaks = list(standings.tiebreaks)
        self.names = {p.id: p.name for p in self.summary.players}
        self.place = {s.player: s.place for s in self.standings}
        self.settings = loads(self.summary.settings_json)
        self.ratings = client.ratings_by_player(self.summary.game)

    # -- the frame ----------------------------------------------------------------------

    def page(self, title: str, body: str) -> str:
        rounds = "".join(
            f'<a href="round-{r.number}.html">Round {r.number}</a>' for r in self.summary.rounds
        )
        nav = (
            '<nav><a href="index.html">Standings</a><a href="crosstable.html">Crosstable</a>'
            f"{rounds}</nav>"
        )
        heading = escape(self.summary.name)
        where = " · ".join(escape(x) for x in (self.summary.site, self.summary.dates) if x)
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{escape(title)} · {heading}</title><style>{STYLE}</style></head>"
            f"<body><h1>{heading}</h1><p>{where}</p>{nav}<h2>{escape(title)}</h2>{body}"
            f'<p class="small">Tournament {escape(self._origin())}: every '
            "table's record is hash-chained and can be audited with gamelog.</p></body></html>\n"
        )

    def _origin(self) -> str:
        """The id the records and the tables' ``Tournament`` tag name: for an
        imported tournament, where it was created, not its id on this server."""
        return str(self.summary.origin_id or self.summary.tournament_id)

    def who(self, player: str) -> str:
        return (
            f'{escape(self.names.get(player, player))} <span class="small">{escape(player)}</span>'
        )

    # -- pages --------------------------------------------------------------------------

    def index(self) -> str:
        s = self.settings
        size = s["table_size"]
        facts = [
            ("Game", self.summary.game),
            (
                "Tables",
                f"{size[0]}–{size[1]} players" if size[0] != size[1] else f"{size[0]} players",
            ),
            ("Rounds", f"{len(self.summary.rounds)} of {s['rounds']} ({s['system']})"),
            ("Tie-breaks", ", ".join(s["tiebreaks"] + ["lot"])),
            ("Status", "finished" if self.summary.finished else "in progress"),
        ]
        if s["time_control"]:
            facts.append(("Time control", f"{s['time_control']} ({s['on_timeout']})"))
        rows = "".join(f"<tr><td>{escape(k)}</td><td>{escape(v)}</td></tr>" for k, v in facts)
        rounds = len(self.summary.rounds)
        head = "".join(f"<th>{escape(t)}</th>" for t in self.tiebreaks)
        head += "".join(f"<th>R{n}</th>" for n in range(1, rounds + 1))
        head += "<th>Games</th><th>Rating</th>"
        body_rows = []
        for s_row in self.standings:
            cells = "".join(f'<td class="num">{shown(t)}</td>' for t in s_row.tiebreaks)
            cells += "".join(f'<td class="num">{shown(p) or "–"}</td>' for p in s_row.by_round)
            body_rows.append(
                f'<tr><td class="num">{s_row.place}</td><td>{self.who(s_row.player)}</td>'
                f'<td class="num"><b>{shown(s_row.points)}</b></td>{cells}'
                f'<td class="num">{s_row.played}</td>{self._rating(s_row.player)}</tr>'
            )
        standings = (
            f"<table><tr><th>#</th><th>Player</th><th>Points</th>{head}</tr>"
            + "".join(body_rows)
            + "</table>"
        )
        return self.page(
            "Standings",
            f'<table class="tags">{rows}</table>{standings}'
            '<p class="small">Shared places split their points exactly; '
            "a third shows as .333. Rating: across events at this game, as exported "
            "(OpenSkill, mu - 3 sigma).</p>",
        )

    def _rating(self, player: str) -> str:
        rating = self.ratings.get(player)
        return f'<td class="num">{rating:.2f}</td>' if rating is not None else "<td>–</td>"

    def crosstable(self) -> str:
        rounds = self.summary.rounds
        where: dict[tuple[int, str], tuple[Any, Any]] = {}
        byes: set[tuple[int, str]] = set()
        for seated in rounds:
            for table in seated.tables:
                for player in table.seats:
                    where[(seated.number, player)] = (table, loads(table.result_json))
            for player in seated.byes:
                byes.add((seated.number, player))
        head = "".join(f"<th>Round {r.number}</th>" for r in rounds)
        rows = []
        for s_row in self.standings:
            cells = []
            for index, seated in enumerate(rounds):
                key = (seated.number, s_row.player)
                points = s_row.by_round[index] if index < len(s_row.by_round) else ""
                if key in byes:
                    cells.append(f"<td>bye <b>{shown(points)}</b></td>")
                    continue
                if key not in where:
                    cells.append("<td>–</td>")
                    continue
                table, result = where[key]
                others = " ".join(
                    f"#{self.place.get(p, '?')}" for p in table.seats if p != s_row.player
                )
                if result is None:
                    outcome = "playing"
                else:
                    place = next(
                        n for n, seats in places(result["ranking"]) if s_row.player in seats
                    )
                    outcome = f"{ordinal(place)} of {len(table.seats)}"
                    if s_row.player in result.get("forfeited", []):
                        outcome += " (forfeit)"
                link = f"round-{seated.number}-table-{table.number}.html"
                cells.append(
                    f'<td><b>{shown(points)}</b> <a href="{link}">T{table.number}</a> '
                    f'{escape(outcome)}<br><span class="small">vs {escape(others)}</span></td>'
                )
            rows.append(
                f'<tr><td class="num">{s_row.place}</td><td>{self.who(s_row.player)}</td>'
                f'<td class="num"><b>{shown(s_row.points)}</b></td>{"".join(cells)}</tr>'
            )
        return self.page(
            "Crosstable",
            f"<table><tr><th>#</th><th>Player</th><th>Points</th>{head}</tr>{''.join(rows)}"
            '</table><p class="small">Each round: points, table, place at the table, and '
            "the opponents by their place in the standings.</p>",
        )

    def round_page(self, seated: Any) -> str:
        rows = []
        for table in seated.tables:
            result = loads(table.result_json)
            seats = "<br>".join(self.who(p) for p in table.seats)
            if result is None:
                outcome = "playing"
            else:
                outcome = "<br>".join(
                    f"{ordinal(n)}: " + ", ".join(self.who(p) for p in seats)
                    for n, seats in places(result["ranking"])
                )
                if result.get("forfeited"):
                    outcome += "<br>forfeit: " + ", ".join(map(escape, result["forfeited"]))
                if result.get("source") == "director":
                    outcome += '<br><span class="small">entered by the director</span>'
            link = f"round-{seated.number}-table-{table.number}.html"
            rows.append(
                f'<tr><td class="num"><a href="{link}">{table.number}</a></td>'
                f"<td>{seats}</td><td>{outcome}</td></tr>"
            )
        byes = (
            "<p>Byes: " + ", ".join(self.who(p) for p in seated.byes) + "</p>"
            if seated.byes
            else ""
        )
        duplicate = (
            f'<p class="small">Duplicate round ({escape(seated.duplicate)}): the tables of one '
            "size share one deal.</p>"
            if seated.duplicate != "none"
            else ""
        )
        return self.page(
            f"Round {seated.number}",
            "<table><tr><th>Table</th><th>Seats (first moves first)</th><th>Result</th></tr>"
            + "".join(rows)
            + f"</table>{byes}{duplicate}",
        )

    def table_page(self, seated: Any, table: Any) -> str:
        logged = self.client.log(table.game_id)
        created = logged[0][0] if logged else {}
        tags = {"Game": created.get("game", ""), **(created.get("metadata") or {})}
        tag_rows = "".join(
            f"<tr><td>{escape(str(k))}</td><td>{escape(str(v))}</td></tr>" for k, v in tags.items()
        )
        seats = "".join(f"<li>{self.who(p)}</li>" for p in table.seats)
        moves = "".join(
            f'<li value="{record["position"]}">{escape(notation)}</li>'
            for record, notation in logged
        )
        end = logged[-1][0] if logged else {}
        outcome = (
            f"<p><b>Result:</b> {escape(standings_line(end['result']))}</p>"
            if end.get("kind") == "finished"
            else "<p><b>Still playing</b>: hidden parts are cut out.</p>"
        )
        return self.page(
            f"Round {seated.number}, table {table.number}",
            f'<table class="tags">{tag_rows}</table><p>Seats, first to move first:</p>'
            f'<ol>{seats}</ol>{outcome}<h3>The record</h3><ol class="moves" start="0">{moves}</ol>'
            f'<p class="small">Game {escape(table.game_id)}; {len(logged)} records.</p>',
        )


__all__ = ["Site", "ordinal", "write_site"]
