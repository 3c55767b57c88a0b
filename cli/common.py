"""What every ``gamelog`` command shares: options, output, how records and tables print."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from gamelog.cli.client import loads

console = Console()
F = TypeVar("F", bound=Callable[..., Any])


def emit(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def client_options(command: F) -> F:
    command = click.option(
        "--server",
        envvar="GAMELOG_SERVER",
        default="localhost:50051",
        show_default=True,
        help="host:port of a gamelog server",
    )(command)
    command = click.option(
        "--ca",
        type=click.Path(exists=True, dir_okay=False),
        help="CA certificate (PEM) to reach a TLS server",
    )(command)
    command = click.option("--json", "as_json", is_flag=True, help="machine-readable output")(
        command
    )
    return command


def token_option(required: bool = False) -> Callable[[F], F]:
    return click.option(  # type: ignore[return-value]
        "--token",
        envvar="GAMELOG_TOKEN",
        required=required,
        help="a seat's or the arbiter's token (none: spectator)",
    )


def print_created(created: Any, title: str, as_json: bool) -> None:
    """A new game's id and its tokens: shown once, never stored in the clear."""
    if as_json:
        emit(
            {
                "game_id": created.game_id,
                "seat_tokens": dict(created.seat_tokens),
                "arbiter_token": created.arbiter_token,
                "seed_commitment": created.seed_commitment,
            }
        )
        return
    console.print(title)
    table = Table("seat", "token (keep it secret)")
    for seat, token in created.seat_tokens.items():
        table.add_row(seat, token)
    table.add_row("arbiter", created.arbiter_token)
    console.print(table)
    console.print(f"seed commitment: {created.seed_commitment}")


def parse_move(text: str) -> Any:
    """A move as JSON; a bare number is shorthand for {"card": N}."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise click.BadParameter(f"not JSON: {text}") from None
    if isinstance(value, int) and not isinstance(value, bool):
        return {"card": value}
    return value


def output_state(state: Any, as_json: bool) -> None:
    if as_json:
        emit(state_json(state))
    else:
        print_state(state)


def state_json(state: Any) -> dict[str, Any]:
    return {
        "game_id": state.game_id,
        "game": state.game,
        "position": state.position,
        "last_position": state.last_position,
        "ply": state.ply,
        "viewer": state.viewer or None,
        "to_act": list(state.to_act),
        "finished": state.finished,
        "result": loads(state.result_json),
        "view": loads(state.view_json),
        "pending_undo": loads(state.pending_undo_json),
    }


def print_state(state: Any) -> None:
    who = state.viewer or "spectator"
    console.print(
        f"[bold]{state.game}[/bold] {state.game_id}  position {state.position}"
        f"/{state.last_position}  ply {state.ply}  as {who}"
    )
    console.print(state.text, markup=False, highlight=False)
    if state.finished:
        result = loads(state.result_json)
        table = Table("place", "seat", "score")
        for place, seats in enumerate(result["ranking"], start=1):
            for seat in seats:
                table.add_row(str(place), seat, str(result["scores"][seat]))
        console.print(table)
        view = loads(state.view_json) or {}
        sheet = view.get("score_sheet") if isinstance(view, dict) else None
        if sheet:
            print_score_sheet(sheet)
    else:
        console.print(f"to act: {', '.join(state.to_act) or '-'}")
    if state.pending_undo_json:
        console.print(f"take-back request waiting: {state.pending_undo_json}")


def print_score_sheet(sheet: Any) -> None:
    """A game's score sheet as a table: rows of categories, a column per seat.

    Games give it as ``{"columns": [seats], "rows": [{"label", "scores": {seat:
    points}}, ...]}``, with rows as plain lists ``[label, v1, v2, ...]``, or as
    ``{category: {seat: points}}``."""
    if not isinstance(sheet, dict):
        return
    if "rows" in sheet and "columns" in sheet:
        columns = [str(c) for c in sheet["columns"]]
        table = Table("", *columns, title="score sheet")
        for row in sheet["rows"]:
            if isinstance(row, dict):
                label = str(row.get("label") or row.get("category", ""))
                scores = row.get("scores", {})
                table.add_row(label, *[str(scores.get(c, "")) for c in columns])
            else:
                table.add_row(*[str(v) for v in row])
        console.print(table)
        return
    seats = sorted({s for values in sheet.values() if isinstance(values, dict) for s in values})
    table = Table("", *seats, title="score sheet")
    for category, values in sheet.items():
        if isinstance(values, dict):
            table.add_row(str(category), *[str(values.get(s, "")) for s in seats])
    console.print(table)


def describe_record(record: dict[str, Any]) -> str:
    kind = record["kind"]
    head = f"{record['position']:>5}  {kind:<12}"
    if kind == "move":
        move = "(hidden)" if record.get("move") is None else json.dumps(record["move"])
        events = ", ".join(e.get("type", "?") for e in record.get("events", []))
        return f"{head} {record['seat']}: {move}  → {events}"
    if kind == "created":
        return (
            f"{head} {record['game']} {record['rules_version']} seats {','.join(record['seats'])}"
        )
    if kind == "finished":
        return f"{head} result {json.dumps(record['result'].get('scores'))}  seed {record['seed']}"
    if kind == "takeback":
        return f"{head} back to {record['to_position']} by {record['by']}"
    return f"{head} {record.get('seat', '')} → {record.get('to_position', '')}"
