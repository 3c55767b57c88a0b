"""The web front end under hostile callers: another site's page, bodies too
big or too deep, and more live streams (or slower readers) than it can hold.

A real ``gamelog web`` process in front of the shared test server, spoken to
over plain HTTP: what a browser on another site, or a script, can send.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from gamelog.cli.client import Client
from gamelog.cli.process import ServerProcess, WebProcess, start_web_process

NOTE = "x" * 60_000
"""A freeform move's note near the move limit: its notation is as long."""


@pytest.fixture(scope="module")
def web_with_one_stream(
    sqlite_server: ServerProcess, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[WebProcess]:
    folder = tmp_path_factory.mktemp("web-limits")
    running = start_web_process(
        folder, sqlite_server.address, "--max-streams", "1", "--follow-stall", "1"
    )
    yield running
    running.stop()


def http(
    url: str, data: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        body = error.read()
        return error.code, json.loads(body) if body.startswith(b"{") else body


def finished_game(client: Client) -> str:
    """A finished freeform game: anyone may fork it."""
    created = client.create("freeform", ["ann", "ben"])
    result = {"result": {"scores": {"ann": 1, "ben": 0}}}
    client.play(created.game_id, result, 0, created.arbiter_token)
    return str(created.game_id)


def branches(client: Client, game_id: str) -> int:
    return len(client.tree(game_id).nodes) - 1


def test_another_sites_page_forks_nothing(web_with_one_stream: WebProcess, client: Client) -> None:
    game_id = finished_game(client)
    fork = f"{web_with_one_stream.url}api/games/{game_id}/fork"
    # What a form or a plain fetch on any site can send with no preflight.
    status, answer = http(fork, b'{"at": 0}', {"Content-Type": "text/plain"})
    assert (status, answer["error"]["reason"]) == (415, "not-json")
    status, answer = http(
        fork,
        b'{"at": 0}',
        {"Content-Type": "application/json", "Origin": "https://evil.example"},
    )
    assert (status, answer["error"]["reason"]) == (403, "cross-origin")
    assert branches(client, game_id) == 0
    # The page itself still forks.
    host = web_with_one_stream.url.split("/")[2]
    status, answer = http(
        fork, b'{"at": 0}', {"Content-Type": "application/json", "Origin": f"http://{host}"}
    )
    assert status == 200 and answer["game_id"]
    assert branches(client, game_id) == 1


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        (b"[" * 100_000, 413, "body-too-large"),
        (b" " * 2_000_000 + b'{"at": 0}', 413, "body-too-large"),
        (b"[" * 1000, 400, "bad-body"),  # too deep for json.loads: it was a 500
        (b'{"at": 0', 400, "bad-body"),
    ],
)
def test_a_body_too_big_or_too_deep_is_refused_clearly(
    web_with_one_stream: WebProcess, client: Client, body: bytes, status: int, reason: str
) -> None:
    game_id = finished_game(client)
    url = f"{web_with_one_stream.url}api/games/{game_id}/fork"
    answered, answer = http(url, body, {"Content-Type": "application/json"})
    assert (answered, answer["error"]["reason"]) == (status, reason)
    assert branches(client, game_id) == 0


def open_stream(web: WebProcess, game_id: str, start: int = 0) -> tuple[int, socket.socket]:
    """A live stream's HTTP status, and its connection, which reads nothing
    more: its receive buffer as small as the system allows."""
    host, port = web.url.split("/")[2].split(":")
    reader = socket.socket()
    reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    reader.connect((host, int(port)))
    path = f"/api/games/{game_id}/follow?from={start}"
    reader.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    reader.settimeout(10)
    return int(reader.recv(12).split()[1]), reader


def test_live_streams_are_bounded_and_a_reader_that_stops_is_dropped(
    web_with_one_stream: WebProcess, client: Client
) -> None:
    created = client.create("freeform", ["ann", "ben"])
    game_id = str(created.game_id)
    status, stalled = open_stream(web_with_one_stream, game_id)
    assert status == 200
    try:
        # The front end holds one stream (--max-streams 1): the next is refused.
        status, answer = http(f"{web_with_one_stream.url}api/games/{game_id}/follow")
        assert (status, answer["error"]["reason"]) == (429, "too-many-streams")
        # Records far beyond what the buffers on the way hold, to a reader that
        # takes none of them: its writes wait, and after --follow-stall it is
        # dropped and its place given back.
        for position in range(200):
            client.play(game_id, {"note": NOTE}, position, created.seat_tokens["ann"])
        deadline = time.monotonic() + 60
        while True:
            status, again = open_stream(web_with_one_stream, game_id, 200)
            again.close()
            if status != 429 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert status == 200
        # The stalled stream was closed, not left hanging: what was sent
        # ends, and its connection with it.
        stalled.settimeout(30)
        while stalled.recv(1 << 16):
            pass
    finally:
        stalled.close()
    client.play(game_id, {"result": {"scores": {"ann": 0, "ben": 0}}}, 200, created.arbiter_token)


def test_a_follow_that_fails_unexpectedly_ends_the_stream_with_an_error() -> None:
    """Not a refusal but a fault in the pump: the page is told and the
    stream ends, instead of keep-alives for ever with its place held."""
    import asyncio

    from gamelog.web.streaming import follow_events

    class Broken:
        async def follow(self, game_id: str, token: str | None, start: int) -> Any:
            yield {"position": 0, "kind": "created"}
            raise RuntimeError("the connection fell over")

    async def read_all() -> list[str]:
        stream = follow_events(Broken(), "g", None, 0, keepalive=0.05)  # type: ignore[arg-type]
        return [part async for part in stream]

    parts = asyncio.run(asyncio.wait_for(read_all(), 10))
    assert parts[1].startswith("event: record")
    assert parts[-1].startswith("event: error") and "follow-failed" in parts[-1]
    assert not any(part.startswith(": still here") for part in parts)
