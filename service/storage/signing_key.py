"""The server's signing key: one file, created on first start, readable by its owner only.

The file is JSON: the current Ed25519 key (its 32-byte seed) and the public
keys it replaced, kept so that what they signed can still be checked::

    {"format": "gamelog-signing-key", "version": 1,
     "private_key": "<64 hex>", "retired_public_keys": ["<64 hex>", …]}

Its place: ``--signing-key PATH``, else beside the SQLite file
(``games.sqlite`` → ``games.sqlite.signing-key``), else (PostgreSQL, which
has no file to sit beside) ``$XDG_CONFIG_HOME/gamelog/signing-key``
(``~/.config/gamelog/signing-key``): the servers of one machine share it. An
in-memory store gets a key of its own that lasts as long as the process.
Servers starting together make one key: the first to link its file in place
wins, the others read it.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "k"
>>> ring = load_or_create(path)
>>> oct(path.stat().st_mode & 0o777)
'0o600'
>>> rotated = rotate(path)
>>> rotated.current.key_id != ring.current.key_id and ring.current.public_key in rotated.retired
True
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamelog.replay.signatures import PUBLIC_HEX, SigningKey, key_id_of

FORMAT = "gamelog-signing-key"
VERSION = 1


class SigningKeyError(ValueError):
    """A key file that cannot be read, or must not be."""


@dataclass(frozen=True)
class KeyRing:
    current: SigningKey
    retired: tuple[str, ...] = ()
    """Public keys (hex) of keys rotated out: trusted for what they signed."""

    def public_keys(self) -> dict[str, str]:
        """Every key id → its public key, the current one first."""
        keys = {self.current.key_id: self.current.public_key}
        keys.update({key_id_of(public): public for public in self.retired})
        return keys


def default_path(env: Mapping[str, str]) -> Path | None:
    """Where a store's key lives when no ``--signing-key`` says (None: in memory)."""
    module = env.get("PERSISTENCE_MODULE", "")
    if module.endswith("sqlite"):
        return Path(env.get("SQLITE_DBNAME", "gamelog.sqlite") + ".signing-key")
    if module.endswith("postgres"):
        config = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        return Path(config) / "gamelog" / "signing-key"
    return None


def load_or_create(path: Path) -> KeyRing:
    """The key ring in ``path``, made (mode 0600) when there is none."""
    if not path.exists():
        ring = KeyRing(SigningKey.generate())
        try:
            _write(path, ring, fresh=True)
        except FileExistsError:
            return load(path)  # another server made it first
        return ring
    return load(path)


def load(path: Path) -> KeyRing:
    if path.stat().st_mode & 0o077:
        raise SigningKeyError(
            f"{path} can be read by others than its owner; chmod 600 it (and consider "
            "rotating the key: whoever read it can sign as this server)"
        )
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise SigningKeyError(f"{path} is no signing key file: {error}") from None
    return _parse(path, data)


def rotate(path: Path) -> KeyRing:
    """A new current key; the old one's public key is kept for verification."""
    old = load(path)
    ring = KeyRing(SigningKey.generate(), (old.current.public_key, *old.retired))
    _write(path, ring, fresh=False)
    return ring


def _parse(path: Path, data: Any) -> KeyRing:
    fields = {"format", "version", "private_key", "retired_public_keys"}
    if not isinstance(data, dict) or set(data) != fields or data["format"] != FORMAT:
        raise SigningKeyError(f"{path} is no {FORMAT} file")
    if data["version"] != VERSION:
        raise SigningKeyError(f"{path}: version {data['version']!r} is not {VERSION}")
    private, retired = data["private_key"], data["retired_public_keys"]
    if not isinstance(private, str) or not PUBLIC_HEX.fullmatch(private):
        raise SigningKeyError(f"{path}: private_key must be 64 lowercase hex digits")
    if not isinstance(retired, list) or not all(
        isinstance(p, str) and PUBLIC_HEX.fullmatch(p) for p in retired
    ):
        raise SigningKeyError(f"{path}: retired_public_keys must be public keys in hex")
    return KeyRing(SigningKey.from_seed(private), tuple(retired))


def _write(path: Path, ring: KeyRing, fresh: bool) -> None:
    """Written to a file only its owner reads, then put in place whole: a
    crash leaves the old key or the new, never half of one. A ``fresh`` key
    is linked in place, which fails (``FileExistsError``) if a key is there."""
    text = json.dumps(
        {
            "format": FORMAT,
            "version": VERSION,
            "private_key": ring.current.seed_hex(),
            "retired_public_keys": list(ring.retired),
        },
        indent=2,
    )
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    partial = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.partial")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(text + "\n")
            file.flush()
            os.fsync(file.fileno())
        if fresh:
            os.link(partial, path)
        else:
            os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
