"""``gamelog replay`` and ``follow``: stepping through a game, watching one live."""

from __future__ import annotations

import json
import sys

import click

from gamelog.cli.client import Client
from gamelog.cli.common import (
    client_options,
    describe_record,
    output_state,
    token_option,
)


@click.command()
@client_options
@click.argument("game_id")
@token_option()
@click.option("--at", "at_position", type=int, help="print this one position and stop")
def replay(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    at_position: int | None,
) -> None:
    """Step through a game: n(ext), p(revious), j N (jump), q(uit)."""
    with Client(server, ca) as client:
        if at_position is not None:
            output_state(client.state(game_id, token, at_position), as_json)
            return
        position = 0
        last = client.state(game_id, token).last_position
        while True:
            output_state(client.state(game_id, token, position), as_json)
            try:
                answer = click.prompt(
                    f"[{position}/{last}] n/p/j N/q", default="n", show_default=False
                ).strip()
            except (click.Abort, EOFError):
                return
            if answer in ("q", "quit"):
                return
            if answer in ("n", "next", ""):
                position = min(position + 1, last)
            elif answer in ("p", "prev", "previous"):
                position = max(position - 1, 0)
            elif answer.startswith("j"):
                try:
                    position = max(0, min(int(answer[1:].strip()), last))
                except ValueError:
                    click.echo("jump: j N")


@click.command()
@client_options
@click.argument("game_id")
@token_option()
@click.option("--from", "from_position", default=0, type=int)
def follow(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    from_position: int,
) -> None:
    """Print a game's records as they are stored, until it ends."""
    with Client(server, ca) as client:
        for record in client.follow(game_id, token, from_position):
            if as_json:
                click.echo(json.dumps(record, ensure_ascii=False))
            else:
                click.echo(describe_record(record))
            sys.stdout.flush()
