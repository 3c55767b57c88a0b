"""``gamelog fork``, ``tree`` and ``diff``: branches of play."""

from __future__ import annotations

import click

from gamelog.cli.client import Client
from gamelog.cli.common import (
    client_options,
    emit,
    print_created,
    token_option,
)


@click.command()
@client_options
@click.argument("game_id")
@click.option("--at", "at_position", type=int, required=True)
@token_option()
@click.option("--keep-seed", is_flag=True, help="finished games: see the same draws")
def fork(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    at_position: int,
    token: str | None,
    keep_seed: bool,
) -> None:
    """Fork a new game from a position of another."""
    with Client(server, ca) as client:
        created = client.fork(game_id, at_position, token, keep_seed)
    print_created(
        created, f"fork [bold]{created.game_id}[/bold] of {game_id} at {at_position}", as_json
    )


@click.command()
@client_options
@click.argument("game_id")
def tree(server: str, ca: str | None, as_json: bool, game_id: str) -> None:
    """Show the tree of branches a game belongs to."""
    with Client(server, ca) as client:
        response = client.tree(game_id)
    nodes = [
        {
            "game_id": n.game_id,
            "parent": n.parent_game_id or None,
            "parent_position": n.parent_position,
            "last_position": n.last_position,
            "finished": n.finished,
        }
        for n in response.nodes
    ]
    if as_json:
        emit({"root": response.root_game_id, "nodes": nodes})
        return
    depth: dict[str, int] = {}
    for node in nodes:
        level = depth.get(node["parent"], -1) + 1 if node["parent"] else 0
        depth[node["game_id"]] = level
        at = f" @ {node['parent_position']}" if node["parent"] else ""
        done = " finished" if node["finished"] else ""
        click.echo(f"{'  ' * level}{node['game_id']}{at} ({node['last_position']} positions){done}")


@click.command()
@client_options
@click.argument("game_id")
@click.argument("other_game_id")
@token_option()
def diff(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    other_game_id: str,
    token: str | None,
) -> None:
    """Compare two lines of play to the first difference."""
    with Client(server, ca) as client:
        result = client.diff(game_id, other_game_id, token)
    if as_json:
        emit(
            {
                "common_plies": result.common_plies,
                "identical": result.identical,
                "description": result.description,
            }
        )
        return
    click.echo(result.description)
