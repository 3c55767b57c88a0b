"""``gamelog serve``: run the service."""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path

import click

# -- the service ---------------------------------------------------------------------


@click.command()
@click.option("--db", type=click.Path(dir_okay=False), help="SQLite file (default gamelog.sqlite)")
@click.option("--postgres", metavar="DSN", help="store in PostgreSQL instead of SQLite")
@click.option("--memory", is_flag=True, help="keep nothing: an in-memory store (for trials)")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=50051, show_default=True, type=int, help="0 picks a free port")
@click.option("--tls-cert", type=click.Path(exists=True, dir_okay=False))
@click.option("--tls-key", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--workers",
    default=64,
    show_default=True,
    type=int,
    help="threads for moves and reads (follow streams hold none)",
)
@click.option(
    "--max-spectators",
    default=10_000,
    show_default=True,
    type=click.IntRange(0),
    help="follow streams without a token, in this process",
)
@click.option(
    "--max-spectators-per-game",
    default=10_000,
    show_default=True,
    type=click.IntRange(0),
    help="follow streams without a token, of one game",
)
@click.option(
    "--max-player-streams",
    default=5_000,
    show_default=True,
    type=click.IntRange(0),
    help="follow streams of seats and arbiters (never taken by spectators)",
)
@click.option(
    "--follow-stall",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.01),
    help="seconds a follower may take over one record before it is dropped",
)
@click.option(
    "--signing-key",
    type=click.Path(dir_okay=False),
    help="the server's Ed25519 key file, made (mode 0600) if absent "
    "(default: beside the SQLite file; gamelog.signing-key for PostgreSQL)",
)
def serve(
    db: str | None,
    postgres: str | None,
    memory: bool,
    host: str,
    port: int,
    tls_cert: str | None,
    tls_key: str | None,
    workers: int,
    max_spectators: int,
    max_spectators_per_game: int,
    max_player_streams: int,
    follow_stall: float,
    signing_key: str | None,
) -> None:
    """Run the gamelog gRPC service (SQLite file by default).

    The server signs the head of every game and tournament it exports with
    its key (``gamelog key show`` prints the public half)."""
    from gamelog.service.live.follow_limits import FollowLimits
    from gamelog.service.rpc.server import serve_forever, start_server
    from gamelog.service.storage.settings import store_env
    from gamelog.service.storage.signing_key import (
        KeyRing,
        SigningKeyError,
        default_path,
        load_or_create,
    )

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    if bool(tls_cert) != bool(tls_key):
        raise click.UsageError("--tls-cert and --tls-key go together")
    env = store_env(db=db, postgres=postgres, memory=memory)
    key_path = Path(signing_key) if signing_key else default_path({**os.environ, **env})
    keys: KeyRing | None = None
    if key_path is not None:
        try:
            keys = load_or_create(key_path)
        except (SigningKeyError, OSError) as error:
            raise click.ClickException(str(error)) from None
        logging.info("signing chain heads with key %s (%s)", keys.current.key_id, key_path)
    if port and not port_is_free(host, port):
        raise click.ClickException(
            f"cannot listen on {host}:{port}: the port is in use (another gamelog server?); "
            "stop it, or choose another port with --port"
        )
    limits = FollowLimits(
        spectators=max_spectators,
        spectators_per_game=max_spectators_per_game,
        player_streams=max_player_streams,
    )
    try:
        running = start_server(
            env,
            port=port,
            host=host,
            tls_cert=tls_cert,
            tls_key=tls_key,
            workers=workers,
            limits=limits,
            stall_seconds=follow_stall,
            keys=keys,
        )
    except (OSError, RuntimeError) as error:
        if "bind" not in str(error).lower() and "listen" not in str(error).lower():
            raise
        raise click.ClickException(
            f"cannot listen on {host}:{port}: the port is in use (another gamelog server?); "
            "stop it, or choose another port with --port"
        ) from None
    store = env.get("PERSISTENCE_MODULE", "environment").rsplit(".", 1)[-1]
    where = env.get("SQLITE_DBNAME") or env.get("POSTGRES_DBNAME") or ""
    serve_forever(
        running,
        f"gamelog serving on {host}:{running.port} ({store} {where}".rstrip() + ")",
    )


def port_is_free(host: str, port: int) -> bool:
    """Whether ``host:port`` can be bound now: asked first, so a port in use
    is one clear line rather than the gRPC core's log and a traceback."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        return True  # let the server report a host it cannot resolve
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        try:
            probe.bind(address)
        except OSError:
            return False
    return True
