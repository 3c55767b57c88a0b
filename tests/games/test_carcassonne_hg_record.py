"""Hunters and Gatherers as people read it: the move notation (the rulebook's
examples as lines), the text board and the picture, and that none of them
names a tile still in the piles."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

import jsonschema
import pytest
from test_carcassonne_hg_examples import Table

from gamelog.games.carcassonne_hg import RULES, HGState
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, Event, Viewer

SVG = "{http://www.w3.org/2000/svg}"
VIEWERS: tuple[Viewer, ...] = ("red", "blue", None, ARBITER)


class Recorded(Table):
    """A table that keeps each stored move's line, as every viewer reads it."""

    def __init__(self, seats: Sequence[str], land: Sequence[int], bonus: Sequence[int] = ()):
        super().__init__(seats, land, bonus)
        start = RULES.start(self.seats, self.options)
        self.lines = [self.line(start, None, None, self.log)]

    def line(
        self, before: HGState, seat: str | None, move: dict[str, Any] | None, events: list[Event]
    ) -> str:
        seen = {
            RULES.notate(
                before,
                seat,
                move if viewer in (seat, ARBITER) else None,
                [RULES.redact(e, viewer) for e in events],
            )
            for viewer in (*self.seats, None, ARBITER)
        }
        assert len(seen) == 1, "nothing in this game is hidden once drawn: one line for all"
        return seen.pop()

    def play(self, seat: str, move: dict[str, Any]) -> list[Event]:
        before = self.state
        events = super().play(seat, move)
        self.lines.append(self.line(before, seat, move, events))
        return events


# -- notation: the rulebook's examples ----------------------------------------------


def test_notation_river_worth_6() -> None:
    table = Recorded(("red", "blue"), [46, 62, 0])
    table.lay(46, -1, 0, 0, "fisher", 1)
    table.lay(62, 0, -1, 0)
    table.lay(0, -2, 0, 1)
    assert table.lines == [
        "deal: start tile 56 at (0,0); red draws tile 46",
        "red: tile 46 at (-1,0) not turned",
        "red: fisher on the west-east river (zone 1) of tile 46; blue draws tile 62",
        "blue: tile 62 at (0,-1) not turned",
        "blue: no figure; red draws tile 0",
        "red: tile 0 at (-2,0) turned 90°",
        "red: no figure; river of 3 tiles, 3 fish in its lakes completed: red scores 6, "
        "red's fisher comes home; the last land tile is down; game over: 1. red 6, 2. blue 0",
    ]


def test_notation_gold_nugget_red_scores_the_forest_blue_draws_the_bonus_tile() -> None:
    table = Recorded(("red", "blue"), [36, 37, 62], bonus=[85])
    table.lay(36, 1, 0, 1, "gatherer", 1)
    table.lay(37, 0, 1, 0)
    assert (
        table.lines[2] == "red: gatherer on the west forest (zone 1) of tile 36; blue draws tile 37"
    )
    assert table.lines[-1] == (
        "blue: no figure; forest of 3 tiles with a gold nugget completed: red scores 6, "
        "red's gatherer comes home; blue draws bonus tile 85 for the gold nugget"
    )
    table.play("blue", {"place": {"x": 1, "y": 1, "rotation": 0}})
    assert table.lines[-1] == "blue: bonus tile 85 at (1,1) not turned"


def test_notation_a_tile_that_fits_nowhere_is_set_aside() -> None:
    table = Recorded(("red", "blue"), [14, 17, 62])
    table.lay(14, -1, 0, 1)
    assert table.lines[-1] == (
        "red: no figure; river of 2 tiles, 1 fish in its lakes completed: nobody scores; "
        "blue draws tile 17; tile 17 fits nowhere and is set aside; blue draws tile 62"
    )


def test_notation_meadow_with_a_fire_and_a_hunter_on_the_shrine() -> None:
    fire = Recorded(("red", "blue"), [37, 36, 31], bonus=[85])
    fire.lay(37, 0, 1, 0, "hunter", 1)
    fire.lay(36, 1, 0, 1)
    fire.lay(85, 1, 1, 0)
    fire.lay(31, 2, 1, 2)
    assert (
        fire.lines[2] == "red: hunter on the south meadow (zone 1) of tile 37; blue draws tile 36"
    )
    assert fire.lines[-1] == (
        "red: no figure; the last land tile is down; meadow with 2 deer and 1 tiger, fire drives "
        "the tigers off (hunters: red 1): red scores 4; game over: 1. red 4, 2. blue 0"
    )
    shrine = Recorded(("red", "blue"), [37, 36, 62], bonus=[94])
    shrine.lay(37, 0, 1, 0, "hunter", 1)
    shrine.lay(36, 1, 0, 1)
    shrine.lay(94, 1, -1, 0, "hunter", 1)
    shrine.lay(62, 1, 1, 0)
    assert shrine.lines[-1].endswith(
        "meadow with 3 deer (hunters: red 1, blue 1), blue's hunter on the shrine takes it all: "
        "blue scores 6; game over: 1. blue 6, 2. red 0"
    )


def test_notation_hut_scores_5_for_five_fish() -> None:
    table = Recorded(("blue", "red"), [46, 1, 2])
    table.lay(46, -1, 0, 0, "hut", 1)
    table.lay(1, -2, 0, 0)
    table.lay(2, -3, 0, 0)
    assert (
        table.lines[2] == "blue: hut on the west-east river (zone 1) of tile 46; red draws tile 1"
    )
    assert table.lines[-1].endswith(
        "the last land tile is down; river system with 5 fish (huts: blue 1): blue scores 5; "
        "game over: 1. blue 5, 2. red 0"
    )


def test_notation_names_turns_and_figures_going_home_at_the_end() -> None:
    table = Recorded(("red", "blue"), [46, 62])
    table.play("red", {"place": {"x": -1, "y": 0, "rotation": 2}})
    assert table.lines[-1] == "red: tile 46 at (-1,0) turned 180°"
    table.play("red", {"deploy": {"piece": "fisher", "zone": 1}})
    table.lay(62, 0, -1, 0)
    assert table.lines[-1] == (
        "blue: no figure; the last land tile is down: red's fisher comes home without points; "
        "game over: 1. red 0, 1. blue 0"
    )


# -- nothing from the piles ------------------------------------------------------------


def with_other_piles(state: HGState) -> HGState:
    """The same table with the unseen tiles swapped for others (same counts)."""
    everything = set(range(200))
    spare = sorted(
        everything - state.land_pile - state.bonus_pile - {p.tile for p in state.board.values()}
    )
    return dataclasses.replace(
        state,
        land_pile=frozenset(spare[: len(state.land_pile)]),
        bonus_pile=frozenset(
            spare[len(state.land_pile) : len(state.land_pile) + len(state.bonus_pile)]
        ),
    )


@pytest.mark.parametrize("seed", [3, 11])
def test_lines_boards_and_pictures_never_name_a_tile_in_the_piles(seed: int) -> None:
    seats = ("p1", "p2", "p3")
    line = play_out(RULES, seats, seed)
    for ply, (seat, move, events) in enumerate(line.moves, start=1):
        before = line.states[ply - 1]
        text = RULES.notate(before, seat, move, events)
        assert RULES.notate(with_other_piles(before), seat, None, events) == text
    for state in (line.states[1], line.states[len(line.states) // 2], line.final_state):
        hidden = RULES.hidden_from(state, None)
        pictures = {RULES.render_svg(state, viewer) for viewer in (*seats, None)}
        assert len(pictures) == 1  # everybody sees the same table
        picture = pictures.pop()
        assert RULES.render_svg(with_other_piles(state), None) == picture
        assert RULES.render_text(with_other_piles(state), None) == RULES.render_text(state, None)
        shown = {int(g.attrib["data-tile"]) for g in groups(picture) if "data-tile" in g.attrib}
        assert shown and not shown & hidden


def test_a_whole_game_keeps_the_schemas_to_the_end() -> None:
    """The contract test stops play-outs early; here the end is checked too."""
    schemas = RULES.schemas()
    line = play_out(RULES, ("p1", "p2", "p3", "p4", "p5"), seed=1)
    final = line.final_state
    assert RULES.result(final) is not None
    for viewer in ("p1", None, ARBITER):
        jsonschema.validate(RULES.view(final, viewer), schemas["view"])
    for _, _, events in line.moves[-3:]:
        for event in events:
            jsonschema.validate(event, schemas["event"])
    kinds = {e["type"] for _, _, events in line.moves for e in events}
    assert {"GameEnded", "UnfinishedFeaturesAbandoned", "MeadowScored"} <= kinds


# -- the picture -------------------------------------------------------------------------


def groups(picture: str, cls: str | None = None) -> list[ET.Element]:
    found = ET.fromstring(picture).iter(f"{SVG}g")
    return [g for g in found if cls is None or g.attrib.get("class") == cls]


def test_picture_while_a_tile_waits_shows_it_with_the_places_it_fits() -> None:
    table = Table(("red", "blue"), [46, 62])
    table.lay(46, -1, 0, 0, "fisher", 1)
    picture = RULES.render_svg(table.state, "blue")
    root = ET.fromstring(picture)
    assert root.attrib["viewBox"].startswith("0 0 ")
    in_hand = groups(picture, "tile-in-hand")
    assert [(g.attrib["data-tile"], g.attrib["data-rotation"]) for g in in_hand] == [("62", "0")]
    zones = {g.attrib["data-zone"] for g in in_hand[0].iter(f"{SVG}g") if g is not in_hand[0]}
    assert zones == {"0"}
    fits = {
        (int(g.attrib["data-x"]), int(g.attrib["data-y"])): g.attrib["data-rotations"]
        for g in groups(picture, "fits")
    }
    legal: dict[tuple[int, int], list[str]] = {}
    for move in RULES.legal_moves(table.state, "blue"):
        place = move["place"]
        legal.setdefault((place["x"], place["y"]), []).append(str(place["rotation"]))
    assert fits == {pos: " ".join(turns) for pos, turns in legal.items()}
    tiles = {
        (g.attrib["data-tile"], g.attrib["data-x"], g.attrib["data-y"])
        for g in groups(picture, "tile")
    }
    assert tiles == {("56", "0", "0"), ("46", "-1", "0")}
    figures = [
        (g.attrib["data-seat"], g.attrib["data-piece"], g.attrib["data-zone"])
        for g in groups(picture, "figure")
    ]
    assert figures == [("red", "fisher", "1")]
    xs = {
        t.attrib["data-x"]
        for t in root.iter(f"{SVG}text")
        if t.attrib.get("class") == "coordinate" and "data-x" in t.attrib
    }
    ys = {
        t.attrib["data-y"]
        for t in root.iter(f"{SVG}text")
        if t.attrib.get("class") == "coordinate" and "data-y" in t.attrib
    }
    assert xs >= {"-1", "0"} and ys >= {"0"}
    seats = {g.attrib["data-seat"]: g for g in groups(picture, "seat")}
    assert (
        seats["red"].attrib["data-colour"] == "red"
        and seats["blue"].attrib["data-colour"] == "blue"
    )
    assert "land tiles left: 0" in picture
    the_map = next(g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "map")
    assert not [g for g in the_map.iter(f"{SVG}g") if g.attrib.get("class") == "zone-label"]
    assert "legend" in picture and "gatherer (G) / fisher (F), standing" in picture


def test_picture_after_laying_labels_the_zones_and_the_figures_allowed() -> None:
    table = Table(("red", "blue"), [46, 62])
    table.play("red", {"place": {"x": -1, "y": 0, "rotation": 0}})
    picture = RULES.render_svg(table.state, None)
    laid = next(g for g in groups(picture, "tile") if g.attrib["data-tile"] == "46")
    labels = {
        (g.attrib["data-zone"], g.attrib["data-type"])
        for g in laid.iter(f"{SVG}g")
        if g.attrib.get("class") == "zone-label"
    }
    assert labels == {("0", "meadow"), ("1", "river"), ("2", "meadow"), ("3", "forest")}
    assert any(r.attrib.get("class") == "just-laid" for r in laid.iter(f"{SVG}rect"))
    assert "tile 46 just laid at (-1,0), turned 0°" in picture
    assert "fisher on zone 1 (river)" in picture and "gatherer on zone 3 (forest)" in picture
    assert not groups(picture, "fits")


def test_picture_at_the_end_ranks_the_players() -> None:
    line = play_out(RULES, ("p1", "p2", "p3"), seed=3)
    result = RULES.result(line.final_state)
    assert result is not None
    picture = RULES.render_svg(line.final_state, None)
    order = [g.attrib["data-seat"] for g in groups(picture, "seat")]
    assert order == [seat for place in result.ranking for seat in place]
    assert [int(g.attrib["data-score"]) for g in groups(picture, "seat")] == [
        result.scores[seat] for seat in order
    ]
    assert "game over" in picture and not groups(picture, "tile-in-hand")


# -- the text board -------------------------------------------------------------------


def test_text_board_explains_itself_and_says_what_to_do() -> None:
    table = Table(("red", "blue"), [46, 62])
    text = RULES.render_text(table.state, None)
    assert "{" not in text and "'" not in text
    lines = text.splitlines()
    assert lines[0] == "Carcassonne: Hunters and Gatherers  red lays tile 46"
    assert lines[1].startswith("  y \\ x ")
    assert any(line.startswith("legend: # forest  . meadow  ~ river  (o) lake") for line in lines)
    assert (
        "red holds tile 46; as drawn (not turned): "
        "north meadow, east river, south forest, west river" in lines
    )
    assert "  zones: 0 meadow north, 1 river west-east, 2 meadow south, 3 forest south" in lines
    assert lines[-1] == (
        "  fits at: (0,-1) turned 180°; (-1,0) turned 0° or 180°; (1,0) turned 90°; "
        "(0,1) turned 180°"
    )
    table.play("red", {"place": {"x": -1, "y": 0, "rotation": 0}})
    text = RULES.render_text(table.state, "blue")
    assert "{" not in text and "'" not in text
    assert "  may place: hunter on zone 0, fisher on zone 1, hut on zone 1" in text
    assert text.rstrip().endswith("no figure")
