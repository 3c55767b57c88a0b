"""``gamelog tournament selfplay``: a round played by random players.

Every open table of the current round played to its end with random legal
moves, each through the token of the player whose seat it is, so that a
demonstration or a test goes through the same checks a real player's
client does (``gamelog selfplay`` does the same for lone games).
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import click
from rich.table import Table

from gamelog.cli.client import ApiError
from gamelog.cli.common import client_options, console, emit, token_option
from gamelog.cli.tournament_client import TournamentClient
from gamelog.games.protocol import ARBITER


@click.command()
@client_options
@click.argument("tournament_id")
@token_option(required=True)
@click.option("--seed", default=0, show_default=True, type=int, help="seeds the random players")
@click.option("--parallel", default=4, show_default=True, type=int, help="tables played at once")
@click.option("--max-moves", default=20_000, show_default=True, type=int)
def selfplay(
    server: str,
    ca: str | None,
    as_json: bool,
    tournament_id: str,
    token: str,
    seed: int,
    parallel: int,
    max_moves: int,
) -> None:
    """Play every open table of the current round with random legal moves,
    each through its player's own token (for demonstrations and tests)."""
    with TournamentClient(server, ca) as client:
        played = play_open_tables(client, tournament_id, token, seed, parallel, max_moves)
    if as_json:
        emit(played)
        return
    table = Table("table", "game id", "moves", "finished")
    for row in played:
        table.add_row(str(row["table"]), row["game_id"], str(row["moves"]), str(row["finished"]))
    console.print(table)


def play_open_tables(
    client: TournamentClient,
    tournament_id: str,
    director_token: str,
    seed: int = 0,
    parallel: int = 4,
    max_moves: int = 20_000,
) -> list[dict[str, Any]]:
    """Play the current round's unfinished tables to their ends, each move
    by the token of the player whose seat it is."""
    summary = client.tournament(tournament_id)
    if not summary.rounds:
        raise click.ClickException("no round is paired yet: `gamelog tournament pair` first")
    tokens = client.player_tokens(tournament_id, director_token)
    current = summary.rounds[-1]
    open_tables = [t for t in current.tables if t.game_id and not t.result_json]

    def play(table: Any) -> dict[str, Any]:
        chooser = random.Random(f"{seed}/{current.number}/{table.number}")
        moves = play_table(client, table.game_id, tokens, director_token, chooser, max_moves)
        state = client.state(table.game_id)
        return {
            "table": table.number,
            "game_id": table.game_id,
            "moves": moves,
            "finished": state.finished,
        }

    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        return list(pool.map(play, open_tables))


def play_table(
    client: TournamentClient,
    game_id: str,
    tokens: dict[str, str],
    director_token: str,
    chooser: random.Random,
    max_moves: int,
) -> int:
    """One table to its end (or until only its held end is missing)."""
    moves = 0
    state = client.state(game_id, director_token)
    while not state.finished and moves < max_moves:
        seats = [s for s in state.to_act if s != ARBITER and s in tokens]
        if not seats:
            break  # over, its end held for the round (duplicate play)
        seat = chooser.choice(seats)
        legal = client.legal_moves(game_id, tokens[seat])
        if not legal:
            raise click.ClickException(f"{seat} is to act but has no legal move in {game_id}")
        try:
            client.play(game_id, chooser.choice(legal), state.last_position, tokens[seat])
            moves += 1
        except ApiError as error:
            if error.code != "ABORTED":
                raise
        state = client.state(game_id, director_token)
    return moves
