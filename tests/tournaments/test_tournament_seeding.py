"""Round 1 seeded by rating: the pure seating, and a tournament that records
it and audits clean (the audit re-runs the seeding from the records)."""

from __future__ import annotations

import random

import pytest

from gamelog.service.model.refusals import InvalidArgument
from gamelog.service.usecases.application import GameLog
from gamelog.tournaments.pairing import pair_round
from gamelog.tournaments.players import Player
from gamelog.tournaments.refusals import TournamentError
from gamelog.tournaments.seeding import seeded_first_round
from gamelog.tournaments.settings import Settings

from support.tournaments import start

RATINGS = {"a": 2400, "b": 2300, "c": 2200, "d": 2100, "e": 2000, "f": 1900, "g": 1800, "h": 1700}


def field(unrated: int = 0) -> list[Player]:
    rated = [Player(p, p.upper(), rating=r) for p, r in RATINGS.items()]
    return rated + [Player(f"u{n}", f"U{n}") for n in range(unrated)]


def test_two_player_tables_pair_the_top_half_against_the_bottom_half() -> None:
    players = field()
    seeded = seeded_first_round(players, [p.id for p in players], (2, 2, 2, 2), b"s")
    assert [sorted(t.seats) for t in seeded.tables] == [
        ["a", "e"],
        ["b", "f"],
        ["c", "g"],
        ["d", "h"],
    ]
    assert seeded.byes == ()


def test_larger_tables_get_the_strongest_dealt_apart_and_the_lowest_get_the_byes() -> None:
    players = field(unrated=2)  # ten players at two tables of four: two byes
    seeded = seeded_first_round(players, [p.id for p in players], (4, 4), b"s")
    assert [sorted(t.seats) for t in seeded.tables] == [["a", "d", "e", "h"], ["b", "c", "f", "g"]]
    assert sorted(seeded.byes) == ["u0", "u1"]


def test_the_same_seed_and_ratings_give_the_same_round_and_lot_orders_the_unrated() -> None:
    players = [Player(f"p{n}", f"P{n}") for n in range(6)]
    settings = Settings(rounds=3, seeding="rating")
    first = pair_round(players, (), (), settings, b"seed")
    assert first == pair_round(players, (), (), settings, b"seed")
    unseeded = pair_round(players, (), (), Settings(rounds=3), b"seed")
    # Nobody rated: the lot's order, dealt as a seeding deals it (top half v bottom half).
    order = [t.seats for t in unseeded.tables]
    flat = [p for seats in order for p in seats]
    assert sorted(tuple(sorted(t.seats)) for t in first.tables) == sorted(
        tuple(sorted((flat[i], flat[i + 3]))) for i in range(3)
    )


def test_a_round_robin_is_not_seeded_by_rating() -> None:
    with pytest.raises(TournamentError, match="round robin"):
        Settings(rounds=3, system="round-robin", seeding="rating")


def test_a_tournament_seeded_by_rating_records_it_and_audits_clean(memory_app: GameLog) -> None:
    running = start(memory_app, "three-too-many", 2, (3, 4), seeding="rating", seed=b"seeded")
    players = memory_app.tournaments.register_players(
        running.tournament_id,
        running.director,
        [{"name": name.upper(), "id": name, "rating": r} for name, r in RATINGS.items()],
    )
    running.tokens.update({p.id: p.token for p in players})
    running.play_round(random.Random(1))
    records = running.records()
    assert records[0]["seeding"] == "rating"
    paired = next(r for r in records if r["kind"] == "round-paired")
    assert [sorted(t["seats"]) for t in paired["tables"]] == [
        ["a", "d", "e", "h"],
        ["b", "c", "f", "g"],
    ]
    report = memory_app.tournament_queries.audit_tournament(running.tournament_id)
    assert report.ok, report.first_difference


def test_an_unknown_seeding_is_refused_with_its_choices(memory_app: GameLog) -> None:
    with pytest.raises(InvalidArgument, match="seeded by one of"):
        start(memory_app, "three-too-many", 2, (3, 4), seeding="elo")
