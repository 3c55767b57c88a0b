"""``gamelog web``: the replay board in the browser, served on localhost.

gamelog web --server localhost:50051 --port 8080
# then open http://127.0.0.1:8080/ (a seat's view: .../#token=SEAT_TOKEN)
"""

from __future__ import annotations

import copy
import socket
from typing import Any

import click

LOOPBACK_NAMES = ["127.0.0.1", "localhost"]


@click.command()
@click.option(
    "--server",
    envvar="GAMELOG_SERVER",
    default="localhost:50051",
    show_default=True,
    help="host:port of the gamelog server the page shows",
)
@click.option(
    "--ca",
    type=click.Path(exists=True, dir_okay=False),
    help="CA certificate (PEM) to reach a TLS server",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="address the page listens on")
@click.option("--port", default=8080, show_default=True, type=int, help="0 picks a free port")
@click.option(
    "--max-streams",
    type=click.IntRange(1),
    help="live streams held at once, more are refused with 429 [default: 1000]",
)
@click.option(
    "--follow-stall",
    type=click.FloatRange(min=0.1),
    help="seconds one write may wait for a page that stopped reading before its "
    "stream ends [default: 30]",
)
def web(
    server: str,
    ca: str | None,
    host: str,
    port: int,
    max_streams: int | None,
    follow_stall: float | None,
) -> None:
    """Serve the replay board: every game as pictures, move by move, live."""
    import uvicorn

    from gamelog.web.app import create_app
    from gamelog.web.streaming import MAX_STREAMS, STALL_SECONDS

    listener = listen(host, port)
    bound = listener.getsockname()[1]
    # A page on a loopback address answers to loopback names only: another
    # site cannot point a name of its own at it and read it.
    hosts = LOOPBACK_NAMES if host in LOOPBACK_NAMES else None
    config = uvicorn.Config(
        create_app(server, ca, hosts, max_streams or MAX_STREAMS, follow_stall or STALL_SECONDS),
        log_config=log_config(),
        log_level="info",
        access_log=True,  # request lines only: tokens travel in headers, never in URLs
        timeout_graceful_shutdown=3,
        lifespan="on",
    )
    click.echo(f"gamelog web serving on http://{host}:{bound}/ (gamelog server {server})")
    uvicorn.Server(config).run(sockets=[listener])


def log_config() -> dict[str, Any]:
    """uvicorn's logging, its access log on stderr beside the rest: stdout
    carries only the line that says where the page is."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["handlers"]["access"]["stream"] = "ext://sys.stderr"
    return config


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or one clear line saying why not."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listener = socket.socket(family, kind, proto)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(128)
    except OSError as error:
        raise click.ClickException(
            f"cannot listen on {host}:{port} ({error.strerror or error}); "
            "choose another port with --port"
        ) from None
    return listener
