"""``gamelog selfplay``: random legal games through the server.

Each seat plays as a player would, over a Play stream of its own (``p1``'s
stream joins every game with that game's ``p1`` token, and so on): one
stream per seat for the whole run, not one call per move. The arbiter's
rare moves (a result it enters, a step only it may take) go through
``PlayMove``.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from gamelog.cli.client import ApiError, Client, loads
from gamelog.cli.common import (
    client_options,
    console,
    emit,
)
from gamelog.cli.play_stream import PlayStream, refusal_error
from gamelog.games.protocol import ARBITER


@click.command()
@client_options
@click.argument("game")
@click.option("--players", "player_count", required=True, type=int)
@click.option("--games", "game_count", default=1, show_default=True, type=int)
@click.option(
    "--seed", default=0, show_default=True, type=int, help="seeds the random players and the deals"
)
@click.option("--max-moves", default=20_000, show_default=True, type=int)
def selfplay(
    server: str,
    ca: str | None,
    as_json: bool,
    game: str,
    player_count: int,
    game_count: int,
    seed: int,
    max_moves: int,
) -> None:
    """Play random legal games through the server, every move chosen from its legal moves."""
    chooser = random.Random(seed)
    seats = [f"p{i + 1}" for i in range(player_count)]
    results = []
    with (
        Client(server, ca) as client,
        Progress(console=Console(stderr=True), disable=as_json or not sys.stderr.isatty()) as bar,
    ):
        streams = {seat: PlayStream(client) for seat in seats}
        task = bar.add_task(f"{game} self-play", total=game_count)
        try:
            for index in range(game_count):
                seed_hex = (seed * 100_003 + index).to_bytes(8, "big").hex()
                created = client.create(game, seats, seed_hex=seed_hex)
                started = time.perf_counter()
                outcome = play_randomly(client, streams, created, chooser, max_moves)
                outcome["seconds"] = round(time.perf_counter() - started, 3)
                results.append(outcome)
                bar.advance(task)
        finally:
            for stream in streams.values():
                stream.cancel()
    if as_json:
        emit(results)
        return
    console.print(results_table(results, seats))


def results_table(results: list[dict[str, Any]], seats: list[str]) -> Table:
    """One row per game: its moves, its winners, and a score column per seat
    in seat order."""
    table = Table("game id", "moves", "finished", "winners", *seats)
    for r in results:
        result = r["result"] or {}
        scores = result.get("scores", {})
        table.add_row(
            r["game_id"],
            str(r["moves"]),
            "yes" if r["finished"] else "no",
            ", ".join(result.get("winners", [])),
            *(str(scores.get(seat, "-")) for seat in seats),
        )
    return table


def play_randomly(
    client: Client,
    streams: dict[str, PlayStream],
    created: Any,
    chooser: random.Random,
    max_moves: int,
) -> dict[str, Any]:
    """Drive one game to its end with random legal moves, each seat over its stream."""
    game_id = created.game_id
    tokens = dict(created.seat_tokens)
    arbiter = created.arbiter_token
    for seat, stream in streams.items():
        refused_join(stream.join(game_id, tokens[seat]))
    moves_played = 0
    state = client.state(game_id, arbiter)
    while not state.finished and moves_played < max_moves:
        seats = [s for s in state.to_act if s in tokens] or list(state.to_act)
        if not seats:
            break
        seat = chooser.choice(seats)
        token = tokens.get(seat, arbiter)
        legal = client.legal_moves(game_id, token)
        if not legal:
            raise click.ClickException(f"{seat} is to act but has no legal move in {game_id}")
        move = chooser.choice(legal)
        if seat in streams:
            answer = streams[seat].move(game_id, move, state.last_position)
            played = answer.HasField("ack") or refused_move(answer.refusal)
        else:
            played = played_unary(client, game_id, move, state.last_position, token)
        moves_played += played
        state = client.state(game_id, arbiter)
    if not state.finished and ARBITER in state.to_act:
        # A game only the arbiter ends (freeform): enter a result at the limit.
        result = client.legal_moves(game_id, arbiter)[0]
        client.play(game_id, result, state.last_position, arbiter)
        state = client.state(game_id, arbiter)
    for stream in streams.values():
        stream.forget(game_id)
    return {
        "game_id": game_id,
        "moves": moves_played,
        "finished": state.finished,
        "result": loads(state.result_json),
    }


def refused_join(answer: Any) -> None:
    if answer.HasField("refusal"):
        raise refusal_error(answer.refusal)


def refused_move(refusal: Any) -> bool:
    """False for a lost race (another seat moved first: look again); any other refusal raises."""
    if refusal.code != "ABORTED":
        raise refusal_error(refusal)
    return False


def played_unary(client: Client, game_id: str, move: Any, at: int, token: str) -> bool:
    try:
        client.play(game_id, move, at, token)
    except ApiError as error:
        if error.code != "ABORTED":
            raise
        return False
    return True
