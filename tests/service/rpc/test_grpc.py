"""The gRPC API against a real server process on a random local port."""

from __future__ import annotations

import json
import random

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from gamelog.cli.client import Client
from gamelog.cli.process import ServerProcess
from gamelog.games import get_rules
from gamelog.games.leaks import find_leaks
from gamelog.replay.fold import state_at

from support.races import race_for_the_first_move

pytestmark = pytest.mark.e2e


def test_health_and_reflection_answer(sqlite_server: ServerProcess) -> None:
    channel = grpc.insecure_channel(sqlite_server.address)
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "gamelog.v1.GameLog"):
        response = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        assert response.status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    response = next(iter(reflection.ServerReflectionInfo(iter([request]), timeout=5)))
    names = {s.name for s in response.list_services_response.service}
    assert {"gamelog.v1.GameLog", "grpc.health.v1.Health"} <= names
    channel.close()


def test_supported_games_are_listed(client: Client) -> None:
    types = {t.name: t for t in client.game_types()}
    assert {"three-too-many", "freeform"} <= set(types)
    assert (types["three-too-many"].min_players, types["three-too-many"].max_players) == (2, 4)
    assert types["three-too-many"].rules_version


def test_a_full_game_by_one_client_per_seat(sqlite_server: ServerProcess) -> None:
    seats = ["ann", "ben", "cy", "dee"]
    with sqlite_server.client() as creator:
        created = creator.create("three-too-many", seats, metadata={"Event": "test"})
    players = {seat: sqlite_server.client() for seat in seats}
    chooser = random.Random(1)
    try:
        while True:
            some = players[seats[0]]
            state = some.state(created.game_id, created.seat_tokens[seats[0]])
            if state.finished:
                break
            seat = state.to_act[0]
            me = players[seat]
            token = created.seat_tokens[seat]
            moves = me.legal_moves(created.game_id, token)
            mine = json.loads(me.state(created.game_id, token).view_json)
            assert mine is not None
            me.play(created.game_id, chooser.choice(moves), state.last_position, token)
        result = json.loads(state.result_json)
        assert set(result["scores"]) == set(seats) and result["winners"]
        audit = players["ann"].audit(created.game_id)
        assert audit.ok and audit.seed_checked
    finally:
        for c in players.values():
            c.close()


def test_two_clients_racing_for_one_position_one_wins(sqlite_server: ServerProcess) -> None:
    for _ in range(5):
        assert race_for_the_first_move([sqlite_server]) == ["ABORTED", "won"]


def test_retry_with_the_same_request_id_plays_once(client: Client) -> None:
    created = client.create("three-too-many", ["ann", "ben"])
    token = created.seat_tokens["ann"]
    move = client.legal_moves(created.game_id, token)[0]
    first = client.play(created.game_id, move, 0, token, request_id="retry-me")
    second = client.play(created.game_id, move, 0, token, request_id="retry-me")
    assert second.replayed and not first.replayed
    assert first.records[0].record_json == second.records[0].record_json
    assert len(client.records(created.game_id)) == 2


def test_spectators_and_other_seats_see_no_hidden_cards(client: Client) -> None:
    created = client.create("three-too-many", ["ann", "ben", "cy"])
    gid = created.game_id
    rules = get_rules("three-too-many")
    full = client.records(gid, created.arbiter_token)
    state = state_at(rules, full, 0)
    for viewer in ["ann", "ben", "cy", None]:
        token = created.seat_tokens[viewer] if viewer else None
        hidden = rules.hidden_from(state, viewer)
        assert hidden
        view = json.loads(client.state(gid, token).view_json)
        assert not find_leaks(view, hidden)
        assert not find_leaks(client.records(gid, token), hidden)
