"""What every ``gamelog`` command shares: options, output, how records and tables print."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from rich.console import Console

from gamelog.cli.client import loads
from gamelog.games.wording import and_list, places


# Piped output (scripts, logs, tests) gets room for whole tables rather than
# rich's 80 columns and cut cells.
class _Console:
    """Where tables and boards are printed: rich's console, made (and rich
    imported) on first use, so a command that prints none never pays for it."""

    @functools.cached_property
    def rich(self) -> Console:
        from rich.console import Console

        return Console(width=None if sys.stdout.isatty() else 200)

    def print(self, *objects: Any, **options: Any) -> None:
        self.rich.print(*objects, **options)


console = _Console()


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
    seat_tokens = tokens_in_seat_order(created)
    if as_json:
        emit(
            {
                "game_id": created.game_id,
                "seat_tokens": seat_tokens,
                "arbiter_token": created.arbiter_token,
                "seed_commitment": created.seed_commitment,
            }
        )
        return
    console.print(title)
    from rich.table import Table

    table = Table("seat", "token (keep it secret)")
    for seat, token in seat_tokens.items():
        table.add_row(seat, token)
    table.add_row("arbiter", created.arbiter_token)
    console.print(table)
    console.print(f"seed commitment: {created.seed_commitment}")


def tokens_in_seat_order(created: Any) -> dict[str, str]:
    """A new game's seat tokens in seat order, as its creation record lists
    the seats (the answer's token map has no order of its own)."""
    seats = json.loads(created.record_json or "{}").get("seats") or []
    tokens = dict(created.seat_tokens)
    ordered = [seat for seat in seats if seat in tokens]
    return {seat: tokens[seat] for seat in ordered + sorted(set(tokens) - set(ordered))}


def parse_move(text: str) -> Any:
    """A move as JSON; a bare number is shorthand for {"card": N}."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise click.BadParameter(f"not JSON: {text}") from None
    if isinstance(value, int) and not isinstance(value, bool):
        return {"card": value}
    return value


def output_state(state: Any, as_json: bool, last_move: str = "") -> None:
    if as_json:
        emit(state_json(state))
    else:
        print_state(state, last_move)


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
        "tags": dict(state.tags),
        "clocks": clocks_json(state),
    }


def clocks_json(state: Any) -> dict[str, Any] | None:
    """A timed game's clocks (None for an untimed one)."""
    if not state.time_control:
        return None
    return {
        "time_control": state.time_control,
        "remaining_ms": dict(state.clock_remaining_ms),
        "running": list(state.clock_running),
        "out_of_time": list(state.out_of_time),
    }


def clock_words(state: Any) -> str:
    """``clocks (300+5): ann 4:12.3 (running), ben 5:00.0``."""

    def shown(ms: int) -> str:
        minutes, rest = divmod(ms, 60_000)
        return f"{minutes}:{rest / 1000:04.1f}"

    parts = []
    for seat, ms in sorted(state.clock_remaining_ms.items()):
        note = " (running)" if seat in state.clock_running else ""
        note = " (out of time)" if seat in state.out_of_time else note
        parts.append(f"{seat} {shown(ms)}{note}")
    return f"clocks ({state.time_control}): " + ", ".join(parts)


def print_state(state: Any, last_move: str = "") -> None:
    """The board as the game draws it, with who is to act or the result,
    the game's tags, the move that led here, and a take-back request waiting."""
    who = state.viewer or "spectator"
    console.print(
        f"[bold]{state.game}[/bold] {state.game_id}  position {state.position}"
        f"/{state.last_position}  ply {state.ply}  as {who}",
        highlight=False,
    )
    if state.tags:
        tags = "  ".join(f"{k}: {v}" for k, v in sorted(state.tags.items()))
        console.print(tags, markup=False, highlight=False)
    if last_move:
        console.print(f"last: {last_move}", markup=False, highlight=False)
    if state.time_control:
        console.print(clock_words(state), markup=False, highlight=False)
    console.print(state.text, markup=False, highlight=False)
    if state.finished:
        print_result(loads(state.result_json))
    else:
        console.print(f"to act: {', '.join(state.to_act) or '-'}", highlight=False)
    if state.pending_undo_json:
        console.print(pending_undo_words(loads(state.pending_undo_json)), highlight=False)


def print_result(result: dict[str, Any]) -> None:
    """Places in standard competition ranking: a tie shares a place, the next
    place skips (1, 1, 3)."""
    from rich.table import Table

    table = Table("place", "seat", "score")
    for place, seats in places(result["ranking"]):
        for seat in seats:
            table.add_row(str(place), seat, str(result["scores"][seat]))
    console.print(table)


def pending_undo_words(request: dict[str, Any]) -> str:
    """``ann asks to go back to position 12; approved by ben``."""
    words = f"take-back request waiting: {request['seat']} asks to go back to position "
    words += str(request["to_position"])
    approved = request.get("approved") or []
    return words + (f"; approved by {and_list(approved)}" if approved else "; no answers yet")


def log_line(record: dict[str, Any], notation: str) -> str:
    """One stored record as a numbered line in the game's notation."""
    return f"{record['position']:>5}  {notation}"
