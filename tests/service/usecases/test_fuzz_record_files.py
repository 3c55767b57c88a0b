"""Record files are untrusted input: fuzzing ImportGame with mutated real exports.

Hypothesis takes real record files of every game (a finished game with a
branch) and breaks them the ways a careless tool or an attacker would: a
field's type changed, a field dropped or added, records dropped, duplicated or
reordered, a parent forged, a section blown up. Whatever the file, the import
stores the whole file or nothing, answers a clear refusal (never INTERNAL), and
every *other* game stays listable, its tree and its export intact.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gamelog.cli.client import ApiError, Client
from gamelog.cli.process import ServerProcess
from gamelog.games import all_rules
from gamelog.service.usecases.answers import CreatedGame
from gamelog.service.usecases.application import GameLog

from support.random_play import InProcessGame, play_random

REFUSALS = {"INVALID_ARGUMENT", "FAILED_PRECONDITION", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED"}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def exports(sqlite_server: ServerProcess) -> Iterator[tuple[Client, list[dict[str, Any]], str]]:
    """One real record file per game (a finished game and a finished branch
    forked from it), made in process for speed, and a bystander game on the
    server that must never suffer."""
    app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    files = []
    for rules in all_rules():
        seats = [f"s{i + 1}" for i in range(max(2, rules.min_players))]
        created = app.games.create_game(rules.name, seats, seed=b"\x0a\x0b\x0c")
        finish(app, created)
        fork = app.games.fork(created.game_id, None, 1)  # a finished game's fork is open to all
        finish(app, fork)
        files.append(app.record_files.export(created.game_id, None))
    app.close()
    client = sqlite_server.client()
    bystander = client.create("three-too-many", ["ann", "ben"]).game_id
    yield client, files, bystander
    client.close()


def finish(app: GameLog, created: CreatedGame) -> None:
    """Random legal moves to the end; a freeform game gets a few moves and a result."""
    play_random(InProcessGame.of(app, created), random.Random(5), freeform_seats_until=3)
    assert app.queries.state_at(created.game_id).is_finished


def json_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (dict keys and list indexes)."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from json_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from json_paths(item, (*path, index))


def parent_of(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        data = data[key]
    return data


@st.composite
def mutated(draw: st.DrawFn, files: list[dict[str, Any]]) -> dict[str, Any]:
    data = copy.deepcopy(draw(st.sampled_from(files)))
    games = data["games"]
    kind = draw(
        st.sampled_from(
            [
                "retype",
                "drop-field",
                "add-field",
                "drop-record",
                "duplicate-record",
                "swap-records",
                "forge-parent",
                "oversize",
                "drop-game",
                "duplicate-game",
            ]
        )
    )
    event(kind)
    game = draw(st.sampled_from(games))
    records = game["records"]
    if kind == "retype":
        paths = [p for p in json_paths(data) if p]
        path = draw(st.sampled_from(paths))
        parent_of(data, path)[path[-1]] = draw(JSON_VALUES)
    elif kind in ("drop-field", "add-field"):
        record = draw(st.sampled_from(records))
        if kind == "drop-field":
            del record[draw(st.sampled_from(sorted(record)))]
        else:
            record[draw(st.text(min_size=1, max_size=8))] = draw(JSON_VALUES)
    elif kind == "drop-record" and len(records) > 1:
        del records[draw(st.integers(0, len(records) - 1))]
    elif kind == "duplicate-record":
        index = draw(st.integers(0, len(records) - 1))
        records.insert(index, copy.deepcopy(records[index]))
    elif kind == "swap-records" and len(records) > 1:
        i, j = draw(st.lists(st.integers(0, len(records) - 1), min_size=2, max_size=2, unique=True))
        records[i], records[j] = records[j], records[i]
    elif kind == "forge-parent":
        records[0]["parent"] = {
            "game_id": draw(st.sampled_from([g["game_id"] for g in games] + ["elsewhere"])),
            "position": draw(st.integers(0, 5)),
            "hash": draw(st.sampled_from([r["hash"] for r in records])),
        }
    elif kind == "oversize":
        target = draw(st.sampled_from(["metadata", "seats", "events"]))
        if target == "metadata":
            records[0]["metadata"] = {f"T{i}": "v" * 10 for i in range(draw(st.integers(33, 500)))}
        elif target == "seats":
            records[0]["seats"] = [f"p{i}" for i in range(draw(st.integers(6, 40)))]
        else:
            records[-1].setdefault("events", []).extend([{"type": "X", "pad": "y" * 1000}] * 50)
    elif kind == "drop-game" and len(games) > 1:
        games.pop(0)
    elif kind == "duplicate-game":
        games.append(copy.deepcopy(game))
    elif kind == "drop-branch" and len(games) > 1:
        games.pop()
    return data


@given(data=st.data())
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_a_mutated_record_file_imports_whole_or_not_at_all(
    exports: tuple[Client, list[dict[str, Any]], str], data: st.DataObject
) -> None:
    client, files, bystander = exports
    file = data.draw(mutated(files))
    before = len(client.games(10_000))
    try:
        response = client.import_file(json.loads(json.dumps(file)))
    except ApiError as error:
        event(f"refused: {error.reason}")
        assert error.code in REFUSALS, error
        assert error.reason and error.message
        assert len(client.games(10_000)) == before, "a refused import stored nothing"
    else:
        event("stored")
        stored = len(response.games)
        assert stored == len(file["games"]) == len(response.id_map)
        assert len(client.games(10_000)) == before + stored
        for game in response.games:
            assert client.audit(game.game_id).ok
    listed = [g.game_id for g in client.games(10_000)]
    assert bystander in listed
    assert client.tree(bystander).root_game_id == bystander
    assert client.export(bystander)["games"][0]["game_id"] == bystander
