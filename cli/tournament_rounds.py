"""``gamelog tournament pair|override|withdraw-round|result|finish``: the rounds.

A round's life from the director's chair: seated by the tournament's system
(``pair``), seated again before it starts (``override``) or taken back
(``withdraw-round``), its tables' results entered or corrected by hand
(``result``), and the tournament finished with its seed revealed. A round
prints alike wherever it is shown (``print_round``, which ``show`` uses too).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from gamelog.cli.client import loads
from gamelog.cli.common import client_options, console, emit, token_option
from gamelog.cli.tournament_client import TournamentClient


@click.command()
@client_options
@click.argument("tournament_id")
@token_option(required=True)
@click.option(
    "--deal",
    "deal_file",
    type=click.Path(exists=True, dir_okay=False),
    help="one explicit deal for every table (duplicate play; JSON, format per game)",
)
def pair(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    token: str,
    deal_file: str | None,
) -> None:
    """Seat the next round: prints its tables and their game ids."""
    deal = json.loads(Path(deal_file).read_text()) if deal_file else None
    with TournamentClient(server, ca) as client:
        seated = client.pair(tournament_id, token, deal)
    print_round(seated, as_json)


def round_json(seated: Any) -> dict[str, Any]:
    return {
        "round": seated.number,
        "tables": [
            {
                "table": t.number,
                "seats": list(t.seats),
                "game_id": t.game_id,
                "result": loads(t.result_json),
            }
            for t in seated.tables
        ],
        "byes": list(seated.byes),
        "duplicate": seated.duplicate,
    }


def print_round(seated: Any, as_json: bool) -> None:
    if as_json:
        emit(round_json(seated))
        return
    console.print(f"round {seated.number}", highlight=False)
    table = Table("table", "seats (first moves first)", "game id", "result")
    for t in seated.tables:
        table.add_row(
            str(t.number), Text(", ".join(t.seats)), t.game_id, Text(result_line(t.result_json))
        )
    console.print(table)
    if seated.byes:
        console.print(f"byes: {', '.join(seated.byes)}", markup=False, highlight=False)


def result_line(result_json: str) -> str:
    """A table's result in one line, best first, a shared place joined by
    '=', a forfeit marked, and whose it is: ``ann, ben=cy (director)``;
    ``playing`` while it has none."""
    result = loads(result_json)
    if not result:
        return "playing"
    forfeited = set(result.get("forfeited") or ())
    places = [
        "=".join(f"{p} (forfeit)" if p in forfeited else p for p in place)
        for place in result["ranking"]
    ]
    return f"{', '.join(places)} ({result.get('source', 'game')})"


def _ranking(places: tuple[str, ...]) -> list[list[str]]:
    return [[p for p in place.split("=") if p] for place in places]


@click.command()
@client_options
@click.argument("tournament_id")
@click.argument("table", type=int)
@click.argument("places", nargs=-1, required=True)
@token_option(required=True)
@click.option("--reason", required=True, help="why (kept in the record)")
@click.option("--round", "round_number", type=int, help="default: the round paired last")
@click.option("--scores", help="game scores: ann=61,ben=40")
@click.option("--forfeit", "forfeited", multiple=True, help="a player who forfeited")
def result(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    table: int,
    places: tuple[str, ...],
    token: str,
    reason: str,
    round_number: int | None,
    scores: str | None,
    forfeited: tuple[str, ...],
) -> None:
    """Enter or correct a table's result: PLACES from first to last, players
    sharing a place joined by '=' (``ann ben=cy dee``). With --forfeit, a
    forfeit. Each is a record with its reason; nothing is overwritten."""
    given: dict[str, int] = {}
    for pair_text in (scores or "").split(","):
        if pair_text.strip():
            player, _, value = pair_text.partition("=")
            try:
                given[player.strip()] = int(value)
            except ValueError:
                raise click.BadParameter(f"{pair_text!r} is not PLAYER=SCORE") from None
    with TournamentClient(server, ca) as client:
        if round_number is None:
            round_number = len(client.tournament(tournament_id).rounds)
        record = client.enter_result(
            tournament_id, round_number, table, _ranking(places), reason, token, given, forfeited
        )
        stored = json.loads(record.record_json)
        if as_json:
            emit(stored)
            return
        game_id = next(
            (
                t.game_id
                for t in client.tournament(tournament_id).rounds[round_number - 1].tables
                if t.number == table
            ),
            "",
        )
        last = client.records(game_id)[-1] if game_id else {}
    click.echo(
        f"{stored['kind']} at position {stored['position']}: round {round_number} "
        f"table {table}: {' '.join(places)} ({reason})"
    )
    if last.get("by_director") and last.get("reason") == reason:
        click.echo(f"game {game_id[:8]} ended with this result, entered by the director")


@click.command()
@client_options
@click.argument("tournament_id")
@click.argument("tables", nargs=-1, required=True)
@token_option(required=True)
@click.option("--reason", required=True)
@click.option("--bye", "byes", multiple=True, help="a player with a bye")
def override(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    tables: tuple[str, ...],
    token: str,
    reason: str,
    byes: tuple[str, ...],
) -> None:
    """Seat the round paired last again, before it starts: TABLES in order,
    each its players comma-separated in seat order (``ann,ben,cy dee,eve,fay``)."""
    seats = [[p for p in table.split(",") if p] for table in tables]
    with TournamentClient(server, ca) as client:
        seated = client.override(tournament_id, seats, byes, reason, token)
    print_round(seated, as_json)


@click.command("withdraw-round")
@client_options
@click.argument("tournament_id")
@token_option(required=True)
@click.option("--reason", required=True, help="why (kept in the record)")
@click.option("--round", "round_number", type=int, help="default: the round paired last")
def withdraw_round(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    token: str,
    reason: str,
    round_number: int | None,
) -> None:
    """Take back the round paired last, before any table has a move: its
    games are never played, and `gamelog tournament pair` pairs it anew. A
    played round stays: correct its results instead."""
    with TournamentClient(server, ca) as client:
        record = json.loads(
            client.withdraw_round(tournament_id, reason, token, round_number).record_json
        )
    if as_json:
        emit(record)
    else:
        click.echo(
            f"round {record['round']} withdrawn at position {record['position']} ({reason}); "
            f"its games will not be played: pair round {record['round']} again"
        )


@click.command()
@client_options
@click.argument("tournament_id")
@token_option(required=True)
def finish(server: str, ca: str | None, as_json: bool, tournament_id: str, token: str) -> None:
    """Finish: the final standings recorded, the seed revealed."""
    with TournamentClient(server, ca) as client:
        record = json.loads(client.finish(tournament_id, token).record_json)
    if as_json:
        emit(record)
    else:
        click.echo(f"finished at position {record['position']}; seed {record['seed']}")
