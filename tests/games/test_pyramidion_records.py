"""Pyramidion for readers and client authors: the notation each reader sees,
the picture, the text board, the schemas over whole games, and self-play
through the ``gamelog`` command against a real server."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import jsonschema
import pytest
from test_pyramidion import BLUES_BOAT, TEST_SET, Table, blue_ready

from gamelog.cli.process import ServerProcess
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, Viewer
from gamelog.games.pyramidion import RULES
from gamelog.service.usecases.application import GameLog

from support.cli import gamelog_json

SVG = "{http://www.w3.org/2000/svg}"
BLUES_LOAD = {
    "load": 1,
    "fetch": [{"location": "cairo", "resource": "camel"}],
    "statue_for": ["food"],
}


def blues_boat_loaded(memory_app: GameLog, players: int = 3) -> Table:
    table = Table(memory_app, players)
    blue_ready(table)
    table.declare("red", "draw", cards=3)
    table.declare("red", "play", location="gizeh", cards=2)
    table.to_loading((BLUES_BOAT, 4))
    table.play("blue", BLUES_LOAD)
    return table


def lines_for(memory_app: GameLog, table: Table, viewer: Viewer) -> list[str]:
    """The notation of every record as ``viewer`` may read it."""
    token = None if viewer is None else table.token(viewer)
    records = [shown.record for shown in memory_app.queries.visible_records(table.id, token)]
    lines = [
        RULES.notate(
            memory_app.queries.state_at(table.id, 0).state, None, None, records[0]["events"]
        )
    ]
    for record in records[1:]:
        if record["kind"] != "move":
            continue
        before = memory_app.queries.state_at(table.id, record["position"] - 1).state
        lines.append(RULES.notate(before, record["seat"], record["move"], record["events"]))
    return lines


def test_notation_marks_declared_lines_and_hides_what_the_reader_may_not_see(
    memory_app: GameLog,
) -> None:
    table = blues_boat_loaded(memory_app)
    spectator = lines_for(memory_app, table, None)
    assert spectator[0] == (
        "deal: order blue, red, yellow; playing to 10 points; boats declared by the arbiter"
    )
    assert "declared: red plays 2 cards to Gizeh" in spectator
    assert "declared: blue gains 1 camel, 1 statue, 2 stones and 1 worker from the supply" in (
        spectator
    )
    assert "declared: Cairo produces camel" in spectator
    assert "declared: the arbiter turns up boat 1 (2 camels, 1 food, 2 stones and 1 worker)" in (
        spectator
    )
    assert (
        "declared: yellow is done with phases 1 to 5; phase 6: player order unchanged, "
        "blue, red, yellow"
    ) in spectator
    assert spectator[-2] == "declared: the arbiter confirms the display; phase 7 begins"
    load = (
        "blue loads boat 1 (2 camels, 1 food, 2 stones and 1 worker): a troop in Cairo fetches "
        "1 camel and a statue as food, 6 resources back to the supply"
    )
    end = "phase 8: round 1 ends, nobody has 10 points; most troops: blue (+1 point)"
    assert spectator[-1] == f"{load}; {end}"
    assert (
        lines_for(memory_app, table, "blue")[-1]
        == f"{load} (4 points); {end}; secret count: blue 5"
    )
    assert lines_for(memory_app, table, "red")[-1] == f"{load}; {end}; secret count: red 0"
    arbiter = lines_for(memory_app, table, ARBITER)
    assert "points (card declared-1)" in " ".join(arbiter)
    assert "secret count: blue 5, red 0, yellow 0" in arbiter[-1]
    for viewer in ("red", "yellow", None):
        text = " ".join(lines_for(memory_app, table, viewer))
        assert "declared-1" not in text and "4 points" not in text


def test_notation_of_the_end_names_the_places(memory_app: GameLog) -> None:
    table = Table(memory_app, 2)
    table.declare("red", "gain", resources={"stone": 1})
    table.to_loading(({"stone": 1}, 10))
    table.play("blue", {"pass": True})
    table.play("red", {"load": 1})
    last = lines_for(memory_app, table, None)[-1]
    assert last == (
        # The game is over: its whole record is public, points included.
        "red loads boat 1 (1 stone), 1 resource back to the supply (10 points); phase 8: "
        "round 1 ends the "
        "game; boats revealed (1 loaded boat); result: 1. red 10, 2. blue 0"
    )


def svg_of(memory_app: GameLog, table: Table, viewer: Viewer) -> ET.Element:
    picture = RULES.render_svg(table.state, viewer)
    assert "<script" not in picture and "href" not in picture
    return ET.fromstring(picture)


def found(root: ET.Element, kind: str, **data: str) -> list[ET.Element]:
    return [
        element
        for element in root.iter(f"{SVG}g")
        if kind in (element.get("class") or "").split()
        and all(element.get(f"data-{k.replace('_', '-')}") == v for k, v in data.items())
    ]


def test_the_picture_shows_the_table_and_hides_the_points(memory_app: GameLog) -> None:
    table = Table(memory_app, 3)
    blue_ready(table)
    table.declare("blue", "activate", location="gizeh")
    table.declare("red", "draw", cards=3)
    table.declare("red", "play", location="gizeh", cards=2)
    table.to_loading((BLUES_BOAT, 4), ({"camel": 1}, 2))
    root = svg_of(memory_app, table, None)
    assert found(root, "location", location="gizeh", activated_by="blue")
    assert found(root, "troops", seat="blue", count="1")
    assert found(root, "cards", seat="red", count="2")
    assert len(found(root, "boat")) == 2 and found(root, "boat", boat="1")
    assert [g.get("data-seat") for g in found(root, "order")] == ["blue", "red", "yellow"]
    assert found(root, "seat", seat="blue")
    text = " ".join(root.itertext())
    assert "? pts" in text and "4 pts" not in text
    assert "4 pts" in " ".join(svg_of(memory_app, table, ARBITER).itertext())

    table.play("blue", BLUES_LOAD)
    for viewer in ("red", None):
        root = svg_of(memory_app, table, viewer)
        blue = found(root, "seat", seat="blue")[0]
        backs = found(blue, "face-down")
        assert len(backs) == 1 and backs[0].get("data-boat") is None
        everything = " ".join(root.itertext()) + json.dumps([e.attrib for e in root.iter()])
        assert "declared-1" not in everything
    own = found(svg_of(memory_app, table, "blue"), "loaded", boat="1")
    assert own and "4" in " ".join(own[0].itertext())


def test_text_board_speaks_plainly_to_every_viewer(memory_app: GameLog) -> None:
    table = blues_boat_loaded(memory_app)
    for viewer in ("blue", "red", None, ARBITER):
        board = RULES.render_text(table.state, viewer)
        assert "partly refereed" in board
        assert not re.search(r"[{}\[\]']", board), board
    assert "boat 1 (2 camels, 1 food, 2 stones and 1 worker) 4 points" in RULES.render_text(
        table.state, "blue"
    )
    assert "1 boat face down" in RULES.render_text(table.state, "red")


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"goal": "all-boats"}), (4, {}), (5, {"components": TEST_SET})],
)
def test_whole_games_keep_to_the_schemas(players: int, options: dict[str, Any]) -> None:
    schemas = RULES.schemas()
    check = {part: jsonschema.Draft202012Validator(schemas[part]) for part in schemas}
    seats = tuple(f"p{i + 1}" for i in range(players))
    line = play_out(RULES, seats, seed=players, options=options)
    assert RULES.result(line.final_state) is not None
    check["options"].validate(line.options)
    viewers: list[Viewer] = [*seats, None, ARBITER]
    last = len(line.states) - 1
    for index, state in enumerate(line.states):
        if index in (0, 1, last // 2, last - 1, last):
            for viewer in viewers:
                check["view"].validate(RULES.view(state, viewer))
        if index % 4 == 0 or state.phase == "loading":
            for seat in RULES.to_act(state):
                for move in RULES.legal_moves(state, seat):
                    check["move"].validate(move)
    for event in [*line.setup_events, *(e for _, _, events in line.moves for e in events)]:
        for viewer in viewers:
            check["event"].validate(RULES.redact(event, viewer))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_selfplay_finishes_for_every_player_count(
    sqlite_server: ServerProcess, players: int
) -> None:
    games = gamelog_json(
        sqlite_server, "selfplay", "pyramidion", "--players", str(players), "--seed", "7"
    )
    assert len(games) == 1
    game = games[0]
    assert game["finished"] and len(game["result"]["winners"]) == 1
    assert set(game["result"]["scores"]) == {f"p{i + 1}" for i in range(players)}
    report = gamelog_json(sqlite_server, "audit", game["game_id"])
    assert all(r["ok"] for r in report)


def test_a_clubs_own_boat_deck_stays_hidden_until_the_end(memory_app: GameLog) -> None:
    # The deck lists every boat's points; a displayed boat's requirements
    # would name its card, so its points would follow from the options.
    created = memory_app.games.create_game(
        "pyramidion", ["ann", "ben"], options={"components": TEST_SET}
    )
    tokens: dict[str | None, str | None] = {None: None, **created.tokens}
    for viewer, token in tokens.items():
        creation = memory_app.queries.visible_records(created.game_id, token)[0].record
        assert creation["options"] is None, viewer
        assert "points" not in json.dumps(creation), viewer
    creation = memory_app.queries.visible_records(created.game_id, created.arbiter_token)[0].record
    assert creation["options"]["components"] == TEST_SET
