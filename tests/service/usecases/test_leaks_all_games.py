"""No RPC shows a caller a hidden card, a sealed choice or the secret seed.

For every game the server knows, a game is played through the gRPC API with
random legal moves (each seat with its own client and token) until it ends.
While it runs, everything each seat and a spectator can fetch is captured at
every position: the view (GetState, also at earlier positions and as a
picture), the records (ListEvents, PlayMove answers, a FollowGame stream),
the record file (ExportGame, also ``redacted``), the audit report, a diff
against an arbiter's fork, and the caller's own legal moves. Afterwards the
true state at each position is rebuilt from the arbiter's full records and
``find_leaks`` looks for every component ``rules.hidden_from(state, viewer)``
names in what that viewer got.

The hashes: every part a viewer may not see (another seat's move, a redacted
event, an explicit deal) comes as a hash the viewer cannot test guesses
against. The test plays the strongest guesser there is: it knows the true
part, and checks that neither its bare hash (how format 1 hashed parts) nor
its hash with any salt the viewer received matches, and that the part's own
salt never reached the viewer. If the true value cannot be confirmed, no
enumeration of candidates can.

The seed: no record carries one and its hex never shows while the game runs;
the ``finished`` record then reveals the seed and the nonce whose SHA-256 is
the commitment published at creation. The bare seed's SHA-256 is not the
commitment, so a short seed cannot be found from it.

What becomes public at the end (docs/service-decisions.md): once a game is
finished its whole record, every part and every salt, is public.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from gamelog.cli.client import ApiError, Client, loads
from gamelog.cli.process import ServerProcess
from gamelog.games import all_rules, get_rules
from gamelog.games.leaks import find_leaks
from gamelog.games.protocol import ARBITER, Rules, Secrecy, Viewer
from gamelog.replay.fold import fold
from gamelog.replay.record import json_hash, part_hash, seed_commitment

from support.random_play import GrpcGame, Turn, play_random

pytestmark = pytest.mark.e2e

GAMES = [rules.name for rules in all_rules()]
MAX_MOVES = 1500
"""Every game ends well within this; freeform ends when the arbiter says so."""
FREEFORM_SEAT_MOVES = 8
SECRETS_ONLY_IN_STATE = frozenset({"freeform", "carcassonne-hg"})
"""Games whose records never hold a hidden id, even for the arbiter: freeform
hides nothing, and carcassonne-hg draws each tile when it is drawn (the piles
are unordered sets), so the pile's ids live only in the server's state."""
DEEP_CHECKS = frozenset({0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144})
"""Positions where every kind of call is made; views and new records are
fetched at every position."""


@dataclass
class Seen:
    """Something a non-arbiter caller received while the game ran."""

    position: int
    """The position whose state the data shows (what the viewer may know then)."""
    viewer: Viewer
    what: str
    data: Any
    text: str = ""
    """Rendered text or a picture: searched for string ids as whole words."""


def seat_names(rules: Rules[Any]) -> list[str]:
    count = min(max(3, rules.min_players), rules.max_players)
    return [f"s{i + 1}" for i in range(count)]


def text_leaks(text: str, hidden: frozenset[str | int]) -> list[str]:
    words = set(re.findall(r"[\w-]+", text)) if text else set()
    return [f"text shows {word}" for word in sorted(words & hidden) if len(word) >= 3]


class Table:
    """One game in play through the API: a client per seat, a spectator, the arbiter."""

    def __init__(self, server: ServerProcess, game: str) -> None:
        self.rules = get_rules(game)
        self.seats = seat_names(self.rules)
        self.server = server
        self.clients: dict[Viewer, Client] = {v: server.client() for v in [*self.seats, None]}
        self.arbiter = server.client()
        self.created = self.arbiter.create(game, self.seats)
        self.game_id: str = self.created.game_id
        self.seen: list[Seen] = [
            Seen(0, None, "created record", json.loads(self.created.record_json))
        ]

    def token(self, viewer: Viewer) -> str | None:
        if viewer is None:
            return None
        if viewer == ARBITER:
            return str(self.created.arbiter_token)
        return str(self.created.seat_tokens[viewer])

    def close(self) -> None:
        for client in [*self.clients.values(), self.arbiter]:
            client.close()

    def viewers(self) -> Iterator[tuple[Viewer, Client, str | None]]:
        for viewer, client in self.clients.items():
            yield viewer, client, self.token(viewer)

    # -- what callers fetch ----------------------------------------------------------

    def capture_state(self, p: int, at: int | None = None, picture: bool = False) -> None:
        for viewer, client, token in self.viewers():
            state = client.state(self.game_id, token, at, picture=picture)
            assert state.last_position == p
            assert state.viewer == (viewer or "")
            shown = at if at is not None else p
            assert state.position == shown
            data = {
                "view": loads(state.view_json),
                "result": loads(state.result_json),
                "pending_undo": loads(state.pending_undo_json),
                "to_act": list(state.to_act),
            }
            where = f"GetState(at={at})" + (" picture" if picture else "")
            self.seen.append(Seen(shown, viewer, where, data, state.text + state.svg))

    def capture_new_records(self, p: int) -> None:
        for viewer, client, token in self.viewers():
            logged = client.log(self.game_id, token, from_position=p)
            records = [record for record, _ in logged]
            assert [r["position"] for r in records] == [p]
            notation = " ".join(line for _, line in logged)
            self.seen.append(Seen(p, viewer, f"ListEvents(from={p})", records, notation))

    def capture_everything(self, p: int) -> None:
        """Every read a caller can make at position ``p``."""
        earlier = sorted({0, p // 2, max(p - 1, 0)})
        for q in earlier:
            self.capture_state(p, at=q)
        self.capture_state(p, picture=True)
        fork = None
        if p > 0:
            fork = self.arbiter.fork(self.game_id, p - 1, self.created.arbiter_token).game_id
        for viewer, client, token in self.viewers():
            self.seen.append(Seen(p, viewer, "ListEvents", client.records(self.game_id, token)))
            followed = []
            for record in client.follow(self.game_id, token, 0, timeout=20):
                followed.append(record)
                if record["position"] >= p:
                    break
            assert [r["position"] for r in followed] == list(range(p + 1))
            self.seen.append(Seen(p, viewer, "FollowGame", followed))
            self.seen.append(Seen(p, viewer, "ExportGame", client.export(self.game_id, token)))
            text = client.export_text(self.game_id, token)
            self.seen.append(Seen(p, viewer, "ExportGame text", text, text))
            redacted = client.export(self.game_id, token, redacted=True)
            self.seen.append(Seen(p, None, "ExportGame --redacted", redacted))
            audit = client.audit(self.game_id)
            assert audit.ok, audit.problem
            self.seen.append(
                Seen(p, viewer, "AuditGame", json.loads(audit.report_json), audit.problem)
            )
            tree = client.tree(self.game_id)
            self.seen.append(Seen(p, viewer, "GetTree", [n.game_id for n in tree.nodes]))
            if fork is not None:
                diff = client.diff(self.game_id, fork, token)
                self.seen.append(Seen(p, viewer, "DiffGames", diff.description, diff.description))
            if viewer is None:
                with pytest.raises(ApiError) as refused:
                    client.legal_moves(self.game_id, None)  # type: ignore[arg-type]
                assert refused.value.code == "UNAUTHENTICATED"
            else:
                moves = client.legal_moves(self.game_id, token or "")
                self.seen.append(Seen(p, viewer, "ListLegalMoves", moves))
        with pytest.raises(ApiError) as refused:
            self.clients[None].legal_moves(self.game_id, "s1-" + self.created.arbiter_token[:8])
        assert refused.value.code == "UNAUTHENTICATED"

    # -- playing -------------------------------------------------------------------------

    def play_to_the_end(self, chooser: random.Random) -> int:
        """Play random legal moves, each seat through its own client,
        capturing at each running position; the position of the ``finished``
        record."""
        game = GrpcGame.of(self.clients[None], self.created)
        game.seat_clients = {**self.clients, ARBITER: self.arbiter}
        play_random(
            game,
            chooser,
            MAX_MOVES,
            freeform_seats_until=FREEFORM_SEAT_MOVES,
            before_each_move=self.capture_turn,
            after_each_move=self.capture_answer,
        )
        state = self.clients[None].state(self.game_id)
        assert state.finished, f"{self.rules.name} did not end within {MAX_MOVES} moves"
        return int(state.last_position)

    def capture_turn(self, turn: Turn) -> None:
        """What every caller reads at a running position, before its move."""
        self.capture_state(turn.position)
        self.capture_new_records(turn.position)
        if turn.position in DEEP_CHECKS:
            self.capture_everything(turn.position)

    def capture_answer(self, seat: str, move: Any, played: Any) -> None:
        """A seat's PlayMove answer, while the game still runs."""
        if seat == ARBITER:
            return
        records = [json.loads(r.record_json) for r in played.records]
        if all(r["kind"] != "finished" for r in records):
            self.seen.append(Seen(played.position, seat, "PlayMove answer", records))


def leaks_in(rules: Secrecy[Any], states: dict[int, Any], seen: list[Seen]) -> list[str]:
    hidden_cache: dict[tuple[int, Viewer], frozenset[str | int]] = {}
    problems: list[str] = []
    checked: set[tuple[int, Viewer, str]] = set()
    for item in seen:
        key = (item.position, item.viewer)
        # Many calls return the same records: check each distinct answer once.
        fingerprint = (*key, json.dumps(item.data, sort_keys=True) + item.text)
        if fingerprint in checked:
            continue
        checked.add(fingerprint)
        if key not in hidden_cache:
            hidden_cache[key] = frozenset(rules.hidden_from(states[item.position], item.viewer))
        hidden = hidden_cache[key]
        found = find_leaks(item.data, hidden) + text_leaks(item.text, hidden)
        if found:
            who = item.viewer or "spectator"
            problems.append(f"{item.what} for {who} at {item.position}: {found[:5]}")
    return problems


def records_in(data: Any) -> Iterator[dict[str, Any]]:
    """Every stored record inside some fetched data (lists, record files)."""
    if isinstance(data, dict):
        if "kind" in data and "position" in data:
            yield data
        for value in data.values():
            yield from records_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from records_in(value)


@pytest.mark.parametrize("game", GAMES)
def test_no_call_shows_what_the_caller_may_not_see(sqlite_server: ServerProcess, game: str) -> None:
    table = Table(sqlite_server, game)
    try:
        end = table.play_to_the_end(random.Random(zlib.crc32(game.encode())))
        full = table.arbiter.records(table.game_id, table.created.arbiter_token)
        public = table.clients[None].records(table.game_id)
    finally:
        table.close()
    rules = table.rules
    assert full[-1]["kind"] == "finished" and full[-1]["position"] == end
    states = dict(fold(rules, full))
    assert len(table.seen) > 10 * end

    problems = leaks_in(rules, states, table.seen)
    assert not problems, f"{len(problems)} leaks, first: " + "\n".join(problems[:10])

    if game != "freeform":
        # The checks had something to find.
        assert any(rules.hidden_from(states[p], None) for p in range(end))
    if game not in SECRETS_ONLY_IN_STATE:
        # ... and would have found it in records nobody redacted.
        unredacted = [Seen(p, None, "the arbiter's records", full[: p + 1]) for p in (0, end // 2)]
        assert leaks_in(rules, states, unredacted)

    guessed = brute_force(full, table.seen)
    assert not guessed, f"{len(guessed)} hidden parts confirmed, first: " + "\n".join(guessed[:5])

    # The seed stays secret until the end, then matches its commitment; the
    # bare seed's hash is not the commitment (a short seed cannot be searched).
    seed, nonce = public[-1]["seed"], public[-1]["seed_nonce"]
    commitment = table.created.seed_commitment
    assert seed_commitment(bytes.fromhex(seed), bytes.fromhex(nonce)) == commitment
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() != commitment
    assert public[0]["commitment"] == commitment
    # Once finished, the whole record is public.
    assert public == full
    for item in table.seen:
        blob = json.dumps(item.data) + item.text
        assert seed not in blob and nonce not in blob, item.what
        for record in records_in(item.data):
            assert "seed" not in record and record["kind"] != "finished", item.what
        if isinstance(item.data, dict) and "games" in item.data:
            assert all("secret_seed" not in g for g in item.data["games"]), item.what


def brute_force(full: list[dict[str, Any]], seen: list[Seen]) -> list[str]:
    """Hidden parts that a viewer could confirm from what it was sent: by the
    part's bare hash, by its hash under any salt the viewer holds, or because
    the part's own salt reached the viewer."""
    confirmed: list[str] = []
    blobs: dict[Viewer, str] = {}
    for item in seen:
        blobs[item.viewer] = blobs.get(item.viewer, "") + json.dumps(item.data) + item.text
    salts_held: dict[Viewer, set[str]] = {}
    for viewer, blob in blobs.items():
        salts_held[viewer] = set(re.findall(r'"([0-9a-f]{32})"', blob))
    for item in seen:
        data = item.data
        if isinstance(data, dict) and "games" in data:
            data = data["games"][0]  # the game itself; its forks are other games
        for record in records_in(data):
            truth = full[record["position"]]
            for name, _, true_value, stored_hash, salt in cut_parts(record, truth):
                who = f"{item.what} for {item.viewer or 'spectator'}, record {record['position']}"
                guesses = [json_hash(true_value)] + [
                    part_hash(true_value, held) for held in salts_held[item.viewer]
                ]
                if stored_hash in guesses:
                    confirmed.append(f"{who}: {name} confirmed from its hash")
                if salt in blobs[item.viewer]:
                    confirmed.append(f"{who}: {name}'s salt was sent")
    return confirmed


def cut_parts(
    record: dict[str, Any], truth: dict[str, Any]
) -> Iterator[tuple[str, Any, Any, str, str]]:
    """(name, what was sent, the true part, its hash, its salt) for each part
    of ``record`` that was cut out or redacted."""
    salts = truth["salts"]
    for key, hash_key in (("move", "move_hash"), ("options", "options_hash")):
        if key in truth and record.get(key) != truth[key]:
            yield key, record.get(key), truth[key], truth[hash_key], salts[key]
    for index, (sent, true_event) in enumerate(
        zip(record.get("events", []), truth.get("events", []))
    ):
        if sent != true_event:
            yield (
                f"event {index}",
                sent,
                true_event,
                truth["event_hashes"][index],
                salts["events"][index],
            )
