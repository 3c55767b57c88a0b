"""``gamelog export`` and ``import``: portable record files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from gamelog.cli.client import Client
from gamelog.cli.common import (
    client_options,
    emit,
    token_option,
)
from gamelog.cli.tournament_client import TournamentClient
from gamelog.replay.tournament_archive import FORMAT as TOURNAMENT_ARCHIVE


@click.command()
@client_options
@click.argument("game_id")
@token_option()
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@click.option("--redacted", is_flag=True, help="a spectator-safe copy")
@click.option(
    "--format",
    "file_format",
    type=click.Choice(["json", "text"]),
    default="json",
    show_default=True,
    help="json: the record file (imports); text: for reading and posting, like PGN",
)
def export(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    output: str,
    redacted: bool,
    file_format: str,
) -> None:
    """Write a game and its branches to one portable record file (or, with
    --format text, the game in its notation for people to read)."""
    with Client(server, ca) as client:
        if file_format == "text":
            Path(output).write_text(client.export_text(game_id, token, redacted), "utf-8")
            if as_json:
                emit({"file": output, "format": "text"})
            else:
                click.echo(f"wrote {output}: the game as text")
            return
        data = client.export(game_id, token, redacted)
    Path(output).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
    left_out = data.get("left_out", [])
    summary = {
        "file": output,
        "games": len(data["games"]),
        "redacted": data["redacted"],
        "left_out": left_out,
    }
    if as_json:
        emit(summary)
        return
    click.echo(f"wrote {output}: {summary['games']} game(s)")
    if data["redacted"]:
        click.echo(
            "note: this copy is redacted: hidden parts (other seats' cards, sealed choices) "
            "are cut out for you, so it audits for its hash chain only and will not "
            "import. The arbiter's token exports a running game whole; a finished game "
            "is public and exports whole for anyone.",
            err=True,
        )
    for branch in left_out:
        click.echo(f"left out branch {branch['game_id']}: {branch['reason']}", err=True)


@click.command("import")
@client_options
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@token_option()
@click.option(
    "--trust",
    multiple=True,
    metavar="KEY",
    help="import only what this key signed: a public key, a server's key file, or a "
    "file of public keys (repeat for several); anything else is refused whole",
)
def import_(
    server: str, ca: str | None, as_json: bool, file: str, token: str | None, trust: tuple[str, ...]
) -> None:
    """Re-validate a record file (or a tournament archive) and store all its
    games, or none.

    A file holding only branches of a game already in this store (not the game
    itself) needs that game's arbiter token (--token). A tournament archive
    (from ``gamelog tournament export -o``) is audited whole (the tournament,
    every table's game, the results against the games) and stored as a new
    tournament: a new id here (its records go on naming the archive's), a new
    director's token and new player tokens.

    With --trust, every game and tournament in the file must be signed by
    one of the keys given, or nothing is sent to the server; a signature
    that does not verify is refused with or without it."""
    content = json.loads(Path(file).read_text())
    if trust:
        _check_trusted(content, trust)
    if isinstance(content, dict) and content.get("format") == TOURNAMENT_ARCHIVE:
        _import_tournament(server, ca, as_json, content)
        return
    with Client(server, ca) as client:
        response = client.import_file(content, token)
    data: dict[str, Any] = {
        "id_map": dict(response.id_map),
        "games": [
            {
                "game_id": g.game_id,
                "seat_tokens": dict(g.seat_tokens),
                "arbiter_token": g.arbiter_token,
            }
            for g in response.games
        ],
    }
    data["already_stored"] = {
        old: copies.split(",") for old, copies in response.already_stored.items()
    }
    if as_json:
        emit(data)
        return
    for old, new_id in data["id_map"].items():
        click.echo(f"{old} → {new_id}")
    for old, copies in data["already_stored"].items():
        click.echo(
            f"note: game {old} was already stored here as {', '.join(copies)}; "
            "this import made another copy",
            err=True,
        )


def _import_tournament(server: str, ca: str | None, as_json: bool, data: Any) -> None:
    with TournamentClient(server, ca) as client:
        response = client.import_tournament(data)
    # The archive's id: the one its records and tables' tags name (its origin).
    origin = response.origin_id
    imported = {
        "tournament_id": response.tournament_id,
        "origin_id": origin,
        "director_token": response.director_token,
        "player_tokens": dict(response.player_tokens),
        "id_map": dict(response.id_map),
        "already_stored": list(response.already_stored),
    }
    if as_json:
        emit(imported)
        return
    click.echo(
        f"tournament {response.tournament_id} (the archive's {origin}, which its records "
        f"name): {len(response.id_map)} game(s) imported"
    )
    if response.already_stored:
        click.echo(
            f"note: this archive was already imported here as "
            f"{', '.join(response.already_stored)}; this is one more copy"
        )
    click.echo(f"director token (keep it secret): {response.director_token}")
    for player, player_token in sorted(response.player_tokens.items()):
        click.echo(f"{player}\t{player_token}")


def _check_trusted(content: Any, trust: tuple[str, ...]) -> None:
    """Refuse, before anything reaches the server, a file with a game or a
    tournament no trusted key signed."""
    from gamelog.cli.keys import trusted_keys
    from gamelog.replay.export import (
        RecordFileError,
        file_signatures,
        game_verdicts,
        parse_record_file,
    )
    from gamelog.replay.tournament_archive import parse_archive, untrusted

    keys = trusted_keys(trust)
    try:
        if isinstance(content, dict) and content.get("format") == TOURNAMENT_ARCHIVE:
            refused = untrusted(parse_archive(content), keys)
        else:
            block = file_signatures(content if isinstance(content, dict) else {})
            refused = [
                (name, verdict)
                for name, verdict in game_verdicts(parse_record_file(content), block)
                if not any(block.keys.get(k) in keys for k in verdict.signed_by)
            ]
    except RecordFileError as error:
        raise click.ClickException(str(error)) from None
    if refused:
        lines = [f"{name}: {verdict.text}" for name, verdict in refused]
        raise click.ClickException(
            "not signed by a trusted key, nothing imported:\n  "
            + "\n  ".join(lines[:20])
            + (f"\n  … and {len(lines) - 20} more" if len(lines) > 20 else "")
        )
