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
    """Audit games (ids, on the server) or record files (checked locally).

    Exits non-zero when any audit fails. A running game's arbiter token shows
    what was stored and what the rules give at a difference."""
    from gamelog.replay.audit import audit_entries
    from gamelog.replay.export import RecordFileError, parse_record_file

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
                    entries = parse_record_file(json.loads(Path(target).read_text()))
                except (RecordFileError, ValueError) as error:
                    reports.append({"target": target, "ok": False, "problem": str(error)})
                    bar.advance(task)
                    continue
                for entry, report in audit_entries(entries):
                    reports.append({"target": f"{target}#{entry.game_id}", **report.to_json()})
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
        table = Table("target", "ok", "positions", "seed checked", "first difference")
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
                problem,
            )
        console.print(table)
    sys.exit(1 if failed else 0)
