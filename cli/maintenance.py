"""``gamelog reindex``: work on a store directly, not through a server."""

from __future__ import annotations

import os
import time
from pathlib import Path

import click

from gamelog.cli.common import emit


@click.command()
@click.option(
    "--db",
    type=click.Path(exists=True, dir_okay=False),
    help="SQLite file (default gamelog.sqlite)",
)
@click.option("--postgres", metavar="DSN", help="the PostgreSQL database instead of SQLite")
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def reindex(db: str | None, postgres: str | None, as_json: bool) -> None:
    """Rebuild the game index (what list, tree, short ids and ratings read) from the log.

    Safe while servers run on the same store: they keep answering, and each
    event still enters the index once; their listings are slower until it ends.
    """
    from gamelog.service.index.adapters import INDEX_FOLLOW
    from gamelog.service.storage.settings import store_env
    from gamelog.service.usecases.application import GameLog

    if db and postgres:
        raise click.UsageError("--db and --postgres exclude each other")
    configured = os.environ.get("PERSISTENCE_MODULE")  # eventsourcing's own settings
    if not (db or postgres or configured or Path("gamelog.sqlite").exists()):
        raise click.UsageError("no gamelog.sqlite here: name the store with --db or --postgres")
    env = {**store_env(db=db, postgres=postgres), INDEX_FOLLOW: "n"}
    started = time.perf_counter()
    app = GameLog(env=env)
    try:
        games = app.listing.reindex()
        position = app.index.view.position()
    finally:
        app.close()
    seconds = time.perf_counter() - started
    if as_json:
        emit({"games": games, "position": position, "seconds": round(seconds, 3)})
    else:
        click.echo(
            f"indexed {games} games from the log up to notification {position} in {seconds:.1f} s"
        )
