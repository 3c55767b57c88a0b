"""``gamelog selfplay``: random legal games through the server."""

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
        task = bar.add_task(f"{game} self-play", total=game_count)
        for index in range(game_count):
            seed_hex = (seed * 100_003 + index).to_bytes(8, "big").hex()
            created = client.create(game, seats, seed_hex=seed_hex)
            started = time.perf_counter()
            outcome = play_randomly(client, created, chooser, max_moves)
            outcome["seconds"] = round(time.perf_counter() - started, 3)
            results.append(outcome)
            bar.advance(task)
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
    client: Client, created: Any, chooser: random.Random, max_moves: int
) -> dict[str, Any]:
    """Drive one game to its end with random legal moves, seat by seat."""
    game_id = created.game_id
    tokens = dict(created.seat_tokens)
    arbiter = created.arbiter_token
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
        try:
            client.play(game_id, chooser.choice(legal), state.last_position, token)
            moves_played += 1
        except ApiError as error:
            if error.code != "ABORTED":
                raise
        state = client.state(game_id, arbiter)
    if not state.finished and ARBITER in state.to_act:
        # A game only the arbiter ends (freeform): enter a result at the limit.
        result = client.legal_moves(game_id, arbiter)[0]
        client.play(game_id, result, state.last_position, arbiter)
        state = client.state(game_id, arbiter)
    return {
        "game_id": game_id,
        "moves": moves_played,
        "finished": state.finished,
        "result": loads(state.result_json),
    }
