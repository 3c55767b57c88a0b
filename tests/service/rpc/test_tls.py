"""TLS: ``gamelog serve --tls-cert --tls-key`` and clients that trust it (``--ca``).

The certificate is a throw-away self-signed one made by the ``openssl``
command line (the ``cryptography`` package is not installed here), naming
``localhost`` and ``127.0.0.1`` so clients can check the host they reach.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamelog.cli.client import ApiError, Client
from gamelog.cli.process import GAMELOG, ServerProcess, start_server_process
from gamelog.v1 import gamelog_pb2 as pb
from gamelog.v1 import gamelog_pb2_grpc as pb_grpc

pytestmark = [
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl"),
    pytest.mark.e2e,
]


def self_signed(folder: Path, name: str = "server") -> tuple[Path, Path]:
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Path]]:
    folder = tmp_path_factory.mktemp("tls")
    cert, key = self_signed(folder)
    running = start_server_process(
        folder,
        "--db",
        str(folder / "gamelog.sqlite"),
        "--tls-cert",
        str(cert),
        "--tls-key",
        str(key),
    )
    yield running, cert
    running.stop()


def port_of(server: ServerProcess) -> str:
    return str(server.address).rsplit(":", 1)[1]


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*GAMELOG, *args], capture_output=True, text=True, timeout=60)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def cli_json(*args: str) -> Any:
    return json.loads(cli(*args, "--json").stdout)


def test_the_cli_reaches_a_tls_server_with_its_ca(tls: tuple[ServerProcess, Path]) -> None:
    server, cert = tls
    for host in ("localhost", "127.0.0.1"):
        types = cli_json("games", "--server", f"{host}:{port_of(server)}", "--ca", str(cert))
        assert "three-too-many" in {t["name"] for t in types}


def test_health_answers_over_tls(tls: tuple[ServerProcess, Path]) -> None:
    server, cert = tls
    credentials = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
    with grpc.secure_channel(f"localhost:{port_of(server)}", credentials) as channel:
        response = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service="gamelog.v1.GameLog"), timeout=10
        )
    assert response.status == health_pb2.HealthCheckResponse.SERVING


def test_a_plaintext_client_is_refused(tls: tuple[ServerProcess, Path]) -> None:
    server, _ = tls
    with grpc.insecure_channel(server.address) as channel, pytest.raises(grpc.RpcError) as refused:
        pb_grpc.GameLogStub(channel).ListGameTypes(pb.ListGameTypesRequest(), timeout=10)
    assert refused.value.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
    with Client(server.address) as plain, pytest.raises(ApiError) as refused_too:
        plain.echo(b"hello")
    assert refused_too.value.code in ("UNAVAILABLE", "DEADLINE_EXCEEDED")
    # The CLI without --ca speaks plaintext: a clear error and exit status 1.
    done = cli("games", "--json", "--server", f"localhost:{port_of(server)}", check=False)
    assert done.returncode == 1 and "UNAVAILABLE" in done.stderr, done.stderr


def test_a_certificate_from_another_ca_is_not_trusted(
    tls: tuple[ServerProcess, Path], tmp_path: Path
) -> None:
    server, _ = tls
    stranger, _ = self_signed(tmp_path, "stranger")
    done = cli(
        "games",
        "--json",
        "--server",
        f"localhost:{port_of(server)}",
        "--ca",
        str(stranger),
        check=False,
    )
    assert done.returncode == 1 and "UNAVAILABLE" in done.stderr, done.stderr


def test_a_small_game_over_tls_through_the_cli(tls: tuple[ServerProcess, Path]) -> None:
    server, cert = tls
    reach = ["--server", f"localhost:{port_of(server)}", "--ca", str(cert)]
    created = cli_json("new", "three-too-many", "--players", "ann,ben", *reach)
    game_id, ann = created["game_id"], created["seat_tokens"]["ann"]
    assert set(created["seat_tokens"]) == {"ann", "ben"} and created["seed_commitment"]

    legal = cli_json("moves", game_id, "--token", ann, *reach)
    assert legal
    played = cli_json("play", game_id, json.dumps(legal[0]), "--token", ann, *reach)
    assert played["position"] == 1 and played["records"][0]["move"] == legal[0]

    shown = cli_json("show", game_id, *reach)
    assert shown["game_id"] == game_id and shown["last_position"] == 1
    assert shown["viewer"] is None and not shown["finished"]
    assert "ann" not in shown["to_act"]
    log = cli_json("log", game_id, *reach)
    assert [r["position"] for r in log] == [0, 1]
    assert log[1]["move"] is None, "a spectator does not see ann's card over TLS either"
    mine = cli_json("show", game_id, "--token", ann, *reach)
    assert mine["viewer"] == "ann"
