"""``gamelog ratings``: players' ratings across events, per game type.

    gamelog ratings --game panem                      # best first
    gamelog ratings --event "Club night" --since 2026-11-01
    gamelog ratings --player ann                      # ann's rating after each game

The server rates the finished games whose records audit clean with
OpenSkill's Plackett-Luce model (``tournaments/ratings.py``); the number
shown is ``mu - 3·sigma``.
"""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table
from rich.text import Text

from gamelog.cli.common import client_options, console, emit
from gamelog.cli.tournament_client import TournamentClient


def rating_json(message: Any) -> dict[str, Any]:
    return {
        "player": message.player,
        "game": message.game,
        "rank": message.rank,
        "rating": round(message.rating, 3),
        "mu": round(message.mu, 3),
        "sigma": round(message.sigma, 3),
        "games": message.games,
    }


@click.command()
@client_options
@click.option("--game", "game_type", default="", help="one game type: panem, ...")
@click.option("--event", default="", help="an Event tag or a tournament's id")
@click.option("--since", default="", help="games ended on or after this date (YYYY-MM-DD)")
@click.option("--until", default="", help="games ended on or before this date (YYYY-MM-DD)")
@click.option("--player", default="", help="one player's ratings, game by game")
@click.option("--limit", default=100, show_default=True, type=int)
def ratings(
    server: str,
    ca: str | None,
    as_json: bool,
    game_type: str,
    event: str,
    since: str,
    until: str,
    player: str,
    limit: int,
) -> None:
    """Ratings per game type from the finished games that audit clean
    (OpenSkill's Plackett-Luce; the rating shown is mu - 3 sigma)."""
    wanted = {"game": game_type, "event": event, "since": since, "until": until}
    with TournamentClient(server, ca) as client:
        if player:
            _player(client.player_ratings(player, **wanted), as_json)
            return
        page = client.ratings(limit, **wanted)
    rows = [rating_json(r) for r in page.ratings]
    if as_json:
        emit({"model": page.model, "ratings": rows, "next_page_token": page.next_page_token})
        return
    table = Table("game", "#", "player", "rating", "mu", "sigma", "games")
    for row in rows:
        table.add_row(
            row["game"],
            str(row["rank"]),
            Text(row["player"]),
            f"{row['rating']:.2f}",
            f"{row['mu']:.2f}",
            f"{row['sigma']:.2f}",
            str(row["games"]),
        )
    console.print(table)
    console.print(page.model, highlight=False, markup=False)
    if page.next_page_token:
        console.print(f"more: --limit above {limit}", highlight=False)


def _player(found: Any, as_json: bool) -> None:
    data = [
        {
            **rating_json(history.rating),
            "history": [
                {
                    "game_id": s.game_id,
                    "finished_at": s.finished_at,
                    "place": s.place,
                    "table_size": s.table_size,
                    "rating": round(s.rating, 3),
                    "mu": round(s.mu, 3),
                    "sigma": round(s.sigma, 3),
                }
                for s in history.steps
            ],
        }
        for history in found.ratings
    ]
    if as_json:
        emit({"model": found.model, "ratings": data})
        return
    for rated in data:
        console.print(
            f"{rated['game']}: rating {rated['rating']:.2f} (#{rated['rank']}, "
            f"{rated['games']} games)",
            highlight=False,
            markup=False,
        )
        table = Table("ended", "game", "place", "rating", "mu", "sigma")
        for step in rated["history"]:
            table.add_row(
                step["finished_at"][:16].replace("T", " "),
                step["game_id"][:8],
                f"{step['place']} of {step['table_size']}",
                f"{step['rating']:.2f}",
                f"{step['mu']:.2f}",
                f"{step['sigma']:.2f}",
            )
        console.print(table)
