"""``gamelog tournament new|register|withdraw|reenter|tokens``: who plays.

A tournament is made with its settings (``new``), and its roster kept by
the director: players registered by name or from a CSV file, each with a
token derived from the director's (``tokens`` prints them again), withdrawn
from a round on and brought back. Every change is a record with its
reason; the rounds it shapes are ``tournament_rounds``'.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from gamelog.cli.common import client_options, console, emit, token_option
from gamelog.cli.roster_csv import RosterError, players_from_csv
from gamelog.cli.tournament_client import TournamentClient


def _table_size(text: str) -> tuple[int, int]:
    smallest, _, largest = text.partition("-")
    try:
        return int(smallest), int(largest or smallest)
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not N or MIN-MAX", param_hint="--table-size"
        ) from None


@click.command()
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


@click.command()
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


@click.command("withdraw")
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


@click.command("reenter")
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


@click.command()
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
