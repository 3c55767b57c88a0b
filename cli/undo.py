"""``gamelog undo``: asking for, answering, or ordering a take-back."""

from __future__ import annotations

import json
from typing import Any

import click

from gamelog.cli.client import ApiError, Client
from gamelog.cli.common import (
    client_options,
    emit,
    log_line,
    token_option,
)
from gamelog.cli.takeback_words import takeback_words, waiting_for
from gamelog.games.protocol import ARBITER
from gamelog.replay.fold import line_records


@click.command()
@client_options
@click.argument("game_id")
@click.argument("action", type=click.Choice(["request", "approve", "decline"]))
@token_option(required=True)
@click.option(
    "--to",
    "to_position",
    type=int,
    help="the position to go back to (default: just before your own last move)",
)
def undo(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    action: str,
    token: str,
    to_position: int | None,
) -> None:
    """Take moves back: request it (or do it, where the policy lets you or you
    are the arbiter), or approve or decline another seat's request.

    With no --to, a seat takes back its own last move: the game goes back to
    the position just before it. The arbiter always names --to."""
    with Client(server, ca) as client:
        state = client.state(game_id, token)
        if action == "request" and to_position is None:
            to_position = before_own_last_move(client.records(game_id, token), state.viewer)
        try:
            outcome = client.take_back(
                game_id, action, to_position or 0, state.last_position, token
            )
        except ApiError as refused:
            raise with_arbiter_hint(refused, game_id) from None
        # Where the game goes on, and who must still answer a request.
        after = client.state(game_id, token)
        seats = client.log(game_id, token, 0, 0)[0][0]["seats"]
    waiting = waiting_for(after.pending_undo_json, seats)
    records = [json.loads(r.record_json) for r in outcome.records]
    if as_json:
        emit({"position": outcome.position, "taken_back": outcome.taken_back, "records": records})
        return
    for record, message in zip(records, outcome.records):
        click.echo(log_line(record, message.notation))
    click.echo(takeback_words(records, after.last_position, waiting))


def with_arbiter_hint(refused: ApiError, game_id: str) -> ApiError:
    """A seat refused a take-back by the game's policy learns that the
    arbiter can still take moves back, and how.

    >>> refused = ApiError("FAILED_PRECONDITION", "undo-not-allowed", "no take-backs")
    >>> print(with_arbiter_hint(refused, "g1").message)
    no take-backs; the arbiter can still take moves back: \
gamelog undo g1 request --to N --token ARBITER_TOKEN
    """
    if refused.reason not in ("undo-not-allowed", "arbiter-only"):
        return refused
    hint = f"gamelog undo {game_id} request --to N --token ARBITER_TOKEN"
    message = f"{refused.message}; the arbiter can still take moves back: {hint}"
    return ApiError(refused.code, refused.reason, message, refused.details)


def before_own_last_move(records: list[dict[str, Any]], seat: str) -> int:
    """The line position just before ``seat``'s last move still standing."""
    if seat == ARBITER or not seat:
        raise click.UsageError("the arbiter names the position to go back to: --to N")
    line = [0] + [r["position"] for r in line_records(records, len(records) - 1)]
    own = [p for p, r in ((p, records[p]) for p in line[1:]) if r.get("seat") == seat]
    if not own:
        raise click.UsageError(f"{seat} has no move in the current line to take back")
    return int(line[line.index(own[-1]) - 1])
