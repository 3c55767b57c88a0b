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

import importlib
from typing import Any

import click

COMMANDS: dict[str, tuple[str, str, str]] = {
    # name: (module, attribute, one line for ``gamelog --help``)
    "serve": ("serve", "serve", "Run the gamelog gRPC service (SQLite file by default)."),
    "games": ("games", "games", "List the games this server knows (--json: with their schemas)."),
    "list": ("games", "list_games", "List the stored games, newest first, with short ids."),
    "new": ("games", "new", "Create a game: its id and one secret token per seat."),
    "play": ("playing", "play", "Play MOVE (JSON) in a game."),
    "show": ("playing", "show", "Show a game's table at the latest or an earlier position."),
    "moves": ("playing", "moves", "List your seat's legal moves now."),
    "log": ("playing", "log_", "Print a game's records, one line each in its notation."),
    "selfplay": ("selfplay", "selfplay", "Play random legal games through the server."),
    "replay": ("replaying", "replay", "Step through a game, move by move."),
    "follow": ("replaying", "follow", "Print a game's records as they are stored."),
    "undo": ("undo", "undo", "Take moves back: ask, answer, or order it."),
    "fork": ("branches", "fork", "Fork a new game from a position of another."),
    "tree": ("branches", "tree", "Show the tree of branches a game belongs to."),
    "diff": ("branches", "diff", "Compare two lines of play to the first difference."),
    "audit": ("audit", "audit", "Audit games on the server, or record files."),
    "export": ("records", "export", "Write a game and its branches to a record file."),
    "import": ("records", "import_", "Re-validate a record file or archive and store it."),
    "key": ("keys", "key", "The server's signing key: show its public half, rotate it."),
    "reindex": ("maintenance", "reindex", "Rebuild the game index from the log."),
    "ratings": ("ratings", "ratings", "Ratings across events per game type (OpenSkill)."),
    "tournament": ("tournament", "tournament", "Tournaments: players, rounds, results, standings."),
    "web": ("web", "web", "Serve the page: the replay board and the table."),
}
"""Every command, imported only when it runs: ``gamelog --version`` and
``gamelog --help`` import click alone, and a command only what it needs (a
call to a server: gRPC, never the service's own code)."""


class Commands(click.Group):
    """The ``gamelog`` group: commands loaded when asked for, and a refused
    call turned into a clear message and exit status 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute, _ = COMMANDS[name]
        command = getattr(importlib.import_module(f"gamelog.cli.{module}"), attribute)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        # Imported here: the client (and gRPC with it) only for a command that calls.
        from gamelog.cli.client import ApiError

        try:
            return super().invoke(ctx)
        except ApiError as error:
            click.echo(f"error: {error}", err=True)
            ctx.exit(1)


VERSION = "0.1.0"
"""gamelog's version, as pyproject.toml says (tests/cli/test_start_up.py
holds the two equal). Written here because asking the package metadata
imports ``importlib.metadata`` and scans the installed distributions: about
30 ms, a third of what ``gamelog --version`` adds to Python's own start."""


@click.group(cls=Commands)
@click.version_option(VERSION, prog_name="gamelog")
def main() -> None:
    """gamelog: the complete, tamper-evident record of board games."""


if __name__ == "__main__":
    main()
