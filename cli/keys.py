"""``gamelog key``: the server's signing key, shown and rotated; keys to trust.

The key is a file on the server's machine (``gamelog serve --signing-key``,
by default beside the SQLite file); these commands read and write that file
directly, as ``gamelog reindex`` works on a store. ``gamelog key show
--server HOST:PORT`` asks a running server instead (``GetSigningKey``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import click

from gamelog.cli.common import emit

PUBLIC_KEY = re.compile(r"\b[0-9a-f]{64}\b")


def _key_path(signing_key: str | None, db: str | None, postgres: bool) -> Path:
    """Where ``gamelog serve`` keeps the key, given the same choice of store."""
    import os

    from gamelog.service.storage.signing_key import default_path

    if signing_key:
        return Path(signing_key)
    module = "eventsourcing.postgres" if postgres else "eventsourcing.sqlite"
    sqlite = str(Path(db or "gamelog.sqlite").resolve())
    path = default_path({**os.environ, "PERSISTENCE_MODULE": module, "SQLITE_DBNAME": sqlite})
    assert path is not None
    return path


def _key_options(command: Any) -> Any:
    command = click.option(
        "--postgres",
        "postgres",
        is_flag=True,
        help="the key of PostgreSQL servers on this machine",
    )(command)
    command = click.option(
        "--db", type=click.Path(dir_okay=False), help="the SQLite file the key sits beside"
    )(command)
    return click.option(
        "--signing-key", type=click.Path(dir_okay=False), help="the key file itself"
    )(command)


@click.group()
def key() -> None:
    """The server's signing key: its public half, and rotating it."""


@key.command()
@_key_options
@click.option("--server", help="ask a running server (host:port) instead of reading the file")
@click.option("--ca", type=click.Path(exists=True, dir_okay=False), help="CA certificate (PEM)")
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def show(
    signing_key: str | None,
    db: str | None,
    postgres: bool,
    server: str | None,
    ca: str | None,
    as_json: bool,
) -> None:
    """Print the public key and its id, and the retired keys still trusted
    for what they signed. Give the public key (or the key file) to
    ``gamelog import --trust``."""
    if server:
        from gamelog.cli.client import Client

        with Client(server, ca) as client:
            answer = client.get_signing_key()
        keys = {"key_id": answer.key_id, "public_key": answer.public_key}
        retired = [{"key_id": k, "public_key": p} for k, p in answer.retired.items()]
    else:
        from gamelog.service.storage.signing_key import SigningKeyError, load

        path = _key_path(signing_key, db, postgres)
        try:
            ring = load(path)
        except (SigningKeyError, OSError) as error:
            raise click.ClickException(str(error)) from None
        keys = {"key_id": ring.current.key_id, "public_key": ring.current.public_key}
        retired = [
            {"key_id": k, "public_key": p}
            for k, p in ring.public_keys().items()
            if k != ring.current.key_id
        ]
    if as_json:
        emit({**keys, "retired": retired})
        return
    click.echo(f"key id      {keys['key_id']}")
    click.echo(f"public key  {keys['public_key']}")
    for old in retired:
        click.echo(f"retired     {old['key_id']}  {old['public_key']}")


@key.command()
@_key_options
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def rotate(signing_key: str | None, db: str | None, postgres: bool, as_json: bool) -> None:
    """Make a new signing key; the old public key stays in the file, so what
    it signed still verifies. A running server signs with the new key once
    restarted."""
    from gamelog.service.storage.signing_key import SigningKeyError, rotate

    path = _key_path(signing_key, db, postgres)
    try:
        ring = rotate(path)
    except (SigningKeyError, OSError) as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        emit({"key_id": ring.current.key_id, "public_key": ring.current.public_key})
        return
    click.echo(f"new key {ring.current.key_id}; restart the server to sign with it")


def trusted_keys(values: tuple[str, ...]) -> list[str]:
    """The public keys ``--trust`` names: each value a public key (64 hex
    digits), a server's key file (its current and retired keys), or a file
    of public keys (``gamelog key show`` output, one or more)."""
    keys: list[str] = []
    for value in values:
        if PUBLIC_KEY.fullmatch(value):
            keys.append(value)
            continue
        path = Path(value)
        if not path.is_file():
            raise click.BadParameter(
                f"{value} is neither a public key nor a file", param_hint="--trust"
            )
        text = path.read_text()
        found = _key_file_keys(text) or PUBLIC_KEY.findall(text)
        if not found:
            raise click.BadParameter(f"{value} holds no public key", param_hint="--trust")
        keys.extend(found)
    return keys


def _key_file_keys(text: str) -> list[str]:
    """A server's key file's public keys (none: not a key file)."""
    from gamelog.replay.signatures import SigningKey

    try:
        data = json.loads(text)
    except ValueError:
        return []
    if not isinstance(data, dict) or data.get("format") != "gamelog-signing-key":
        return []
    current = SigningKey.from_seed(str(data["private_key"])).public_key
    return [current, *data.get("retired_public_keys", [])]
