"""``gamelog export`` and ``import``: portable record files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from gamelog.cli.client import Client
from gamelog.cli.common import (
    client_options,
    emit,
    token_option,
)


@click.command()
@client_options
@click.argument("game_id")
@token_option()
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@click.option("--redacted", is_flag=True, help="a spectator-safe copy")
def export(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    output: str,
    redacted: bool,
) -> None:
    """Write a game and its branches to one portable record file."""
    with Client(server, ca) as client:
        data = client.export(game_id, token, redacted)
    Path(output).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
    summary = {"file": output, "games": len(data["games"]), "redacted": data["redacted"]}
    if as_json:
        emit(summary)
    else:
        click.echo(f"wrote {output}: {summary['games']} game(s)")


@click.command("import")
@client_options
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
def import_(server: str, ca: str | None, as_json: bool, file: str) -> None:
    """Re-validate a record file and store its games (refused unless it audits clean)."""
    with Client(server, ca) as client:
        response = client.import_file(json.loads(Path(file).read_text()))
    data: dict[str, Any] = {
        "id_map": dict(response.id_map),
        "games": [
            {
                "game_id": g.game_id,
                "seat_tokens": dict(g.seat_tokens),
                "arbiter_token": g.arbiter_token,
            }
            for g in response.games
        ],
    }
    if as_json:
        emit(data)
        return
    for old, new_id in data["id_map"].items():
        click.echo(f"{old} → {new_id}")
