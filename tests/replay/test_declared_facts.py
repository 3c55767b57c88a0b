"""A game we know only in part: declared facts are recorded, marked, and named by the audit.

Pyramidion's phases 1 to 5 are not in our copy of its rulebook; seats and the
arbiter declare what happened there. The audit report says which positions
were rule-checked and which were declared, and the notation marks declared
lines, through the real gRPC service.
"""

from __future__ import annotations

import json
import random

import pytest

from gamelog.cli.client import Client
from gamelog.games.protocol import ARBITER

pytestmark = pytest.mark.e2e


def test_the_audit_and_the_notation_name_declared_positions(client: Client) -> None:
    created = client.create("pyramidion", ["red", "blue"])
    tokens = {**created.seat_tokens, ARBITER: created.arbiter_token}
    chooser = random.Random(4)
    while (state := client.state(created.game_id)).last_position < 40 and not state.finished:
        actors = [s for s in state.to_act if s != ARBITER] or list(state.to_act)
        seat = chooser.choice(actors)
        move = chooser.choice(client.legal_moves(created.game_id, tokens[seat]))
        client.play(created.game_id, move, state.last_position, tokens[seat])
    report = json.loads(client.audit(created.game_id, created.arbiter_token).report_json)
    assert report["ok"]
    declared = report["declared_positions"]
    assert declared and len(declared) < report["positions_checked"]
    moves = {
        record["position"]: line
        for record, line in client.log(created.game_id, tokens[ARBITER])
        if record["kind"] == "move"
    }
    for position in declared:
        assert "declared:" in moves[position], moves[position]
    assert any("declared" not in line for line in moves.values()), "some moves are rule-checked"
