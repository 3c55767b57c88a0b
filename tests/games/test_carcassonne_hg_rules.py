"""Rules of Hunters and Gatherers beyond the rulebook's pictures: turn order,
refusals, set-aside tiles, bonus tiles once per turn, supplies, deals, views."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import pytest
from test_carcassonne_hg_examples import Table, only

from gamelog.games.carcassonne_hg import RULES
from gamelog.games.leaks import find_leaks
from gamelog.games.protocol import ARBITER, IllegalMove, InvalidOptions, rng_for


def test_setup_lays_the_start_tile_and_draws_for_the_first_seat() -> None:
    table = Table(("a", "b", "c"), [62], full_set=True)
    kinds = [e["type"] for e in table.log]
    assert kinds == ["StartTilePlaced", "TileDrawn"]
    assert table.log[0]["tile"] == 56
    assert RULES.to_act(table.state) == ("a",)
    assert table.state.members == (5, 5, 5) and table.state.huts == (2, 2, 2)
    assert len(table.state.land_pile) == 77


def test_a_tile_that_fits_nowhere_is_set_aside_and_the_player_draws_again() -> None:
    # After spring tile 14 closes the start river, no side of the map is a river:
    # tile 17 (rivers on all four sides) fits nowhere.
    table = Table(("red", "blue"), [14, 17, 62])
    events = table.lay(14, -1, 0, 1)
    kinds = [(e["type"], e.get("tile")) for e in events]
    assert kinds[-3:] == [("TileDrawn", 17), ("TileSetAside", 17), ("TileDrawn", 62)]
    assert only(events, "TileSetAside")["seat"] == "blue"
    assert table.state.current_seat == "blue"
    assert table.state.set_aside == (17,)


def test_the_game_ends_when_the_last_land_tile_is_set_aside() -> None:
    table = Table(("red", "blue"), [14, 17])
    events = table.lay(14, -1, 0, 1)
    assert [e["type"] for e in events][-3:] == [
        "TileSetAside",
        "UnfinishedFeaturesAbandoned",
        "GameEnded",
    ]
    result = RULES.result(table.state)
    assert result is not None and result.ranking == (("red", "blue"),)
    assert RULES.to_act(table.state) == ()
    with pytest.raises(IllegalMove) as refused:
        RULES.decide(table.state, "red", {"pass": True}, rng_for(b"x", 9))
    assert refused.value.code == "game-over"


def test_a_bonus_tile_closing_a_gold_forest_draws_no_second_bonus() -> None:
    table = Table(("red", "blue"), [36, 38, 34, 35, 62], bonus=[90, 85])
    table.lay(36, 1, 0, 1)
    table.lay(38, 0, -1, 0)
    table.lay(34, 1, -1, 0)
    events = table.lay(35, -1, -1, 0)  # closes tile 38's gold forest
    assert only(events, "ForestCompleted")["gold_nugget"]
    assert only(events, "TileDrawn") == {
        "type": "TileDrawn",
        "seat": "blue",
        "tile": 90,
        "bonus": True,
    }
    events = table.lay(90, 0, 1, 2)  # the bonus tile closes the start tile's gold forest
    forest = only(events, "ForestCompleted")
    assert forest["gold_nugget"] and forest["size"] == 3
    drawn = only(events, "TileDrawn")
    assert drawn == {"type": "TileDrawn", "seat": "red", "tile": 62, "bonus": False}
    assert table.state.bonus_pile == frozenset({85})


def test_a_member_placed_on_a_completed_forest_scores_and_comes_home_at_once() -> None:
    table = Table(("red", "blue"), [36, 37])
    table.lay(36, 1, 0, 1)
    events = table.lay(37, 0, 1, 0, "gatherer", 0)
    forest = only(events, "ForestCompleted")
    assert forest["scorers"] == ["blue"] and forest["points"] == 6
    assert table.state.members == (5, 5)
    assert table.state.followers == ()


def test_refusals_name_their_reason() -> None:
    table = Table(("red", "blue"), [46, 62], full_set=True)
    state = table.state

    def refused(seat: str, move: dict[str, object]) -> str:
        with pytest.raises(IllegalMove) as error:
            RULES.decide(state, seat, move, rng_for(b"x", 1))
        return error.value.code

    assert refused("blue", {"place": {"x": -1, "y": 0, "rotation": 0}}) == "not-your-turn"
    assert refused("zed", {"pass": True}) == "not-a-seat"
    assert refused("red", {"pass": True}) == "place-a-tile"
    assert refused("red", {"place": {"x": 0, "y": 0, "rotation": 0}}) == "occupied"
    assert refused("red", {"place": {"x": -1, "y": 0, "rotation": 1}}) == "does-not-fit"
    assert refused("red", {"place": {"x": 5, "y": 5, "rotation": 0}}) == "does-not-fit"
    assert refused("red", {"place": {"x": 1, "y": 1, "rotation": 0}}) == "does-not-fit"
    assert refused("red", {"place": {"x": -1, "y": 0, "rotation": 4}}) == "bad-rotation"
    assert refused("red", {"place": {"x": "a", "y": 0, "rotation": 0}}) == "bad-move"

    table.play("red", {"place": {"x": -1, "y": 0, "rotation": 0}})
    state = table.state
    assert refused("red", {"place": {"x": -2, "y": 0, "rotation": 0}}) == "bad-move"
    assert refused("red", {"deploy": {"piece": "hunter", "zone": 1}}) == "wrong-zone"
    assert refused("red", {"deploy": {"piece": "fisher", "zone": 8}}) == "bad-zone"
    assert refused("red", {"deploy": {"piece": "shaman", "zone": 1}}) == "bad-piece"
    assert refused("red", {"deploy": {"piece": "gatherer", "zone": 1}}) == "wrong-zone"
    # The start tile's forest reaches no further: tile 46's forest is its own.
    moves = RULES.legal_moves(state, "red")
    assert {"deploy": {"piece": "fisher", "zone": 1}} in moves
    assert {"deploy": {"piece": "hut", "zone": 1}} in moves
    assert {"deploy": {"piece": "gatherer", "zone": 3}} in moves
    assert {"pass": True} in moves
    assert RULES.legal_moves(state, "blue") == []

    empty = dataclasses.replace(state, members=(0, 5), huts=(0, 2))
    with pytest.raises(IllegalMove) as error:
        RULES.decide(empty, "red", {"deploy": {"piece": "fisher", "zone": 1}}, rng_for(b"x", 1))
    assert error.value.code == "no-member-left"
    with pytest.raises(IllegalMove) as error:
        RULES.decide(empty, "red", {"deploy": {"piece": "hut", "zone": 1}}, rng_for(b"x", 1))
    assert error.value.code == "no-hut-left"
    assert RULES.legal_moves(empty, "red") == [{"pass": True}]


def test_a_feature_joined_by_the_new_tile_counts_as_occupied() -> None:
    table = Table(("red", "blue"), [46, 47])
    table.lay(46, -1, 0, 0, "fisher", 1)
    table.play("blue", {"place": {"x": -2, "y": 0, "rotation": 0}})
    moves = RULES.legal_moves(table.state, "blue")
    assert {"deploy": {"piece": "fisher", "zone": 1}} not in moves
    # A hut is a different piece: the river system has none yet.
    assert {"deploy": {"piece": "hut", "zone": 1}} in moves


def test_huts_exclude_each_other_across_lakes() -> None:
    # Tile 1's two rivers both flow into its lake: one river system.
    table = Table(("red", "blue"), [1, 62])
    table.lay(1, -1, 0, 0, "hut", 5)
    table.play("blue", {"place": {"x": 0, "y": -1, "rotation": 0}})
    assert RULES.legal_moves(table.state, "blue") == [
        {"deploy": {"piece": "hunter", "zone": 0}},
        {"pass": True},
    ]


def test_legal_placements_are_exactly_the_fitting_ones() -> None:
    table = Table(("red", "blue"), [46], full_set=True)
    moves = RULES.legal_moves(table.state, "red")
    assert {"place": {"x": -1, "y": 0, "rotation": 0}} in moves
    for move in moves:
        RULES.decide(table.state, "red", move, rng_for(b"x", 1))
    positions = {(m["place"]["x"], m["place"]["y"]) for m in moves}
    assert positions <= {(-1, 0), (1, 0), (0, -1), (0, 1)}


def test_deal_validation() -> None:
    seats = ("a", "b")
    for deal in (
        {"order": [56]},
        {"order": [1, 1]},
        {"order": [79]},
        {"bonus_order": [1]},
        {"order": "1,2"},
        {"shuffle": True},
    ):
        with pytest.raises(InvalidOptions):
            RULES.normalize_options({"deal": deal}, seats)
    options = RULES.normalize_options({"deal": {"order": [3, 2]}}, seats)
    assert options["deal"] == {"order": [3, 2], "bonus_order": []}


def test_draws_are_random_and_repeatable_without_a_deal() -> None:
    options = RULES.normalize_options({}, ("a", "b"))
    first = RULES.setup(options, ("a", "b"), rng_for(b"s", 0))
    again = RULES.setup(options, ("a", "b"), rng_for(b"s", 0))
    other = [RULES.setup(options, ("a", "b"), rng_for(bytes([i]), 0)) for i in range(8)]
    assert first == again
    assert len({e[-1]["tile"] for e in other}) > 1


def test_views_hide_the_piles_and_show_the_rest() -> None:
    table = Table(("red", "blue"), [46, 62], full_set=True)
    state = table.state
    assert RULES.hidden_from(state, ARBITER) == frozenset()
    hidden = RULES.hidden_from(state, "red")
    assert hidden == RULES.hidden_from(state, None)
    assert len(hidden) == 77 + 12 and 46 not in hidden
    for viewer in ("red", "blue", None):
        view = RULES.view(state, viewer)
        assert find_leaks(view, hidden) == []
        assert view["current_tile"] == 46
        assert view["land_left"] == 77
    assert RULES.shows_hidden({"type": "TileDrawn", "seat": "red", "tile": 46, "bonus": False})
    assert not RULES.shows_hidden({"type": "TilePlaced"})


def test_pictures() -> None:
    table = Table(("red", "blue"), [46, 62])
    table.lay(46, -1, 0, 0, "fisher", 1)
    text = RULES.render_text(table.state, None)
    assert "F1" in text and "red: 0 points, 4 tribe members, 2 huts" in text
    svg = RULES.render_svg(table.state, "red")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "#d62828" in svg  # red's fisher
    assert "#46" in svg


def test_normalized_options_normalize_to_themselves() -> None:
    seats = ("a", "b")
    inline = Table(seats, [5], [85]).options["components"]
    for raw in (
        {},
        {"component_set": "carcassonne-hg/house-2002", "deal": {"order": [5]}},
        {"components": inline, "deal": {"bonus_order": [85]}},
    ):
        once = RULES.normalize_options(raw, seats)
        assert RULES.normalize_options(once, seats) == once
