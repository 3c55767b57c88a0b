"""Refusals reach a client as gRPC statuses with a machine-readable reason,
never INTERNAL, and a refused call writes nothing.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gamelog.cli.client import ApiError, Client
from gamelog.cli.process import ServerProcess, start_server_process
from gamelog.service.model.refusals import Refused
from gamelog.service.rpc.status import status_for

from support.refusals import refused
from support.two_seats import SEATS


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
    sqlite_server: ServerProcess, tmp_path: Any
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


def test_bad_input_gets_a_clear_refusal_never_internal(
    client: Client, finished_export: dict[str, Any]
) -> None:
    created = client.create("freeform", SEATS)
    ann = created.seat_tokens["ann"]
    surrogate = '{"say": "\\ud800"}'
    stub = client.stub
    from gamelog.cli.client import api_error, bearer
    from gamelog.v1 import gamelog_pb2 as pb

    def raw(name: str, request: Any, token: str | None = None) -> ApiError:
        try:
            getattr(stub, name)(request, metadata=bearer(token), timeout=30)
        except Exception as error:
            return api_error(error)  # type: ignore[arg-type]
        raise AssertionError(f"{name} accepted bad input")

    assert (
        raw("PlayMove", pb.PlayMoveRequest(game_id=created.game_id, move_json=surrogate), ann).code
        == "INVALID_ARGUMENT"
    )
    options = pb.CreateGameRequest(
        game="freeform", seats=SEATS, options_json='{"title": "\\udfff"}'
    )
    assert raw("CreateGame", options).code == "INVALID_ARGUMENT"
    cases = []
    running = client.create("three-too-many", SEATS)
    running_file = client.export(running.game_id, running.arbiter_token)
    running_file["games"][0]["secret_seed"] = "zz"
    cases.append(running_file)
    no_kind = copy.deepcopy(finished_export)
    del no_kind["games"][0]["records"][1]["kind"]
    cases.append(no_kind)
    unknown_set = copy.deepcopy(finished_export)
    unknown_set["games"][0]["records"][0]["options"]["component_set"] = "three-too-many/nope"
    cases.append(unknown_set)
    for data in cases:
        error = refused(client.import_file, data)
        assert error.code in ("INVALID_ARGUMENT", "FAILED_PRECONDITION"), error


def test_a_refused_command_is_a_refusal_not_an_internal_error() -> None:
    assert status_for(Refused("game-over", "over")).code.name == "FAILED_PRECONDITION"
