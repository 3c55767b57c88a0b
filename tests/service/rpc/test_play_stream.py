"""The Play stream through gRPC: games played, dropped and resumed, retried,
refused and kept secret as PlayMove and FollowGame do it.

Each seat plays through its own stream (``cli.play_stream.PlayStream``); what
a stream carried is checked against what the unary calls answer the same
token (``ListEvents``, ``PlayMove``'s refusals).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from gamelog.cli.client import Client, bearer, loads
from gamelog.cli.play_stream import PlayStream
from gamelog.cli.process import start_server_process
from gamelog.games import get_rules
from gamelog.games.leaks import find_leaks
from gamelog.games.protocol import ARBITER
from gamelog.replay.fold import fold
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

from support.follow import error_info
from support.random_play import GrpcGame, StreamGame, play_random
from support.refusals import refused
from support.two_seats import SEATS

pytestmark = pytest.mark.e2e


def new_game(client: Client, game: str = "three-too-many", seats: list[str] = SEATS) -> Any:
    return client.create(game, seats, seed_hex="0a0b0c")


def seat_streams(client: Client, created: Any) -> dict[str, PlayStream]:
    """One stream per seat, each joined to the game with its token."""
    streams = {}
    for seat, token in created.seat_tokens.items():
        streams[seat] = PlayStream(client)
        assert streams[seat].join(created.game_id, token).HasField("ack")
    return streams


@pytest.fixture
def streams_to_close() -> Iterator[list[PlayStream]]:
    opened: list[PlayStream] = []
    yield opened
    for stream in opened:
        stream.cancel()


def positions(records: list[Any]) -> list[int]:
    return [r["position"] for r in records]


def chain(records: list[Any]) -> list[tuple[int, str, str]]:
    return [(r["position"], r["kind"], r["prev_hash"]) for r in records]


def test_a_game_played_over_two_streams_reaches_its_end_and_each_seat_saw_every_record(
    client: Client,
) -> None:
    created = new_game(client)
    streams = seat_streams(client, created)
    try:
        moves = play_random(
            StreamGame(client, created.game_id, created.seat_tokens, streams), random.Random(5)
        )
        end = client.state(created.game_id).last_position
        assert client.state(created.game_id).finished and moves > 20
        for seat, stream in streams.items():
            received = stream.until(created.game_id, end)
            assert positions(received) == list(range(end + 1))
            # Sent as the seat could see each while the game ran: the same
            # chain as the finished game's record, which is now public.
            public = client.records(created.game_id, created.seat_tokens[seat])
            assert chain(received) == chain(public)
            assert received[-1] == public[-1]
            assert len(stream.notation[created.game_id]) == end + 1
    finally:
        for stream in streams.values():
            stream.cancel()


@pytest.mark.parametrize("game", ["three-too-many", "carcassonne-hg", "hadara"])
def test_each_seats_stream_words_and_cuts_every_record_as_list_events_does_for_it(
    client: Client, game: str
) -> None:
    """The stream's records are made by the fan-out, which takes the state
    after a move from the process that decided it (ListEvents folds the
    stored records): for every seat, mid-game, the two must agree, in games
    whose words depend on the state (where a tile lies, what a card gives)."""
    created = new_game(client, game)
    streams = seat_streams(client, created)
    try:
        play_random(
            StreamGame(client, created.game_id, created.seat_tokens, streams),
            random.Random(8),
            max_moves=14,
        )
        end = client.state(created.game_id).last_position
        assert not client.state(created.game_id).finished
        for seat, stream in streams.items():
            received = stream.until(created.game_id, end)
            listed = client.stub.ListEvents(
                pb.ListEventsRequest(game_id=created.game_id),
                metadata=bearer(created.seat_tokens[seat]),
            ).records
            assert received == [loads(r.record_json) for r in listed]
            assert stream.notation[created.game_id] == [r.notation for r in listed]
    finally:
        for stream in streams.values():
            stream.cancel()


def test_a_moves_records_reach_its_stream_before_its_ack_or_in_it_and_only_once(
    client: Client,
) -> None:
    created = new_game(client)
    streams = seat_streams(client, created)
    carried = 0
    try:
        for at in range(6):
            seat = client.state(created.game_id).to_act[0]
            move = client.legal_moves(created.game_id, created.seat_tokens[seat])[0]
            answer = streams[seat].move(created.game_id, move, at)
            assert answer.ack.position == at + 1 and not answer.ack.replayed
            assert [r.position for r in answer.ack.records] in ([], [at + 1])
            carried += len(answer.ack.records)
            # Read up to the ack, and no further: the move's record is in.
            assert positions(streams[seat].records[created.game_id])[-1] == at + 1
            assert "plays" in streams[seat].notation[created.game_id][-1]
        # The mover's record rides with its ack (one message) unless the
        # stream had sent it already.
        assert carried > 0
        for seat, stream in streams.items():
            received = stream.until(created.game_id, 6)
            assert positions(received) == list(range(7))
            assert received == client.records(created.game_id, created.seat_tokens[seat])
    finally:
        for stream in streams.values():
            stream.cancel()


def test_a_dropped_stream_resumed_from_its_last_record_misses_nothing_and_doubles_nothing(
    client: Client, streams_to_close: list[PlayStream]
) -> None:
    created = new_game(client)
    streams = seat_streams(client, created)
    streams_to_close.extend(streams.values())
    game = StreamGame(client, created.game_id, created.seat_tokens, streams)
    chooser = random.Random(11)
    play_random(game, chooser, max_moves=6)
    ann = streams["ann"]
    before = list(ann.until(created.game_id, client.state(created.game_id).last_position))
    ann.cancel()  # the connection drops

    # The game goes on while ann's stream is away (ann plays through PlayMove).
    play_random(GrpcGame.of(client, created, arbiter=False), chooser, max_moves=6)

    resumed = PlayStream(client)
    streams_to_close.append(resumed)
    next_position = before[-1]["position"] + 1
    answer = resumed.join(created.game_id, created.seat_tokens["ann"], next_position)
    last = client.state(created.game_id).last_position
    assert answer.ack.position == last > next_position
    received = before + resumed.records[created.game_id]
    assert positions(received) == list(range(last + 1))
    assert received == client.records(created.game_id, created.seat_tokens["ann"])


def test_a_retried_request_id_is_stored_once_on_the_same_stream_or_another(
    client: Client, streams_to_close: list[PlayStream]
) -> None:
    created = new_game(client)
    streams = seat_streams(client, created)
    streams_to_close.extend(streams.values())
    seat = client.state(created.game_id).to_act[0]
    move = client.legal_moves(created.game_id, created.seat_tokens[seat])[0]

    first = streams[seat].move(created.game_id, move, 0, request_id="card-1")
    again = streams[seat].move(created.game_id, move, 0, request_id="card-1")
    other = PlayStream(client)
    streams_to_close.append(other)
    other.join(created.game_id, created.seat_tokens[seat])
    elsewhere = other.move(created.game_id, move, 0, request_id="card-1")
    unary = client.play(created.game_id, move, 0, created.seat_tokens[seat], request_id="card-1")

    assert (first.ack.position, first.ack.replayed) == (1, False)
    assert (again.ack.position, again.ack.replayed) == (1, True)
    assert (elsewhere.ack.position, elsewhere.ack.replayed) == (1, True)
    assert unary.replayed and unary.position == 1
    assert client.state(created.game_id).last_position == 1
    assert positions(streams[seat].records[created.game_id]) == [0, 1]


def bad_moves(client: Client, created: Any) -> list[tuple[str, Any, int, str]]:
    """(token's seat, move, at_position, seat played for): each refused for its own reason."""
    to_act = client.state(created.game_id).to_act[0]
    other = next(s for s in SEATS if s != to_act)
    legal = client.legal_moves(created.game_id, created.seat_tokens[to_act])[0]
    return [
        (to_act, legal, 5, ""),  # stale position
        (other, legal, 0, ""),  # not this seat's turn
        (to_act, {"card": 999}, 0, ""),  # a card it does not hold
        (to_act, "not an object", 0, ""),  # malformed move
        (to_act, legal, 0, "ben"),  # a seat's own token plays for nobody else
    ]


def test_refusals_on_the_stream_equal_play_moves_code_reason_message_and_metadata(
    client: Client, streams_to_close: list[PlayStream]
) -> None:
    created = new_game(client)
    streams = seat_streams(client, created)
    streams_to_close.extend(streams.values())
    for seat, move, at, for_seat in bad_moves(client, created):
        error = refused(
            client.play, created.game_id, move, at, created.seat_tokens[seat], seat=for_seat
        )
        answer = streams[seat].move(created.game_id, move, at, seat=for_seat)
        assert answer.WhichOneof("answer") == "refusal"
        got = answer.refusal
        assert (got.code, got.reason, got.message, dict(got.metadata)) == (
            error.code,
            error.reason,
            error.message,
            error.details,
        )
    assert client.state(created.game_id).last_position == 0  # nothing was stored


def test_take_backs_on_the_stream_answer_as_take_back_does(
    client: Client, streams_to_close: list[PlayStream]
) -> None:
    created = client.create("three-too-many", SEATS, seed_hex="0a", undo_policy="free")
    streams = seat_streams(client, created)
    streams_to_close.extend(streams.values())
    game = StreamGame(client, created.game_id, created.seat_tokens, streams)
    play_random(game, random.Random(2), max_moves=2)
    stream = streams["ann"]
    wrong = stream.take_back(created.game_id, "dance", 1, 2)
    error = refused(client.take_back, created.game_id, "dance", 1, 2, created.seat_tokens["ann"])
    assert (wrong.refusal.code, wrong.refusal.reason) == (error.code, error.reason)

    answer = stream.take_back(created.game_id, "request", 1, 2)
    assert answer.ack.taken_back and answer.ack.position == 3
    assert stream.records[created.game_id][-1]["kind"] == "takeback"
    assert streams["ben"].until(created.game_id, 3)[-1]["kind"] == "takeback"


def hidden_parts_seen(
    game: str, seats: list[str], client: Client, moves: int
) -> tuple[dict[str, int], list[Any]]:
    """Play ``moves`` random moves of ``game`` over one stream per seat, and
    check each stream's records against what the rules hide from its seat
    at each position; how many hidden parts each seat had (to show the
    check had something to find), and the arbiter's records."""
    created = client.create(game, seats, seed_hex="1234")
    streams = seat_streams(client, created)
    try:
        tokens = {**created.seat_tokens, ARBITER: created.arbiter_token}
        play_random(StreamGame(client, created.game_id, tokens, streams), random.Random(3), moves)
        full = client.records(created.game_id, created.arbiter_token)
        assert full[-1]["kind"] != "finished"  # while it runs, nothing is public
        rules = get_rules(game)
        states = dict(fold(rules, full))
        hidden_counts: dict[str, int] = {}
        for seat, stream in streams.items():
            received = stream.until(created.game_id, full[-1]["position"])
            assert received == client.records(created.game_id, created.seat_tokens[seat])
            hidden_counts[seat] = 0
            for record in received:
                hidden = rules.hidden_from(states[record["position"]], seat)
                hidden_counts[seat] += len(hidden)
                leaks = find_leaks(record, hidden)
                assert not leaks, f"{seat} at {record['position']}: {leaks[:3]}"
            assert received != full  # the arbiter's records differ: redaction happened
        return hidden_counts, full
    finally:
        for stream in streams.values():
            stream.cancel()


@pytest.mark.parametrize(
    ("game", "seats", "moves", "sealed"),
    [
        ("three-too-many", SEATS, 12, "card"),  # a hand of cards
        ("hadara", ["ann", "ben", "cat"], 25, ""),
        ("panem", ["ann", "ben", "cat"], 40, "tribute"),  # sealed tributes, one by one
    ],
)
def test_a_seats_stream_never_carries_another_seats_hidden_parts(
    client: Client, game: str, seats: list[str], moves: int, sealed: str
) -> None:
    hidden, full = hidden_parts_seen(game, seats, client, moves)
    assert all(count > 0 for count in hidden.values())
    if sealed:  # the secret the test is about was played
        assert any(sealed in (r.get("move") or {}) for r in full if r["kind"] == "move")


def test_one_stream_plays_several_games_its_answers_named_by_game(client: Client) -> None:
    games = [new_game(client) for _ in range(3)]
    with PlayStream(client) as stream:
        for created in games:
            stream.join(created.game_id, created.seat_tokens["ann"])
        firsts = {}
        for created in games:
            to_act = client.state(created.game_id).to_act[0]
            if to_act == "ann":
                firsts[created.game_id] = client.legal_moves(
                    created.game_id, created.seat_tokens["ann"]
                )[0]
        assert firsts, "ann starts one of the games"
        # Sent together, answered each in its game.
        for game_id, move in firsts.items():
            stream.send(
                pb.PlayRequest(
                    request_id=f"first-{game_id}",
                    game_id=game_id,
                    move=pb.PlayStreamMove(move_json=json.dumps(move), at_position=0),
                )
            )
        acks: dict[str, Any] = {}
        for response in stream:
            if response.HasField("ack"):
                acks[response.game_id] = response.ack
            if len(acks) == len(firsts):
                break
        assert {g: (a.request_id, a.position) for g, a in acks.items()} == {
            g: (f"first-{g}", 1) for g in firsts
        }
        for created in games:
            expected = client.records(created.game_id, created.seat_tokens["ann"])
            assert stream.records[created.game_id] == expected


def test_a_move_in_a_game_not_joined_is_refused_and_the_stream_goes_on(client: Client) -> None:
    created = new_game(client)
    with PlayStream(client) as stream:
        answer = stream.move(created.game_id, {"card": 1}, 0)
        assert (answer.refusal.code, answer.refusal.reason) == ("FAILED_PRECONDITION", "not-joined")
        again = stream.join(created.game_id, created.seat_tokens["ann"])
        assert again.ack.position == 0
        twice = stream.join(created.game_id, created.seat_tokens["ann"])
        assert twice.refusal.reason == "already-joined"


def test_a_join_with_a_token_of_no_seat_is_refused_as_follow_game_refuses_it(
    client: Client,
) -> None:
    created = new_game(client)
    error = refused(lambda: list(client.follow(created.game_id, "no-such-token", timeout=5)))
    with PlayStream(client) as stream:
        answer = stream.join(created.game_id, "no-such-token")
        assert (answer.refusal.code, answer.refusal.reason) == (error.code, error.reason)
        assert stream.join(created.game_id, created.seat_tokens["ben"]).HasField("ack")


def test_bytes_that_are_no_play_request_are_refused_alone_and_the_stream_goes_on(
    client: Client,
) -> None:
    created = new_game(client)
    raw = client.channel.stream_stream("/gamelog.v1.GameLog/Play")
    join = pb.PlayRequest(
        request_id="j", game_id=created.game_id, join=pb.PlayJoin(token=created.seat_tokens["ann"])
    )
    call = raw(iter([b"\xff\xff\xff", join.SerializeToString()]), metadata=bearer(None))
    answers = []
    try:
        for data in call:
            answers.append(pb.PlayResponse.FromString(data))
            if answers[-1].HasField("ack"):
                break
    finally:
        call.cancel()
    refusal = answers[0].refusal
    assert (refusal.code, refusal.reason) == ("INVALID_ARGUMENT", "bad-request")
    assert answers[-1].ack.request_id == "j"
    assert [loads(a.record.record_json)["kind"] for a in answers[1:-1]] == ["created"]


def test_a_stream_closed_by_its_client_ends_ok_once_its_requests_are_answered(
    client: Client,
) -> None:
    created = new_game(client)
    stream = PlayStream(client)
    stream.send(
        pb.PlayRequest(
            request_id="j",
            game_id=created.game_id,
            join=pb.PlayJoin(token=created.seat_tokens["ann"]),
        )
    )
    stream.close()
    answers = list(stream)  # ends without an error status
    assert answers[-1].ack.request_id == "j"
    assert [a.WhichOneof("answer") for a in answers] == ["record", "ack"]


def test_a_stream_that_stops_reading_ends_naming_its_game_and_resumes_without_gap(
    tmp_path: Path,
) -> None:
    """A client that stops reading is dropped once one record has waited
    0.5 s to be sent (--follow-stall): its stream ends RESOURCE_EXHAUSTED
    after every message it was sent, naming the game and the position to
    join again from; a new stream joined there gets the rest, each once."""
    server = start_server_process(tmp_path, "--memory", "--follow-stall", "0.5")
    moves = 30

    async def scenario() -> None:
        # A small flow-control window, so that the stopped reader blocks the
        # server's writes soon (as a real stalled client does, later).
        small_window = [("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 16384)]
        async with (
            grpc.aio.insecure_channel(server.address) as channel,
            grpc.aio.insecure_channel(server.address, options=small_window) as slow_channel,
        ):
            stub = pb_grpc.GameLogStub(channel)
            created = await stub.CreateGame(pb.CreateGameRequest(game="freeform", seats=["ann"]))
            game_id, ann = created.game_id, created.seat_tokens["ann"]
            slow = pb_grpc.GameLogStub(slow_channel).Play(timeout=60)
            join = pb.PlayJoin(token=ann)
            await slow.write(pb.PlayRequest(request_id="j", game_id=game_id, join=join))
            received = [json.loads((await slow.read()).record.record_json)]
            assert (await slow.read()).ack.request_id == "j"
            for position in range(moves):
                move = json.dumps({"text": f"{position} " + "x" * 30_000})
                await stub.PlayMove(
                    pb.PlayMoveRequest(game_id=game_id, move_json=move, at_position=position),
                    metadata=bearer(ann),
                )
            await asyncio.sleep(2)  # the slow one has been stalled for long enough
            with pytest.raises(grpc.aio.AioRpcError) as dropped:
                while True:
                    message = await slow.read()
                    assert message is not grpc.aio.EOF, "the slow stream was not dropped"
                    received.append(json.loads(message.record.record_json))
            assert dropped.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            reason, details = error_info(dropped.value)
            assert reason == "follower-too-slow" and details["game_id"] == game_id
            resume_at = int(details["from_position"])
            assert resume_at == len(received) < moves + 1

            resumed = stub.Play(metadata=bearer(ann))
            join = pb.PlayJoin(from_position=resume_at)  # the stream's own token
            await resumed.write(pb.PlayRequest(request_id="again", game_id=game_id, join=join))
            while True:
                message = await resumed.read()
                if message.HasField("ack"):
                    break
                received.append(json.loads(message.record.record_json))
            resumed.cancel()
            listed = await stub.ListEvents(
                pb.ListEventsRequest(game_id=game_id), metadata=bearer(ann)
            )
            assert received == [json.loads(r.record_json) for r in listed.records]

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_stream_ends_with_its_game_and_where_to_join_again_when_the_server_stops(
    tmp_path: Path,
) -> None:
    """SIGTERM: a Play stream ends UNAVAILABLE (server-stopping), naming one of
    its games and the position to join it again from, and the server exits
    cleanly."""
    server = start_server_process(tmp_path, "--memory")
    ended: list[grpc.aio.AioRpcError] = []
    games: list[str] = []

    async def play() -> None:
        async with grpc.aio.insecure_channel(server.address) as channel:
            stub = pb_grpc.GameLogStub(channel)
            created = await stub.CreateGame(pb.CreateGameRequest(game="freeform", seats=["ann"]))
            games.append(created.game_id)
            stream = stub.Play(metadata=bearer(created.seat_tokens["ann"]), timeout=30)
            join = pb.PlayJoin()
            await stream.write(pb.PlayRequest(game_id=created.game_id, join=join))
            assert (await stream.read()).record.position == 0
            assert (await stream.read()).HasField("ack")
            stopped = asyncio.get_running_loop().run_in_executor(None, server.stop)
            try:
                assert await asyncio.wait_for(stream.read(), 30) is not grpc.aio.EOF
            except grpc.aio.AioRpcError as error:
                ended.append(error)
            assert await stopped == 0

    asyncio.run(play())
    assert ended and ended[0].code() == grpc.StatusCode.UNAVAILABLE
    reason, details = error_info(ended[0])
    assert reason == "server-stopping"
    assert details == {"from_position": "1", "game_id": games[0]}
