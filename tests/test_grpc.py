"""The gRPC API against a real server process on a random local port."""

from __future__ import annotations

import json
import random
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from gamelog.cli.client import ApiError, Client
from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.games import get_rules
from gamelog.games.leaks import find_leaks
from gamelog.replay.fold import state_at

from helpers import Follower, race_for_the_first_move


def test_health_and_reflection_answer(server: ServerProcess) -> None:
    channel = grpc.insecure_channel(server.address)
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


def test_a_full_game_by_one_client_per_seat(server: ServerProcess) -> None:
    seats = ["ann", "ben", "cy", "dee"]
    with server.client() as creator:
        created = creator.create("three-too-many", seats, metadata={"Event": "test"})
    players = {seat: server.client() for seat in seats}
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


def test_errors_carry_status_and_reason(client: Client) -> None:
    created = client.create("three-too-many", ["ann", "ben"])
    gid = created.game_id
    ann, ben = created.seat_tokens["ann"], created.seat_tokens["ben"]
    cases: list[tuple[Any, str, str]] = [
        (lambda: client.play(gid, {"card": 1}, 0, "not-a-token"), "UNAUTHENTICATED", "bad-token"),
        (lambda: client.play(gid, {"card": 1}, 0, ben), "PERMISSION_DENIED", "not-your-turn"),
        (lambda: client.play(gid, {"card": 999}, 0, ann), "FAILED_PRECONDITION", ""),
        (lambda: client.play(gid, {"card": 1}, 7, ann), "ABORTED", "stale-position"),
        (lambda: client.play("not-an-id", {"card": 1}, 0, ann), "INVALID_ARGUMENT", "bad-game-id"),
        (
            lambda: client.play("00000000-0000-0000-0000-000000000001", {}, 0, ann),
            "NOT_FOUND",
            "no-such-game",
        ),
        (lambda: client.create("chess", ["a", "b"]), "INVALID_ARGUMENT", "unknown-game"),
        (lambda: client.state(gid, at=99), "NOT_FOUND", "no-such-position"),
    ]
    for call, code, reason in cases:
        with pytest.raises(ApiError) as refused:
            call()
        assert refused.value.code == code, refused.value
        assert refused.value.reason, "every refusal names a machine-readable reason"
        if reason:
            assert refused.value.reason == reason
    assert len(client.records(gid)) == 1, "a refused call writes nothing"


def test_a_move_shaped_like_the_stores_own_encoding_is_refused(
    server: ServerProcess, tmp_path: Any
) -> None:
    """eventsourcing's transcoder reads {"_type_": ..., "_data_": ...} back as one
    of its typed values: stored, such a freeform move came back as a UUID or
    made the game unreadable after a restart. It is refused and nothing is
    stored; the game reads the same in a fresh server process."""
    db = tmp_path / "g.sqlite"
    first = start_server_process(tmp_path, "--db", str(db))
    try:
        with first.client() as client:
            created = client.create("freeform", ["ann", "ben"])
            token = created.seat_tokens["ann"]
            for move in (
                {"x": {"_type_": "uuid_hex", "_data_": "0" * 32}},
                {"x": [{"_type_": "nope", "_data_": 1}]},
            ):
                with pytest.raises(ApiError) as refused:
                    client.play(created.game_id, move, 0, token)
                assert refused.value.code == "INVALID_ARGUMENT"
            kept = {"x": {"_type_": "uuid_hex", "_data_": "0", "more": 1}}
            client.play(created.game_id, kept, 0, token)
    finally:
        first.stop()
    again = start_server_process(tmp_path, "--db", str(db))
    try:
        with again.client() as client:
            records = client.records(created.game_id, created.arbiter_token)
            assert [r["move"] for r in records[1:]] == [kept]
            assert client.audit(created.game_id).ok
    finally:
        again.stop()


def test_two_clients_racing_for_one_position_one_wins(server: ServerProcess) -> None:
    for _ in range(5):
        assert race_for_the_first_move([server]) == ["ABORTED", "won"]


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


def test_a_follower_sees_every_move_in_order_and_nothing_hidden(server: ServerProcess) -> None:
    with server.client() as setup:
        created = setup.create("three-too-many", ["ann", "ben"])
    gid = created.game_id
    follower = Follower(server, gid)
    clients = {seat: server.client() for seat in ("ann", "ben")}
    chooser = random.Random(4)
    try:
        state = clients["ann"].state(gid)
        while not state.finished:
            seat = state.to_act[0]
            token = created.seat_tokens[seat]
            move = chooser.choice(clients[seat].legal_moves(gid, token))
            clients[seat].play(gid, move, state.last_position, token)
            state = clients[seat].state(gid)
    finally:
        for c in clients.values():
            c.close()
    follower.wait_for_the_end()
    seen = follower.records
    assert [r["position"] for r in seen] == list(range(state.last_position + 1))
    assert seen[-1]["kind"] == "finished"
    # While the game ran, no hidden card reached the follower.
    with server.client() as reader:
        full = reader.records(gid, created.arbiter_token)
    rules = get_rules("three-too-many")
    running_part = [r for r in seen if r["kind"] != "finished"]
    assert running_part[1]["move"] is None
    for position in (0, len(running_part) // 2):
        hidden = rules.hidden_from(state_at(rules, full, position), None)
        assert not find_leaks(seen[: position + 1], hidden)


@pytest.mark.parametrize("policy", ["none", "consent", "arbiter", "free"])
def test_undo_policies_through_grpc(client: Client, policy: str) -> None:
    created = client.create("three-too-many", ["ann", "ben"], undo_policy=policy, seed_hex="0102")
    gid = created.game_id
    tokens = created.seat_tokens
    drew_at = None
    while True:  # play until a move draws cards, then one move that does not
        state = client.state(gid)
        token = tokens[state.to_act[0]]
        played = client.play(gid, client.legal_moves(gid, token)[0], state.last_position, token)
        drew = any(
            e["type"] == "CardsDrawn" for e in json.loads(played.records[0].record_json)["events"]
        )
        if drew:
            drew_at = played.position
        elif drew_at is not None:
            break
    last = played.position
    with pytest.raises(ApiError) as across:
        client.take_back(gid, "request", drew_at - 1, last, tokens["ann"])
    assert across.value.reason in {"undo-not-allowed", "arbiter-only", "takeback-across-hidden"}
    outcome: dict[str, Any] = {}
    if policy == "none":
        with pytest.raises(ApiError) as refused:
            client.take_back(gid, "request", last - 1, last, tokens["ann"])
        assert refused.value.code == "FAILED_PRECONDITION"
    elif policy == "arbiter":
        with pytest.raises(ApiError) as refused:
            client.take_back(gid, "request", last - 1, last, tokens["ann"])
        assert refused.value.code == "PERMISSION_DENIED"
        done = client.take_back(gid, "request", last - 1, last, created.arbiter_token)
        outcome["taken_back"] = done.taken_back
    elif policy == "free":
        done = client.take_back(gid, "request", last - 1, last, tokens["ben"])
        outcome["taken_back"] = done.taken_back
    else:
        asked = client.take_back(gid, "request", last - 1, last, tokens["ann"])
        assert not asked.taken_back
        done = client.take_back(gid, "approve", 0, asked.position, tokens["ben"])
        outcome["taken_back"] = done.taken_back
    if policy != "none":
        assert outcome["taken_back"]
        assert client.state(gid).ply == client.state(gid, at=last - 1).ply
    assert client.audit(gid).ok


@pytest.mark.parametrize(
    ("request_fields", "reason"),
    [
        ({"limit": 10_001}, "bad-limit"),
        ({"limit": -1}, "bad-limit"),
        ({"tags": {"Table": "x" * 1025}}, "bad-filter"),
        ({"player": "x" * 1025}, "bad-filter"),
    ],
)
def test_a_listing_out_of_its_documented_range_is_refused(
    client: Client, request_fields: dict[str, Any], reason: str
) -> None:
    """Not quietly answered as something else: a limit beyond 10,000 was read
    as 1,000, and a filter longer than anything stored was looked up."""
    from gamelog.v1 import gamelog_pb2 as pb

    with pytest.raises(ApiError) as refused:
        client._call("ListGames", pb.ListGamesRequest(**request_fields))
    assert (refused.value.code, refused.value.reason) == ("INVALID_ARGUMENT", reason)
    assert client._call("ListGames", pb.ListGamesRequest(limit=0)).games is not None
