"""The server's signing key file: made once, for its owner only, rotated
keeping the old public keys, and refused when others can read it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gamelog.service.storage.signing_key import (
    SigningKeyError,
    default_path,
    load,
    load_or_create,
    rotate,
)


def test_servers_starting_together_make_one_key_between_them(tmp_path: Path) -> None:
    path = tmp_path / "shared" / "signing-key"
    with ThreadPoolExecutor(8) as pool:
        rings = list(pool.map(lambda _: load_or_create(path), range(16)))
    assert len({ring.current.public_key for ring in rings}) == 1
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["signing-key"]  # no partial files left


def test_a_key_file_others_can_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "signing-key"
    load_or_create(path)
    path.chmod(0o640)
    with pytest.raises(SigningKeyError, match="chmod 600"):
        load(path)


def test_rotations_keep_every_old_public_key_and_no_old_private_key(tmp_path: Path) -> None:
    path = tmp_path / "signing-key"
    first = load_or_create(path)
    second = rotate(path)
    third = rotate(path)
    assert third.retired == (second.current.public_key, first.current.public_key)
    assert list(load(path).public_keys()) == [
        third.current.key_id,
        second.current.key_id,
        first.current.key_id,
    ]
    text = path.read_text()
    assert first.current.seed_hex() not in text and second.current.seed_hex() not in text
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_damaged_key_file_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "signing-key"
    path.write_text('{"format": "gamelog-signing-key"}')
    path.chmod(0o600)
    with pytest.raises(SigningKeyError, match="signing-key"):
        load_or_create(path)


def test_the_key_sits_beside_the_sqlite_file_and_a_memory_store_has_none() -> None:
    sqlite = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": "/srv/g.sqlite"}
    assert default_path(sqlite) == Path("/srv/g.sqlite.signing-key")
    postgres = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "XDG_CONFIG_HOME": "/etc/x"}
    assert default_path(postgres) == Path("/etc/x/gamelog/signing-key")
    assert default_path({"PERSISTENCE_MODULE": "eventsourcing.popo"}) is None
