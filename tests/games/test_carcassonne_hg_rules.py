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
    assert table.refusal("red", {"pass": True}) == "game-over"


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
    assert "F1" in text
    assert "player 1 red (red): 0 points; at home 4 of 5 tribe members, 2 of 2 huts" in text
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


def _gold_for_blue(table: Table) -> list[dict[str, object]]:
    """Red and blue close tile 38's gold forest; blue, who closed it, draws a bonus tile."""
    table.lay(36, 1, 0, 1)
    table.lay(38, 0, -1, 0)
    table.lay(34, 1, -1, 0)
    return table.lay(35, -1, -1, 0)


def test_a_mushroom_site_adds_2_to_a_completed_forest() -> None:
    table = Table(("red", "blue"), [36, 38, 34, 35, 37, 62], bonus=[79])
    assert only(_gold_for_blue(table), "TileDrawn")["tile"] == 79
    # The mushroom tile extends the start forest southwards; blue's gatherer on it.
    table.lay(79, 0, 1, 1, "gatherer", 1)
    events = table.lay(37, 0, 2, 0)  # red closes it: start, 36, 79, 37
    forest = only(events, "ForestCompleted")
    assert (forest["size"], forest["mushrooms"], forest["points"]) == (4, 1, 10)
    assert forest["scorers"] == ["blue"]
    assert table.scores() == {"red": 0, "blue": 10}


def test_a_bonus_tile_that_fits_nowhere_is_set_aside_and_another_is_drawn() -> None:
    # Spring tile 14 closes the start river: bonus tile 83 (rivers all round) fits nowhere.
    table = Table(("red", "blue"), [14, 36, 37, 62], bonus=[83, 85])
    table.lay(14, -1, 0, 1)
    table.lay(36, 1, 0, 1)
    events = table.lay(37, 0, 1, 0)  # red closes the start tile's gold forest
    assert [(e["type"], e.get("tile"), e.get("bonus")) for e in events][-3:] == [
        ("TileDrawn", 83, True),
        ("TileSetAside", 83, True),
        ("TileDrawn", 85, True),
    ]
    assert table.state.current_seat == "red" and table.state.tile_is_bonus
    assert table.state.bonus_pile == frozenset()


def test_the_last_bonus_tile_set_aside_leaves_no_bonus_tile() -> None:
    table = Table(("red", "blue"), [14, 36, 37, 62], bonus=[83])
    table.lay(14, -1, 0, 1)
    table.lay(36, 1, 0, 1)
    events = table.lay(37, 0, 1, 0)
    assert [e["type"] for e in events][-4:] == [
        "TileDrawn",
        "TileSetAside",
        "NoBonusTileLeft",
        "TileDrawn",
    ]
    assert only(events, "NoBonusTileLeft")["seat"] == "red"
    assert table.state.current_seat == "blue" and table.state.tile == 62


def test_a_member_that_came_home_can_go_out_again_on_the_bonus_tile() -> None:
    # Blue's last tribe member closes the gold forest, scores, comes home and is
    # placed again on the bonus tile in the same turn.
    table = Table(("red", "blue"), [36, 37, 62], bonus=[85])
    table.lay(36, 1, 0, 1)
    table.state = dataclasses.replace(table.state, members=(5, 1))
    events = table.lay(37, 0, 1, 0, "gatherer", 0)
    forest = only(events, "ForestCompleted")
    assert forest["scorers"] == ["blue"] and forest["returned"] == [
        {"seat": "blue", "piece": "gatherer", "x": 0, "y": 1, "zone": 0}
    ]
    assert table.state.members == (5, 1) and table.state.tile == 85
    table.play("blue", {"place": {"x": 1, "y": 1, "rotation": 0}})
    assert {"deploy": {"piece": "hunter", "zone": 0}} in RULES.legal_moves(table.state, "blue")
    events = table.play("blue", {"deploy": {"piece": "hunter", "zone": 0}})
    assert events[0]["type"] == "FollowerPlaced"
    assert table.state.members == (5, 0)


def test_a_bonus_tile_earned_with_the_last_land_tile_is_still_played() -> None:
    table = Table(("red", "blue"), [36, 37], bonus=[85])
    table.lay(36, 1, 0, 1)
    events = table.lay(37, 0, 1, 0)  # the last land tile closes the gold forest
    assert events[-1] == {"type": "TileDrawn", "seat": "blue", "tile": 85, "bonus": True}
    assert RULES.result(table.state) is None
    events = table.lay(85, 1, 1, 0, "hunter", 0)
    assert [e["type"] for e in events] == [
        "FollowerPlaced",
        "UnfinishedFeaturesAbandoned",
        "MeadowScored",
        "GameEnded",
    ]
    assert RULES.result(table.state) is not None


def test_fish_on_a_river_stretch_count_for_huts_not_for_fishers() -> None:
    # Start lake (1 fish) - tile 47 (1 fish on the river itself) - tile 0 (lake, 2 fish).
    table = Table(("red", "blue"), [47, 62, 0])
    table.lay(47, -1, 0, 0, "hut", 1)
    table.lay(62, 0, -1, 0)
    events = table.lay(0, -2, 0, 1, "fisher", 1)
    river = only(events, "RiverCompleted")
    assert (river["size"], river["fish"], river["points"], river["scorers"]) == (3, 3, 6, ["red"])
    system = only(table.log, "RiverSystemScored")
    assert (system["fish"], system["scorers"]) == (4, ["red"])
    assert table.scores() == {"red": 10, "blue": 0}


def test_rotation_turns_the_tile_clockwise() -> None:
    # Spring tile 14 has its river on the north side: a quarter turn clockwise
    # brings it east, onto the start tile's western river; three quarters, west.
    table = Table(("red", "blue"), [14, 62])
    moves = RULES.legal_moves(table.state, "red")
    assert {"place": {"x": -1, "y": 0, "rotation": 1}} in moves
    assert {"place": {"x": -1, "y": 0, "rotation": 3}} not in moves


def test_a_malformed_piece_is_refused() -> None:
    table = Table(("red", "blue"), [46, 62])
    table.play("red", {"place": {"x": -1, "y": 0, "rotation": 0}})
    for deploy in ({"piece": ["fisher"], "zone": 1}, {"piece": "fisher", "zone": True}):
        assert table.refusal("red", {"deploy": deploy}) in ("bad-piece", "bad-zone")


def test_svg_marks_bonus_tiles_springs_pieces_and_explains_its_symbols() -> None:
    table = Table(("red", "blue", "yellow"), [14, 36, 37, 62], bonus=[85])
    table.lay(14, -1, 0, 1)  # a spring
    table.lay(36, 1, 0, 1)
    table.lay(37, 0, 1, 0)  # yellow closes the gold forest
    table.lay(85, 1, 1, 0, "hunter", 0)
    svg = RULES.render_svg(table.state, None)
    ET.fromstring(svg)
    assert "#85 bonus" in svg and "#56 start" in svg
    assert 'stroke-dasharray="8 4"' in svg  # the bonus tile's frame
    assert 'fill="#bfe3ff"' in svg  # the spring
    assert "FIRE" in svg
    # Yellow's hunter: a yellow piece with a dark letter.
    assert 'fill="#f2c200"' in svg and 'fill="#222222" text-anchor="middle"' in svg
    assert "deer D, mammoth M, aurochs A, sabre-toothed tiger T" in svg


# ------------------------------------------------- review against the rulebook


def test_a_river_closed_in_a_loop_is_complete() -> None:
    # "Ei elv er ferdig når den er avgrensa av vann eller kilder, eller når den
    # utgjør en sluttet krets": four bends make a ring with no lake and no spring.
    table = Table(("red", "blue"), [15, 16, 19, 21])
    table.lay(15, 0, -1, 2, "fisher", 1)
    assert not [e for e in table.log if e["type"] == "RiverCompleted"]
    table.lay(16, -1, -1, 3)
    table.lay(19, -1, -2, 0)
    events = table.lay(21, 0, -2, 1)
    river = only(events, "RiverCompleted")
    # 1 point per tile; the fish drawn on tile 19's river is no lake's fish.
    assert (river["size"], river["fish"], river["points"]) == (4, 0, 4)
    assert river["scorers"] == ["red"] and table.state.members == (5, 5)
    assert table.scores() == {"red": 4, "blue": 0}


def test_one_tile_closing_two_gold_forests_draws_one_bonus_tile() -> None:
    # "Uavhengig av antall gullklumper, får spilleren alltid bare trekke ei bonusbrikke."
    table = Table(("red", "blue"), [46, 36, 47, 62, 39, 60, 35, 34, 41, 1], bonus=[85, 90])
    table.lay(46, -1, 0, 0)
    table.lay(36, 1, 0, 1)
    table.lay(47, -2, 0, 0)
    table.lay(62, 2, 0, 0)
    table.lay(39, -1, -1, 0, "gatherer", 1)  # red, west forest (gold)
    table.lay(60, 1, -1, 0, "gatherer", 1)  # blue, east forest (gold)
    table.lay(35, -2, -1, 0)
    table.lay(34, 2, -1, 0)
    events = table.lay(41, 0, -1, 0)  # red closes both forests at once
    forests = [e for e in events if e["type"] == "ForestCompleted"]
    assert len(forests) == 2 and all(f["gold_nugget"] for f in forests)
    assert sorted((f["points"], tuple(f["scorers"])) for f in forests) == [
        (6, ("blue",)),
        (6, ("red",)),
    ]
    drawn = [e for e in events if e["type"] == "TileDrawn"]
    assert drawn == [{"type": "TileDrawn", "seat": "red", "tile": 85, "bonus": True}]
    assert table.state.bonus_pile == frozenset({90})
    # After the bonus tile the next seat draws a land tile, not a second bonus tile.
    events = table.lay(85, 0, -2, 0)
    assert events[-1] == {"type": "TileDrawn", "seat": "blue", "tile": 1, "bonus": False}


def test_the_shrine_hunter_beats_any_number_of_other_hunters() -> None:
    # "Andre jegere på enga får ingen poeng uavhengig av hvor mange jegere de måtte ha."
    table = Table(("red", "blue"), [37, 36, 62, 61, 35], bonus=[94])
    table.lay(37, 0, 1, 0, "hunter", 1)  # red
    table.lay(36, 1, 0, 1)  # blue closes the start forest: bonus tile 94
    table.lay(94, 0, -1, 0, "hunter", 1)  # blue's hunter at the shrine
    table.lay(62, 2, 0, 0, "hunter", 0)  # red's second hunter, on 36's meadow
    table.lay(61, 1, 1, 0)  # joins red's two meadows
    table.lay(35, 1, -1, 0)  # joins them to the shrine meadow
    meadow = only(table.log, "MeadowScored")
    assert meadow["hunters"] == {"red": 2, "blue": 1} and meadow["shrine"] == "blue"
    assert (meadow["deer"], meadow["mammoth"], meadow["points"]) == (4, 2, 12)
    assert meadow["scorers"] == ["blue"]
    assert table.scores() == {"red": 0, "blue": 12}


def test_tigers_never_take_mammoths() -> None:
    # "De jager vilt, men våger seg ikke på mammuter eller okser": 2 tigers, 1 deer
    # and 1 mammoth are worth the mammoth's 2 points.
    table = Table(("blue", "red"), [31, 32, 35])
    table.lay(31, 0, -1, 0, "hunter", 1)
    table.lay(32, 1, -1, 1)
    table.lay(35, 1, 0, 2)
    meadow = only(table.log, "MeadowScored")
    assert (meadow["deer"], meadow["mammoth"], meadow["tiger"]) == (1, 1, 2)
    assert (meadow["points"], meadow["scorers"]) == (2, ["blue"])


def test_equal_most_huts_all_score_the_whole_system() -> None:
    # "Dersom flere spillere har flest hytter, får alle disse full poengsum."
    table = Table(("red", "blue"), [46, 47, 72, 15, 16])
    table.lay(46, -1, 0, 0, "hut", 1)  # red, the start lake's system
    table.lay(47, 0, 1, 2, "hut", 1)  # blue, a separate system
    table.lay(72, -1, 1, 1)
    table.lay(15, -2, 1, 3)
    table.lay(16, -2, 0, 0)  # joins the two systems
    system = only(table.log, "RiverSystemScored")
    assert system["huts"] == {"red": 1, "blue": 1}
    assert (system["fish"], system["points"], system["scorers"]) == (2, 2, ["red", "blue"])
    assert table.scores() == {"red": 2, "blue": 2}


def test_the_only_hut_of_a_system_bars_another_even_on_a_lake() -> None:
    # "NB! Det kan bare stå ei hytte på et vassdrag, altså samme regel som for
    # stammemedlemmer": tile 0's river and lake join red's system.
    table = Table(("red", "blue"), [46, 0, 62])
    table.lay(46, -1, 0, 0, "hut", 1)
    table.play("blue", {"place": {"x": -2, "y": 0, "rotation": 1}})
    moves = RULES.legal_moves(table.state, "blue")
    assert not [m for m in moves if m.get("deploy", {}).get("piece") == "hut"]
    assert table.refusal("blue", {"deploy": {"piece": "hut", "zone": 8}}) == "occupied"
    assert table.refusal("blue", {"deploy": {"piece": "hut", "zone": 1}}) == "occupied"
    # Huts stand only on rivers and lakes.
    assert table.refusal("blue", {"deploy": {"piece": "hut", "zone": 0}}) == "wrong-zone"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_player_count_plays_clockwise_with_five_members_and_two_huts(n: int) -> None:
    seats = tuple(f"p{i}" for i in range(n))
    land = [62, 61, 36, 35, 34, 37]
    table = Table(seats, land)
    assert table.state.members == (5,) * n and table.state.huts == (2,) * n
    movers = []
    spots = [(0, -1, 0), (1, -1, 0), (-1, -1, 0), (2, -1, 0), (-2, -1, 0), (0, -2, 0)]
    for tile, (x, y, rotation) in zip(land, spots, strict=True):
        movers.append(table.state.current_seat)
        table.lay(tile, x, y, rotation)
    assert movers == [seats[i % n] for i in range(len(land))]
    assert RULES.result(table.state) is not None


def test_a_river_whose_two_ends_reach_one_lake_counts_its_fish_once() -> None:
    # Decision 3: "hver fisk" of the lakes bounding the river, each lake once. Tile 5's
    # north and west rivers both flow into its lake (1 fish); three bends join them.
    table = Table(("red", "blue"), [5, 15, 16, 21])
    table.lay(5, -1, 0, 2)
    table.lay(15, -1, -1, 1, "fisher", 1)  # blue
    table.lay(16, -2, -1, 0)
    events = table.lay(21, -2, 0, 3)
    river = only(events, "RiverCompleted")
    assert (river["size"], river["fish"], river["points"]) == (4, 1, 5)
    assert river["scorers"] == ["blue"]
    assert table.scores() == {"red": 0, "blue": 5}


def test_a_tile_with_two_parts_of_one_forest_counts_once() -> None:
    # "2 poeng for hvert skogstykke": decision 5, a forest scores per tile. Tile 67's
    # north and east forests are joined around by three corner tiles: 4 tiles, 8 points
    # (not 10 for five forest parts).
    table = Table(("red", "blue"), [67, 77, 33, 30])
    table.lay(67, 0, -1, 0, "gatherer", 0)
    table.lay(77, 0, -2, 0)
    table.lay(33, 1, -1, 0)
    events = table.lay(30, 1, -2, 0)
    forest = only(events, "ForestCompleted")
    assert (forest["size"], forest["points"], forest["scorers"]) == (4, 8, ["red"])
    assert table.scores() == {"red": 8, "blue": 0}


def test_the_most_huts_take_the_system_alone() -> None:
    # "Dersom en spiller har flere hytter enn de andre i et vassdrag, får hun alene
    # hele poengsummen": three systems, each with a hut, are joined into one.
    table = Table(("red", "blue"), [46, 47, 73, 15, 72, 16, 18])
    table.lay(46, -1, 0, 0, "hut", 1)  # red: the start lake's system
    table.lay(47, 0, 1, 2, "hut", 1)  # blue: a second system
    table.lay(73, 1, 0, 0, "hut", 1)  # red: a third system
    table.lay(15, 1, 1, 2)  # joins blue's and red's third system
    table.lay(72, -1, 1, 1)
    table.lay(16, -2, 1, 3)
    table.lay(18, -2, 0, 0)  # joins the start lake's system too
    system = only(table.log, "RiverSystemScored")
    assert system["huts"] == {"red": 2, "blue": 1}
    assert (system["fish"], system["points"], system["scorers"]) == (2, 2, ["red"])
    assert table.scores() == {"red": 2, "blue": 0}
    assert table.state.huts == (0, 1)


def test_at_the_end_gatherers_and_fishers_go_home_unscored_hunters_and_huts_score() -> None:
    # "Spillerne tar alle stammemedlemmene fra uferdige skoger og elver tilbake.
    # Uferdige skoger og elver gir ikke flere poeng. Hyttene på elvene og jegerne på
    # engene blir stående på brettet."
    table = Table(("red", "blue"), [46, 36, 62, 47])
    table.lay(46, -1, 0, 0, "fisher", 1)  # red, the open start river
    table.lay(36, 1, 0, 1, "gatherer", 1)  # blue, the open start forest
    table.lay(62, 0, -1, 0, "hunter", 0)  # red
    events = table.lay(47, -2, 0, 0, "hut", 1)  # blue, the last land tile
    kinds = [e["type"] for e in events]
    assert kinds == [
        "HutBuilt",
        "UnfinishedFeaturesAbandoned",
        "RiverSystemScored",
        "MeadowScored",
        "GameEnded",
    ]
    home = only(events, "UnfinishedFeaturesAbandoned")["returned"]
    assert sorted((f["seat"], f["piece"]) for f in home) == [
        ("blue", "gatherer"),
        ("red", "fisher"),
    ]
    assert sorted((f.seat, f.piece) for f in table.state.followers) == [
        ("blue", "hut"),
        ("red", "hunter"),
    ]
    assert table.state.members == (4, 5) and table.state.huts == (2, 1)
    system, meadow = only(events, "RiverSystemScored"), only(events, "MeadowScored")
    assert (system["fish"], system["scorers"]) == (2, ["blue"])
    assert (meadow["deer"], meadow["points"], meadow["scorers"]) == (2, 4, ["red"])
    assert table.scores() == {"red": 4, "blue": 2}
