"""``gamelog undo``: asking for, answering, or ordering a take-back."""

from __future__ import annotations

import json

import click

from gamelog.cli.client import Client
from gamelog.cli.common import (
    client_options,
    describe_record,
    emit,
    token_option,
)


@click.command()
@client_options
@click.argument("game_id")
@click.argument("action", type=click.Choice(["request", "approve", "decline"]))
@token_option(required=True)
@click.option("--to", "to_position", type=int, default=0, help="the position to go back to")
def undo(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    action: str,
    token: str,
    to_position: int,
) -> None:
    """Take moves back to --to N (request; approve or decline a request)."""
    with Client(server, ca) as client:
        at = client.state(game_id, token).last_position
        outcome = client.take_back(game_id, action, to_position, at, token)
    records = [json.loads(r.record_json) for r in outcome.records]
    if as_json:
        emit({"position": outcome.position, "taken_back": outcome.taken_back, "records": records})
        return
    for record in records:
        click.echo(describe_record(record))
    click.echo("moves taken back" if outcome.taken_back else "request stored")
