"""The web front end without a server: request parsing, and what one request asks of the service."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from gamelog.web import tournaments
from gamelog.web.app import position_from
from gamelog.web.gateway import GatewayError


@pytest.mark.parametrize("text", ["²", "-1", "1.5", "x"])
def test_a_position_that_is_no_plain_number_is_a_bad_request(text: str) -> None:
    with pytest.raises(GatewayError) as refused:
        position_from(text, "at")
    assert refused.value.reason == "bad-position"


def test_a_plain_number_is_a_position() -> None:
    assert position_from("12", "at") == 12 and position_from("", "at") is None


def test_an_events_page_asks_for_its_tables_results_a_few_at_a_time() -> None:
    """One request for an event's page asked the service for up to 300
    tables' states at once: a handful of such requests, which anyone may
    send, filled the server's every worker."""

    class Counting:
        now = most = 0

        async def call(self, name: str, request: Any) -> Any:
            self.now += 1
            self.most = max(self.most, self.now)
            await asyncio.sleep(0.001)
            self.now -= 1
            return type("State", (), {"result_json": json.dumps({"ranking": [["ann"]]})})

    gateway = Counting()
    games = [{"game_id": str(n)} for n in range(300)]
    results = asyncio.run(tournaments._results(games, gateway))  # type: ignore[arg-type]
    assert len(results) == 300 and results["7"] == {"ranking": [["ann"]]}
    assert gateway.most <= tournaments.AT_ONCE


def test_event_views_asked_at_once_read_the_listing_once_and_later_afresh() -> None:
    """Each view of the events reads up to 10,000 games, for anyone who asks:
    requests that arrive together share one reading, and the next request
    after it reads again (nothing is kept to go stale)."""
    from types import SimpleNamespace

    from gamelog.v1 import gamelog_pb2 as pb
    from gamelog.web.app import event_list
    from gamelog.web.sharing import SharedCalls

    class Listing:
        calls = 0

        async def call(self, name: str, request: Any) -> Any:
            assert name == "ListGames"
            self.calls += 1
            await asyncio.sleep(0.01)
            game = pb.GameSummary(game_id=str(self.calls), game="freeform", seats=["ann"])
            game.metadata["Event"] = f"Open {self.calls}"
            return pb.ListGamesResponse(games=[game])

        async def call_tournaments(self, name: str, request: Any) -> Any:
            from gamelog.v1 import tournaments_pb2 as tpb

            assert name == "ListTournaments"
            return tpb.ListTournamentsResponse()

    listing = Listing()
    state = SimpleNamespace(gateway=listing, shared=SharedCalls())
    request: Any = SimpleNamespace(app=SimpleNamespace(state=state))

    async def at_once(n: int) -> list[Any]:
        return list(await asyncio.gather(*(event_list(request) for _ in range(n))))

    answers = asyncio.run(at_once(20))
    assert listing.calls == 1 and len({a.body for a in answers}) == 1
    (later,) = asyncio.run(at_once(1))
    assert listing.calls == 2 and b"Open 2" in later.body


def test_a_shared_view_that_fails_after_its_callers_left_logs_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import gc

    from gamelog.web.sharing import SharedCalls

    async def fails() -> None:
        await asyncio.sleep(0.05)
        raise GatewayError("UNAVAILABLE", "", "the service is down")

    async def scenario() -> None:
        shared = SharedCalls()
        caller = asyncio.create_task(shared.call("events", fails))
        await asyncio.sleep(0.01)
        caller.cancel()  # the page went away
        await asyncio.sleep(0.1)

    asyncio.run(scenario())
    gc.collect()
    assert "never retrieved" not in caplog.text
