"""PostgreSQL going away under a real server: what a failover does to a
connection, brought about by a proxy (``tcp_proxy``) on one plain server.

- a move whose commit's answer is lost is acknowledged once: the server's
  retry finds its own move stored (request id or not);
- if no primary answers in time, the move is refused UNAVAILABLE
  ``commit-in-doubt``, and its retry with the same request id is answered as
  already stored, stored once;
- health is NOT_SERVING while the store is away, SERVING once it is back.

The failover itself, on a Patroni cluster: tests/test_failover_patroni.py.
Marked ``postgres``: required under .ci/run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamelog.cli.client import ApiError, Client
from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.service.rpc.server import open_application
from gamelog.service.storage.settings import postgres_env

from support.tcp_proxy import TcpProxy

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


@pytest.fixture
def proxy(postgres_dsn: str) -> Iterator[TcpProxy]:
    running = TcpProxy(upstream_port=5432).start()
    yield running
    running.stop()


def _through(proxy: TcpProxy, postgres_dsn: str) -> str:
    dbname = postgres_dsn.split("dbname=")[1].split()[0]
    return f"host=127.0.0.1 port={proxy.port} user=postgres dbname={dbname} sslmode=disable"


@pytest.fixture
def served(
    proxy: TcpProxy, postgres_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerProcess]:
    # A write looks for a primary for 2 s, not 15: the tests need not wait.
    monkeypatch.setenv("POSTGRES_WRITE_RETRY_SECONDS", "2")
    server = start_server_process(tmp_path, "--postgres", _through(proxy, postgres_dsn))
    yield server
    server.stop()


def _moves(client: Client, game_id: str, token: str) -> list[int]:
    return [r["move"]["n"] for r in client.records(game_id, token) if r["kind"] == "move"]


def test_a_move_whose_commit_answer_was_lost_is_acknowledged_and_stored_once(
    served: ServerProcess, proxy: TcpProxy
) -> None:
    with served.client() as client:
        created = client.create("freeform", ["a", "b"])
        token = dict(created.seat_tokens)["a"]
        client.play(created.game_id, {"n": 1}, 0, token, request_id="move-1")
        proxy.cut_next_answer()

        # No request id: the server must tell its own commit from another's itself.
        answer = client.play(created.game_id, {"n": 2}, 1, token)

        assert proxy.cuts == 1
        assert answer.position == 2
        assert _moves(client, created.game_id, created.arbiter_token) == [1, 2]
        assert client.audit(created.game_id, created.arbiter_token).ok


def test_a_commit_in_doubt_with_no_primary_is_unavailable_and_its_retry_stored_once(
    served: ServerProcess, proxy: TcpProxy
) -> None:
    with served.client() as client:
        created = client.create("freeform", ["a", "b"])
        token = dict(created.seat_tokens)["a"]
        client.play(created.game_id, {"n": 1}, 0, token, request_id="move-1")
        proxy.cut_next_answer(then_refuse=True)

        with pytest.raises(ApiError) as refused:
            client.play(created.game_id, {"n": 2}, 1, token, request_id="move-2")
        assert (refused.value.code, refused.value.reason) == ("UNAVAILABLE", "commit-in-doubt")
        assert refused.value.details == {"retry": "same-request-id"}
        assert "retry" in refused.value.message

        proxy.accept()
        again = _eventually(lambda: client.play(created.game_id, {"n": 2}, 1, token, "move-2"))
        assert again.replayed and again.position == 2
        assert _moves(client, created.game_id, created.arbiter_token) == [1, 2]
        assert client.audit(created.game_id, created.arbiter_token).ok


def test_health_is_not_serving_while_the_store_is_away_and_serving_after(
    served: ServerProcess, proxy: TcpProxy
) -> None:
    channel = grpc.insecure_channel(served.address)
    health = health_pb2_grpc.HealthStub(channel)

    def status() -> int:
        answer = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
        return int(answer.status)

    try:
        assert status() == SERVING
        proxy.refuse()
        _wait_until(lambda: status() == NOT_SERVING, "health to turn NOT_SERVING")
        proxy.accept()
        _wait_until(lambda: status() == SERVING, "health to turn SERVING again")
        with served.client() as client:  # and the moves go on
            created = client.create("freeform", ["a", "b"])
            client.play(created.game_id, {"n": 1}, 0, dict(created.seat_tokens)["a"], "m")
    finally:
        channel.close()


def test_a_dsn_of_several_hosts_reaches_the_one_that_takes_writes(postgres_dsn: str) -> None:
    """The first host refuses; libpq goes on to the next, and the settings
    reach the pool, the writer and the listener alike."""
    dbname = postgres_dsn.split("dbname=")[1].split()[0]
    dsn = (
        "host=127.0.0.1,127.0.0.1 port=1,5432 user=postgres "
        f"dbname={dbname} target_session_attrs=read-write"
    )
    app = open_application(postgres_env(dsn))
    try:
        created = app.games.create_game("freeform", ["ann", "ben"])
        app.games.play(created.game_id, created.tokens["ann"], {"note": 1}, 0)
        assert [r["position"] for r in app.store.records(created.game_id)] == [0, 1]
        kwargs = app.store.recorder.datastore.pool.kwargs  # type: ignore[attr-defined]
        assert kwargs["target_session_attrs"] == "read-write"
        assert kwargs["port"] == "1,5432"
    finally:
        app.close()


def _eventually(call: Callable[[], object], timeout: float = 30) -> object:
    """``call`` until it is not refused UNAVAILABLE (the store just came back)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return call()
        except ApiError as error:
            if error.code != "UNAVAILABLE" or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def _wait_until(check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    """A bound only a hang reaches: the watch looks every second."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.2)
