"""The table's moves over the page's Play stream.

A page that follows a running game holds a live event stream; behind it
the front end holds a Play stream joined with the page's token, and the
page's moves with that token go out on it. The page's answers are the
same as through ``PlayMove``: position, records, refusals with reasons.
The front end gives a move it sends on a stream a request id of its own
when the page sent none (``page-...``), which the stored record keeps: so
the record says which way it went.
"""

from __future__ import annotations

import http.client
import json
import threading
from typing import Any
from urllib.parse import urlsplit

import pytest

from gamelog.cli.client import Client
from gamelog.cli.process import WebProcess

from support.refusals import refused as refused_call

pytestmark = pytest.mark.e2e


class LiveStream:
    """A page's live event stream, read in a thread: the records it carried."""

    def __init__(self, web: WebProcess, game_id: str, token: str) -> None:
        url = urlsplit(web.url)
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        headers = {"Authorization": f"Bearer {token}"}
        self.connection.request("GET", f"/api/games/{game_id}/follow?from=0", headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        self.records: list[dict[str, Any]] = []
        self.arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event = ""
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "record":
                    with self.arrived:
                        self.records.append(json.loads(line[6:]))
                        self.arrived.notify_all()
        except (OSError, ValueError, AttributeError):
            pass  # closed by the test

    def wait_for(self, position: int) -> list[dict[str, Any]]:
        with self.arrived:
            assert self.arrived.wait_for(
                lambda: any(r["position"] >= position for r in self.records), timeout=30
            ), f"no record at {position} on the page's stream"
            return list(self.records)

    def close(self) -> None:
        self.connection.close()


def post_move(web: WebProcess, game_id: str, token: str, body: dict[str, Any]) -> tuple[int, Any]:
    url = urlsplit(web.url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        connection.request(
            "POST",
            f"/api/games/{game_id}/moves",
            json.dumps(body),
            {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_a_following_pages_moves_go_over_its_play_stream_and_answer_as_play_move(
    web: WebProcess, client: Client
) -> None:
    created = client.create("three-too-many", ["ann", "ben"], seed_hex="0b")
    game_id = created.game_id
    tokens = created.seat_tokens
    pages = {seat: LiveStream(web, game_id, tokens[seat]) for seat in tokens}
    try:
        for page in pages.values():
            page.wait_for(0)
        for at in range(4):
            seat = client.state(game_id).to_act[0]
            move = client.legal_moves(game_id, tokens[seat])[0]
            status, answer = post_move(web, game_id, tokens[seat], {"move": move, "at": at})
            assert status == 200, answer
            assert answer["position"] == at + 1 and not answer["replayed"]
            assert [r["position"] for r in answer["records"]] == [at + 1]
            assert answer["records"][0]["notation"] == pages[seat].wait_for(at + 1)[-1]["notation"]

        seat = client.state(game_id).to_act[0]
        move = client.legal_moves(game_id, tokens[seat])[0]
        status, refused = post_move(web, game_id, tokens[seat], {"move": move, "at": 1})
        error = refused_call(client.play, game_id, move, 1, tokens[seat])
        assert status == 409
        assert refused["error"] == {
            "code": error.code,
            "reason": error.reason,
            "message": error.message,
        }
        assert error.reason == "stale-position"

        stored = client.records(game_id, created.arbiter_token)[1:]
        assert all(r["request_id"].startswith("page-") for r in stored)
    finally:
        for page in pages.values():
            page.close()


def test_a_move_from_a_page_that_follows_nothing_goes_through_play_move(
    web: WebProcess, client: Client
) -> None:
    created = client.create("three-too-many", ["ann", "ben"], seed_hex="0c")
    seat = client.state(created.game_id).to_act[0]
    move = client.legal_moves(created.game_id, created.seat_tokens[seat])[0]
    status, answer = post_move(
        web, created.game_id, created.seat_tokens[seat], {"move": move, "at": 0}
    )
    assert status == 200 and answer["position"] == 1
    stored = client.records(created.game_id, created.arbiter_token)[1]
    assert "request_id" not in stored or not stored["request_id"]
