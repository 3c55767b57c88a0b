"""The ``gamelog`` command.

``gamelog serve`` runs the service; every other command talks to a server
given by ``--server HOST:PORT`` (default localhost:50051, or $GAMELOG_SERVER).
Every command takes ``--json`` for machine-readable output; otherwise it
prints a table or the board. Tokens come from ``--token`` or $GAMELOG_TOKEN.

    gamelog serve --db games.sqlite --port 50051
    gamelog new three-too-many --players ann,ben,cy
    gamelog play GAME_ID '{"card": 42}' --token T
    gamelog show GAME_ID --at 12
    gamelog selfplay three-too-many --players 4 --games 20 --json

A refused call exits with status 1 and prints the status code, the
machine-readable reason and the message.
"""

from __future__ import annotations

import json
import logging
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from gamelog.cli.client import ApiError, Client, loads
from gamelog.games.protocol import ARBITER

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


class ApiGroup(click.Group):
    """Turns a refused call into a clear message and exit status 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ApiError as error:
            click.echo(f"error: {error}", err=True)
            ctx.exit(1)


@click.group(cls=ApiGroup)
@click.version_option(package_name="gamelog")
def main() -> None:
    """gamelog: the complete, tamper-evident record of board games."""


# -- the service ---------------------------------------------------------------------


@main.command()
@click.option("--db", type=click.Path(dir_okay=False), help="SQLite file (default gamelog.sqlite)")
@click.option("--postgres", metavar="DSN", help="store in PostgreSQL instead of SQLite")
@click.option("--memory", is_flag=True, help="keep nothing: an in-memory store (for trials)")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=50051, show_default=True, type=int, help="0 picks a free port")
@click.option("--tls-cert", type=click.Path(exists=True, dir_okay=False))
@click.option("--tls-key", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--workers",
    default=64,
    show_default=True,
    type=int,
    help="threads; follow streams may hold up to three quarters of them",
)
def serve(
    db: str | None,
    postgres: str | None,
    memory: bool,
    host: str,
    port: int,
    tls_cert: str | None,
    tls_key: str | None,
    workers: int,
) -> None:
    """Run the gamelog gRPC service (SQLite file by default)."""
    from gamelog.service.server import serve_forever, start_server, store_env

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    if bool(tls_cert) != bool(tls_key):
        raise click.UsageError("--tls-cert and --tls-key go together")
    env = store_env(db=db, postgres=postgres, memory=memory)
    running = start_server(
        env, port=port, host=host, tls_cert=tls_cert, tls_key=tls_key, workers=workers
    )
    store = env.get("PERSISTENCE_MODULE", "environment").rsplit(".", 1)[-1]
    where = env.get("SQLITE_DBNAME") or env.get("POSTGRES_DBNAME") or ""
    serve_forever(
        running,
        f"gamelog serving on {host}:{running.port} ({store} {where}".rstrip() + ")",
    )


# -- games and records ----------------------------------------------------------------


@main.command()
@client_options
def games(server: str, ca: str | None, as_json: bool) -> None:
    """List the games this server knows."""
    with Client(server, ca) as client:
        types = client.game_types()
    if as_json:
        emit(
            [
                {
                    "name": t.name,
                    "title": t.title,
                    "rules_version": t.rules_version,
                    "min_players": t.min_players,
                    "max_players": t.max_players,
                    "default_component_set": t.default_component_set,
                }
                for t in types
            ]
        )
        return
    table = Table("game", "title", "rules", "players", "component set")
    for t in types:
        table.add_row(
            t.name,
            t.title,
            t.rules_version,
            f"{t.min_players}–{t.max_players}",
            t.default_component_set,
        )
    console.print(table)


@main.command("list")
@client_options
@click.option("--limit", default=100, show_default=True)
def list_games(server: str, ca: str | None, as_json: bool, limit: int) -> None:
    """List the stored games."""
    with Client(server, ca) as client:
        summaries = client.games(limit)
    rows = [
        {
            "game_id": s.game_id,
            "game": s.game,
            "seats": list(s.seats),
            "finished": s.finished,
            "created_at": s.created_at,
            "parent": loads(s.parent_json),
            "metadata": dict(s.metadata),
        }
        for s in summaries
    ]
    if as_json:
        emit(rows)
        return
    table = Table("game id", "game", "seats", "finished", "created", "parent")
    for row in rows:
        parent = row["parent"]
        table.add_row(
            row["game_id"],
            row["game"],
            ",".join(row["seats"]),
            "yes" if row["finished"] else "no",
            row["created_at"][:19],
            f"{parent['game_id'][:8]}@{parent['position']}" if parent else "",
        )
    console.print(table)


@main.command()
@client_options
@click.argument("game")
@click.option("--players", required=True, help="seat names, comma-separated: ann,ben,cy")
@click.option("--seed", type=int, help="a fixed seed (reproducible; you then know every draw)")
@click.option(
    "--deal",
    "deal_file",
    type=click.Path(exists=True, dir_okay=False),
    help="JSON file with an explicit deal (format per game, see its docs)",
)
@click.option("--options", "options_json", help="game options as a JSON object")
@click.option(
    "--undo",
    "undo_policy",
    default="none",
    show_default=True,
    type=click.Choice(["none", "consent", "arbiter", "free"]),
)
@click.option(
    "--tag",
    "tags",
    multiple=True,
    metavar="KEY=VALUE",
    help="a tag pair for the record: Event=..., Round=..., Table=...",
)
def new(
    server: str,
    ca: str | None,
    as_json: bool,
    game: str,
    players: str,
    seed: int | None,
    deal_file: str | None,
    options_json: str | None,
    undo_policy: str,
    tags: tuple[str, ...],
) -> None:
    """Create a game: prints its id and one secret token per seat."""
    options: dict[str, Any] = json.loads(options_json) if options_json else {}
    if deal_file:
        options["deal"] = json.loads(Path(deal_file).read_text())
    metadata = dict(tag.split("=", 1) for tag in tags if "=" in tag)
    seed_hex = seed.to_bytes(8, "big", signed=False).hex() if seed is not None else ""
    with Client(server, ca) as client:
        created = client.create(
            game,
            [p.strip() for p in players.split(",") if p.strip()],
            options,
            undo_policy,
            metadata,
            seed_hex,
        )
    print_created(created, f"game [bold]{created.game_id}[/bold] ({game})", as_json)


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


@main.command()
@client_options
@click.argument("game_id")
@click.argument("move")
@token_option(required=True)
@click.option("--at", "at_position", type=int, help="the position you saw (default: latest)")
@click.option("--request-id", default="", help="idempotency key: a retry returns the first result")
def play(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    move: str,
    token: str,
    at_position: int | None,
    request_id: str,
) -> None:
    """Play MOVE (JSON) in a game."""
    with Client(server, ca) as client:
        if at_position is None:
            at_position = client.state(game_id, token).last_position
        played = client.play(game_id, parse_move(move), at_position, token, request_id)
    records = [json.loads(r.record_json) for r in played.records]
    if as_json:
        emit({"position": played.position, "replayed": played.replayed, "records": records})
        return
    for record in records:
        console.print(describe_record(record))


@main.command()
@client_options
@click.argument("game_id")
@token_option()
@click.option("--at", "at_position", type=int, help="an earlier position (default: latest)")
@click.option(
    "--svg",
    "svg_file",
    type=click.Path(dir_okay=False),
    help="also write a picture of the table (games that draw one)",
)
def show(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    at_position: int | None,
    svg_file: str | None,
) -> None:
    """Show a game's table at the latest or any earlier position."""
    with Client(server, ca) as client:
        state = client.state(game_id, token, at_position, picture=bool(svg_file))
    if svg_file:
        Path(svg_file).write_text(state.svg, encoding="utf-8")
    output_state(state, as_json)


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


@main.command()
@client_options
@click.argument("game_id")
@token_option(required=True)
def moves(server: str, ca: str | None, as_json: bool, game_id: str, token: str) -> None:
    """List your seat's legal moves now."""
    with Client(server, ca) as client:
        legal = client.legal_moves(game_id, token)
    if as_json:
        emit(legal)
        return
    for move in legal:
        click.echo(json.dumps(move))


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


@main.command("log")
@client_options
@click.argument("game_id")
@token_option()
@click.option("--from", "from_position", default=0, type=int)
def log_(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    from_position: int,
) -> None:
    """Print a game's stored records (redacted for you)."""
    with Client(server, ca) as client:
        records = client.records(game_id, token, from_position)
    if as_json:
        emit(records)
        return
    for record in records:
        click.echo(describe_record(record))


@main.command()
@client_options
@click.argument("game")
@click.option("--players", "player_count", required=True, type=int)
@click.option("--games", "game_count", default=1, show_default=True, type=int)
@click.option(
    "--seed", default=0, show_default=True, type=int, help="seeds the random players and the deals"
)
@click.option("--max-moves", default=20_000, show_default=True, type=int)
def selfplay(
    server: str,
    ca: str | None,
    as_json: bool,
    game: str,
    player_count: int,
    game_count: int,
    seed: int,
    max_moves: int,
) -> None:
    """Play random legal games through the server, every move chosen from its legal moves."""
    chooser = random.Random(seed)
    seats = [f"p{i + 1}" for i in range(player_count)]
    results = []
    with (
        Client(server, ca) as client,
        Progress(console=Console(stderr=True), disable=as_json or not sys.stderr.isatty()) as bar,
    ):
        task = bar.add_task(f"{game} self-play", total=game_count)
        for index in range(game_count):
            seed_hex = (seed * 100_003 + index).to_bytes(8, "big").hex()
            created = client.create(game, seats, seed_hex=seed_hex)
            started = time.perf_counter()
            outcome = play_randomly(client, created, chooser, max_moves)
            outcome["seconds"] = round(time.perf_counter() - started, 3)
            results.append(outcome)
            bar.advance(task)
    if as_json:
        emit(results)
        return
    table = Table("game id", "moves", "finished", "winners", "scores")
    for r in results:
        result = r["result"] or {}
        table.add_row(
            r["game_id"],
            str(r["moves"]),
            "yes" if r["finished"] else "no",
            ",".join(result.get("winners", [])),
            json.dumps(result.get("scores", {})),
        )
    console.print(table)


def play_randomly(
    client: Client, created: Any, chooser: random.Random, max_moves: int
) -> dict[str, Any]:
    """Drive one game to its end with random legal moves, seat by seat."""
    game_id = created.game_id
    tokens = dict(created.seat_tokens)
    arbiter = created.arbiter_token
    moves_played = 0
    state = client.state(game_id, arbiter)
    while not state.finished and moves_played < max_moves:
        seats = [s for s in state.to_act if s in tokens] or list(state.to_act)
        if not seats:
            break
        seat = chooser.choice(seats)
        token = tokens.get(seat, arbiter)
        legal = client.legal_moves(game_id, token)
        if not legal:
            raise click.ClickException(f"{seat} is to act but has no legal move in {game_id}")
        try:
            client.play(game_id, chooser.choice(legal), state.last_position, token)
            moves_played += 1
        except ApiError as error:
            if error.code != "ABORTED":
                raise
        state = client.state(game_id, arbiter)
    if not state.finished and ARBITER in state.to_act:
        # A game only the arbiter ends (freeform): enter a result at the limit.
        result = client.legal_moves(game_id, arbiter)[0]
        client.play(game_id, result, state.last_position, arbiter)
        state = client.state(game_id, arbiter)
    return {
        "game_id": game_id,
        "moves": moves_played,
        "finished": state.finished,
        "result": loads(state.result_json),
    }


# -- tools over recorded games --------------------------------------------------------


@main.command()
@client_options
@click.argument("game_id")
@token_option()
@click.option("--at", "at_position", type=int, help="print this one position and stop")
def replay(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    at_position: int | None,
) -> None:
    """Step through a game: n(ext), p(revious), j N (jump), q(uit)."""
    with Client(server, ca) as client:
        if at_position is not None:
            output_state(client.state(game_id, token, at_position), as_json)
            return
        position = 0
        last = client.state(game_id, token).last_position
        while True:
            output_state(client.state(game_id, token, position), as_json)
            try:
                answer = click.prompt(
                    f"[{position}/{last}] n/p/j N/q", default="n", show_default=False
                ).strip()
            except (click.Abort, EOFError):
                return
            if answer in ("q", "quit"):
                return
            if answer in ("n", "next", ""):
                position = min(position + 1, last)
            elif answer in ("p", "prev", "previous"):
                position = max(position - 1, 0)
            elif answer.startswith("j"):
                try:
                    position = max(0, min(int(answer[1:].strip()), last))
                except ValueError:
                    click.echo("jump: j N")


@main.command()
@client_options
@click.argument("game_id")
@click.argument("action", type=click.Choice(["request", "approve", "decline"]))
@token_option(required=True)
@click.option("--to", "to_position", type=int, default=0, help="the position to go back to")
def undo(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    action: str,
    token: str,
    to_position: int,
) -> None:
    """Take moves back to --to N (request; approve or decline a request)."""
    with Client(server, ca) as client:
        at = client.state(game_id, token).last_position
        outcome = client.take_back(game_id, action, to_position, at, token)
    records = [json.loads(r.record_json) for r in outcome.records]
    if as_json:
        emit({"position": outcome.position, "taken_back": outcome.taken_back, "records": records})
        return
    for record in records:
        click.echo(describe_record(record))
    click.echo("moves taken back" if outcome.taken_back else "request stored")


@main.command()
@client_options
@click.argument("game_id")
@click.option("--at", "at_position", type=int, required=True)
@token_option()
@click.option("--keep-seed", is_flag=True, help="finished games: see the same draws")
def fork(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    at_position: int,
    token: str | None,
    keep_seed: bool,
) -> None:
    """Fork a new game from a position of another."""
    with Client(server, ca) as client:
        created = client.fork(game_id, at_position, token, keep_seed)
    print_created(
        created, f"fork [bold]{created.game_id}[/bold] of {game_id} at {at_position}", as_json
    )


@main.command()
@client_options
@click.argument("game_id")
def tree(server: str, ca: str | None, as_json: bool, game_id: str) -> None:
    """Show the tree of branches a game belongs to."""
    with Client(server, ca) as client:
        response = client.tree(game_id)
    nodes = [
        {
            "game_id": n.game_id,
            "parent": n.parent_game_id or None,
            "parent_position": n.parent_position,
            "last_position": n.last_position,
            "finished": n.finished,
        }
        for n in response.nodes
    ]
    if as_json:
        emit({"root": response.root_game_id, "nodes": nodes})
        return
    depth: dict[str, int] = {}
    for node in nodes:
        level = depth.get(node["parent"], -1) + 1 if node["parent"] else 0
        depth[node["game_id"]] = level
        at = f" @ {node['parent_position']}" if node["parent"] else ""
        done = " finished" if node["finished"] else ""
        click.echo(f"{'  ' * level}{node['game_id']}{at} ({node['last_position']} positions){done}")


@main.command()
@client_options
@click.argument("game_id")
@click.argument("other_game_id")
@token_option()
def diff(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    other_game_id: str,
    token: str | None,
) -> None:
    """Compare two lines of play to the first difference."""
    with Client(server, ca) as client:
        result = client.diff(game_id, other_game_id, token)
    if as_json:
        emit(
            {
                "common_plies": result.common_plies,
                "identical": result.identical,
                "description": result.description,
            }
        )
        return
    click.echo(result.description)


@main.command()
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


@main.command()
@client_options
@click.argument("game_id")
@token_option()
@click.option("--from", "from_position", default=0, type=int)
def follow(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    from_position: int,
) -> None:
    """Print a game's records as they are stored, until it ends."""
    with Client(server, ca) as client:
        for record in client.follow(game_id, token, from_position):
            if as_json:
                click.echo(json.dumps(record, ensure_ascii=False))
            else:
                click.echo(describe_record(record))
            sys.stdout.flush()


@main.command()
@client_options
@click.argument("game_id")
@token_option()
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False))
@click.option("--redacted", is_flag=True, help="a spectator-safe copy")
def export(
    server: str,
    ca: str | None,
    as_json: bool,
    game_id: str,
    token: str | None,
    output: str,
    redacted: bool,
) -> None:
    """Write a game and its branches to one portable record file."""
    with Client(server, ca) as client:
        data = client.export(game_id, token, redacted)
    Path(output).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
    summary = {"file": output, "games": len(data["games"]), "redacted": data["redacted"]}
    if as_json:
        emit(summary)
    else:
        click.echo(f"wrote {output}: {summary['games']} game(s)")


@main.command("import")
@client_options
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
def import_(server: str, ca: str | None, as_json: bool, file: str) -> None:
    """Re-validate a record file and store its games (refused unless it audits clean)."""
    with Client(server, ca) as client:
        response = client.import_file(json.loads(Path(file).read_text()))
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
    if as_json:
        emit(data)
        return
    for old, new_id in data["id_map"].items():
        click.echo(f"{old} → {new_id}")


if __name__ == "__main__":
    main()
