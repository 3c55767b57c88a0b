"""Audit a tournament: its own record, and that it agrees with its tables' games.

``audit_tournament`` checks, in order, and reports the first difference:

1. the hash chain of the tournament's records (as a game's);
2. the seed against the commitment in the creation record, whenever the seed
   is known (revealed by ``finished``, or the server's or an archive's copy);
3. every record folded onto the ones before (``tournament_record.step``): a
   registration, withdrawal, seating, result or end the service would have
   refused does not audit;
4. with the seed: every ``round-paired`` is exactly what the pairing gives
   (round 1's draw from the seed, later rounds by the standings as they stood),
   and the ``finished`` record's standings are the standings recomputed from
   the records;
5. with the tables' games at hand (by the hash of their creation record):
   each is a game of the tournament's game and options at its table (seats,
   tags: its ``Event``, ``Site`` and ``Date`` are the creation's name, site
   and dates, and where the table carries them, ``TournamentCreation`` is the
   creation's hash and ``PlayerNames`` the digest of its players' registered
   names), its seed is the one the tournament's seed gives it, every
   ``result-recorded`` is its game's result with the hash of its end, every
   finished table has its result recorded (or, for a game the director ended
   with a paper result, the director's result), and a game an override replaced
   or a withdrawn round seated was never played.

The games themselves are audited with ``audit.audit_records`` by the caller
(an archive import audits everything before storing anything). What the
records cannot show (a tournament's record and games all sealed again, or a
correction the director could have made inserted) only a signature shows
(``replay.signatures``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games import get_rules
from gamelog.games.protocol import RulesError
from gamelog.replay.audit_report import AuditReport, Difference
from gamelog.replay.checks import quoted
from gamelog.replay.fold import state_at
from gamelog.replay.record import Record, as_stored, seed_commitment, verify_chain
from gamelog.replay.redact import is_redacted
from gamelog.replay.seated_games import (
    CREATION_TAG,
    NAMES_TAG,
    TOURNAMENT_TAG,
    event_tags,
    names_digest,
    table_seed,
)
from gamelog.replay.tournament_record import start_tournament, step
from gamelog.replay.tournament_state import TournamentState
from gamelog.tournaments.pairing import pair_round
from gamelog.tournaments.points import exact_text
from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.standings import standings


def audit_tournament(
    records: Sequence[Record],
    seed: bytes | None = None,
    seed_nonce: bytes | None = None,
    games: Mapping[str, Sequence[Record]] | None = None,
    tournament_id: str | None = None,
) -> AuditReport:
    """Audit a tournament's full records; ``games`` maps the hash of each of
    its games' creation records to that game's records (None: not at hand)."""
    report = AuditReport()
    if not records:
        return report.fail(Difference(0, "the record is empty"))
    broken = verify_chain(records)
    if broken is not None:
        return report.fail(
            Difference(broken.position, broken.problem, broken.stored, broken.expected)
        )
    created = records[0]
    finished = records[-1] if records[-1].get("kind") == "finished" else None
    if finished is not None:
        seed = bytes.fromhex(finished["seed"])
        seed_nonce = bytes.fromhex(finished["seed_nonce"])
    if seed is not None:
        if seed_commitment(seed, seed_nonce) != created.get("commitment"):
            return report.fail(
                Difference(
                    finished["position"] if finished else 0,
                    "the seed does not match the commitment published at creation",
                )
            )
        report.seed_checked = True
    else:
        report.notes.append("tournament running: pairings re-run when its seed is revealed")
    try:
        state = start_tournament(created)
    except TournamentError as error:
        return report.fail(Difference(0, error.message))
    report.positions_checked = 1
    for record in records[1:]:
        position = record["position"]
        if record.get("time", "") < records[position - 1].get("time", ""):
            return report.fail(Difference(position, "the record is older than the one before it"))
        expected = _expected(state, record, seed)
        if expected is not None:
            return report.fail(Difference(position, *expected))
        try:
            state = step(state, record)
        except TournamentError as error:
            return report.fail(Difference(position, error.message, record.get("kind")))
        report.positions_checked += 1
    if games is not None:
        problem = _against_games(state, records, games, seed, tournament_id)
        if problem is not None:
            return report.fail(problem)
        report.notes.extend(_unchecked(games, state))
    return report


def _unchecked(games: Mapping[str, Sequence[Record]], state: TournamentState) -> list[str]:
    """What a tournament's older tables cannot vouch for: tables seated
    before they carried the creation's hash and their players' names."""
    seated = {h for r in state.rounds for h in r.games.values()}
    tags = [(games[h][0].get("metadata") or {}) for h in seated if games.get(h)]
    notes = []
    if any(CREATION_TAG not in t for t in tags):
        notes.append(
            f"tables without a {CREATION_TAG} tag: the creation's points, tie-breaks "
            "and settings are checked against nothing but the tournament's own record"
        )
    if any(NAMES_TAG not in t for t in tags):
        notes.append(
            f"tables without a {NAMES_TAG} tag: the players' names are checked "
            "against nothing but the tournament's own record"
        )
    return notes


def _expected(
    state: TournamentState, record: Record, seed: bytes | None
) -> tuple[str, Any, Any] | None:
    """What the pairing or the standings give where the record says otherwise."""
    kind = record["kind"]
    if seed is None:
        return None
    if kind == "round-paired":
        try:
            paired = pair_round(
                state.players, state.changes, state.core_rounds(), state.settings, seed
            )
        except TournamentError as error:
            return ("the pairing refuses this round: " + error.message, None, None)
        given = [(t["table"], list(t["seats"])) for t in record["tables"]]
        wanted = [(t.number, list(t.seats)) for t in paired.tables]
        if given != wanted or list(record["byes"]) != list(paired.byes):
            return (
                "the seating differs from what the pairing gives",
                {"tables": given, "byes": record["byes"]},
                {"tables": wanted, "byes": list(paired.byes)},
            )
    if kind == "finished":
        rows = standings(state.players, state.core_rounds(), state.settings, seed)
        wanted_rows = [
            {"place": r.place, "player": r.player, "points": exact_text(r.points)} for r in rows
        ]
        if record["standings"] != wanted_rows:
            return ("the final standings differ", record["standings"], wanted_rows)
    return None


def _against_games(
    state: TournamentState,
    records: Sequence[Record],
    games: Mapping[str, Sequence[Record]],
    seed: bytes | None,
    tournament_id: str | None,
) -> Difference | None:
    overridden: dict[str, bool] = {}
    """Each game → an override created it (its seed's label names its seats)."""
    withdrawals: dict[int, int] = {}
    """Each round → how often it was withdrawn so far (its seeds' labels say so)."""
    duplicates: dict[int, str] = {}
    """Each round → its duplicate mode, as it was paired last."""
    for record in records:
        kind = record["kind"]
        if kind == "round-withdrawn":
            withdrawals[record["round"]] = withdrawals.get(record["round"], 0) + 1
        if kind == "round-paired":
            duplicates[record["round"]] = str(record.get("duplicate", "none"))
        if kind in ("round-paired", "seating-overridden"):
            duplicate = duplicates.get(record["round"], "none")
            for table in record["tables"]:
                game = games.get(table["game"])
                where = f"round {record['round']} table {table['table']}"
                if game is None:
                    return Difference(record["position"], f"the game of {where} is missing")
                by_override = overridden.setdefault(table["game"], kind == "seating-overridden")
                problem = _table_game_problem(
                    state,
                    game,
                    record["round"],
                    table,
                    duplicate,
                    seed,
                    tournament_id,
                    by_override,
                    withdrawals.get(record["round"], 0),
                )
                if problem:
                    return Difference(record["position"], f"{where}: {problem}")
        if kind == "end-held" and not _is_over(games.get(record["game"], ())):
            return Difference(record["position"], "the held end names a game not over")
        if kind == "result-recorded":
            game = games.get(record["game"], ())
            end = game[-1] if game else {}
            if end.get("kind") != "finished" or end.get("hash") != record["end"]:
                return Difference(record["position"], "the result names no end of its game")
            result = end["result"]
            if result["ranking"] != record["ranking"] or result["scores"] != record["scores"]:
                return Difference(
                    record["position"],
                    "the recorded result differs from its game's",
                    {"ranking": record["ranking"], "scores": record["scores"]},
                    {"ranking": result["ranking"], "scores": result["scores"]},
                )
    last = records[-1]["position"]
    for seated in state.rounds:
        for number, game_hash in seated.games.items():
            game = games.get(game_hash, ())
            end = game[-1] if game else {}
            if end.get("by_director") and number not in seated.directed:
                return Difference(
                    last,
                    f"round {seated.number} table {number}'s game was ended by the director, "
                    "but the tournament has no result of the director's for it",
                )
            if (
                end.get("kind") == "finished"
                and not end.get("by_director")
                and (number not in seated.recorded)
            ):
                return Difference(
                    last,
                    f"round {seated.number} table {number}'s game ended, "
                    "but its result is not recorded",
                )
        for game_hash in seated.replaced:
            if len(games.get(game_hash, ())) > 1:
                return Difference(last, "a game a seating override replaced was played")
    for seated in state.withdrawn:
        for game_hash in (*seated.games.values(), *seated.replaced):
            if len(games.get(game_hash, ())) > 1:
                return Difference(last, f"a game of round {seated.number}, withdrawn, was played")
    return None


def _is_over(game: Sequence[Record]) -> bool:
    """Whether a game's records reach its end: its ``finished`` record, a
    seat lost on time, or a position its rules call over (a duplicate
    table's end, held). A spectator's copy of a running game cannot be
    folded: its hash chain is all it proves."""
    if not game:
        return False
    if game[-1].get("kind") == "finished" or any(is_redacted(r) for r in game):
        return True
    if any(r.get("kind") == "timeout" and r.get("on_timeout") == "lose" for r in game):
        return True
    try:
        rules = get_rules(game[0]["game"])
        return rules.result(state_at(rules, game, len(game) - 1)) is not None
    except (RulesError, KeyError, TypeError, ValueError, IndexError):
        return False


def _table_game_problem(
    state: TournamentState,
    game: Sequence[Record],
    round_number: int,
    table: Mapping[str, Any],
    duplicate: str,
    seed: bytes | None,
    tournament_id: str | None,
    by_override: bool = False,
    withdrawn: int = 0,
) -> str | None:
    tournament = state.created
    created = game[0]
    if created.get("hash") != table["game"]:
        return "the game's creation record has another hash"
    if created.get("game") != tournament["game"]:
        return f"the game is {created.get('game')}, not {tournament['game']}"
    if list(created.get("seats") or ()) != list(table["seats"]):
        return "the game's seats are not the table's players"
    options = dict(created.get("options") or {})
    if duplicate == "deal":
        options.pop("deal", None)
    try:
        rules = get_rules(tournament["game"])
        wanted = as_stored(rules.normalize_options(tournament["options"], table["seats"]))
    except RulesError as error:
        return f"the tournament's options do not suit this table: {error.message}"
    if options != wanted:
        return "the game's options are not the tournament's"
    if created.get("undo_policy") != tournament["undo_policy"]:
        return "the game's undo policy is not the tournament's"
    tags = created.get("metadata") or {}
    if tags.get("Round") != str(round_number) or tags.get("Table") != str(table["table"]):
        return "the game's Round and Table tags differ"
    if tournament_id is not None and tags.get(TOURNAMENT_TAG) != tournament_id:
        return f"the game's {TOURNAMENT_TAG} tag names another tournament"
    problem = _tags_problem(state, tags, table["seats"])
    if problem:
        return problem
    if tags.get("TimeControl", "") != tournament["time_control"]:
        return "the game's time control is not the tournament's"
    end = game[-1]
    if seed is not None and end.get("kind") == "finished":
        wanted_seed = table_seed(
            seed,
            round_number,
            table["table"],
            len(table["seats"]),
            duplicate,
            table["seats"] if by_override else None,
            withdrawn,
        )
        if end.get("seed") != wanted_seed.hex():
            return "the game's seed is not the one the tournament's seed gives it"
    return None


def _tags_problem(
    state: TournamentState, tags: Mapping[str, Any], seats: Sequence[str]
) -> str | None:
    """Where a table's hashed tags and the tournament's record disagree: the
    event's name, site and dates (every table has carried them), and, on
    tables that carry them, the creation's hash and the players' names."""
    wanted = event_tags(state.created)
    for name in ("Event", "Site", "Date"):
        if tags.get(name, "") != wanted.get(name, ""):
            return (
                f"the game's {name} tag is {quoted(tags.get(name, ''))}, "
                f"the tournament's {quoted(wanted.get(name, ''))}"
            )
    if CREATION_TAG in tags and tags[CREATION_TAG] != wanted[CREATION_TAG]:
        return (
            f"the game's {CREATION_TAG} tag names another creation record "
            "(the tournament's name, dates, points or tie-breaks were changed)"
        )
    if NAMES_TAG in tags:
        try:
            names = [state.player(seat).name for seat in seats]
        except TournamentError as error:
            return error.message
        if tags[NAMES_TAG] != names_digest(names):
            return (
                f"the game's {NAMES_TAG} tag does not match the names the tournament "
                f"registered for {', '.join(seats)}"
            )
    return None
