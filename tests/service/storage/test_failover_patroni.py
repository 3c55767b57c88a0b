"""A primary lost under load, end to end: a three-node Patroni cluster
(deploy/patroni/local_cluster.py), two real ``gamelog serve --postgres
<multi-host DSN>`` processes, clients playing, and the primary's node killed
(its Patroni and its postmaster, kill -9). The synchronous standby takes over;
then

- every acknowledged move is stored, none twice, and every game audits clean
  (read through the other server, which played nothing);
- a follower on the other server saw every record of a game once, in order,
  on one stream that lasted through the failover (its LISTEN connection found
  the new primary by itself);
- health of the playing server went NOT_SERVING while no primary answered,
  and is SERVING after;
- the game index follows the new primary: a game made after the failover
  is listed by the other server.

Needs Debian's ``patroni`` and ``etcd-server`` and root (the cluster runs as
the postgres user); skipped otherwise, failed instead under .ci/run
(``GAMELOG_REQUIRE_PATRONI=1``), which installs them. Bench case j measures
the same faults and their outage.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from bench.failover import LocalCluster, Player, check_store, cluster_problem, new_players, play
from gamelog.cli.client import Client
from gamelog.cli.process import start_server_process

pytestmark = [pytest.mark.postgres, pytest.mark.patroni, pytest.mark.e2e]

PLAYERS = 4
BEFORE = 100
"""Acknowledged moves before the fault."""
AFTER = 40
"""Acknowledged moves after it, once the new primary takes writes."""


@pytest.fixture
def cluster() -> Iterator[LocalCluster]:
    problem = cluster_problem()
    if problem is not None:
        if os.environ.get("GAMELOG_REQUIRE_PATRONI") == "1":
            pytest.fail(f"a local Patroni cluster is required but cannot run: {problem}")
        pytest.skip(f"no local Patroni cluster: {problem}")
    running = LocalCluster.start()
    yield running
    running.stop()


class HealthLog:
    """The statuses a server's health reported, polled every 0.2 s."""

    def __init__(self, address: str) -> None:
        self.channel = grpc.insecure_channel(address)
        self.stub = health_pb2_grpc.HealthStub(self.channel)
        self.seen: list[int] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)
        self.thread.start()

    def _poll(self) -> None:
        while not self.stop.wait(0.2):
            try:
                answer = self.stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
                self.seen.append(int(answer.status))
            except grpc.RpcError:
                continue

    def close(self) -> list[int]:
        self.stop.set()
        self.thread.join(10)
        self.channel.close()
        return self.seen


def follow_to_the_end(client: Client, game_id: str, into: list[dict[str, Any]]) -> None:
    """One stream from position 0 until the game's end (the client resumes
    nothing: a stream cut by the failover would end this with an error)."""
    for record in client.follow(game_id, timeout=150):
        into.append(record)


@pytest.mark.timeout(170)
def test_a_primary_node_killed_under_load_loses_and_doubles_nothing(
    cluster: LocalCluster, tmp_path: Path
) -> None:
    playing = start_server_process(tmp_path, "--postgres", cluster.dsn)
    watching = start_server_process(tmp_path, "--postgres", cluster.dsn)
    channels = [playing.client() for _ in range(PLAYERS)]
    reader = watching.client()
    stop = threading.Event()
    try:
        players: list[Player] = [new_players(channel, 1)[0] for channel in channels]
        followed: list[dict[str, Any]] = []
        follower = threading.Thread(
            target=follow_to_the_end, args=(reader, players[0].game_id, followed), daemon=True
        )
        follower.start()
        health = HealthLog(playing.address)
        threads = [
            threading.Thread(target=play, args=(channel, player, stop), daemon=True)
            for channel, player in zip(channels, players)
        ]
        for thread in threads:
            thread.start()
        _wait(lambda: sum(len(p.acks) for p in players) >= BEFORE, "moves before the fault")

        fault_at = time.monotonic()
        killed = cluster.fault("node-lost")
        _wait(
            lambda: sum(1 for p in players for t, _, _ in p.acks if t > fault_at + 1) >= AFTER,
            "moves acknowledged by the new primary",
        )
        stop.set()
        for thread in threads:
            thread.join(40)
        assert cluster.member("leader")["name"] != killed["name"]
        # The stream ends with the game: the arbiter enters its result.
        game = players[0]
        last = len(reader.records(game.game_id, game.arbiter_token)) - 1
        result = {"result": {"scores": {"a": 1, "b": 0}}}
        channels[0].play(game.game_id, result, last, game.arbiter_token)
        follower.join(60)
        statuses = health.close()

        checked = check_store(reader, players)
        assert checked == {"lost": 0, "duplicates": 0, "audit_failures": 0}
        stored = reader.records(game.game_id, game.arbiter_token)
        assert [r["position"] for r in followed] == [r["position"] for r in stored]
        assert followed[-1]["kind"] == "finished"
        assert health_pb2.HealthCheckResponse.NOT_SERVING in statuses
        assert statuses[-1] == health_pb2.HealthCheckResponse.SERVING
        # The game index follows the new primary too: a game made after the
        # failover is listed by the other server.
        later = channels[0].create("freeform", ["a", "b"])
        listed = {g.game_id for g in reader.games(limit=100)}
        assert {p.game_id for p in players} | {later.game_id} <= listed
    finally:
        stop.set()
        for channel in [*channels, reader]:
            channel.close()
        playing.stop()
        watching.stop()


def _wait(check: Any, what: str, timeout: float = 60) -> None:
    """A bound only a hang reaches (a failover takes about 11 s here)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.1)
