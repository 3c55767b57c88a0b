"""Graceful shutdown on SIGTERM: health goes NOT_SERVING first, calls in
flight finish, the process exits cleanly.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamelog.cli.client import ApiError
from gamelog.cli.process import start_server_process
from gamelog.service.rpc.server import start_server
from gamelog.service.storage.settings import store_env


@pytest.mark.e2e
def test_sigterm_drains_calls_in_flight_and_exits_cleanly(tmp_path: Path) -> None:
    server = start_server_process(tmp_path, "--db", str(tmp_path / "t.sqlite"))
    with server.client() as setup:
        games = [setup.create("three-too-many", ["ann", "ben"]) for _ in range(4)]
    outcomes: list[tuple[Any, str]] = []

    def mover(game: Any) -> None:
        try:
            with server.client() as client:
                for _ in range(200):
                    state = client.state(game.game_id)
                    if state.finished:
                        return
                    token = game.seat_tokens[state.to_act[0]]
                    move = client.legal_moves(game.game_id, token)[0]
                    client.play(game.game_id, move, state.last_position, token)
                    outcomes.append((game, "ok"))
        except ApiError as error:
            outcomes.append((game, error.code))

    threads = [threading.Thread(target=mover, args=(g,)) for g in games]
    for t in threads:
        t.start()
    time.sleep(0.5)
    assert server.stop(signal.SIGTERM) == 0, server.log_path.read_text()
    for t in threads:
        t.join(30)
    assert all(code in ("ok", "UNAVAILABLE", "CANCELLED") for _, code in outcomes)
    acknowledged = sum(1 for _, code in outcomes if code == "ok")
    revived = start_server_process(tmp_path, "--db", str(tmp_path / "t.sqlite"))
    try:
        with revived.client() as client:
            stored = sum(len(client.records(g.game_id)) - 1 for g in games)
        assert stored >= acknowledged
    finally:
        revived.stop()


def test_health_turns_not_serving_before_the_server_stops(tmp_path: Path) -> None:
    running = start_server(store_env(memory=True), port=0)
    channel = grpc.insecure_channel(f"127.0.0.1:{running.port}")
    health = health_pb2_grpc.HealthStub(channel)
    statuses: list[int] = []
    watch = health.Watch(health_pb2.HealthCheckRequest(service=""), timeout=30)

    def watcher() -> None:
        try:
            for response in watch:
                statuses.append(response.status)
        except grpc.RpcError:
            pass

    thread = threading.Thread(target=watcher)
    thread.start()
    deadline = time.monotonic() + 5
    while not statuses and time.monotonic() < deadline:
        time.sleep(0.01)
    running.stop(grace=1)
    thread.join(10)
    channel.close()
    assert statuses[0] == health_pb2.HealthCheckResponse.SERVING
    assert health_pb2.HealthCheckResponse.NOT_SERVING in statuses
