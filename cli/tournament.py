"""``gamelog tournament …``: run a tournament from the command line.

    gamelog tournament new "Club night" --game panem --table-size 4 --rounds 5
    gamelog tournament register T "Ann Smith" "Ben Jones" … --token D
    gamelog tournament pair T --token D
    gamelog tournament selfplay T --token D
    gamelog tournament result T 3 ann ben=cy dee --token D --reason "played on paper"
    gamelog tournament standings T --csv
    gamelog tournament export T --html site/
    gamelog tournament finish T --token D

T is the tournament's id, D the director's token (or $GAMELOG_TOKEN). A
refused call exits with status 1 and prints the status code, the reason and
the message, as every ``gamelog`` command does.
"""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Column, Table
from rich.text import Text

from gamelog.cli.client import ApiError, loads
from gamelog.cli.common import client_options, console, emit, token_option
from gamelog.cli.games import SHORT_ID
from gamelog.cli.roster_csv import RosterError, players_from_csv
from gamelog.cli.spreadsheet import Cell, csv_text
from gamelog.cli.tournament_client import TournamentClient
from gamelog.cli.tournament_html import write_site
from gamelog.games.protocol import ARBITER
from gamelog.tournaments.points import decimal_number


@click.group()
def tournament() -> None:
    """Tournaments: players, rounds, tables, results, standings, archives."""


def _table_size(text: str) -> tuple[int, int]:
    smallest, _, largest = text.partition("-")
    try:
        return int(smallest), int(largest or smallest)
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not N or MIN-MAX", param_hint="--table-size"
        ) from None


@tournament.command()
@client_options
@click.argument("name")
@click.option("--game", required=True, help="the game every table plays")
@click.option("--table-size", default="2", show_default=True, help="players a table: 4, or 3-4")
@click.option("--rounds", required=True, type=int)
@click.option("--system", type=click.Choice(["swiss", "round-robin"]), default="swiss")
@click.option("--site", default="")
@click.option("--dates", default="", help="e.g. 2026-11-30 or 2026-11-30/2026-12-01")
@click.option("--options", "options_json", help="the tables' game options (JSON object)")
@click.option(
    "--undo",
    "undo_policy",
    type=click.Choice(["none", "consent", "arbiter", "free"]),
    default="none",
    show_default=True,
    help="the tables' undo policy",
)
@click.option(
    "--points",
    multiple=True,
    metavar="4,2,1,0",
    help="points per place for one table size, best first (repeat per size); exact: 3/2",
)
@click.option(
    "--tiebreak",
    "tiebreaks",
    multiple=True,
    help="in order: game-score, buchholz, median-buchholz, first-places, head-to-head; "
    "'none' for none (a seeded lot always comes last)",
)
@click.option("--bye-points", help="what a bye scores (exact, e.g. 1 or 7/4)")
@click.option("--forfeit-points", default="0", show_default=True)
@click.option("--time-control", default="", help="BASE+INCREMENT in seconds, e.g. 300+5")
@click.option("--on-timeout", type=click.Choice(["lose", "play-by-rule"]), default="lose")
@click.option(
    "--duplicate",
    type=click.Choice(["none", "seed"]),
    default="none",
    help="seed: the tables of one size in a round share one deal",
)
@click.option("--seed", type=int, help="a fixed seed (reproducible; you then know every draw)")
@click.option(
    "--seeding",
    type=click.Choice(["lot", "rating"]),
    default="lot",
    show_default=True,
    help="round 1 by lot, or by the registered ratings (highest first)",
)
def new(
    server: str,
    ca: str | None,
    as_json: bool,
    name: str,
    game: str,
    table_size: str,
    rounds: int,
    system: str,
    site: str,
    dates: str,
    options_json: str | None,
    undo_policy: str,
    points: tuple[str, ...],
    tiebreaks: tuple[str, ...],
    bye_points: str | None,
    forfeit_points: str,
    time_control: str,
    on_timeout: str,
    duplicate: str,
    seed: int | None,
    seeding: str,
) -> None:
    """Create a tournament: prints its id and the director's token."""
    settings: dict[str, Any] = {
        "site": site,
        "dates": dates,
        "options": json.loads(options_json) if options_json else {},
        "system": system,
        "undo_policy": undo_policy,
        "points": [[p.strip() for p in row.split(",")] for row in points],
        "tiebreaks": list(tiebreaks),
        "forfeit_points": forfeit_points,
        "time_control": time_control,
        "on_timeout": on_timeout,
        "duplicate": duplicate,
        "seed_hex": seed.to_bytes(16, "big").hex() if seed is not None else "",
        "seeding": seeding,
    }
    if bye_points is not None:
        settings["bye_points"] = bye_points
    with TournamentClient(server, ca) as client:
        created = client.create_tournament(name, game, rounds, _table_size(table_size), **settings)
    if as_json:
        emit(
            {
                "tournament_id": created.tournament_id,
                "director_token": created.director_token,
                "seed_commitment": created.seed_commitment,
            }
        )
        return
    console.print(
        f"tournament [bold]{created.tournament_id}[/bold] ({escape(name)}, {escape(game)})"
    )
    console.print(f"director token (keep it secret): {created.director_token}", highlight=False)
    console.print(f"seed commitment: {created.seed_commitment}", highlight=False)


@tournament.command()
@client_options
@click.argument("tournament_id")
@click.argument("names", nargs=-1)
@token_option(required=True)
@click.option("--round", "first_round", type=int, help="a late entry: the first round played")
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(exists=True, dir_okay=False),
    help="players from a CSV file: a header row, columns name, club, rating",
)
def register(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    names: tuple[str, ...],
    token: str,
    first_round: int | None,
    csv_file: str | None,
) -> None:
    """Register players by name (or from --csv FILE, with club and rating):
    prints each one's id and token. A file with a bad row registers nobody."""
    players: list[str | dict[str, Any]] = list(names)
    if csv_file:
        try:
            players += players_from_csv(Path(csv_file).read_text(encoding="utf-8"))
        except (RosterError, UnicodeDecodeError) as error:
            raise click.ClickException(f"{csv_file}: {error}; nobody was registered") from None
    if not players:
        raise click.UsageError("name the players, or give --csv FILE")
    with TournamentClient(server, ca) as client:
        registered = client.register(tournament_id, players, token, first_round)
    # The answer lists the players in the order they were sent.
    rows = [
        {
            "id": p.id,
            "name": p.name,
            "club": sent.get("club") if isinstance(sent, dict) else None,
            "rating": sent.get("rating") if isinstance(sent, dict) else None,
            "token": p.token,
        }
        for sent, p in zip(players, registered, strict=True)
    ]
    if as_json:
        emit(rows)
        return
    table = Table("player id", "name", "club", "rating", "token (give it to the player only)")
    for row in rows:
        cells = ("id", "name", "club", "rating", "token")
        table.add_row(*(Text("" if row[key] is None else str(row[key])) for key in cells))
    console.print(table)
    console.print(f"registered {len(rows)} player(s)", highlight=False)


@tournament.command()
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
    _print_round(seated, as_json)


def _round_json(seated: Any) -> dict[str, Any]:
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


def _print_round(seated: Any, as_json: bool) -> None:
    if as_json:
        emit(_round_json(seated))
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


@tournament.command()
@client_options
@click.argument("tournament_id")
@token_option(required=True)
@click.option("--seed", default=0, show_default=True, type=int, help="seeds the random players")
@click.option("--parallel", default=4, show_default=True, type=int, help="tables played at once")
@click.option("--max-moves", default=20_000, show_default=True, type=int)
def selfplay(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    token: str,
    seed: int,
    parallel: int,
    max_moves: int,
) -> None:
    """Play every open table of the current round with random legal moves,
    each through its player's own token (for demonstrations and tests)."""
    with TournamentClient(server, ca) as client:
        played = play_open_tables(client, tournament_id, token, seed, parallel, max_moves)
    if as_json:
        emit(played)
        return
    table = Table("table", "game id", "moves", "finished")
    for row in played:
        table.add_row(str(row["table"]), row["game_id"], str(row["moves"]), str(row["finished"]))
    console.print(table)


def play_open_tables(
    client: TournamentClient,
    tournament_id: str,
    director_token: str,
    seed: int = 0,
    parallel: int = 4,
    max_moves: int = 20_000,
) -> list[dict[str, Any]]:
    """Play the current round's unfinished tables to their ends, each move
    by the token of the player whose seat it is."""
    summary = client.tournament(tournament_id)
    if not summary.rounds:
        raise click.ClickException("no round is paired yet: `gamelog tournament pair` first")
    tokens = client.player_tokens(tournament_id, director_token)
    current = summary.rounds[-1]
    open_tables = [t for t in current.tables if t.game_id and not t.result_json]

    def play(table: Any) -> dict[str, Any]:
        chooser = random.Random(f"{seed}/{current.number}/{table.number}")
        moves = play_table(client, table.game_id, tokens, director_token, chooser, max_moves)
        state = client.state(table.game_id)
        return {
            "table": table.number,
            "game_id": table.game_id,
            "moves": moves,
            "finished": state.finished,
        }

    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        return list(pool.map(play, open_tables))


def play_table(
    client: TournamentClient,
    game_id: str,
    tokens: dict[str, str],
    director_token: str,
    chooser: random.Random,
    max_moves: int,
) -> int:
    """One table to its end (or until only its held end is missing)."""
    moves = 0
    state = client.state(game_id, director_token)
    while not state.finished and moves < max_moves:
        seats = [s for s in state.to_act if s != ARBITER and s in tokens]
        if not seats:
            break  # over, its end held for the round (duplicate play)
        seat = chooser.choice(seats)
        legal = client.legal_moves(game_id, tokens[seat])
        if not legal:
            raise click.ClickException(f"{seat} is to act but has no legal move in {game_id}")
        try:
            client.play(game_id, chooser.choice(legal), state.last_position, tokens[seat])
            moves += 1
        except ApiError as error:
            if error.code != "ABORTED":
                raise
        state = client.state(game_id, director_token)
    return moves


def _ranking(places: tuple[str, ...]) -> list[list[str]]:
    return [[p for p in place.split("=") if p] for place in places]


@tournament.command()
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


@tournament.command("withdraw")
@client_options
@click.argument("tournament_id")
@click.argument("player")
@token_option(required=True)
@click.option("--reason", required=True)
def withdraw(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    player: str,
    token: str,
    reason: str,
) -> None:
    """Withdraw a player from the next round on (they keep their points)."""
    _roster(server, ca, as_json, tournament_id, player, False, reason, token)


@tournament.command("reenter")
@client_options
@click.argument("tournament_id")
@click.argument("player")
@token_option(required=True)
@click.option("--reason", required=True)
def reenter(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    player: str,
    token: str,
    reason: str,
) -> None:
    """Bring a withdrawn player back from the next round on."""
    _roster(server, ca, as_json, tournament_id, player, True, reason, token)


def _roster(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    player: str,
    plays: bool,
    reason: str,
    token: str,
) -> None:
    with TournamentClient(server, ca) as client:
        record = json.loads(
            client.change_roster(tournament_id, player, plays, reason, token).record_json
        )
    if as_json:
        emit(record)
    else:
        click.echo(f"{record['kind']}: {player} from round {record['round']} ({reason})")


@tournament.command()
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
    _print_round(seated, as_json)


@tournament.command("withdraw-round")
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


@tournament.command()
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


@tournament.command()
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


@tournament.command("list")
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


@tournament.command()
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
        "rounds": [_round_json(r) for r in summary.rounds],
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
        _print_round(seated, False)


@tournament.command()
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


@tournament.command()
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


@tournament.command()
@client_options
@click.argument("tournament_id")
@token_option(required=True)
def tokens(server: str, ca: str | None, as_json: bool, tournament_id: str, token: str) -> None:
    """Every player's token again (the director's token derives them)."""
    with TournamentClient(server, ca) as client:
        found = client.player_tokens(tournament_id, token)
    if as_json:
        emit(found)
        return
    for player, player_token in sorted(found.items()):
        click.echo(f"{player}\t{player_token}")


@tournament.command()
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
