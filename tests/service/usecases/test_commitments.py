"""Hiding commitments: a game commits to what it hides and shows it only when it may.

At creation a game publishes the SHA-256 commitment of its secret seed, taken
with a random nonce so that a short seed cannot be found from it, and hashes
an explicit deal with a salt of its own, so that a guess cannot be confirmed
against the hash. The end reveals the seed and the nonce. A record file whose
running game holds a seed that breaks its commitment does not import.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from gamelog.cli.client import Client
from gamelog.games.protocol import ARBITER
from gamelog.games.three_too_many.cards import NUMBER_CARDS
from gamelog.replay.record import json_hash
from gamelog.service.model.refusals import Refused
from gamelog.service.usecases.application import GameLog

from support.random_play import random_game
from support.refusals import refused
from support.two_seats import SEATS


def test_creation_publishes_commitment_and_distinct_tokens(memory_app: GameLog) -> None:
    short_seed = b"\x01\x02\x03"  # 2^24 candidates: found in seconds if the hash were bare
    created = memory_app.games.create_game("three-too-many", SEATS, seed=short_seed)
    assert created.commitment != hashlib.sha256(short_seed).hexdigest()
    assert "seed_nonce" not in memory_app.store.records(created.game_id)[0]
    tokens = [*created.tokens.values(), created.arbiter_token]
    assert len(set(tokens)) == 3 and all(len(t) >= 32 for t in tokens)
    assert memory_app.access.viewer(created.game_id, created.tokens["ann"]) == "ann"
    assert memory_app.access.viewer(created.game_id, created.arbiter_token) == ARBITER
    assert "seed" not in memory_app.store.records(created.game_id)[0]


def make_deal(seats: list[str]) -> dict[str, Any]:
    rest = [c for c in NUMBER_CARDS if c not in (10, 46, 77)]
    hands, piles = {}, {}
    for i, seat in enumerate(seats):
        mine = rest[i * 20 : (i + 1) * 20]
        hands[seat], piles[seat] = mine[:8], mine[8:]
    return {"display": [10, 46, 77], "hands": hands, "piles": piles}


def test_an_explicit_deal_cannot_be_confirmed_from_its_options_hash(client: Client) -> None:
    deal = make_deal(SEATS)
    created = client.create("three-too-many", SEATS, {"deal": deal})
    spectator = client.records(created.game_id)[0]
    full = client.records(created.game_id, created.arbiter_token)[0]
    assert spectator["options"] is None and "options" not in spectator["salts"]
    assert full["options"]["deal"] == deal
    # The attacker's best guess is the truth itself: it does not match.
    assert json_hash(full["options"]) != spectator["options_hash"]
    assert full["salts"]["options"] not in json.dumps(spectator)


def test_the_end_reveals_the_seed_and_refuses_more_moves(memory_app: GameLog) -> None:
    played = random_game(memory_app, "three-too-many", 3, seed=11)
    records = memory_app.store.records(played.game_id)
    end = records[-1]
    assert end["kind"] == "finished"
    revealed = bytes.fromhex(end["seed_nonce"]) + bytes.fromhex(end["seed"])
    assert hashlib.sha256(revealed).hexdigest() == records[0]["commitment"]
    with pytest.raises(Refused, match="over"):
        memory_app.games.play(
            played.game_id, played.created.tokens["p1"], {"card": 1}, end["position"]
        )


def test_a_running_game_with_a_seed_that_breaks_its_commitment_is_refused(
    client: Client,
) -> None:
    created = client.create("three-too-many", SEATS)
    token = created.seat_tokens["ann"]
    client.play(created.game_id, client.legal_moves(created.game_id, token)[0], 0, token)
    data = client.export(created.game_id, created.arbiter_token)
    entry = data["games"][0]
    assert entry["secret_seed"] and entry["secret_seed_nonce"]
    client.import_file(data)  # the true secret imports
    entry["secret_seed"] = "00" * 32
    error = refused(client.import_file, data)
    assert error.reason == "audit-failed" and "commitment" in error.message
