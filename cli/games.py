"""``gamelog games``, ``list`` and ``new``: what can be played, what is stored, a new game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.table import Column, Table
from rich.text import Text

from gamelog.cli.client import Client, loads
from gamelog.cli.common import (
    client_options,
    console,
    emit,
    print_created,
    tokens_in_seat_order,
)
from gamelog.web.links import seat_links
from gamelog.web.links import web_base as links_base


@click.command()
@client_options
def games(server: str, ca: str | None, as_json: bool) -> None:
    """List the games this server knows (--json: with each game's JSON
    Schemas of its options, moves, views and events)."""
    with Client(server, ca) as client:
        types = client.game_types()
    if as_json:
        emit(
            [
                {
                    "name": t.name,
                    "title": t.title,
                    "rules_version": t.rules_version,
                    "min_players": t.min_players,
                    "max_players": t.max_players,
                    "default_component_set": t.default_component_set,
                    "schemas": loads(t.schemas_json),
                }
                for t in types
            ]
        )
        return
    table = Table("game", "title", "rules", "players", "component set")
    for t in types:
        table.add_row(
            t.name,
            t.title,
            t.rules_version,
            f"{t.min_players}–{t.max_players}",
            t.default_component_set,
        )
    console.print(table)


SHORT_ID = 8
"""Characters of a game id a listing prints (any unique prefix names a game)."""


@click.command("list")
@client_options
@click.option("--game", "game_type", default="", help="only this game: panem, freeform, ...")
@click.option("--status", type=click.Choice(["running", "finished"]), help="only these")
@click.option(
    "--tag",
    "tags",
    multiple=True,
    metavar="KEY=VALUE",
    help="only games with this tag pair (repeatable: all must hold)",
)
@click.option("--player", default="", help="only games with a seat of this name")
@click.option("--event", default="", help="only games of this event (the Event tag)")
@click.option("--round", "round_", default="", help="only games of this round (the Round tag)")
@click.option("--tournament", default="", help="only the tables of this tournament (its id)")
@click.option("--limit", default=100, show_default=True, type=click.IntRange(1, 10_000))
def list_games(
    server: str,
    ca: str | None,
    as_json: bool,
    game_type: str,
    status: str | None,
    tags: tuple[str, ...],
    player: str,
    event: str,
    round_: str,
    tournament: str,
    limit: int,
) -> None:
    """List the stored games, newest first (short ids: any unique prefix names a game)."""
    with Client(server, ca) as client:
        summaries = client.games(
            limit,
            game=game_type,
            status=status or "",
            tags=parse_tags(tags),
            player=player,
            event=event,
            round=round_,
            tournament_id=tournament,
        )
    rows = [
        {
            "game_id": s.game_id,
            "game": s.game,
            "seats": list(s.seats),
            "status": s.status,
            "finished": s.finished,
            "last_position": s.last_position,
            "created_at": s.created_at,
            "parent": loads(s.parent_json),
            "metadata": dict(s.metadata),
            "tournament_id": s.tournament_id,
        }
        for s in summaries
    ]
    if as_json:
        emit(rows)
        return
    # Ids are what a reader copies: never cut, whatever the terminal's width.
    table = Table(
        Column("game", no_wrap=True, min_width=SHORT_ID),
        "type",
        "status",
        "position",
        "seats",
        "tags",
        Column("created", no_wrap=True),
        Column("parent", no_wrap=True),
    )
    for row in rows:
        parent = row["parent"]
        table.add_row(
            row["game_id"][:SHORT_ID],
            row["game"],
            row["status"],
            str(row["last_position"]),
            ",".join(row["seats"]),
            # Anyone writes tags: shown as they are, never read as rich markup.
            Text(", ".join(f"{k}={v}" for k, v in sorted(row["metadata"].items()))),
            row["created_at"][:19],
            f"{parent['game_id'][:SHORT_ID]}@{parent['position']}" if parent else "",
        )
    console.print(table)


@click.command()
@client_options
@click.argument("game")
@click.option("--players", required=True, help="seat names, comma-separated: ann,ben,cy")
@click.option("--seed", type=int, help="a fixed seed (reproducible; you then know every draw)")
@click.option(
    "--deal",
    "deal_file",
    type=click.Path(exists=True, dir_okay=False),
    help="JSON file with an explicit deal (format per game, see its docs)",
)
@click.option("--options", "options_json", help="game options as a JSON object")
@click.option(
    "--undo",
    "undo_policy",
    default="none",
    show_default=True,
    type=click.Choice(["none", "consent", "arbiter", "free"]),
)
@click.option(
    "--tag",
    "tags",
    multiple=True,
    metavar="KEY=VALUE",
    help="a tag pair for the record: Event=..., Round=..., Table=...",
)
@click.option(
    "--links",
    is_flag=True,
    help="also print one link per seat and the arbiter (the token in the link's fragment)",
)
@click.option(
    "--web-base",
    default="http://127.0.0.1:8080/",
    show_default=True,
    help="the address of `gamelog web` for --links",
)
def new(
    server: str,
    ca: str | None,
    as_json: bool,
    game: str,
    players: str,
    seed: int | None,
    deal_file: str | None,
    options_json: str | None,
    undo_policy: str,
    tags: tuple[str, ...],
    links: bool,
    web_base: str,
) -> None:
    """Create a game: prints its id and one secret token per seat (with
    --links, a link per seat that opens its table in `gamelog web`)."""
    if links:
        try:
            web_base = links_base(web_base)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--web-base") from None
    options: dict[str, Any] = json.loads(options_json) if options_json else {}
    if deal_file:
        options["deal"] = json.loads(Path(deal_file).read_text())
    metadata = parse_tags(tags)
    seed_hex = seed.to_bytes(8, "big", signed=False).hex() if seed is not None else ""
    with Client(server, ca) as client:
        created = client.create(
            game,
            [p.strip() for p in players.split(",") if p.strip()],
            options,
            undo_policy,
            metadata,
            seed_hex,
        )
    if links:
        print_links(created, web_base, as_json)
        return
    print_created(created, f"game [bold]{created.game_id}[/bold] ({game})", as_json)


def print_links(created: Any, base: str, as_json: bool) -> None:
    """A new game's seat links: each opens the table as its seat. They hold
    the tokens (in the fragment, which no server sees): hand each to its seat."""
    found = seat_links(base, created.game_id, tokens_in_seat_order(created), created.arbiter_token)
    if as_json:
        emit({"game_id": created.game_id, "links": dict(found)})
        return
    click.echo(f"game {created.game_id}: one link per seat (each holds its secret token)")
    width = max(len(who) for who, _ in found)
    for who, link in found:
        click.echo(f"{who:<{width}}  {link}")


def parse_tags(tags: tuple[str, ...]) -> dict[str, str]:
    """``Event=Club night`` pairs; a tag without ``=`` is refused, not dropped."""
    metadata: dict[str, str] = {}
    for tag in tags:
        name, sep, value = tag.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"{tag!r} is not KEY=VALUE", param_hint="--tag")
        if name in metadata:
            raise click.BadParameter(f"tag {name} is given twice", param_hint="--tag")
        metadata[name] = value
    return metadata
