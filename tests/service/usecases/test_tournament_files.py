"""Tournament archives: a tournament and every table's game in one file,
exported by anyone once it is finished (by its director while it runs), and
imported on any server whole or not at all, audited, under a new id.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from uuid import UUID

import pytest

import gamelog.service.usecases.tournament_commands as tournaments_module
import gamelog.service.usecases.tournament_input as tournament_input
from gamelog.cli.client import ApiError
from gamelog.cli.process import GAMELOG, start_server_process
from gamelog.cli.tournament_client import TournamentClient
from gamelog.games.protocol import ARBITER
from gamelog.replay.tournament_audit import audit_tournament
from gamelog.service.index.view import GameFilter
from gamelog.service.model.refusals import (
    GamelogError,
    InvalidArgument,
    PermissionDenied,
    Refused,
    Unauthenticated,
)
from gamelog.service.usecases.answers import CreatedGame
from gamelog.service.usecases.application import GameLog

from support.cli import gamelog_json
from support.random_play import InProcessGame, play_random
from support.tournaments import SEVEN, club_night, standings_from_records, start

MEMORY = {"PERSISTENCE_MODULE": "eventsourcing.popo"}


@pytest.fixture
def elsewhere() -> Iterator[GameLog]:
    """The server the archives are imported into."""
    application = GameLog(env=MEMORY)
    yield application
    application.close()


def running_archive(app: GameLog) -> tuple[UUID, dict[str, Any]]:
    """A tournament in ``app`` with round 1 paired and one table half
    played, and its director's archive (seeds and all): it can go on elsewhere."""
    t = start(app, "three-too-many", 2, (3, 4), SEVEN, seed=b"the-real-one", name="Open")
    games = t.pair()
    play_random(InProcessGame(app, games[1], t.tokens), random.Random(1), 4)
    archive = app.tournament_files.export_tournament(t.tournament_id, t.director)
    return t.tournament_id, json.loads(json.dumps(archive))


def forged_archive(origin: UUID, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What anyone can make: a tournament of their own, created under
    ``origin`` in a store of their own, with a round paired (its table's
    hashed tag names ``origin``), the real players' names registered, and
    exported whole. It audits clean."""
    forge = GameLog(env=MEMORY)
    with monkeypatch.context() as patched:
        patched.setattr(tournaments_module, "uuid", SimpleNamespace(uuid4=lambda: origin))
        created = forge.tournaments.create_tournament(
            "Open", "three-too-many", 1, (3, 4), seed=b"mine"
        )
    assert created.tournament_id == origin
    forge.tournaments.register_players(origin, created.director_token, [{"name": n} for n in SEVEN])
    forge.tournaments.pair_round(origin, created.director_token)
    archive = json.loads(
        json.dumps(forge.tournament_files.export_tournament(origin, created.director_token))
    )
    forge.close()
    assert archive["tournament"]["tournament_id"] == str(origin)
    return archive


def tables_listed(app: GameLog, tournament_id: UUID | str) -> set[UUID]:
    listed = app.listing.list_games(filters=GameFilter(tournament_id=str(tournament_id)))
    return {g.game_id for g in listed.games}


def play_round(
    app: GameLog, tournament_id: UUID, tokens: dict[str, str], chooser: random.Random
) -> None:
    """Every open table of the round paired last, through the players' tokens."""
    for table in app.tournament_queries.tournament(tournament_id).rounds[-1].tables:
        assert table.game_id is not None
        play_random(InProcessGame(app, table.game_id, tokens), chooser)


# -- whole or not at all -------------------------------------------------------------


def test_an_archive_imports_elsewhere_whole_or_not_at_all(memory_app: GameLog) -> None:
    t = club_night(memory_app, rounds=2)
    chooser = random.Random(10)
    t.play_round(chooser)
    t.play_round(chooser)
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    archive = json.loads(
        json.dumps(memory_app.tournament_files.export_tournament(t.tournament_id, None))
    )
    other = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    imported = other.tournament_files.import_tournament(archive)
    # A new id there, as its games get; its records still name the old one.
    assert imported.tournament_id != t.tournament_id
    assert [r.points for r in other.tournament_queries.standings(imported.tournament_id)] == [
        r.points for r in memory_app.tournament_queries.standings(t.tournament_id)
    ]
    assert other.tournament_queries.audit_tournament(imported.tournament_id).ok
    # New tokens there: the new director is the arbiter of the imported tables.
    new_game = next(iter(imported.id_map.values()))
    assert other.queries.view(new_game, imported.director_token).viewer == ARBITER
    # Imported again: another tournament, under another id.
    again = other.tournament_files.import_tournament(archive)
    assert again.tournament_id not in (t.tournament_id, imported.tournament_id)
    # A changed result in an archive does not import.
    forged = json.loads(json.dumps(archive))
    for record in forged["tournament"]["records"]:
        if record["kind"] == "result-recorded":
            record["ranking"] = list(reversed(record["ranking"]))
            break
    third = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    with pytest.raises(Refused, match="audit"):
        third.tournament_files.import_tournament(forged)
    with pytest.raises(Exception):  # noqa: B017 - nothing of it was stored
        third.tournament_queries.tournament(t.tournament_id)
    other.close()
    third.close()


def test_a_running_tournaments_archive_is_the_directors(memory_app: GameLog) -> None:
    t = club_night(memory_app, rounds=2)
    games = t.pair()
    play_random(InProcessGame(memory_app, games[1], t.tokens), random.Random(1), 5)
    with pytest.raises(PermissionDenied):
        memory_app.tournament_files.export_tournament(t.tournament_id, None)
    archive = json.loads(
        json.dumps(memory_app.tournament_files.export_tournament(t.tournament_id, t.director))
    )
    other = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    imported = other.tournament_files.import_tournament(archive)
    # It goes on there: the players' new tokens play on.
    new_id = imported.id_map[str(games[1])]
    game = other.queries.state_at(new_id)
    seat = game.rules.to_act(game.state)[0]
    move = game.rules.legal_moves(game.state, seat)[0]
    other.games.play(new_id, imported.player_tokens[seat], move, game.position)
    other.close()


def test_an_archive_with_a_game_twice_is_refused_whole(memory_app: GameLog) -> None:
    """A second copy of a table's game under another id would be stored as a
    game of the tournament that none of its records names."""
    t = start(memory_app, "three-too-many", 1, (3, 4), SEVEN[:5], seed=b"twice")
    t.play_round(random.Random(1))
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    archive = json.loads(
        json.dumps(memory_app.tournament_files.export_tournament(t.tournament_id, None))
    )
    copy = json.loads(json.dumps(archive["games"][0]))
    copy["game_id"] = "a-second-copy"
    archive["games"].append(copy)
    other = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    with pytest.raises(Refused, match="twice"):
        other.tournament_files.import_tournament(archive)
    assert other.listing.list_games().games == []
    other.close()


def test_a_damaged_archive_is_refused_with_a_reason_never_a_crash(memory_app: GameLog) -> None:
    """Any field of the tournament's records replaced by junk: a refusal."""
    t = start(memory_app, "three-too-many", 1, (3, 4), SEVEN[:5], seed=b"fuzz")
    t.play_round(random.Random(1))
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    archive = json.loads(
        json.dumps(memory_app.tournament_files.export_tournament(t.tournament_id, None))
    )

    def paths(value: Any, path: tuple[Any, ...] = ()) -> Any:
        yield path
        if isinstance(value, dict | list):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                yield from paths(item, (*path, key))

    junk = [None, True, 0, -1, 2**50, "", "x", [], {}, [1], {"a": 1}, "0" * 64, [[]]]
    where = [p for p in paths(archive["tournament"]) if p]
    chooser = random.Random(2)
    other = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    for _ in range(150):
        damaged = json.loads(json.dumps(archive))
        path = chooser.choice(where)
        node = damaged["tournament"]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = chooser.choice(junk)
        if path[-1] == "timestamp" or damaged == archive:
            continue
        with pytest.raises(GamelogError) as refused:
            other.tournament_files.import_tournament(damaged)
        assert refused.value.code and refused.value.message
    other.close()


# -- a new id in this store ----------------------------------------------------------

# Tournament ids are public, and anyone can build an archive that audits clean
# under any id (the hashes are anyone's to compute, the seed anyone's to pick).
# So an import never takes the archive's id: it gets a new one, as every
# imported game does, and keeps the archive's (its *origin*) for what is hashed
# and exported. These tests make that hold through the service, and through the
# real server and CLI.


def test_an_archive_forged_under_a_real_tournaments_id_squats_nothing(
    memory_app: GameLog, elsewhere: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_id, real = running_archive(memory_app)
    forged = forged_archive(real_id, monkeypatch)
    # The forger imports first: that gives the forger a tournament of their own.
    squat = elsewhere.tournament_files.import_tournament(forged)
    assert squat.tournament_id != real_id
    # The real director's import still goes through, under a new id.
    mine = elsewhere.tournament_files.import_tournament(real)
    assert mine.tournament_id not in (real_id, squat.tournament_id)
    assert elsewhere.tournament_queries.tournament(mine.tournament_id).settings["rounds"] == 2
    assert elsewhere.tournament_queries.tournament(squat.tournament_id).settings["rounds"] == 1
    # The forger's tokens are nobody in the real one: not its director, not
    # a player at its tables (the player ids are the same: the names are).
    table = next(iter(mine.id_map.values()))
    assert set(elsewhere.queries.state_at(table).seats) <= set(squat.player_tokens)
    for token in [squat.director_token, *squat.player_tokens.values()]:
        assert elsewhere.access.viewer_or_spectator(table, token) is None
        with pytest.raises(Unauthenticated):
            elsewhere.tournaments.pair_round(mine.tournament_id, token)
        with pytest.raises((PermissionDenied, Unauthenticated)):
            elsewhere.tournament_files.export_tournament(mine.tournament_id, token)
    game = elsewhere.queries.state_at(table)
    seat = game.rules.to_act(game.state)[0]
    move = game.rules.legal_moves(game.state, seat)[0]
    with pytest.raises(Unauthenticated):
        elsewhere.games.play(table, squat.player_tokens[seat], move, game.position)
    # And the other way round: the real director is nobody at the forger's tables.
    forged_table = next(iter(squat.id_map.values()))
    assert elsewhere.access.viewer_or_spectator(forged_table, mine.director_token) is None
    assert elsewhere.access.viewer_or_spectator(table, mine.director_token) == ARBITER
    # Each lists its own tables, and nothing is listed under the shared origin.
    assert tables_listed(elsewhere, mine.tournament_id) == set(mine.id_map.values())
    assert tables_listed(elsewhere, squat.tournament_id) == set(squat.id_map.values())
    assert tables_listed(elsewhere, real_id) == set()
    # The real players play on at their tables; their results reach the real
    # import only.
    play_round(elsewhere, mine.tournament_id, mine.player_tokens, random.Random(2))
    assert all(
        row.played == 1 for row in elsewhere.tournament_queries.standings(mine.tournament_id)
    )
    assert all(
        row.played == 0 for row in elsewhere.tournament_queries.standings(squat.tournament_id)
    )


def test_an_imported_running_tournament_goes_on_and_exports_under_its_origin_id(
    memory_app: GameLog, elsewhere: GameLog
) -> None:
    real_id, archive = running_archive(memory_app)
    imported = elsewhere.tournament_files.import_tournament(archive)
    here = imported.tournament_id
    assert here != real_id
    # The imported tables are listed under the id here.
    round_1 = set(imported.id_map.values())
    assert tables_listed(elsewhere, here) == round_1
    # The players' tokens from the import play their tables to the end
    # (the half-played one included); each result reaches the tournament.
    chooser = random.Random(3)
    play_round(elsewhere, here, imported.player_tokens, chooser)
    seated = elsewhere.tournament_queries.tournament(here).rounds[0]
    assert all(table.result and table.result["source"] == "game" for table in seated.tables)
    assert sum(row.played for row in elsewhere.tournament_queries.standings(here)) == len(
        SEVEN
    ) - len(seated.byes)
    # The director paired round 2 here: its tables name the origin in
    # their hashed tag, and belong to the tournament here.
    _, games = elsewhere.tournaments.pair_round(here, imported.director_token)
    for game_id in games.values():
        tags = elsewhere.queries.state_at(game_id).record_created["metadata"]
        assert tags["Tournament"] == str(real_id) and tags["Round"] == "2"
    assert tables_listed(elsewhere, here) == round_1 | set(games.values())
    play_round(elsewhere, here, imported.player_tokens, chooser)
    assert all(t.result for t in elsewhere.tournament_queries.tournament(here).rounds[1].tables)
    finished = elsewhere.tournaments.finish_tournament(here, imported.director_token)
    # The standings are the records' own (recomputed with the revealed seed).
    records = elsewhere.tournament_queries.tournament_records(here)
    mine = standings_from_records(records, bytes.fromhex(finished["seed"]))
    live = elsewhere.tournament_queries.standings(here)
    assert [(r.player, r.points) for r in live] == [
        (r.player, row["points"]) for r, row in zip(mine, finished["standings"], strict=True)
    ]
    assert [r.player for r in mine] == [r.player for r in live]
    assert elsewhere.tournament_queries.audit_tournament(here).ok
    # Its archive names the origin, audits clean, and imports once more,
    # under yet another id.
    again = json.loads(json.dumps(elsewhere.tournament_files.export_tournament(here, None)))
    assert again["tournament"]["tournament_id"] == str(real_id)
    by_hash = {g["records"][0]["hash"]: g["records"] for g in again["games"]}
    plain = [{k: v for k, v in r.items() if k != "timestamp"} for r in records]
    assert audit_tournament(plain, games=by_hash, tournament_id=str(real_id)).ok
    third = GameLog(env=MEMORY)
    moved = third.tournament_files.import_tournament(again)
    assert moved.tournament_id not in (real_id, here)
    assert [
        (r.player, r.points) for r in third.tournament_queries.standings(moved.tournament_id)
    ] == [(r.player, r.points) for r in live]
    assert third.tournament_queries.audit_tournament(moved.tournament_id).ok
    third.close()


def test_one_archive_imported_twice_makes_two_tournaments(
    memory_app: GameLog, elsewhere: GameLog
) -> None:
    real_id, archive = running_archive(memory_app)
    first = elsewhere.tournament_files.import_tournament(archive)
    second = elsewhere.tournament_files.import_tournament(archive)
    assert len({real_id, first.tournament_id, second.tournament_id}) == 3
    assert not set(first.id_map.values()) & set(second.id_map.values())
    # One's tokens are nobody in the other.
    for one, other in ((first, second), (second, first)):
        table = next(iter(other.id_map.values()))
        assert elsewhere.access.viewer_or_spectator(table, one.director_token) is None
        assert elsewhere.access.viewer_or_spectator(table, other.director_token) == ARBITER
    # A round played in one leaves the other where it was.
    play_round(elsewhere, first.tournament_id, first.player_tokens, random.Random(4))
    assert sum(r.played for r in elsewhere.tournament_queries.standings(first.tournament_id)) > 0
    assert sum(r.played for r in elsewhere.tournament_queries.standings(second.tournament_id)) == 0
    assert tables_listed(elsewhere, first.tournament_id) == set(first.id_map.values())
    assert tables_listed(elsewhere, second.tournament_id) == set(second.id_map.values())


def test_a_game_naming_an_imported_tournament_is_none_of_its_tables(
    memory_app: GameLog, elsewhere: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Naming a tournament, by its id here or its origin, grants nothing:
    neither a game tagged so, nor a single table's record file imported on
    its own, is a table of the tournament here."""
    real_id, archive = running_archive(memory_app)
    imported = elsewhere.tournament_files.import_tournament(archive)
    table = next(iter(imported.id_map.values()))
    seats = elsewhere.queries.state_at(table).seats
    record_file = elsewhere.record_files.export(table, imported.director_token)
    loose: list[CreatedGame] = [
        elsewhere.games.create_game("three-too-many", seats, metadata={"Tournament": str(named)})
        for named in (imported.tournament_id, real_id)
    ]
    loose += elsewhere.record_files.import_record_file(record_file).games
    # Not even read: a tag is no reason to load a tournament (a caller
    # with a wrong token could otherwise make the server fold a big one).
    read: list[UUID] = []
    reading = elsewhere.store.tournament

    def counted(tournament_id: UUID) -> Any:
        read.append(tournament_id)
        return reading(tournament_id)

    monkeypatch.setattr(elsewhere.store, "tournament", counted)
    for game in loose:
        for token in [imported.director_token, *imported.player_tokens.values()]:
            assert elsewhere.access.viewer_or_spectator(game.game_id, token) is None
    assert read == []
    monkeypatch.undo()
    # The copy of the table plays to its end; the tournament records nothing of it.
    copy = loose[-1]
    play_random(InProcessGame(elsewhere, copy.game_id, copy.tokens), random.Random(5))
    assert elsewhere.queries.state_at(copy.game_id).is_finished
    assert all(
        row.played == 0 for row in elsewhere.tournament_queries.standings(imported.tournament_id)
    )
    assert tables_listed(elsewhere, imported.tournament_id) == set(imported.id_map.values())


# -- through the server and the CLI ---------------------------------------------------


@pytest.mark.e2e
def test_a_squatted_id_does_not_stop_the_real_import_through_the_cli(tmp_path: Path) -> None:
    origin = start_server_process(tmp_path, "--memory")
    target = start_server_process(tmp_path, "--memory")
    try:
        with TournamentClient(origin.address) as client:
            created = client.create_tournament("Open", "three-too-many", 2, (3, 4))
            real_id, director = created.tournament_id, created.director_token
            client.register(real_id, SEVEN, director)
            client.pair(real_id, director)
            real = client.export_tournament(real_id, director)
            # The squat: a tournament with no table yet binds no id in its
            # records, so its archive may name any id it likes.
            squatter = client.create_tournament("Open", "three-too-many", 1, (3, 4))
            # A tournament created here is its own origin.
            assert client.tournament(squatter.tournament_id).origin_id == squatter.tournament_id
            client.register(squatter.tournament_id, SEVEN, squatter.director_token)
            forged = client.export_tournament(squatter.tournament_id, squatter.director_token)
        forged["tournament"]["tournament_id"] = real_id
        (tmp_path / "forged.json").write_text(json.dumps(forged))
        (tmp_path / "real.json").write_text(json.dumps(real))
        squat = gamelog_json(target, "import", str(tmp_path / "forged.json"))
        mine = gamelog_json(target, "import", str(tmp_path / "real.json"))
        assert squat["tournament_id"] != real_id and squat["origin_id"] == real_id
        assert mine["tournament_id"] not in (real_id, squat["tournament_id"])
        assert mine["origin_id"] == real_id
        here = mine["tournament_id"]
        assert gamelog_json(target, "tournament", "show", here)["origin_id"] == real_id
        shown_text = subprocess.run(
            [*GAMELOG, "tournament", "show", here, "--server", target.address],
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
        assert f"imported: created as {real_id}" in shown_text
        # The static site names the id its records and tags name.
        site = tmp_path / "site"
        export = ["tournament", "export", here, "--html", str(site), "--server", target.address]
        subprocess.run(
            [*GAMELOG, *export],
            check=True,
            capture_output=True,
            timeout=120,
        )
        footer = (site / "index.html").read_text()
        assert f"Tournament {real_id}:" in footer and here not in footer
        with TournamentClient(target.address) as client:
            summaries = client.games(tournament_id=here)
            listed = {g.game_id for g in summaries}
            assert listed == set(mine["id_map"].values())
            # Each names the tournament here, whatever its tag names.
            assert {(g.tournament_id, g.metadata["Tournament"]) for g in summaries} == {
                (here, real_id)
            }
            assert client.games(tournament_id=real_id) == []
            # A player's token from the import moves at their table there;
            # the squatter's token for the same player id does not.
            table = next(iter(listed))
            state = client.state(table)
            seat = state.to_act[0]
            move = client.legal_moves(table, mine["player_tokens"][seat])[0]
            with pytest.raises(ApiError) as refused:
                client.play(table, move, state.position, squat["player_tokens"][seat])
            assert refused.value.code == "UNAUTHENTICATED"
            client.play(table, move, state.position, mine["player_tokens"][seat])
            shown = client.tournament(here)
            assert (shown.name, shown.tournament_id, shown.origin_id) == ("Open", here, real_id)
            again = client.export_tournament(here, mine["director_token"])
            assert again["tournament"]["tournament_id"] == real_id
    finally:
        origin.stop()
        target.stop()


def test_an_archive_holds_no_more_players_than_registration_allows(
    memory_app: GameLog, elsewhere: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Registration stops at MAX_PLAYERS; an archive anyone can build (its
    hashes are anyone's to compute) did not, so one 32 MiB import seated
    some 80,000 players, took minutes to store, and every GetStandings of it
    (which anyone may ask, and the web page does) cost seconds."""
    most = 50
    monkeypatch.setattr(tournament_input, "MAX_PLAYERS", most + 1)
    t = start(memory_app, "three-too-many", 1, (2, 2), [f"P{n}" for n in range(most + 1)])
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    archive = json.loads(
        json.dumps(memory_app.tournament_files.export_tournament(t.tournament_id, None))
    )
    monkeypatch.setattr(tournament_input, "MAX_PLAYERS", most)
    with pytest.raises(InvalidArgument) as refused:
        elsewhere.tournament_files.import_tournament(archive)
    assert refused.value.code == "too-many-players"
    assert elsewhere.listing.list_games().games == []
    monkeypatch.setattr(tournament_input, "MAX_PLAYERS", most + 1)
    elsewhere.tournament_files.import_tournament(archive)  # within the limit it imports


def test_an_archive_plays_no_more_rounds_than_creation_allows(
    memory_app: GameLog, elsewhere: GameLog
) -> None:
    """Creation allows MAX_ROUNDS; an archive's own creation record may not
    plan more (it allowed 1,000), whatever its hashes say."""
    from gamelog.tournaments.refusals import TournamentError
    from gamelog.tournaments.settings import MAX_ROUNDS, Settings

    t = start(memory_app, "three-too-many", 1, (2, 2), ["P1", "P2"])
    memory_app.tournaments.finish_tournament(t.tournament_id, t.director)
    archive = json.loads(
        json.dumps(memory_app.tournament_files.export_tournament(t.tournament_id, None))
    )
    created = archive["tournament"]["records"][0]
    created["rounds"] = MAX_ROUNDS + 1
    with pytest.raises(InvalidArgument) as refused:
        elsewhere.tournament_files.import_tournament(archive)
    assert f"1 to {MAX_ROUNDS}" in refused.value.message
    assert elsewhere.listing.list_games().games == []
    with pytest.raises(TournamentError):
        Settings(rounds=MAX_ROUNDS + 1)
