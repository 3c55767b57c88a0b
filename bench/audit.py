"""Case d: audit (full re-validation) of recorded three-too-many games.

The games are generated in-process: ``GameLog.create_game`` on an in-memory
(popo) store deals each game with a fixed seed, then a seeded random player
plays legal moves through the ``Game`` aggregate's own ``play`` command (the
rules' decide, the hash chain, the revealed seed at the end) with no store
round trip per move, so the records are exactly the ones the service stores.
Then every game's records go through
``replay.audit.audit_records`` (hash chain, seed commitment, deal, every move
re-decided, result) beside the baseline, a plain replay with
``replay.fold.fold`` of the same records.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.common import CaseResult, Row, Settings

GAME = "three-too-many"
SEATS = ("p1", "p2")


def recorded_games(count: int) -> list[list[dict[str, Any]]]:
    """The full records of ``count`` finished random games."""
    from gamelog.service.storage.copies import event_record
    from gamelog.service.usecases.application import GameLog

    app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    games = []
    try:
        for seed in range(count):
            chooser = random.Random(seed)
            created = app.games.create_game(GAME, list(SEATS), seed=seed.to_bytes(8, "big"))
            game: Any = app.store.repository.get(created.game_id)
            while not game.is_finished:
                seat = chooser.choice(game.rules.to_act(game.state))
                move = chooser.choice(game.rules.legal_moves(game.state, seat))
                game.play(seat, move, at_position=game.position)
            records = app.store.records(created.game_id)
            records.extend(event_record(event) for event in game.collect_events())
            games.append(records)
    finally:
        app.close()
    return games


def case_d(settings: Settings) -> CaseResult:
    from gamelog.games import get_rules
    from gamelog.replay.audit import audit_records
    from gamelog.replay.fold import fold

    result = CaseResult(
        "d",
        "audit of 1,000 three-too-many games",
        "plain replay (fold) of the same records",
    )
    count = settings.pick(1000, 30)
    t0 = time.perf_counter()
    games = recorded_games(count)
    generated = time.perf_counter() - t0
    records = sum(len(g) for g in games)
    events = sum(len(r.get("events", ())) for g in games for r in g)
    rules = get_rules(GAME)

    t0 = time.perf_counter()
    for game in games:
        for _ in fold(rules, game):
            pass
    fold_seconds = time.perf_counter() - t0

    t0 = time.perf_counter()
    failed = 0
    for game in games:
        report = audit_records(game)
        failed += not (report.ok and report.seed_checked)
    audit_seconds = time.perf_counter() - t0
    if failed:
        result.notes.append(f"{failed} games did NOT audit clean")

    audit_rate, fold_rate = records / audit_seconds, records / fold_seconds
    result.rows.append(
        Row(
            label=f"{count} games, {records} stored events",
            value=audit_rate,
            baseline=fold_rate,
            unit="events/s",
            ratio=audit_rate / fold_rate,
            ratio_meaning="audit rate / fold rate (the cost of re-validation; higher is better)",
            context={
                "games": count,
                "stored_events": records,
                "game_events": events,
                "audit_seconds": audit_seconds,
                "fold_seconds": fold_seconds,
                "audit_game_events_per_s": events / audit_seconds,
                "fold_game_events_per_s": events / fold_seconds,
                "games_per_s_audit": count / audit_seconds,
                "failed": failed,
                "generate_seconds": generated,
            },
        )
    )
    result.notes.append(
        f"games generated in {generated:.1f} s: created through GameLog (in-memory store), "
        "random legal moves through the Game aggregate; 'events' = stored events (records)"
    )
    return result
