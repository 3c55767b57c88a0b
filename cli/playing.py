"""``gamelog play``, ``show``, ``moves`` and ``log``: playing a game and looking at it."""

from __future__ import annotations

import json
from pathlib import Path

import click

from gamelog.cli.client import ApiError, Client
from gamelog.cli.common import (
    client_options,
    emit,
    log_line,
    output_state,
    parse_move,
    token_option,
)


@click.command()
@client_options
@click.argument("game_id")
@click.argument("move")
@token_option(required=True)
@click.option("--at", "at_position", type=int, help="the position you saw (default: latest)")
@click.option("--request-id", default="", help="idempotency key: a retry returns the first result")
@click.option("--seat", default="", help="the arbiter plays this seat's move on its behalf")
def play(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    move: str,
    token: str,
    at_position: int | None,
    request_id: str,
    seat: str,
) -> None:
    """Play MOVE (JSON) in a game (the arbiter: a seat's move, with --seat)."""
    with Client(server, ca) as client:
        if at_position is None:
            at_position = client.state(game_id, token).last_position
        played = client.play(game_id, parse_move(move), at_position, token, request_id, seat)
    records = [json.loads(r.record_json) for r in played.records]
    if as_json:
        emit({"position": played.position, "replayed": played.replayed, "records": records})
        return
    for record, message in zip(records, played.records):
        click.echo(log_line(record, message.notation))


@click.command()
@client_options
@click.argument("game_id")
@token_option()
@click.option("--at", "at_position", type=int, help="an earlier position (default: latest)")
@click.option(
    "--svg",
    "svg_file",
    type=click.Path(dir_okay=False),
    help="also write a picture of the table (games that draw one)",
)
def show(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    at_position: int | None,
    svg_file: str | None,
) -> None:
    """Show a game's table at the latest or any earlier position, with the
    move that led there."""
    with Client(server, ca) as client:
        state = client.state(game_id, token, at_position, picture=bool(svg_file))
        last_move = "" if as_json else last_move_line(client, game_id, token, state.position)
    output_state(state, as_json, last_move)
    if svg_file:
        written = Path(svg_file)
        written.write_text(state.svg, encoding="utf-8")
        # On stderr: --json keeps stdout for the state alone.
        drawn = f"wrote the table's picture to {written.resolve()}"
        click.echo(drawn if state.svg else f"{drawn} (empty: {state.game} draws none)", err=True)


def last_move_line(client: Client, game_id: str, token: str | None, position: int) -> str:
    """The line of the record that led to ``position``. At a finished game's
    end that is the move that ended it: the end's own line only repeats the
    result, which the places table shows."""
    lines = client.log(game_id, token, max(position - 1, 0), position)
    if len(lines) == 2 and lines[1][0].get("kind") == "finished":
        return lines[0][1]
    return lines[-1][1]


@click.command()
@client_options
@click.argument("game_id")
@token_option(required=True)
@click.option("--seat", default="", help="the arbiter lists any seat's moves (hot seat, bots)")
def moves(server: str, ca: str | None, as_json: bool, game_id: str, token: str, seat: str) -> None:
    """List your seat's legal moves now (the arbiter: any seat's, with --seat).

    Where moves are open-ended (trades of any size, freeform notes) the list is
    a sample, and says what it covers."""
    with Client(server, ca) as client:
        listing = client.moves_listing(game_id, token, seat)
        legal = [json.loads(m) for m in listing.moves_json]
        if not legal:
            state = client.state(game_id, token)
            raise no_moves_refusal(listing.seat, state.finished, list(state.to_act))
    if as_json:
        emit(legal)
        return
    for move in legal:
        click.echo(json.dumps(move))
    if not listing.complete:
        click.echo(f"(a sample, not every legal move: {listing.sample_note})")


def no_moves_refusal(seat: str, finished: bool, to_act: list[str]) -> ApiError:
    """Why a seat has no moves, refused as ``play`` refuses its move then.

    >>> str(no_moves_refusal("ann", False, ["ben"]))
    'PERMISSION_DENIED (not-your-turn): ann may not move now; to act: ben'
    """
    if finished:
        return ApiError("FAILED_PRECONDITION", "game-over", "the game is over")
    return ApiError(
        "PERMISSION_DENIED",
        "not-your-turn",
        f"{seat} may not move now; to act: {', '.join(to_act) or 'nobody'}",
    )


@click.command("log")
@client_options
@click.argument("game_id")
@token_option()
@click.option("--from", "from_position", default=0, type=int, help="the first position")
@click.option("--to", "to_position", default=None, type=int, help="the last position (inclusive)")
def log_(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    from_position: int,
    to_position: int | None,
) -> None:
    """Print a game's stored records, one line each in the game's notation, as
    you may see them (--json: the records themselves)."""
    with Client(server, ca) as client:
        logged = client.log(game_id, token, from_position, to_position)
    if as_json:
        emit([record for record, _ in logged])
        return
    for record, notation in logged:
        click.echo(log_line(record, notation))
