"""Signed tournament archives: the exporting server signs the head of the
tournament's chain and of every game's; an import refuses a signature that
does not verify, and under ``trusted`` keys anything they did not sign.

A correction inserted before the tournament's end, with the chain sealed
again, audits clean: the records are the director's own kinds, in order, and
no table's game disagrees. Only the signature says it is not the record the
server kept.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from gamelog.replay.signatures import SigningKey, head_of, signatures_json, verifies
from gamelog.replay.tournament_archive import parse_archive, verdicts
from gamelog.replay.tournament_audit import audit_tournament
from gamelog.service.model.refusals import Refused
from gamelog.service.storage.signing_key import KeyRing, load_or_create, rotate
from gamelog.service.usecases.application import GameLog

from support.archives import correction_inserted, finished_archive
from support.tournaments import club_night

MEMORY = {"PERSISTENCE_MODULE": "eventsourcing.popo"}


@pytest.fixture(scope="module")
def server_key() -> KeyRing:
    return KeyRing(SigningKey.generate())


@pytest.fixture(scope="module")
def archive(server_key: KeyRing) -> dict[str, Any]:
    app = GameLog(env=MEMORY, keys=server_key)
    exported = finished_archive(app)
    app.close()
    return exported


def forged(archive: dict[str, Any]) -> dict[str, Any]:
    copy = json.loads(json.dumps(archive))
    copy["tournament"]["records"] = correction_inserted(copy["tournament"]["records"])
    return copy


def imported(data: dict[str, Any], trusted: list[str] | None = None) -> bool:
    target = GameLog(env=MEMORY)
    done = target.tournament_files.import_tournament(data, trusted)
    target.close()
    return bool(done.id_map)


def nothing_stored_after(data: dict[str, Any], trusted: list[str] | None, reason: str) -> None:
    target = GameLog(env=MEMORY)
    with pytest.raises(Refused, match=reason):
        target.tournament_files.import_tournament(data, trusted)
    assert target.listing.list_games(50).games == []
    target.close()


def test_a_signed_export_verifies_and_imports_under_its_key(
    archive: dict[str, Any], server_key: KeyRing
) -> None:
    parsed = parse_archive(archive)
    named = verdicts(parsed)
    assert len(named) == 1 + len(parsed.games)
    assert {verdict.text for _, verdict in named} == {f"signed by {server_key.current.key_id}"}
    assert imported(archive, [server_key.current.public_key])


def test_a_correction_inserted_before_the_end_audits_clean_but_its_signature_is_invalid(
    archive: dict[str, Any],
) -> None:
    copy = forged(archive)
    parsed = parse_archive(copy)
    games = {entry.records[0]["hash"]: entry.records for entry in parsed.games}
    assert audit_tournament(parsed.records, games=games).ok  # the hash chain cannot tell
    named = dict(verdicts(parsed))
    assert named[f"tournament {parsed.tournament_id}"].text == "signature invalid"
    assert {v.text for n, v in named.items() if n.startswith("game")} != {"signature invalid"}
    nothing_stored_after(copy, None, "signature invalid")


def test_a_forgery_signed_again_with_another_key_is_refused_under_trust(
    archive: dict[str, Any], server_key: KeyRing
) -> None:
    copy = forged(archive)
    forger = SigningKey.generate()
    parsed = parse_archive(copy)
    heads = [head_of("tournament", parsed.records)]
    heads += [head_of("game", entry.records) for entry in parsed.games]
    copy["signatures"] = signatures_json([forger], [forger.sign(h) for h in heads])
    # It is signed, by the forger: whoever trusts the server's key refuses it.
    assert {v.text for _, v in verdicts(parse_archive(copy))} == {f"signed by {forger.key_id}"}
    nothing_stored_after(copy, [server_key.current.public_key], "not signed by a trusted key")


def test_an_unsigned_archive_imports_but_not_under_trust(
    archive: dict[str, Any], server_key: KeyRing
) -> None:
    copy = json.loads(json.dumps(archive))
    del copy["signatures"]
    assert {v.text for _, v in verdicts(parse_archive(copy))} == {"unsigned"}
    assert imported(copy)
    nothing_stored_after(copy, [server_key.current.public_key], "unsigned, not signed by a trusted")


def test_a_signature_moved_to_another_chain_is_invalid(archive: dict[str, Any]) -> None:
    copy = json.loads(json.dumps(archive))
    heads = copy["signatures"]["heads"]
    heads[1]["signature"], heads[2]["signature"] = heads[2]["signature"], heads[1]["signature"]
    nothing_stored_after(copy, None, "signature invalid")


def test_after_a_key_rotation_old_exports_still_verify_under_the_servers_keys(
    tmp_path: Path,
) -> None:
    path = tmp_path / "server.signing-key"
    before = load_or_create(path)
    app = GameLog(env=MEMORY, keys=before)
    old_export = finished_archive(app)
    app.close()
    after = rotate(path)
    assert after.current.key_id != before.current.key_id
    app = GameLog(env=MEMORY, keys=after)
    new_export = finished_archive(app)
    app.close()
    trusted = list(load_or_create(path).public_keys().values())
    assert imported(old_export, trusted) and imported(new_export, trusted)
    assert {v.text for _, v in verdicts(parse_archive(new_export))} == {
        f"signed by {after.current.key_id}"
    }
    # A rotation keeps the old public key, never its private half.
    assert before.current.seed_hex() not in path.read_text()


# -- signatures made at the end, kept beside the chains ----------------------------------


def test_a_games_and_a_tournaments_end_are_signed_and_kept_beside_their_chains(
    server_key: KeyRing,
) -> None:
    app = GameLog(env=MEMORY, keys=server_key)
    t = club_night(app, rounds=1)
    games = t.play_round(random.Random(5))
    for game_id in games.values():
        records = app.store.records(game_id)
        kept = app.signing.kept("game", game_id)
        assert [s.head for s, _ in kept] == [head_of("game", records)]
        assert all(verifies(public, s) for s, public in kept)
    assert app.signing.kept("tournament", t.tournament_id) == []  # not finished yet
    app.tournaments.finish_tournament(t.tournament_id, t.director)
    [(signature, _)] = app.signing.kept("tournament", t.tournament_id)
    assert signature.head == head_of("tournament", t.records())
    # The records are what they were: signatures sit beside them.
    assert all("signature" not in r for r in t.records())
    app.close()


def test_an_export_after_a_rotation_carries_the_end_signature_of_the_retired_key() -> None:
    old = KeyRing(SigningKey.generate())
    app = GameLog(env=MEMORY, keys=old)
    t = club_night(app, rounds=1)
    t.play_round(random.Random(6))
    app.tournaments.finish_tournament(t.tournament_id, t.director)
    new = KeyRing(SigningKey.generate(), (old.current.public_key,))
    app.signing.keys = new  # the server restarted with the rotated key file
    archive = json.loads(json.dumps(app.tournament_files.export_tournament(t.tournament_id, None)))
    app.close()
    both = frozenset((new.current.key_id, old.current.key_id))
    assert {frozenset(v.signed_by) for _, v in verdicts(parse_archive(archive))} == {both}
    assert imported(archive, [old.current.public_key])  # trusting the old key alone


def test_an_import_keeps_the_origins_signatures_and_exports_them_beside_its_own(
    archive: dict[str, Any], server_key: KeyRing
) -> None:
    elsewhere = GameLog(env=MEMORY)
    done = elsewhere.tournament_files.import_tournament(archive)
    again = json.loads(
        json.dumps(elsewhere.tournament_files.export_tournament(done.tournament_id, None))
    )
    elsewhere_id = elsewhere.signing.keys.current.key_id
    elsewhere.close()
    signers = {frozenset(v.signed_by) for _, v in verdicts(parse_archive(again))}
    assert signers == {frozenset((server_key.current.key_id, elsewhere_id))}
    assert imported(again, [server_key.current.public_key])
