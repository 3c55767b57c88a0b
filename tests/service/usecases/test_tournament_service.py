"""Tournaments in the service: seating, results flowing in, the director's
records, standings recomputed from the records, audit, archives."""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from gamelog.replay.record import seal, seed_commitment
from gamelog.replay.tournament_audit import audit_tournament
from gamelog.replay.tournament_record import fold_tournament, step
from gamelog.replay.tournament_state import TournamentRecordError
from gamelog.service.model.refusals import (
    GamelogError,
    InvalidArgument,
    PermissionDenied,
    Refused,
    Unauthenticated,
)
from gamelog.service.usecases.application import GameLog
from gamelog.tournaments.pairing import pair_round
from gamelog.tournaments.points import exact_text
from gamelog.tournaments.tables import plan_tables

from support.random_play import InProcessGame, play_random
from support.tournaments import SEVEN, club_night, names, standings_from_records, start


def test_a_tournament_from_creation_to_its_end(memory_app: GameLog) -> None:
    t = club_night(memory_app)
    chooser = random.Random(3)
    for _ in range(3):
        games = t.play_round(chooser)
        live = memory_app.tournament_queries.standings(t.tournament_id)
        # Recomputed from the records (and the seed) equals the live standings.
        mine = standings_from_records(t.records(), b"club-night-2026-seed")
        assert [(r.player, exact_text(r.points)) for r in mine] == [
            (r.player, r.points) for r in live
        ]
    finished = memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    records = t.records()
    kinds = Counter(r["kind"] for r in records)
    assert kinds["round-paired"] == 3 and kinds["player-registered"] == 7
    assert kinds["result-recorded"] == sum(len(r["tables"]) for r in records if "tables" in r)
    # The end reveals the seed: its commitment was published at creation.
    created = records[0]
    assert created["commitment"] == seed_commitment(
        bytes.fromhex(finished["seed"]), bytes.fromhex(finished["seed_nonce"])
    )
    assert (
        finished["standings"][0]["points"]
        == memory_app.tournament_queries.standings(t.tournament_id)[0].points
    )
    assert audit_tournament(records).ok  # from the records alone: the seed is revealed
    report = memory_app.tournament_queries.audit_tournament(t.tournament_id)
    assert report.ok, report.first_difference
    # Every table is an ordinary game with the tournament's tags.
    game = memory_app.queries.state_at(games[1])
    tags = game.record_created["metadata"]
    assert tags["Event"] == "Club night" and tags["Site"] == "Oslo"
    assert tags["Date"] == "2026-11-30" and tags["Round"] == "3" and tags["Table"] == "1"
    assert tags["Tournament"] == str(t.tournament_id)
    assert game.seats == list(
        memory_app.tournament_queries.tournament(t.tournament_id).rounds[2].tables[0].seats
    )
    with pytest.raises(Refused):
        memory_app.tournaments.pair_round(t.tournament_id, t.director)  # finished: nothing more


def test_round_one_is_the_seeds_draw_and_later_rounds_the_pairings(memory_app: GameLog) -> None:
    t = club_night(memory_app)
    seated, _ = memory_app.tournaments.pair_round(t.tournament_id, t.director)
    state = memory_app.store.tournament(t.tournament_id).state
    drawn = pair_round(state.players, (), (), state.settings, b"club-night-2026-seed")
    assert [tb.seats for tb in seated.tables] == [tb.seats for tb in drawn.tables]
    other = club_night(GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))
    again, _ = other.app.tournaments.pair_round(other.tournament_id, other.director)
    assert [tb.seats for tb in again.tables] == [tb.seats for tb in seated.tables]
    other.app.close()


def test_a_directors_correction_changes_the_standings_and_keeps_its_reason(
    memory_app: GameLog,
) -> None:
    t = club_night(memory_app, rounds=1)
    t.play_round(random.Random(5))
    before = {r.player: r.points for r in memory_app.tournament_queries.standings(t.tournament_id)}
    summary = memory_app.tournament_queries.tournament(t.tournament_id)
    table = summary.rounds[0].tables[0]
    recorded = table.result
    assert recorded is not None and recorded["source"] == "game"
    reversed_ranking = [[p] for p in reversed([p for place in recorded["ranking"] for p in place])]
    memory_app.tournaments.enter_result(
        t.tournament_id, t.director, 1, 1, reversed_ranking, "the scores were added up wrongly"
    )
    after = {r.player: r.points for r in memory_app.tournament_queries.standings(t.tournament_id)}
    assert after != before
    first, last = reversed_ranking[0][0], reversed_ranking[-1][0]
    assert after[first] == "3" and after[last] == "0"
    records = t.records()
    correction = records[-1]
    assert correction["kind"] == "result-corrected"
    assert correction["reason"] == "the scores were added up wrongly"
    # Nothing is overwritten: the game's own result is still in the record.
    recorded_record = next(r for r in records if r["kind"] == "result-recorded" and r["table"] == 1)
    assert recorded_record["ranking"] == recorded["ranking"]
    assert (
        memory_app.tournament_queries.tournament(t.tournament_id)
        .rounds[0]
        .tables[0]
        .result["source"]
        == "director"
    )
    assert memory_app.tournament_queries.audit_tournament(t.tournament_id).ok
    with pytest.raises(InvalidArgument, match="reason"):
        memory_app.tournaments.enter_result(
            t.tournament_id, t.director, 1, 1, reversed_ranking, " "
        )


def test_forfeits_and_paper_results_are_the_directors_records(memory_app: GameLog) -> None:
    t = club_night(memory_app, rounds=2, forfeit_points="-1")
    games = t.pair()
    seats = {n: memory_app.queries.state_at(g).seats for n, g in games.items()}
    ranking = [[p] for p in seats[1]]
    memory_app.tournaments.enter_result(
        t.tournament_id,
        t.director,
        1,
        1,
        ranking,
        "did not show up",
        forfeited=[seats[1][-1]],
    )
    paper = [[p] for p in seats[2]]
    memory_app.tournaments.enter_result(
        t.tournament_id, t.director, 1, 2, paper, "played on paper", {seats[2][0]: 9}
    )
    points = {r.player: r.points for r in memory_app.tournament_queries.standings(t.tournament_id)}
    assert points[seats[1][-1]] == "-1"  # the forfeit points, whatever the place
    assert points[seats[1][0]] == "3"  # first of four
    assert points[seats[2][0]] == "2"  # first of three
    kinds = [r["kind"] for r in t.records()[-2:]]
    assert kinds == ["forfeit-declared", "result-entered"]
    # The round is complete: the next one can be seated.
    memory_app.tournaments.pair_round(t.tournament_id, t.director)
    # The paper result ended the table's game: nothing more is played there.
    end = memory_app.store.records(games[2])[-1]
    assert end["kind"] == "finished" and end["by_director"] and end["reason"] == "played on paper"
    assert end["result"]["ranking"] == paper
    play_random(InProcessGame(memory_app, games[2], t.tokens), random.Random(1))
    assert memory_app.store.records(games[2])[-1] == end
    assert (
        memory_app.tournament_queries.tournament(t.tournament_id)
        .rounds[0]
        .tables[1]
        .result["source"]
        == "director"
    )
    assert t.records()[-1]["kind"] == "round-paired"
    assert memory_app.tournament_queries.audit_tournament(t.tournament_id).ok


def test_a_freeform_table_ends_with_the_directors_result_move(memory_app: GameLog) -> None:
    t = start(memory_app, "freeform", 1, (2, 2), ["Ann", "Ben"], seed=b"ff")
    games = t.pair()
    game_id = games[1]
    seats = memory_app.queries.state_at(game_id).seats
    memory_app.games.play(game_id, t.tokens[seats[0]], {"text": "1. e4"}, 0)
    # The director is the arbiter of the table, and enters its result there.
    result = {"result": {"scores": {seats[0]: 1, seats[1]: 0}}}
    memory_app.games.play(game_id, t.director, result, 1)
    assert memory_app.queries.state_at(game_id).is_finished
    last = t.records()[-1]
    assert last["kind"] == "result-recorded" and last["ranking"] == [[seats[0]], [seats[1]]]
    assert memory_app.tournament_queries.standings(t.tournament_id)[0].player == seats[0]


def test_the_director_alone_changes_a_tournament(memory_app: GameLog) -> None:
    t = club_night(memory_app)
    player = t.tokens["ann-smith"]
    with pytest.raises(PermissionDenied):
        memory_app.tournaments.pair_round(t.tournament_id, player)
    with pytest.raises(Unauthenticated):
        memory_app.tournaments.pair_round(t.tournament_id, "not-a-token")
    with pytest.raises(Unauthenticated):
        memory_app.tournaments.register_players(t.tournament_id, None, [{"name": "Zed"}])
    memory_app.tournaments.pair_round(t.tournament_id, t.director)
    with pytest.raises(Refused, match="without a result"):
        memory_app.tournaments.pair_round(t.tournament_id, t.director)
    assert [r["kind"] for r in t.records()].count("round-paired") == 1


def test_bad_settings_are_refused(memory_app: GameLog) -> None:
    cases: list[dict[str, Any]] = [
        {"table_size": (2, 9)},
        {"rounds": 0},
        {"tiebreaks": ["coin"]},
        {"options": {"deal": [1, 2]}},
        {"system": "round-robin", "table_size": (3, 4)},
        {"points": [["1", "2", "0"]]},
        {"time_control": "five minutes"},
    ]
    for case in cases:
        settings = {"rounds": 3, "table_size": (3, 4), **case}
        rounds, size = settings.pop("rounds"), settings.pop("table_size")
        with pytest.raises(InvalidArgument):
            memory_app.tournaments.create_tournament(
                "x", "three-too-many", rounds, size, **settings
            )
    with pytest.raises(InvalidArgument, match="freeform"):
        memory_app.tournaments.create_tournament("x", "freeform", 1, (2, 2), time_control="60")


def test_players_get_readable_stable_ids(memory_app: GameLog) -> None:
    t = start(memory_app, "three-too-many", 1, (3, 4))
    ids = t.register(["Ann Smith", "ann smith", "Åse Ødegård", "李"])
    assert ids == ["ann-smith", "ann-smith-2", "ase-degard", "player"]
    with pytest.raises(InvalidArgument):
        memory_app.tournaments.register_players(
            t.tournament_id, t.director, [{"name": "X", "id": "bad id"}]
        )
    with pytest.raises(InvalidArgument):
        memory_app.tournaments.register_players(
            t.tournament_id, t.director, [{"name": "X", "id": "ANN-SMITH"}]
        )


def test_a_record_registering_a_taken_id_in_other_letter_case_does_not_fold(
    memory_app: GameLog,
) -> None:
    """The fold itself refuses it (an imported archive is folded, not
    checked by the service): ids name seats, and seats differ in more than case."""
    t = start(memory_app, "three-too-many", 1, (3, 4))
    t.register(["Ann", "Ben"])
    records = t.records()
    state = fold_tournament(records)
    crafted = {
        "position": len(records),
        "kind": "player-registered",
        "round": 1,
        "player": {"id": "BEN", "name": "Ben again", "rating": None, "club": None},
    }
    with pytest.raises(TournamentRecordError, match="taken"):
        step(state, crafted)
    crafted["player"]["id"] = "cy"
    assert [p.id for p in step(state, crafted).players] == ["ann", "ben", "cy"]


def test_withdrawal_and_reentry_are_records_with_a_round(memory_app: GameLog) -> None:
    t = club_night(memory_app, rounds=3)
    chooser = random.Random(2)
    t.play_round(chooser)
    memory_app.tournaments.change_roster(t.tournament_id, t.director, "gus-grissom", False, "ill")
    seated, _ = memory_app.tournaments.pair_round(t.tournament_id, t.director)
    assert "gus-grissom" not in seated.players()
    for game_id in memory_app.tournament_queries.tournament_games(t.tournament_id).values():
        play_random(InProcessGame(memory_app, game_id, t.tokens), chooser)
    memory_app.tournaments.change_roster(t.tournament_id, t.director, "gus-grissom", True, "better")
    seated, _ = memory_app.tournaments.pair_round(t.tournament_id, t.director)
    assert "gus-grissom" in seated.players()
    rows = {r.player: r for r in memory_app.tournament_queries.standings(t.tournament_id)}
    assert rows["gus-grissom"].by_round[1] is None and rows["gus-grissom"].played == 1
    with pytest.raises(Refused):  # round 3 is paired: too late to withdraw from it
        memory_app.tournaments.change_roster(
            t.tournament_id, t.director, "ann-smith", False, "late", 3
        )


def test_a_seating_override_before_the_round_starts(memory_app: GameLog) -> None:
    t = club_night(memory_app, rounds=1)
    seated, games = memory_app.tournaments.pair_round(t.tournament_id, t.director)
    first, second = (list(tb.seats) for tb in seated.tables)
    # Swap the first player of each table; the director says why.
    new_first = [second[0], *first[1:]]
    new_second = [first[0], *second[1:]]
    overridden, new_games = memory_app.tournaments.override_seating(
        t.tournament_id, t.director, [new_first, new_second], [], "Ann and Cy are siblings"
    )
    assert [list(tb.seats) for tb in overridden.tables] == [new_first, new_second]
    assert set(new_games.values()).isdisjoint(games.values())
    record = t.records()[-1]
    assert record["kind"] == "seating-overridden" and record["reason"] == "Ann and Cy are siblings"
    # The replaced game is nobody's table now: its players' tokens are nobody there.
    with pytest.raises(Unauthenticated):
        memory_app.queries.view(games[1], t.tokens[first[1]])
    assert memory_app.queries.view(new_games[1], t.tokens[first[1]]).viewer == first[1]
    everyone = [*new_first, *new_second]
    with pytest.raises(InvalidArgument, match="at least one table"):
        memory_app.tournaments.override_seating(
            t.tournament_id, t.director, [], everyone, "all byes"
        )
    # Once a table has a move, the seating stands.
    game = memory_app.queries.state_at(new_games[1])
    seat = game.rules.to_act(game.state)[0]
    memory_app.games.play(
        new_games[1], t.tokens[seat], game.rules.legal_moves(game.state, seat)[0], 0
    )
    with pytest.raises(Refused, match="before the round starts"):
        memory_app.tournaments.override_seating(
            t.tournament_id, t.director, [first, second], [], "changed my mind"
        )
    for game_id in new_games.values():
        play_random(InProcessGame(memory_app, game_id, t.tokens), random.Random(4))
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    assert memory_app.tournament_queries.audit_tournament(t.tournament_id).ok


def test_byes_rotate(memory_app: GameLog) -> None:
    # Five players at tables of 3-4: one table of four and a bye, every round.
    t = start(memory_app, "three-too-many", 5, (3, 4), SEVEN[:5], seed=b"byes")
    chooser = random.Random(6)
    byes = []
    for _ in range(5):
        t.play_round(chooser)
        byes += memory_app.tournament_queries.tournament(t.tournament_id).rounds[-1].byes
    assert sorted(byes) == sorted(t.tokens)  # each player once
    # Seven at 2-player tables (Swiss): a different player each round.
    chess = start(
        GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}),
        "freeform",
        7,
        (2, 2),
        SEVEN,
        seed=b"chess",
    )
    swiss_byes = []
    for _ in range(7):
        games = chess.pair()
        for game_id in games.values():
            seats = chess.app.queries.state_at(game_id).seats
            score = {seats[0]: chooser.randint(0, 1), seats[1]: chooser.randint(0, 1)}
            chess.app.games.play(game_id, chess.director, {"result": {"scores": score}}, 0)
        swiss_byes += chess.app.tournament_queries.tournament(chess.tournament_id).rounds[-1].byes
    assert len(swiss_byes) == 7 and len(set(swiss_byes)) == 7
    chess.app.close()


def _repeats(groups: list[tuple[str, ...]], met: Counter[frozenset[str]]) -> int:
    return sum(
        1 for group in groups for a, b in itertools.combinations(group, 2) if met[frozenset((a, b))]
    )


def _fewest_repeats(
    players: list[str], sizes: tuple[int, ...], met: Counter[frozenset[str]]
) -> int:
    """By brute force: the fewest pairs who met before over every grouping."""
    best = len(players) ** 2

    def place(left: list[str], remaining: tuple[int, ...], groups: list[tuple[str, ...]]) -> None:
        nonlocal best
        if not remaining:
            best = min(best, _repeats(groups, met))
            return
        first, rest = left[0], left[1:]
        for others in itertools.combinations(rest, remaining[0] - 1):
            table = (first, *others)
            place([p for p in rest if p not in others], remaining[1:], [*groups, table])

    place(players, sizes, [])
    return best


def test_no_repeat_opponents_where_the_pairing_could_avoid_them(memory_app: GameLog) -> None:
    """Nine players at tables of three over five rounds, checked by brute
    force over every grouping of each round."""
    t = start(memory_app, "three-too-many", 5, (3, 3), names(9), seed=b"repeats")
    chooser = random.Random(8)
    met: Counter[frozenset[str]] = Counter()
    for _ in range(5):
        t.play_round(chooser)
        seated = memory_app.tournament_queries.tournament(t.tournament_id).rounds[-1]
        groups = [tuple(tb.seats) for tb in seated.tables]
        sizes = plan_tables(9, 3, 3).sizes
        assert _repeats(groups, met) == _fewest_repeats(sorted(t.tokens), sizes, met)
        for group in groups:
            met.update(frozenset(pair) for pair in itertools.combinations(group, 2))


def test_a_duplicate_round_shares_its_deal_and_holds_its_ends(memory_app: GameLog) -> None:
    t = start(memory_app, "three-too-many", 1, (4, 4), names(8), duplicate="seed", seed=b"dup")
    games = t.pair()
    deals = []
    for game_id in games.values():
        created = memory_app.store.records(game_id)[0]
        text = json.dumps(created["events"])
        for index, seat in enumerate(created["seats"]):
            text = text.replace(f'"{seat}"', f'"seat {index + 1}"')
        deals.append(text)
    assert deals[0] == deals[1]  # one deal for the room, seat by seat
    seats_1 = memory_app.queries.state_at(games[1]).seats
    # Table 1 plays to its end, but its record stays private (the end is held).
    play_random(InProcessGame(memory_app, games[1], t.tokens), random.Random(1))
    first = memory_app.queries.state_at(games[1])
    assert first.is_over and not first.is_finished
    with pytest.raises(PermissionDenied):  # no spectator reads it while the round runs
        memory_app.queries.visible_records(games[1], None)
    seat = memory_app.queries.visible_records(games[1], t.tokens[seats_1[0]])
    assert None in seat[0].record["salts"]["events"]  # still cut for a seat
    assert (
        memory_app.tournament_queries.tournament(t.tournament_id).rounds[0].tables[0].result is None
    )
    with pytest.raises(GamelogError):
        game = memory_app.queries.state_at(games[1])
        memory_app.games.play(games[1], t.tokens[seats_1[0]], {"card": 1}, game.position)
    assert memory_app.queries.audit(games[1], t.director).ok  # over, its end held: audits clean
    # A fork of a table is no table: it carries the tags, but its end is not held.
    fork = memory_app.games.fork(games[2], t.director, 0)
    assert "Duplicate" in memory_app.queries.state_at(fork.game_id).record_created["metadata"]
    play_random(InProcessGame(memory_app, fork.game_id, fork.tokens), random.Random(3))
    assert memory_app.queries.state_at(fork.game_id).is_finished
    with pytest.raises(InvalidArgument):
        memory_app.games.create_game("three-too-many", ["a", "b"], metadata={"Duplicate": "mine"})
    # The last table of the round ends: both ends and both results at once.
    play_random(InProcessGame(memory_app, games[2], t.tokens), random.Random(2))
    assert all(memory_app.queries.state_at(g).is_finished for g in games.values())
    results = [r for r in t.records() if r["kind"] == "result-recorded"]
    assert len(results) == 2
    assert all(memory_app.queries.audit(g).ok for g in games.values())
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    assert memory_app.tournament_queries.audit_tournament(t.tournament_id).ok


def _tampered(records: list[dict[str, Any]], index: int, **changes: Any) -> list[dict[str, Any]]:
    """The records with one changed and the chain sealed again after it."""
    out = [dict(r) for r in records]
    out[index].update(changes)
    for i in range(index, len(out)):
        record = {k: v for k, v in out[i].items() if k not in ("hash", "timestamp")}
        if i:
            record["prev_hash"] = out[i - 1]["hash"]
        out[i] = seal(record)
    return out


def test_the_audit_catches_a_forged_seating_or_result(memory_app: GameLog) -> None:
    t = club_night(memory_app, rounds=2)
    chooser = random.Random(9)
    t.play_round(chooser)
    t.play_round(chooser)
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    records = [{k: v for k, v in r.items() if k != "timestamp"} for r in t.records()]
    games = {
        h: memory_app.store.records(g)
        for h, g in memory_app.tournament_queries.tournament_games(t.tournament_id).items()
    }
    assert audit_tournament(records, games=games).ok
    # A byte changed: the chain breaks.
    broken = [dict(r) for r in records]
    broken[3] = {**broken[3], "round": 2}
    assert not audit_tournament(broken).ok
    # A seating the pairing did not give, sealed again: the pairing is re-run.
    paired = next(i for i, r in enumerate(records) if r["kind"] == "round-paired")
    tables = [dict(tb) for tb in records[paired]["tables"]]
    tables[0]["seats"] = list(reversed(tables[0]["seats"]))
    report = audit_tournament(_tampered(records, paired, tables=tables))
    assert not report.ok and "pairing" in report.first_difference.problem
    # A result other than its game's, sealed again: checked against the game.
    recorded = next(i for i, r in enumerate(records) if r["kind"] == "result-recorded")
    ranking = [list(reversed([p for place in records[recorded]["ranking"] for p in place]))]
    report = audit_tournament(_tampered(records, recorded, ranking=ranking), games=games)
    assert not report.ok


def test_table_ids_in_records_are_creation_hashes(memory_app: GameLog) -> None:
    t = club_night(memory_app, rounds=1)
    games = t.pair()
    paired = t.records()[-1]
    for table in paired["tables"]:
        assert memory_app.store.records(games[table["table"]])[0]["hash"] == table["game"]
    assert all(isinstance(UUID(str(g)), UUID) for g in games.values())


def test_a_tournaments_tables_are_listed_by_its_id(memory_app: GameLog) -> None:
    from gamelog.service.index.view import GameFilter

    t = club_night(memory_app, rounds=1)
    seated, games = memory_app.tournaments.pair_round(t.tournament_id, t.director)
    memory_app.games.create_game(
        "three-too-many", ["a", "b"], metadata={"Tournament": str(t.tournament_id)}
    )
    listed = memory_app.listing.list_games(filters=GameFilter(tournament_id=str(t.tournament_id)))
    assert {g.game_id for g in listed.games} == set(games.values())
    first, second = (list(tb.seats) for tb in seated.tables)
    _, new_games = memory_app.tournaments.override_seating(
        t.tournament_id, t.director, [[second[0], *first[1:]], [first[0], *second[1:]]], [], "x"
    )
    listed = memory_app.listing.list_games(filters=GameFilter(tournament_id=str(t.tournament_id)))
    assert set(new_games.values()) <= {g.game_id for g in listed.games}


def test_a_stalled_table_of_a_duplicate_round_does_not_hold_up_the_others(
    memory_app: GameLog,
) -> None:
    t = start(memory_app, "three-too-many", 1, (4, 4), names(12), duplicate="seed", seed=b"stall")
    games = t.pair()
    for number in (1, 2):
        play_random(InProcessGame(memory_app, games[number], t.tokens), random.Random(number))
    assert not any(memory_app.queries.state_at(games[n]).is_finished for n in (1, 2))
    seats = memory_app.queries.state_at(games[3]).seats
    memory_app.tournaments.enter_result(
        t.tournament_id, t.director, 1, 3, [[p] for p in seats], "the table stopped playing"
    )
    assert all(memory_app.queries.state_at(games[n]).is_finished for n in (1, 2))
    assert not memory_app.queries.state_at(games[3]).is_finished  # still running: still private
    kinds = [r["kind"] for r in t.records()]
    assert kinds.count("result-recorded") == 2 and kinds[-1] == "result-recorded"
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    assert memory_app.tournament_queries.audit_tournament(t.tournament_id).ok


def test_a_duplicate_round_override_keeps_each_seated_player_at_their_seat_number(
    memory_app: GameLog,
) -> None:
    """The tables of one size share one deal in a duplicate round, and every
    player has seen their seat's cards since the pairing: moved to another
    seat number they would know a rival's hand. Moving tables at the same
    seat number is fine."""
    t = start(memory_app, "three-too-many", 1, (4, 4), names(8), duplicate="seed", seed=b"dup-move")
    seated, _ = memory_app.tournaments.pair_round(t.tournament_id, t.director)
    first, second = (list(tb.seats) for tb in seated.tables)
    with pytest.raises(Refused) as refused:
        memory_app.tournaments.override_seating(
            t.tournament_id, t.director, [[first[1], first[0], *first[2:]], second], [], "swap"
        )
    assert refused.value.code == "duplicate-seat-moved"
    unchanged = memory_app.tournament_queries.tournament(t.tournament_id).rounds[-1]
    assert [list(tb.seats) for tb in unchanged.tables] == [first, second]
    swapped, _ = memory_app.tournaments.override_seating(
        t.tournament_id, t.director, [[second[0], *first[1:]], [first[0], *second[1:]]], [], "ok"
    )
    assert [list(tb.seats) for tb in swapped.tables] == [
        [second[0], *first[1:]],
        [first[0], *second[1:]],
    ]


def test_a_store_from_before_the_local_ids_keeps_its_tables(tmp_path: Path) -> None:
    """Events stored before a table kept its tournament's id beside its
    record, and a tournament its origin, still load: the tag names the
    tournament here, and the tournament's own id is its origin."""
    db = tmp_path / "old.db"
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}
    app = GameLog(env=env)
    t = start(app, "three-too-many", 2, (3, 4), names(6), seed=b"old-store")
    games = t.pair()
    app.close()
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT originator_id, originator_version, state FROM stored_events "
            "WHERE topic LIKE '%Game.Created' OR topic LIKE '%Tournament.Created'"
        ).fetchall()
        kept = 0
        for originator, version, state in rows:
            old = json.loads(state)
            kept += old.pop("tournament_id", None) == str(t.tournament_id)
            kept += old.pop("origin_id", None) == str(t.tournament_id)
            connection.execute(
                "UPDATE stored_events SET state = ? "
                "WHERE originator_id = ? AND originator_version = ?",
                (json.dumps(old).encode(), originator, version),
            )
        assert kept == 1 + len(games)  # the tournament's, and each table's
    app = GameLog(env=env)
    try:
        for game_id in games.values():
            play_random(InProcessGame(app, game_id, t.tokens), random.Random(6))
        assert all(
            tb.result for tb in app.tournament_queries.tournament(t.tournament_id).rounds[0].tables
        )
        _, later = app.tournaments.pair_round(t.tournament_id, t.director)
        for game_id in later.values():
            play_random(InProcessGame(app, game_id, t.tokens), random.Random(7))
        app.tournaments.finish_tournament(t.tournament_id, t.director)
        assert app.tournament_queries.audit_tournament(t.tournament_id).ok
        archive = app.tournament_files.export_tournament(t.tournament_id, None)
        assert archive["tournament"]["tournament_id"] == str(t.tournament_id)
    finally:
        app.close()
