"""``gamelog tournament list|show|standings|audit|export|sheets``: reading.

What anyone may read of a tournament, and take away: the stored
tournaments, one tournament's settings, players and rounds, its standings
(as a table or CSV for a spreadsheet), its audit, its archive or a static
site, and a round's pairing list and result slips on paper.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Column, Table
from rich.text import Text

from gamelog.cli.client import loads
from gamelog.cli.common import client_options, console, emit, token_option
from gamelog.cli.games import SHORT_ID
from gamelog.cli.spreadsheet import Cell, csv_text
from gamelog.cli.tournament_client import TournamentClient
from gamelog.cli.tournament_html import write_site
from gamelog.cli.tournament_rounds import print_round, round_json
from gamelog.tournaments.points import decimal_number


@click.command("list")
@client_options
@click.option("--name", default="", help="only events whose name holds this, any case")
@click.option("--status", type=click.Choice(["running", "finished"]), help="only these")
@click.option("--date", default="", help="YYYY, YYYY-MM or YYYY-MM-DD: its dates or creation day")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 1000))
@click.option("--page", "page_token", default="", help="the next page's token a listing printed")
def list_tournaments(
    server: str,
    ca: str | None,
    as_json: bool,
    name: str,
    status: str | None,
    date: str,
    limit: int,
    page_token: str,
) -> None:
    """List the stored tournaments, newest first, with short ids: any
    unique prefix of four or more hex digits names a tournament."""
    with TournamentClient(server, ca) as client:
        page = client.list_tournaments(name, status or "", date, limit, page_token)
    rows = [
        {
            "tournament_id": t.tournament_id,
            "name": t.name,
            "game": t.game,
            "site": t.site,
            "dates": t.dates,
            "status": "finished" if t.finished else "running",
            "created_at": t.created_at,
            "origin_id": t.origin_id,
        }
        for t in page.tournaments
    ]
    if as_json:
        emit({"tournaments": rows, "next_page_token": page.next_page_token})
        return
    table = Table(
        Column("tournament", no_wrap=True, min_width=SHORT_ID),
        "name",
        "game",
        "site",
        "dates",
        "status",
        Column("created", no_wrap=True),
    )
    for row in rows:
        table.add_row(
            row["tournament_id"][:SHORT_ID],
            # Anyone names a tournament: shown as written, never read as markup.
            Text(row["name"]),
            row["game"],
            Text(row["site"]),
            Text(row["dates"]),
            row["status"],
            row["created_at"][:19],
        )
    console.print(table)
    if page.next_page_token:
        console.print(f"more: --page {page.next_page_token}", highlight=False)


@click.command()
@client_options
@click.argument("tournament_id")
def show(server: str, ca: str | None, as_json: bool, tournament_id: str) -> None:
    """The tournament: settings, players, every round's tables and results."""
    with TournamentClient(server, ca) as client:
        summary = client.tournament(tournament_id)
    data = {
        "tournament_id": summary.tournament_id,
        "origin_id": summary.origin_id,
        "name": summary.name,
        "site": summary.site,
        "dates": summary.dates,
        "game": summary.game,
        "settings": loads(summary.settings_json),
        "players": [
            {"id": p.id, "name": p.name, "active": p.active, "first_round": p.first_round}
            for p in summary.players
        ],
        "rounds": [round_json(r) for r in summary.rounds],
        "finished": summary.finished,
    }
    if as_json:
        emit(data)
        return
    state = "finished" if summary.finished else f"{len(summary.rounds)} round(s) paired"
    where = "".join(f" {escape(part)}" for part in (summary.site, summary.dates) if part)
    console.print(
        f"[bold]{escape(summary.name)}[/bold] ({summary.game}){where}: "
        f"{len(summary.players)} players, {state}",
        highlight=False,
    )
    if summary.origin_id and summary.origin_id != summary.tournament_id:
        # An import: its records and its tables' Tournament tags name the origin.
        console.print(
            f"imported: created as {summary.origin_id}, which its records name", highlight=False
        )
    for seated in summary.rounds:
        print_round(seated, False)


@click.command()
@client_options
@click.argument("tournament_id")
@click.option("--csv", "as_csv", is_flag=True, help="CSV for spreadsheets")
def standings(server: str, ca: str | None, as_json: bool, tournament_id: str, as_csv: bool) -> None:
    """The standings, recomputed from the records: points as decimals (6.5),
    kept exact inside (--json adds the exact text: "13/2")."""
    with TournamentClient(server, ca) as client:
        response = client.standings(tournament_id)
        rated = client.ratings_by_player(client.tournament(tournament_id).game)
    rows = [{**row, "rating": rated.get(row["player"])} for row in standings_rows(response)]
    names = list(response.tiebreaks)
    if as_json:
        emit(rows)
        return
    rounds = max((len(r["by_round"]) for r in rows), default=0)
    header = ["place", "player", "name", "points", *names, "played", "byes"]
    header += [f"r{n}" for n in range(1, rounds + 1)] + ["rating"]
    lines: list[list[Cell]] = [
        [
            r["place"],
            r["player"],
            r["name"],
            r["points"],
            *r["tiebreaks"],
            r["played"],
            r["byes"],
            *r["by_round"],
            round(r["rating"], 2) if r["rating"] is not None else "",
        ]
        for r in rows
    ]
    if as_csv:
        # An empty cell where a player had no result: "-" would be text to defuse.
        click.echo(csv_text(header, lines), nl=False)
        return
    table = Table(*header)
    for line in lines:
        table.add_row(*(Text("-" if cell is None else str(cell)) for cell in line))
    console.print(table)


def standings_rows(response: Any) -> list[dict[str, Any]]:
    """Each row with its points as decimal numbers (``6.5``) and, beside
    them, exact (``points_exact``: ``"13/2"``)."""
    return [
        {
            "place": s.place,
            "player": s.player,
            "name": s.name,
            "points": decimal_number(s.points),
            "points_exact": s.points,
            "tiebreaks": [decimal_number(t) for t in s.tiebreaks],
            "lot": s.lot,
            "played": s.played,
            "byes": s.byes,
            "by_round": [decimal_number(p) if p else None for p in s.by_round],
        }
        for s in response.standings
    ]


@click.command()
@client_options
@click.argument("tournament_id")
def audit(server: str, ca: str | None, as_json: bool, tournament_id: str) -> None:
    """Audit the tournament: its chain, pairings, standings, and every game."""
    with TournamentClient(server, ca) as client:
        report = client.audit_tournament(tournament_id)
    data = loads(report.report_json)
    if as_json:
        emit(data)
    elif report.ok:
        click.echo(f"ok: {report.positions_checked} records checked")
    else:
        click.echo(f"NOT OK at position {report.failed_position}: {report.problem}")
    if not report.ok:
        raise SystemExit(2)


@click.command()
@client_options
@click.argument("tournament_id")
@token_option()
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="the archive (JSON)")
@click.option("--html", "html_dir", type=click.Path(file_okay=False), help="a static site")
def export(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    token: str | None,
    output: str | None,
    html_dir: str | None,
) -> None:
    """Write the tournament's archive (-o FILE: its record and every table's
    game record; it imports elsewhere) or a static site (--html DIR:
    standings, crosstable, pairings, every table's moves; no external assets).
    The site shows what a spectator sees."""
    if bool(output) == bool(html_dir):
        raise click.UsageError("give one of -o FILE or --html DIR")
    with TournamentClient(server, ca) as client:
        if output:
            archive = client.export_tournament(tournament_id, token)
            Path(output).write_text(json.dumps(archive, indent=1, ensure_ascii=False) + "\n")
            summary: dict[str, Any] = {"file": output, "games": len(archive["games"])}
        else:
            assert html_dir is not None
            pages = write_site(client, tournament_id, Path(html_dir))
            summary = {"directory": html_dir, "pages": len(pages)}
    if as_json:
        emit(summary)
    elif output:
        click.echo(f"wrote {output}: the tournament and {summary['games']} game(s)")
    else:
        click.echo(f"wrote {summary['pages']} pages to {html_dir}/ (open index.html)")


@click.command()
@client_options
@click.argument("tournament_id")
@click.option("--round", "round_number", type=int, help="default: the round paired last")
@click.option("--out", "folder", required=True, type=click.Path(file_okay=False))
def sheets(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    round_number: int | None,
    folder: str,
) -> None:
    """A round on paper: the pairing list for the wall and one result slip
    per table (HTML with print CSS: print them, or print to PDF)."""
    from gamelog.web.sheets import find_round, pairing_list, result_slips

    with TournamentClient(server, ca) as client:
        summary = client.tournament(tournament_id)
    number = round_number if round_number is not None else len(summary.rounds)
    try:
        tables = len(find_round(summary, number).tables)
    except LookupError as error:
        raise click.ClickException(str(error)) from None
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = {
        "pairings": out / f"round-{number}-pairings.html",
        "slips": out / f"round-{number}-slips.html",
    }
    written["pairings"].write_text(pairing_list(summary, number), encoding="utf-8")
    written["slips"].write_text(result_slips(summary, number), encoding="utf-8")
    if as_json:
        emit({"round": number, "tables": tables, **{k: str(v) for k, v in written.items()}})
        return
    click.echo(
        f"round {number}: wrote the pairing list to {written['pairings']} and "
        f"{tables} result slip(s) to {written['slips']} (print them, one slip a page)"
    )
