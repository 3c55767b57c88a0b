"""Tournament archives for forgery tests: a finished one, and the forger's tools
(records sealed again with the project's own ``seal``, standings recomputed)."""

from __future__ import annotations

import json
import random
from typing import Any

from gamelog.replay.record import seal
from gamelog.service.usecases.application import GameLog
from gamelog.tournaments.points import exact_text

from support.tournaments import club_night, standings_from_records

MEMORY = {"PERSISTENCE_MODULE": "eventsourcing.popo"}
Records = list[dict[str, Any]]


def finished_archive(app: GameLog | None = None) -> dict[str, Any]:
    """A finished club night of two rounds, exported by anyone."""
    own = app is None
    app = app or GameLog(env=MEMORY)
    t = club_night(app, rounds=2)
    chooser = random.Random(32)
    t.play_round(chooser)
    t.play_round(chooser)
    app.tournaments.finish_tournament(t.tournament_id, t.director)
    exported = json.loads(json.dumps(app.tournament_files.export_tournament(t.tournament_id, None)))
    if own:
        app.close()
    return exported


def resealed(records: Records) -> Records:
    """Every record numbered and sealed again, each naming the one before."""
    out: Records = []
    for position, record in enumerate(records):
        fresh = {k: v for k, v in record.items() if k not in ("hash", "timestamp")}
        fresh["position"] = position
        fresh["prev_hash"] = out[-1]["hash"] if out else ""
        out.append(seal(fresh))
    return out


def with_standings_recomputed(records: Records) -> Records:
    """The ``finished`` record's standings as the forged records give them,
    so the audit's own recomputation agrees with the forgery."""
    finished = records[-1]
    rows = standings_from_records(records[:-1], bytes.fromhex(finished["seed"]))
    standings = [
        {"place": r.place, "player": r.player, "points": exact_text(r.points)} for r in rows
    ]
    return [*records[:-1], {**finished, "standings": standings}]


def correction_inserted(records: Records) -> Records:
    """A ``result-corrected`` before the end that turns round 1 table 1's
    ranking upside down, as a director could have entered it."""
    recorded = next(r for r in records if r["kind"] == "result-recorded")
    correction = {
        "position": records[-1]["position"],
        "kind": "result-corrected",
        "round": recorded["round"],
        "table": recorded["table"],
        "ranking": [[p] for place in reversed(recorded["ranking"]) for p in place],
        "scores": recorded["scores"],
        "reason": "scoring error",
        "time": records[-2]["time"],
        "salts": {},
    }
    return resealed(with_standings_recomputed([*records[:-1], correction, records[-1]]))
