"""``gamelog replay`` and ``follow``: stepping through a game, watching one live."""

from __future__ import annotations

import json
import sys

import click

from gamelog.cli.client import Client
from gamelog.cli.common import (
    client_options,
    log_line,
    output_state,
    token_option,
)

KEYS_HELP = """keys: n / space / → next   p / ← previous   g / Home start   G / End end
      j N jump to position N   ? this help   q quit"""
NEXT = {"n", " ", "l", "\x1b[C", "next", ""}
PREVIOUS = {"p", "h", "\x1b[D", "prev", "previous"}
START = {"g", "\x1b[H", "\x1b[1~", "home"}
END = {"G", "\x1b[F", "\x1b[4~", "end"}
QUIT = {"q", "quit", "\x03", "\x04"}


def step(command: str, position: int, last: int) -> tuple[int | None, str]:
    """Where a replay command leads from ``position``: the new position (None
    to quit) and anything to tell the reader.

    >>> step("n", 3, 10), step("p", 0, 10), step("j 99", 3, 10)
    ((4, ''), (0, 'at the start'), (3, 'position 99 is beyond the end (10)'))
    """
    command = command.strip() if command.strip() else command
    if command in QUIT:
        return None, ""
    if command in NEXT:
        return (position + 1, "") if position < last else (position, "at the end")
    if command in PREVIOUS:
        return (position - 1, "") if position > 0 else (position, "at the start")
    if command in START:
        return 0, ""
    if command in END:
        return last, ""
    if command == "?":
        return position, KEYS_HELP
    if command.startswith("j"):
        try:
            target = int(command[1:].strip())
        except ValueError:
            return position, "jump: j N (a position from 0 to the end)"
        if not 0 <= target <= last:
            return position, f"position {target} is beyond the end ({last})"
        return target, ""
    return position, f"unknown key {command!r}; ? shows the keys"


def read_command(prompt: str) -> str:
    """On a terminal a key acts at once (j asks for its number); otherwise a
    line is read (scripts, tests)."""
    if sys.stdin.isatty():
        click.echo(prompt, nl=False)
        key = click.getchar()
        click.echo()
        if key == "j":
            return "j " + click.prompt("jump to position", default="", show_default=False)
        return key
    return str(click.prompt(prompt, default="n", show_default=False))


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
    """Step through a game, each position with the move that led to it.

    Keys (on a terminal they act at once): n, space or → next; p or ←
    previous; g or Home the start; G or End the end; j N a position; ? help;
    q quit."""
    with Client(server, ca) as client:
        logged = client.log(game_id, token)
        lines = {record["position"]: notation for record, notation in logged}
        if at_position is not None:
            output_state(
                client.state(game_id, token, at_position), as_json, lines.get(at_position, "")
            )
            return
        position: int | None = 0
        last = len(logged) - 1
        while position is not None:
            output_state(client.state(game_id, token, position), as_json, lines.get(position, ""))
            try:
                command = read_command(f"[{position}/{last}] n p g G j N ? q: ")
            except (click.Abort, EOFError):
                return
            position, message = step(command, position, last)
            if message:
                click.echo(message)


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
        for record, notation in client.follow_log(game_id, token, from_position):
            if as_json:
                click.echo(json.dumps(record, ensure_ascii=False))
            else:
                click.echo(log_line(record, notation))
            sys.stdout.flush()
