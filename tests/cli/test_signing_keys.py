"""The server's signing key through the command line: made beside the store on
first start (readable by its owner only), shown from the file and by the
server, rotated; ``gamelog audit FILE`` says per game and tournament who
signed it; ``gamelog import --trust`` imports only what a trusted key signed.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.process import GAMELOG, ServerProcess, start_server_process
from gamelog.service.storage.signing_key import load
from gamelog.service.usecases.application import GameLog

from support.archives import correction_inserted, finished_archive, resealed
from support.cli import gamelog, gamelog_json

MEMORY = {"PERSISTENCE_MODULE": "eventsourcing.popo"}
pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("signing")


@pytest.fixture(scope="module")
def keyed_server(folder: Path) -> Iterator[ServerProcess]:
    running = start_server_process(folder, "--db", str(folder / "games.sqlite"))
    yield running
    running.stop()


def key_file(folder: Path) -> Path:
    return folder / "games.sqlite.signing-key"


def exported_by_the_servers_key(folder: Path) -> dict[str, Any]:
    """An archive signed with the server's key (played in this process, for speed)."""
    app = GameLog(env=MEMORY, keys=load(key_file(folder)))
    archive = finished_archive(app)
    app.close()
    return archive


def written(folder: Path, name: str, archive: dict[str, Any]) -> str:
    path = folder / name
    path.write_text(json.dumps(archive))
    return str(path)


def signatures_of(keyed_server: ServerProcess, file: str) -> tuple[int, dict[str, str]]:
    done = gamelog(keyed_server, "audit", file, "--json", check=False)
    return done.returncode, {
        r["target"].split("#")[1]: r["signature"] for r in json.loads(done.stdout)
    }


def test_the_server_makes_its_key_beside_the_store_for_its_owner_only(
    keyed_server: ServerProcess, folder: Path
) -> None:
    path = key_file(folder)
    assert path.stat().st_mode & 0o777 == 0o600
    from_file = gamelog_json(keyed_server, "key", "show", "--db", str(folder / "games.sqlite"))
    from_server = gamelog_json(keyed_server, "key", "show", "--server", keyed_server.address)
    assert from_file == from_server
    assert from_file["key_id"] == load(path).current.key_id and from_file["retired"] == []


def test_audit_says_signed_unsigned_or_signature_invalid_for_each_chain(
    keyed_server: ServerProcess, folder: Path
) -> None:
    archive = exported_by_the_servers_key(folder)
    key_id = load(key_file(folder)).current.key_id
    status, signed = signatures_of(keyed_server, written(folder, "signed.json", archive))
    assert status == 0 and set(signed.values()) == {f"signed by {key_id}"}
    assert len(signed) == 1 + len(archive["games"])
    unsigned = {k: v for k, v in archive.items() if k != "signatures"}
    status, verdicts = signatures_of(keyed_server, written(folder, "unsigned.json", unsigned))
    assert status == 0 and set(verdicts.values()) == {"unsigned"}
    forged = json.loads(json.dumps(archive))
    forged["tournament"]["records"] = correction_inserted(forged["tournament"]["records"])
    status, verdicts = signatures_of(keyed_server, written(folder, "forged.json", forged))
    tournament = next(name for name in verdicts if name.startswith("tournament:"))
    assert status == 1 and verdicts[tournament] == "signature invalid"


def test_an_import_under_trust_takes_only_what_a_trusted_key_signed_even_after_a_rotation(
    keyed_server: ServerProcess, folder: Path
) -> None:
    archive = exported_by_the_servers_key(folder)
    signed = written(folder, "to-import.json", archive)
    unsigned = written(
        folder, "unsigned-import.json", {k: v for k, v in archive.items() if k != "signatures"}
    )
    before = len(gamelog_json(keyed_server, "list", "--limit", "500"))
    refused = gamelog(
        keyed_server, "import", unsigned, "--trust", str(key_file(folder)), check=False
    )
    assert refused.returncode == 1 and "unsigned" in refused.stderr
    assert len(gamelog_json(keyed_server, "list", "--limit", "500")) == before
    # The key is rotated: what the old key signed still imports under the key file.
    subprocess.run(
        [*GAMELOG, "key", "rotate", "--signing-key", str(key_file(folder))], check=True, timeout=60
    )
    assert len(load(key_file(folder)).retired) == 1
    done = gamelog_json(keyed_server, "import", signed, "--trust", str(key_file(folder)))
    assert len(done["id_map"]) == len(archive["games"])
    # A public key given alone is trusted too; a key that signed nothing here is not.
    old_public = load(key_file(folder)).retired[0]
    gamelog_json(keyed_server, "import", signed, "--trust", old_public)
    other = "ab" * 32
    refused = gamelog(keyed_server, "import", signed, "--trust", other, check=False)
    assert refused.returncode == 1 and "not signed by a trusted key" in refused.stderr


def test_a_game_played_to_its_end_through_the_server_exports_signed_by_its_key(
    keyed_server: ServerProcess, folder: Path
) -> None:
    """Moves over gRPC (decided on the server's event loop), the end signed
    there; the record file carries the signature, and a copy changed and
    sealed again says "signature invalid"."""
    [played] = gamelog_json(
        keyed_server, "selfplay", "three-too-many", "--players", "3", "--games", "1"
    )
    assert played["finished"]
    path = folder / "game.json"
    gamelog(keyed_server, "export", played["game_id"], "-o", str(path))
    key_id = gamelog_json(keyed_server, "key", "show", "--server", keyed_server.address)["key_id"]
    status, verdicts = signatures_of(keyed_server, str(path))
    assert status == 0 and set(verdicts.values()) == {f"signed by {key_id}"}
    changed = json.loads(path.read_text())
    records = changed["games"][0]["records"]
    records[-1]["time"] = "2099-12-31T23:59:59.999Z"  # a later end, sealed again
    changed["games"][0]["records"] = resealed(records)
    status, verdicts = signatures_of(keyed_server, written(folder, "changed.json", changed))
    assert status == 1 and set(verdicts.values()) == {"signature invalid"}
    refused = gamelog(keyed_server, "import", str(folder / "changed.json"), check=False)
    assert refused.returncode == 1 and "signature invalid" in refused.stderr
