"""The ``gamelog`` command.

``gamelog serve`` runs the service and ``gamelog reindex`` works on a store
directly; every other command talks to a server given by ``--server
HOST:PORT`` (default localhost:50051, or $GAMELOG_SERVER).
Every command takes ``--json`` for machine-readable output; otherwise it
prints a table or the board. Tokens come from ``--token`` or $GAMELOG_TOKEN.

    gamelog serve --db games.sqlite --port 50051
    gamelog new three-too-many --players ann,ben,cy
    gamelog play GAME_ID '{"card": 42}' --token T
    gamelog show GAME_ID --at 12
    gamelog selfplay three-too-many --players 4 --games 20 --json
    gamelog web --server localhost:50051 --port 8080
    gamelog reindex --db games.sqlite
    gamelog tournament new "Club night" --game panem --table-size 4 --rounds 5

A refused call exits with status 1 and prints the status code, the
machine-readable reason and the message.
"""

from __future__ import annotations

from typing import Any

import click

from gamelog.cli import (
    audit,
    branches,
    games,
    maintenance,
    playing,
    records,
    replaying,
    selfplay,
    serve,
    tournament,
    undo,
    web,
)
from gamelog.cli.client import ApiError


class ApiGroup(click.Group):
    """Turns a refused call into a clear message and exit status 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ApiError as error:
            click.echo(f"error: {error}", err=True)
            ctx.exit(1)


@click.group(cls=ApiGroup)
@click.version_option(package_name="gamelog")
def main() -> None:
    """gamelog: the complete, tamper-evident record of board games."""


for command in (
    serve.serve,
    games.games,
    games.list_games,
    games.new,
    playing.play,
    playing.show,
    playing.moves,
    playing.log_,
    selfplay.selfplay,
    replaying.replay,
    replaying.follow,
    undo.undo,
    branches.fork,
    branches.tree,
    branches.diff,
    audit.audit,
    records.export,
    records.import_,
    maintenance.reindex,
    tournament.tournament,
    web.web,
):
    main.add_command(command)


if __name__ == "__main__":
    main()
