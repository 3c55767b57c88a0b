"""Forks and grafts: a new line of play from any point, never a window on hidden parts.

Forking a running game is its arbiter's, and the fork draws afresh; a fork
may start from a position later taken back. A fork imported without its
parent, or grafted onto someone else's game without that game's arbiter
token, is refused; exporting a parent shows a stranger's running fork no
further than a spectator may see it.
"""

from __future__ import annotations

import pytest

from gamelog.cli.client import Client
from gamelog.replay.audit import audit_records
from gamelog.service.model.refusals import PermissionDenied, Refused
from gamelog.service.usecases.application import GameLog

from support.refusals import refused
from support.two_seats import SEATS, finished_game, new_game, play_cards


def test_forking_a_running_game_is_the_arbiters_and_draws_afresh(memory_app: GameLog) -> None:
    created = new_game(memory_app)
    play_cards(memory_app, created, 3)
    game_id = created.game_id
    with pytest.raises(PermissionDenied):
        memory_app.games.fork(game_id, created.tokens["ann"], 2)
    with pytest.raises(PermissionDenied):
        memory_app.games.fork(game_id, None, 2)
    with pytest.raises(Refused):
        memory_app.games.fork(game_id, created.arbiter_token, 2, keep_seed=True)
    fork = memory_app.games.fork(game_id, created.arbiter_token, 2)
    assert fork.commitment != created.commitment
    assert (
        memory_app.queries.state_at(fork.game_id).state
        == memory_app.queries.state_at(game_id, 2).state
    )
    parent = memory_app.store.records(fork.game_id)[0]["parent"]
    assert parent == {
        "game_id": str(game_id),
        "position": 2,
        "hash": memory_app.store.records(game_id)[2]["hash"],
    }
    root, nodes = memory_app.listing.tree(fork.game_id)
    assert root == game_id and [n.game_id for n in nodes] == [game_id, fork.game_id]
    assert memory_app.queries.audit(fork.game_id).ok


def test_a_fork_from_a_position_later_taken_back(memory_app: GameLog) -> None:
    created = new_game(memory_app, "free")
    play_cards(memory_app, created, 5)
    taken_back_state = memory_app.queries.state_at(created.game_id, 4).state
    memory_app.games.take_back(created.game_id, created.tokens["ann"], "request", 2, 5)
    play_cards(memory_app, created, 2)
    fork = memory_app.games.fork(created.game_id, created.arbiter_token, 4)
    assert memory_app.queries.state_at(fork.game_id).state == taken_back_state
    assert memory_app.queries.state_at(fork.game_id).ply == 4
    assert memory_app.queries.audit(fork.game_id).ok


def test_a_fork_whose_parent_is_missing_is_refused_and_never_audits_clean(
    client: Client,
) -> None:
    created = client.create("three-too-many", SEATS)
    token = created.seat_tokens["ann"]
    client.play(created.game_id, client.legal_moves(created.game_id, token)[0], 0, token)
    fork = client.fork(created.game_id, 1, created.arbiter_token)
    data = client.export(fork.game_id, fork.arbiter_token)
    # The fork alone, its parent named by an id no store holds.
    data["games"][0]["records"][0]["parent"]["game_id"] = "nowhere"
    error = refused(client.import_file, data)
    assert error.code == "FAILED_PRECONDITION" and error.reason == "parent-missing"
    report = audit_records(data["games"][0]["records"], parent_records=None)
    assert not report.ok and "parent" in report.first_difference.problem


def test_grafting_onto_a_stored_game_needs_its_arbiter_token(client: Client) -> None:
    victim = finished_game(client, seed=7)
    attacker_fork = client.fork(victim.game_id, 3)
    branch = client.export(attacker_fork.game_id, attacker_fork.arbiter_token)
    assert branch["games"][0]["records"][0]["parent"]["game_id"] == victim.game_id
    error = refused(client.import_file, branch)
    assert error.code == "PERMISSION_DENIED" and error.reason == "graft-needs-arbiter"
    attacker_token = attacker_fork.arbiter_token
    assert refused(client.import_file, branch, attacker_token).code == "PERMISSION_DENIED"
    # The victim's own arbiter may graft; the victim's export still imports.
    client.import_file(branch, victim.arbiter_token)
    client.import_file(client.export(victim.game_id, victim.arbiter_token))


def test_exporting_a_parent_never_shows_its_forks_beyond_a_spectator(
    client: Client,
) -> None:
    parent = finished_game(client, seed=10)
    fork = client.fork(parent.game_id, 2)  # anyone may fork a finished game
    token = fork.seat_tokens["ann"]
    client.play(fork.game_id, client.legal_moves(fork.game_id, token)[0], 0, token)
    for parent_token in (parent.seat_tokens["ann"], parent.arbiter_token, None):
        data = client.export(parent.game_id, parent_token)
        assert [g["game_id"] for g in data["games"]] == [parent.game_id]
        assert data["left_out"] == [
            {
                "game_id": fork.game_id,
                "reason": "running, and this token may not see its hidden parts",
            }
        ]
        client.import_file(data)  # a stranger's fork never spoils the parent's export
    # A spectator's copy of everything shows the fork as a spectator sees it.
    redacted = client.export(parent.game_id, parent.arbiter_token, redacted=True)
    branch = next(g for g in redacted["games"] if g["game_id"] == fork.game_id)
    assert "secret_seed" not in branch and branch["records"] == client.records(fork.game_id)
    assert client.export(fork.game_id, fork.arbiter_token)["games"][0]["secret_seed"]
