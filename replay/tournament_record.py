"""A tournament's record: one plain record per stored event, folded into its state.

A tournament keeps a hash-chained list of records exactly like a game's
(``replay.record``: ``seal``, ``verify_chain``; positions 0, 1, 2, …, each
record naming the hash of the one before, and carrying the server's ``time``,
hashed). Nothing is overwritten: a correction is a new record, and what counts
is computed from all of them (:func:`fold_tournament`). The kinds:

=================== ===========================================================
created             name, site, dates, game, rules_version, options (the
                    tables' game options, +options_hash), undo_policy (of the
                    tables), table_size [min, max], rounds, system, duplicate
                    (``none`` or ``seed``), time_control, on_timeout, points
                    (rows of exact texts), tiebreaks, bye_points, bye_place,
                    forfeit_points, commitment (of the tournament's seed)
player-registered   player {id, name, rating, club}, round (the first round
                    the player may be paired in)
player-withdrawn    player, round (from which on the player is not paired),
                    reason
player-reentered    player, round, reason
round-paired        round, tables [{table, seats, game}], byes, duplicate
                    (``none``, ``seed`` or ``deal``); ``game`` is the hash of
                    the table's game's creation record, which names it in any
                    store (game ids change on import)
seating-overridden  round, tables, byes, reason: the director's seating,
                    before any table of the round has a result
end-held            round, table, game: a duplicate round's table whose game is
                    over, its end held until the round's last table is over
                    (so that no finished table shows the deal the others
                    play); the round's end then records every result
result-recorded     round, table, game, end (the hash of the game's ``finished``
                    record), ranking, scores: a table's game ended
result-entered      round, table, ranking, scores, reason: the director's
                    result for a table without one (played on paper)
result-corrected    round, table, ranking, scores, reason
forfeit-declared    round, table, ranking, forfeited, reason
round-withdrawn     round, reason: the director takes back the round paired
                    last, before any of its tables has a move or a result; its
                    games are never played, and the round is paired anew
finished            seed, seed_nonce (revealed), standings [{place, player,
                    points}]
=================== ===========================================================

A table's *effective* result is the director's latest (entered, corrected or
a forfeit), else the one its game recorded. Points are exact texts (``"3/2"``),
never floats. The state the records fold into lives in ``tournament_state``;
what a tournament puts into each table's game (its tags, its seed) in
``seated_games``. A worked example:

>>> created = {"position": 0, "kind": "created", "name": "Club night", "site": "Oslo",
...     "dates": "2026-11-30", "game": "three-too-many", "rules_version": "1.0",
...     "options": {}, "undo_policy": "none", "table_size": [2, 2], "rounds": 1,
...     "system": "swiss", "duplicate": "none", "time_control": "", "on_timeout": "lose",
...     "points": [], "tiebreaks": ["buchholz"], "bye_points": None, "bye_place": None,
...     "forfeit_points": "0", "commitment": "0" * 64}
>>> state = start_tournament(created)
>>> for n, name in enumerate(["Ann", "Ben"], start=1):
...     state = step(state, {"position": n, "kind": "player-registered", "round": 1,
...         "player": {"id": name.lower(), "name": name, "rating": None, "club": None}})
>>> state = step(state, {"position": 3, "kind": "round-paired", "round": 1, "byes": [],
...     "duplicate": "none", "tables": [{"table": 1, "seats": ["ann", "ben"], "game": "g1"}]})
>>> state = step(state, {"position": 4, "kind": "result-recorded", "round": 1, "table": 1,
...     "game": "g1", "end": "e1", "ranking": [["ben"], ["ann"]], "scores": {}})
>>> state = step(state, {"position": 5, "kind": "result-corrected", "round": 1, "table": 1,
...     "ranking": [["ann", "ben"]], "scores": {}, "reason": "scoring error"})
>>> state.rounds[0].round().results[1].ranking
(('ann', 'ben'),)
>>> state.rounds[0].recorded[1].ranking
(('ben',), ('ann',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from gamelog.replay.checks import SEAT_NAME
from gamelog.replay.record import Record
from gamelog.replay.tournament_state import SeatedRound, TournamentRecordError, TournamentState
from gamelog.tournaments.players import Player, RosterChange
from gamelog.tournaments.rounds import Result, Round, Table, check_result, check_round
from gamelog.tournaments.settings import Settings

DUPLICATE_MODES: Final = ("none", "seed")


def settings_of(created: Record) -> Settings:
    """The pure core's settings from a tournament's creation record."""
    smallest, largest = created["table_size"]
    return Settings(
        rounds=created["rounds"],
        table_size=(smallest, largest),
        system=created["system"],
        points=tuple(tuple(row) for row in created["points"]),
        tiebreaks=tuple(created["tiebreaks"]),
        bye_points=created["bye_points"],
        bye_place=created["bye_place"],
        forfeit_points=created["forfeit_points"],
        seeding=created.get("seeding", "lot"),
    )


def start_tournament(created: Record) -> TournamentState:
    if created.get("kind") != "created":
        raise TournamentRecordError("bad-record", "a tournament's record starts with its creation")
    if created.get("duplicate") not in DUPLICATE_MODES:
        raise TournamentRecordError("bad-duplicate", f"duplicate is one of {DUPLICATE_MODES}")
    return TournamentState(
        created, settings_of(created), position=0, last_hash=created.get("hash", "")
    )


def result_of(record: Mapping[str, Any]) -> Result:
    """The pure core's result from a record's ranking, scores and forfeits."""
    return Result(
        ranking=tuple(tuple(place) for place in record["ranking"]),
        scores=dict(record.get("scores") or {}),
        forfeited=frozenset(record.get("forfeited") or ()),
    )


def tables_of(record: Mapping[str, Any]) -> tuple[tuple[Table, ...], dict[int, str]]:
    tables = tuple(Table(t["table"], tuple(t["seats"])) for t in record["tables"])
    return tables, {t["table"]: t["game"] for t in record["tables"]}


def step(state: TournamentState, record: Record) -> TournamentState:
    """The state after one more record; ``TournamentRecordError`` if the
    record does not fit (the aggregate refuses such a command, the audit
    such a record)."""
    kind = record["kind"]
    if state.finished:
        raise TournamentRecordError("tournament-over", "the tournament is finished")
    handler = _STEPS.get(kind)
    if handler is None:
        raise TournamentRecordError("bad-record", f"no tournament record is a {kind!r}")
    after = handler(state, record)
    return replace(after, position=record["position"], last_hash=record.get("hash", ""))


def fold_tournament(records: Sequence[Record]) -> TournamentState:
    state = start_tournament(records[0])
    for record in records[1:]:
        state = step(state, record)
    return state


# -- each kind ------------------------------------------------------------------------


def _registered(state: TournamentState, record: Record) -> TournamentState:
    raw = record["player"]
    player_id = raw["id"]
    if not SEAT_NAME.fullmatch(player_id):
        raise TournamentRecordError(
            "bad-player-id",
            f"player id {player_id!r} must be 1–32 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit (it names the player's seat at every table)",
        )
    key = player_id.casefold()
    if key in state.player_keys:
        raise TournamentRecordError("duplicate-player", f"player id {player_id!r} is taken")
    first = record["round"]
    _expect_future(state, first, "enter")
    player = Player(player_id, raw["name"], raw.get("rating"), raw.get("club"), first)
    return replace(state, players=(*state.players, player), player_keys=(*state.player_keys, key))


def _roster_change(state: TournamentState, record: Record) -> TournamentState:
    player_id, round_number = record["player"], record["round"]
    state.player(player_id)
    plays = record["kind"] == "player-reentered"
    _expect_future(state, round_number, "re-enter" if plays else "withdraw")
    playing = player_id in state.active(round_number)
    if playing == plays:
        raise TournamentRecordError(
            "roster-unchanged",
            f"{player_id} {'already plays' if plays else 'does not play'} in round {round_number}",
        )
    _reason(record)
    change = RosterChange(round_number, player_id, plays)
    return replace(state, changes=(*state.changes, change))


def _expect_future(state: TournamentState, round_number: int, what: str) -> None:
    if round_number < state.next_round:
        raise TournamentRecordError(
            "round-paired",
            f"round {round_number} is paired already; a player can {what} from round "
            f"{state.next_round} on",
        )
    if round_number > state.settings.rounds:
        raise TournamentRecordError(
            "no-such-round", f"the tournament has {state.settings.rounds} rounds"
        )


def _paired(state: TournamentState, record: Record) -> TournamentState:
    number = record["round"]
    if number != state.next_round:
        raise TournamentRecordError(
            "bad-round", f"the next round is {state.next_round}, not {number}"
        )
    if number > state.settings.rounds:
        raise TournamentRecordError(
            "no-more-rounds", f"the tournament has {state.settings.rounds} rounds"
        )
    if state.rounds and not state.rounds[-1].complete():
        raise TournamentRecordError(
            "round-not-finished",
            f"round {number - 1} has tables without a result; enter them (or forfeits) first",
        )
    tables, games = tables_of(record)
    byes = tuple(record["byes"])
    check_round(Round(number, tables, byes), state.active(number), state.settings.table_size)
    seated = SeatedRound(number, tables, byes, games, record.get("duplicate", "none"))
    return replace(state, rounds=(*state.rounds, seated))


def _overridden(state: TournamentState, record: Record) -> TournamentState:
    number = record["round"]
    if number != len(state.rounds):
        raise TournamentRecordError(
            "bad-round", "only the round paired last can be seated again, before it is played"
        )
    seated = state.rounds[-1]
    if seated.recorded or seated.directed:
        raise TournamentRecordError(
            "round-started", f"round {number} has results already; correct them instead"
        )
    _reason(record)
    tables, games = tables_of(record)
    byes = tuple(record["byes"])
    check_round(Round(number, tables, byes), state.active(number), state.settings.table_size)
    kept = set(games.values())
    replaced = tuple(g for g in seated.games.values() if g not in kept)
    changed = replace(
        seated,
        tables=tables,
        byes=byes,
        games=games,
        replaced=(*seated.replaced, *replaced),
    )
    return replace(state, rounds=(*state.rounds[:-1], changed))


def _round_withdrawn(state: TournamentState, record: Record) -> TournamentState:
    number = record["round"]
    if number != len(state.rounds):
        raise TournamentRecordError(
            "bad-round", f"only the round paired last (round {len(state.rounds)}) can be withdrawn"
        )
    seated = state.rounds[-1]
    if seated.recorded or seated.directed or seated.held:
        raise TournamentRecordError(
            "round-played",
            f"round {number} has results already: it is played, so correct its results "
            "(with a reason) instead",
        )
    _reason(record)
    return replace(state, rounds=state.rounds[:-1], withdrawn=(*state.withdrawn, seated))


def _result_recorded(state: TournamentState, record: Record) -> TournamentState:
    seated = state.seated(record["round"])
    number = record["table"]
    table = seated.table(number)
    if seated.games.get(number) != record["game"]:
        raise TournamentRecordError("not-this-game", f"the game is not table {number}'s")
    if number in seated.recorded:
        raise TournamentRecordError("result-recorded", f"table {number}'s game ended already")
    result = result_of(record)
    check_result(table, result)
    changed = replace(
        seated,
        recorded={**seated.recorded, number: result},
        recorded_ends={**seated.recorded_ends, number: record["end"]},
    )
    return _with_round(state, changed)


def _end_held(state: TournamentState, record: Record) -> TournamentState:
    seated = state.seated(record["round"])
    number = record["table"]
    seated.table(number)
    if seated.duplicate == "none":
        raise TournamentRecordError(
            "not-duplicate", f"round {seated.number} holds no ends: it is no duplicate round"
        )
    if seated.games.get(number) != record["game"]:
        raise TournamentRecordError("not-this-game", f"the game is not table {number}'s")
    if number in seated.held or number in seated.recorded:
        raise TournamentRecordError("end-held", f"table {number}'s game is over already")
    return _with_round(state, replace(seated, held=seated.held | {number}))


def _directed(state: TournamentState, record: Record) -> TournamentState:
    seated = state.seated(record["round"])
    number = record["table"]
    table = seated.table(number)
    _reason(record)
    has_result = seated.effective(number) is not None
    kind = record["kind"]
    if kind == "result-entered" and has_result:
        raise TournamentRecordError(
            "has-result", f"table {number} has a result; correct it (with a reason) instead"
        )
    if kind == "result-corrected" and not has_result:
        raise TournamentRecordError(
            "no-result", f"table {number} has no result to correct; enter one instead"
        )
    result = result_of(record)
    if kind == "forfeit-declared" and not result.forfeited:
        raise TournamentRecordError("bad-forfeit", "a forfeit names who forfeited")
    check_result(table, result)
    changed = replace(seated, directed={**seated.directed, number: result})
    return _with_round(state, changed)


def _finished(state: TournamentState, record: Record) -> TournamentState:
    unfinished = [r.number for r in state.rounds if not r.complete()]
    if unfinished:
        raise TournamentRecordError(
            "round-not-finished",
            f"round {unfinished[0]} has tables without a result; enter them (or forfeits) first",
        )
    return replace(state, finished=True)


def _with_round(state: TournamentState, seated: SeatedRound) -> TournamentState:
    rounds = list(state.rounds)
    rounds[seated.number - 1] = seated
    return replace(state, rounds=tuple(rounds))


def _reason(record: Record) -> None:
    reason = record.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise TournamentRecordError("reason-required", "the director gives a reason")


_STEPS = {
    "player-registered": _registered,
    "player-withdrawn": _roster_change,
    "player-reentered": _roster_change,
    "round-paired": _paired,
    "seating-overridden": _overridden,
    "end-held": _end_held,
    "result-recorded": _result_recorded,
    "result-entered": _directed,
    "result-corrected": _directed,
    "forfeit-declared": _directed,
    "round-withdrawn": _round_withdrawn,
    "finished": _finished,
}
