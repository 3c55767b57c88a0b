"""``gamelog audit``: proving stored games and record files."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from gamelog.cli.client import ApiError, Client
from gamelog.cli.common import (
    client_options,
    console,
    emit,
    token_option,
)


@click.command()
@client_options
@click.argument("targets", nargs=-1, required=True)
@token_option()
def audit(
    server: str, ca: str | None, as_json: bool, targets: tuple[str, ...], token: str | None
) -> None:
    """Audit games (ids, on the server), record files or tournament archives
    (checked locally).

    Exits non-zero when any audit fails. A running game's arbiter token shows
    what was stored and what the rules give at a difference. For each game
    and tournament of a file, says whether it is "signed by" a key (its id;
    compare it with the server's, ``gamelog key show``), "unsigned", or its
    "signature invalid" (changed after it was signed: the audit fails)."""
    from gamelog.replay.audit import audit_entries
    from gamelog.replay.export import (
        RecordFileError,
        file_signatures,
        game_verdicts,
        parse_record_file,
    )
    from gamelog.replay.tournament_archive import FORMAT as ARCHIVE
    from gamelog.replay.tournament_archive import audit_archive, parse_archive

    reports: list[dict[str, Any]] = []
    # A channel connects on its first call: files alone never reach the server.
    with (
        Client(server, ca) as client,
        Progress(console=Console(stderr=True), disable=as_json or not sys.stderr.isatty()) as bar,
    ):
        task = bar.add_task("auditing", total=len(targets))
        for target in targets:
            if Path(target).is_file():
                try:
                    content = json.loads(Path(target).read_text())
                    if isinstance(content, dict) and content.get("format") == ARCHIVE:
                        archive = parse_archive(content)
                    else:
                        entries = parse_record_file(content)
                        signed = dict(game_verdicts(entries, file_signatures(content)))
                        archive = None
                except (RecordFileError, ValueError) as error:
                    reports.append({"target": target, "ok": False, "problem": str(error)})
                    bar.advance(task)
                    continue
                if archive is not None:
                    for name, report, verdict in audit_archive(archive):
                        reports.append(
                            {
                                "target": f"{target}#{name.replace(' ', ':', 1)}",
                                **report.to_json(),
                                "ok": report.ok and not verdict.invalid,
                                "signature": verdict.text,
                            }
                        )
                else:
                    for entry, report in audit_entries(entries):
                        verdict = signed[f"game {entry.game_id}"]
                        reports.append(
                            {
                                "target": f"{target}#{entry.game_id}",
                                **report.to_json(),
                                "ok": report.ok and not verdict.invalid,
                                "signature": verdict.text,
                            }
                        )
            else:
                try:
                    response = client.audit(target, token)
                    reports.append({"target": target, **json.loads(response.report_json)})
                except ApiError as error:
                    reports.append({"target": target, "ok": False, "problem": str(error)})
            bar.advance(task)
    failed = [r for r in reports if not r["ok"]]
    if as_json:
        emit(reports)
    else:
        table = Table("target", "ok", "positions", "seed checked", "signature", "first difference")
        for r in reports:
            first = r.get("first_difference") or {}
            problem = (
                f"position {first['position']}: {first['problem']}"
                if first
                else r.get("problem", "")
            )
            table.add_row(
                r["target"],
                "yes" if r["ok"] else "[red]NO[/red]",
                str(r.get("positions_checked", "")),
                "yes" if r.get("seed_checked") else "deferred",
                r.get("signature", ""),
                problem,
            )
        console.print(table)
    sys.exit(1 if failed else 0)
