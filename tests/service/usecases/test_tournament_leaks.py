"""Leak tests: a player's token sees only its own seats' hidden information,
at any table, in any round; a token of one tournament is nobody at another's
tables; the director is the arbiter of its own tables and of nothing else."""

from __future__ import annotations

import random

import pytest

from gamelog.games.leaks import find_leaks
from gamelog.games.protocol import ARBITER
from gamelog.service.model.refusals import PermissionDenied, Unauthenticated
from gamelog.service.usecases.application import GameLog

from support.random_play import InProcessGame, play_random
from support.tournaments import Running, names, start


def _check_every_token_at_every_table(app: GameLog, t: Running, games: list) -> int:
    """For every running table and every player's token: the seat's own view
    (and records, and export) with nothing hidden from that seat in it, or
    nobody. Returns how many (token, table) pairs were seats."""
    seats_checked = 0
    for game_id in games:
        game = app.queries.state_at(game_id)
        assert not game.is_finished
        rules = game.rules
        for player, token in t.tokens.items():
            if player not in game.seats:
                with pytest.raises(Unauthenticated):
                    app.queries.view(game_id, token)
                with pytest.raises(Unauthenticated):
                    app.queries.visible_records(game_id, token)
                continue
            seats_checked += 1
            hidden = rules.hidden_from(game.state, player)
            view = app.queries.view(game_id, token)
            assert view.viewer == player
            assert view.view == rules.view(game.state, player)
            assert not find_leaks(view.view, hidden), player
            records = [s.record for s in app.queries.visible_records(game_id, token)]
            for record in records:
                assert not find_leaks(record.get("events"), hidden), (player, record["position"])
            # Other seats' moves are cut, and so are the salts of what is cut.
            for record in records:
                if record["kind"] == "move" and record["seat"] != player:
                    assert record["move"] is None and "move" not in record["salts"]
            exported = app.record_files.export(game_id, token)
            assert exported["redacted"]
            for record in exported["games"][0]["records"]:
                assert not find_leaks(record.get("events"), hidden)
        # The director sees everything: the arbiter of the table.
        assert app.queries.view(game_id, t.director).viewer == ARBITER
    return seats_checked


@pytest.mark.parametrize(("game", "size"), [("panem", (4, 4)), ("three-too-many", (3, 4))])
def test_a_player_token_sees_only_its_own_seat_at_any_table_in_any_round(
    memory_app: GameLog, game: str, size: tuple[int, int]
) -> None:
    t = start(memory_app, game, 2, size, names(8), seed=b"leaks")
    chooser = random.Random(11)
    for _ in range(2):
        games = list(t.pair().values())
        for game_id in games:
            play_random(InProcessGame(memory_app, game_id, t.tokens), chooser, 12)
        assert _check_every_token_at_every_table(memory_app, t, games) == 8
        for game_id in games:
            play_random(InProcessGame(memory_app, game_id, t.tokens), chooser)


def test_rights_never_cross_tournaments_nor_reach_other_games(memory_app: GameLog) -> None:
    first = start(memory_app, "three-too-many", 1, (4, 4), names(4), seed=b"one")
    second = start(memory_app, "three-too-many", 1, (4, 4), names(4), seed=b"two")
    # The same player ids in both tournaments: the tokens still differ.
    assert set(first.tokens) == set(second.tokens)
    first_games = list(first.pair().values())
    second_games = list(second.pair().values())
    for game_id in first_games:
        for token in [second.director, *second.tokens.values()]:
            with pytest.raises(Unauthenticated):
                memory_app.queries.view(game_id, token)
    for game_id in second_games:
        for token in [first.director, *first.tokens.values()]:
            with pytest.raises(Unauthenticated):
                memory_app.queries.view(game_id, token)
    # A game outside the tournament, even one tagged with its id, is not its table.
    for metadata in ({}, {"Tournament": str(first.tournament_id)}):
        other = memory_app.games.create_game(
            "three-too-many", sorted(first.tokens), metadata=metadata
        )
        for token in [first.director, *first.tokens.values()]:
            with pytest.raises(Unauthenticated):
                memory_app.queries.view(other.game_id, token)
            with pytest.raises(Unauthenticated):
                memory_app.games.play(other.game_id, token, {"card": 1}, 0)


def test_a_player_moves_only_for_their_own_seat(memory_app: GameLog) -> None:
    t = start(memory_app, "three-too-many", 1, (4, 4), names(4), seed=b"moves")
    game_id = next(iter(t.pair().values()))
    game = memory_app.queries.state_at(game_id)
    to_act = game.rules.to_act(game.state)[0]
    move = game.rules.legal_moves(game.state, to_act)[0]
    other = next(p for p in game.seats if p != to_act)
    with pytest.raises(PermissionDenied):
        memory_app.games.play(game_id, t.tokens[other], move, 0)
    played = memory_app.games.play(game_id, t.tokens[to_act], move, 0)
    assert played.seat == to_act


def test_a_seating_override_deals_its_new_tables_afresh(memory_app: GameLog) -> None:
    """A player moved away by an override has seen their old seat's deal: the
    player now in that seat must not hold it."""
    t = start(memory_app, "three-too-many", 1, (4, 4), names(8), seed=b"override")
    seated, games = memory_app.tournaments.pair_round(t.tournament_id, t.director)
    first, second = (list(tb.seats) for tb in seated.tables)
    moved, arriving = first[0], second[0]
    seen = memory_app.queries.view(games[1], t.tokens[moved]).view["hand"]
    _, new_games = memory_app.tournaments.override_seating(
        t.tournament_id, t.director, [[arriving, *first[1:]], [moved, *second[1:]]], [], "swap"
    )
    assert memory_app.queries.view(new_games[1], t.tokens[arriving]).view["hand"] != seen
    for game_id in new_games.values():
        play_random(InProcessGame(memory_app, game_id, t.tokens), random.Random(5))
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    assert memory_app.tournament_queries.audit_tournament(t.tournament_id).ok
