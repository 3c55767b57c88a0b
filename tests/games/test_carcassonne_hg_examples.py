"""The rulebook's worked examples, built from the tile set by explicit placements.

Each position uses an inline component set: the start tile, the land tiles
laid (in the explicit deal's order) and the bonus tiles wanted, so the game
ends right after the example and end-of-game scoring can be checked too.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from gamelog.games.carcassonne_hg import RULES, HGState
from gamelog.games.carcassonne_hg.features import feature_at
from gamelog.games.carcassonne_hg.tiles import shipped_data
from gamelog.games.protocol import Event, IllegalMove, rng_for

SET = "carcassonne-hg/house-2002"


def subset(land: Sequence[int], bonus: Sequence[int] = ()) -> dict[str, Any]:
    data = copy.deepcopy(shipped_data(SET))
    keep = set(land) | set(bonus)
    data["tiles"] = [t for t in data["tiles"] if t["kind"] == "start" or t["id"] in keep]
    data.pop("summary", None)
    return data  # type: ignore[no-any-return]


class Table:
    """A game on a chosen tile subset, laid by hand."""

    def __init__(
        self,
        seats: Sequence[str],
        land: Sequence[int],
        bonus: Sequence[int] = (),
        *,
        full_set: bool = False,
    ) -> None:
        raw: dict[str, Any] = {"deal": {"order": list(land), "bonus_order": list(bonus)}}
        if not full_set:
            raw["components"] = subset(land, bonus)
        self.seats = tuple(seats)
        self.options = RULES.normalize_options(raw, self.seats)
        self.state: HGState = RULES.start(self.seats, self.options)
        self.log: list[Event] = RULES.setup(self.options, self.seats, rng_for(b"t", 0))
        for event in self.log:
            self.state = RULES.evolve(self.state, event)
        self.ply = 0

    def play(self, seat: str, move: dict[str, Any]) -> list[Event]:
        self.ply += 1
        events = RULES.decide(self.state, seat, move, rng_for(b"t", self.ply))
        for event in events:
            self.state = RULES.evolve(self.state, event)
        self.log.extend(events)
        return events

    def refusal(self, seat: str, move: dict[str, Any]) -> str:
        """The code the rules refuse ``move`` with now; the table stays as it is."""
        with pytest.raises(IllegalMove) as refused:
            RULES.decide(self.state, seat, move, rng_for(b"t", self.ply + 1))
        return refused.value.code

    def lay(
        self, tile: int, x: int, y: int, rotation: int, piece: str | None = None, zone: int = 0
    ) -> list[Event]:
        """The seat to act lays ``tile`` and places ``piece`` on ``zone`` (or passes);
        returns the events of the second move."""
        assert self.state.tile == tile, f"expected tile {tile}, drew {self.state.tile}"
        seat = self.state.current_seat
        self.play(seat, {"place": {"x": x, "y": y, "rotation": rotation}})
        second = {"pass": True} if piece is None else {"deploy": {"piece": piece, "zone": zone}}
        return self.play(seat, second)

    def scores(self) -> dict[str, int]:
        return dict(zip(self.seats, self.state.scores))


def only(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e["type"] == kind]
    assert len(found) == 1, (kind, events)
    return found[0]


# ------------------------------------------------------------------- rivers


def test_river_worth_6_three_tiles_one_and_two_fish() -> None:
    # Start tile (lake, 1 fish) - tile 46 (river through) - tile 0 (lake, 2 fish).
    table = Table(("red", "blue"), [46, 62, 0])
    table.lay(46, -1, 0, 0, "fisher", 1)
    table.lay(62, 0, -1, 0)
    events = table.lay(0, -2, 0, 1)
    river = only(events, "RiverCompleted")
    assert (river["size"], river["fish"], river["points"]) == (3, 3, 6)
    assert river["scorers"] == ["red"]
    assert table.scores()["red"] == 6
    # The fisher came home.
    assert table.state.members[0] == 5


def test_river_worth_3_scored_by_red_though_blue_laid_the_tile() -> None:
    # Tile 2 (lake, 1 fish) with red's fisher; blue closes it with spring tile 14.
    table = Table(("red", "blue"), [2, 14])
    table.lay(2, 0, -1, 2, "fisher", 1)
    events = table.lay(14, -1, -1, 1)
    river = only(events, "RiverCompleted")
    assert (river["size"], river["fish"], river["points"]) == (2, 1, 3)
    assert river["scorers"] == ["red"]
    assert table.scores() == {"red": 3, "blue": 0}


# ------------------------------------------------------------------ forests


def test_forest_worth_4() -> None:
    table = Table(("red", "blue"), [37, 62, 36])
    table.lay(37, 0, -1, 0, "gatherer", 0)
    table.lay(62, -1, -1, 0)
    events = table.lay(36, 0, -2, 0)
    forest = only(events, "ForestCompleted")
    assert (forest["size"], forest["mushrooms"], forest["points"]) == (2, 0, 4)
    assert forest["scorers"] == ["red"] and not forest["gold_nugget"]
    assert table.scores()["red"] == 4


def _forest_row(table: Table) -> None:
    """A row of meadow-bottomed tiles at y = 0 for the forests at y = -1 to rest on."""
    table.lay(46, -1, 0, 0)
    table.lay(36, 1, 0, 1)
    table.lay(47, -2, 0, 0)
    table.lay(62, 2, 0, 0)


def test_red_and_blue_both_10_when_a_tile_joins_their_forests() -> None:
    table = Table(("red", "blue"), [46, 36, 47, 62, 39, 60, 35, 34, 40])
    _forest_row(table)
    table.lay(39, -1, -1, 0, "gatherer", 1)  # red
    table.lay(60, 1, -1, 0, "gatherer", 1)  # blue, a separate forest
    table.lay(35, -2, -1, 0)
    table.lay(34, 2, -1, 0)
    events = table.lay(40, 0, -1, 0)  # red joins and closes both
    forest = only(events, "ForestCompleted")
    assert (forest["size"], forest["points"]) == (5, 10)
    assert forest["scorers"] == ["red", "blue"]
    assert table.scores() == {"red": 10, "blue": 10}
    # The forest held a gold nugget; with no bonus tile in this set nothing is drawn.
    assert forest["gold_nugget"] and only(events, "NoBonusTileLeft")["seat"] == "red"


def test_red_alone_12_with_the_majority_of_gatherers() -> None:
    table = Table(("red", "blue"), [46, 36, 47, 62, 51, 60, 35, 34, 38, 39, 40])
    _forest_row(table)
    table.lay(51, -3, 0, 0)  # red
    table.lay(60, 1, -1, 0, "gatherer", 1)  # blue
    table.lay(35, -3, -1, 0, "gatherer", 1)  # red
    table.lay(34, 2, -1, 0)  # blue
    table.lay(38, -1, -1, 0, "gatherer", 1)  # red, a second forest of its own
    table.lay(39, -2, -1, 0)  # blue joins red's two forests
    events = table.lay(40, 0, -1, 0)  # red closes all of it
    forest = only(events, "ForestCompleted")
    assert (forest["size"], forest["points"]) == (6, 12)
    assert forest["scorers"] == ["red"]
    assert table.scores() == {"red": 12, "blue": 0}
    assert len(forest["returned"]) == 3
    assert table.state.members == (5, 5)


# ------------------------------------------------------------------ meadows


def test_meadow_1_one_deer_green_scores_2() -> None:
    table = Table(("green", "blue"), [36])
    table.lay(36, 1, 0, 1, "hunter", 0)
    meadow = only(table.log, "MeadowScored")
    assert (meadow["deer"], meadow["tiger"], meadow["points"]) == (1, 0, 2)
    assert meadow["scorers"] == ["green"]
    assert RULES.result(table.state) is not None
    assert table.scores() == {"green": 2, "blue": 0}


def test_meadow_2_deer_mammoth_tiger_yellow_and_red_2_each() -> None:
    table = Table(("yellow", "red"), [36, 31, 35])
    table.lay(36, 1, 0, 1, "hunter", 0)  # yellow, deer
    table.lay(31, 0, 1, 0, "hunter", 1)  # red, tiger, a separate meadow
    table.lay(35, 1, 1, 0)  # mammoth, joins both meadows
    meadow = only(table.log, "MeadowScored")
    animals = (meadow["deer"], meadow["mammoth"], meadow["tiger"])
    assert animals == (1, 1, 1)
    assert meadow["points"] == 2
    assert meadow["scorers"] == ["yellow", "red"]
    assert table.scores() == {"yellow": 2, "red": 2}


def test_meadow_3_red_has_most_hunters_and_scores_8() -> None:
    table = Table(("red", "blue"), [36, 37, 32, 61, 33], bonus=[90])
    table.lay(36, 1, 0, 1, "hunter", 0)  # red, deer
    events = table.lay(37, 0, 1, 0, "hunter", 1)  # blue, deer; closes the start forest
    forest = only(events, "ForestCompleted")
    assert forest["gold_nugget"] and forest["scorers"] == []
    assert only(events, "TileDrawn") == {
        "type": "TileDrawn",
        "seat": "blue",
        "tile": 90,
        "bonus": True,
    }
    table.lay(90, 1, 1, 0)  # blue's bonus tile: mammoth and aurochs, joins both
    table.lay(32, 1, 2, 0, "hunter", 1)  # red, tiger, a separate meadow
    table.lay(61, 2, 1, 0)  # mammoth
    table.lay(33, 2, 2, 2)  # joins red's second hunter in
    meadow = only(table.log, "MeadowScored")
    animals = (meadow["deer"], meadow["mammoth"], meadow["aurochs"], meadow["tiger"])
    assert animals == (2, 2, 1, 1)
    assert meadow["hunters"] == {"red": 2, "blue": 1}
    assert (meadow["points"], meadow["scorers"]) == (8, ["red"])
    assert table.scores() == {"red": 8, "blue": 0}


def test_meadow_4_two_tigers_one_deer_blue_scores_nothing() -> None:
    table = Table(("blue", "red"), [31, 32])
    table.lay(31, 0, -1, 0, "hunter", 1)  # joins the start tile's deer
    table.lay(32, 1, -1, 1)
    meadow = only(table.log, "MeadowScored")
    assert (meadow["deer"], meadow["tiger"], meadow["points"]) == (1, 2, 0)
    assert meadow["scorers"] == ["blue"]
    assert table.scores() == {"blue": 0, "red": 0}


# -------------------------------------------------------------------- huts


def test_hut_scores_5_for_five_fish_in_its_river_system() -> None:
    # Start lake (1 fish) - 46 - tile 1's lake (3 fish) - tile 2's lake (1 fish).
    table = Table(("blue", "red"), [46, 1, 2])
    table.lay(46, -1, 0, 0, "hut", 1)
    table.lay(1, -2, 0, 0)
    table.lay(2, -3, 0, 0)
    system = only(table.log, "RiverSystemScored")
    assert (system["fish"], system["points"], system["scorers"]) == (5, 5, ["blue"])
    assert table.scores()["blue"] == 5
    # The rivers completed on the way scored nobody: no fisher stood on them.
    completed = [e for e in table.log if e["type"] == "RiverCompleted"]
    assert [(e["points"], e["scorers"]) for e in completed] == [(7, []), (6, [])]


def test_huts_stay_and_score_even_on_an_unfinished_system() -> None:
    table = Table(("blue", "red"), [46, 62])
    table.lay(46, -1, 0, 0, "hut", 1)
    table.lay(62, 0, -1, 0)
    system = only(table.log, "RiverSystemScored")
    assert (system["fish"], system["scorers"]) == (1, ["blue"])
    assert table.state.huts == (1, 2)


# ------------------------------------------------------------ bonus tiles


def test_fire_removes_the_meadows_tigers() -> None:
    table = Table(("red", "blue"), [37, 36, 31], bonus=[85])
    table.lay(37, 0, 1, 0, "hunter", 1)  # red, deer
    events = table.lay(36, 1, 0, 1)  # blue closes the start forest: a bonus tile
    assert only(events, "TileDrawn")["tile"] == 85
    table.lay(85, 1, 1, 0)  # fire joins both meadows
    table.lay(31, 2, 1, 2)  # red: a tiger
    meadow = only(table.log, "MeadowScored")
    assert meadow["fire"] and meadow["tiger"] == 1
    assert (meadow["deer"], meadow["points"], meadow["scorers"]) == (2, 4, ["red"])


def test_a_hunter_on_the_shrine_takes_the_meadow_alone() -> None:
    table = Table(("red", "blue"), [37, 36, 62], bonus=[94])
    table.lay(37, 0, 1, 0, "hunter", 1)  # red
    table.lay(36, 1, 0, 1)  # blue closes the start forest: a bonus tile
    table.lay(94, 1, -1, 0, "hunter", 1)  # blue's hunter on the shrine meadow
    table.lay(62, 1, 1, 0)  # red joins the two meadows
    meadow = only(table.log, "MeadowScored")
    assert meadow["hunters"] == {"red": 1, "blue": 1}
    assert meadow["shrine"] == "blue"
    assert (meadow["deer"], meadow["points"], meadow["scorers"]) == (3, 6, ["blue"])
    assert table.scores() == {"red": 0, "blue": 6}


def test_no_hunter_on_the_shrine_of_a_meadow_that_has_one() -> None:
    table = Table(("red", "blue"), [37, 36], bonus=[94])
    table.lay(37, 0, 1, 0, "hunter", 1)
    table.lay(36, 1, 0, 1)
    table.play("blue", {"place": {"x": 1, "y": 1, "rotation": 1}})
    assert {"deploy": {"piece": "hunter", "zone": 1}} not in RULES.legal_moves(table.state, "blue")
    assert table.refusal("blue", {"deploy": {"piece": "hunter", "zone": 1}}) == "occupied"


# -------------------------------------------------- placing (pages 3 and 4)


def test_blue_can_only_place_a_hunter_the_forest_has_a_gatherer() -> None:
    # Red's gatherer stands in the start forest; blue's tile 38 extends it.
    table = Table(("red", "blue"), [36, 38, 62])
    table.lay(36, 1, 0, 1, "gatherer", 1)
    table.play("blue", {"place": {"x": 0, "y": 1, "rotation": 1}})
    assert RULES.legal_moves(table.state, "blue") == [
        {"deploy": {"piece": "hunter", "zone": 0}},
        {"deploy": {"piece": "hunter", "zone": 2}},
        {"pass": True},
    ]
    assert table.refusal("blue", {"deploy": {"piece": "gatherer", "zone": 1}}) == "occupied"


def test_no_new_hunter_on_a_meadow_the_new_tile_joined_to_hunters() -> None:
    # "Alle 3 jegerne befinner seg nå på samme eng": the tile that joins meadows
    # with hunters gets no hunter, not even one of the layer's own colour.
    table = Table(("yellow", "red"), [36, 31, 35])
    table.lay(36, 1, 0, 1, "hunter", 0)
    table.lay(31, 0, 1, 0, "hunter", 1)
    table.play("yellow", {"place": {"x": 1, "y": 1, "rotation": 0}})
    assert RULES.legal_moves(table.state, "yellow") == [
        {"deploy": {"piece": "gatherer", "zone": 1}},
        {"pass": True},
    ]


# ------------------------------------------------------------ gold nuggets


def test_gold_nugget_red_scores_the_forest_blue_who_closed_it_draws_the_bonus() -> None:
    # "Dersom blå hadde ferdigstilt skogen, ville rød fått poengene, og blå bonusbrikka."
    table = Table(("red", "blue"), [36, 37, 62], bonus=[85])
    table.lay(36, 1, 0, 1, "gatherer", 1)
    events = table.lay(37, 0, 1, 0)
    forest = only(events, "ForestCompleted")
    assert forest["gold_nugget"] and forest["scorers"] == ["red"]
    assert (forest["size"], forest["points"]) == (3, 6)
    assert only(events, "TileDrawn") == {
        "type": "TileDrawn",
        "seat": "blue",
        "tile": 85,
        "bonus": True,
    }
    assert table.scores() == {"red": 6, "blue": 0}


def test_gold_nugget_red_closes_her_own_forest_points_and_bonus_tile() -> None:
    table = Table(("red", "blue"), [37, 62, 36], bonus=[85])
    table.lay(37, 0, 1, 0, "gatherer", 0)
    table.lay(62, 0, -1, 0)
    events = table.lay(36, 1, 0, 1)
    forest = only(events, "ForestCompleted")
    assert forest["scorers"] == ["red"] and forest["gold_nugget"]
    assert only(events, "TileDrawn")["seat"] == "red"
    assert only(events, "TileDrawn")["bonus"] is True


# ------------------------------------------- review: more rulebook pictures


def test_red_can_place_a_gatherer_or_fisher_but_a_hunter_only_on_the_small_meadow() -> None:
    # Page 4: "Rød kan sette inn stammemedlemmet som samler eller fisker. Som jeger
    # kan han bare sette stammemedlemmet på den lille enga. På den store enga er det
    # allerede en jeger." Blue's hunter stands on the big meadow north of the start
    # tile; red's tile 46 joins it (zone 0) and the small meadow between river and
    # forest (zone 2); its forest (zone 3) and the start river (zone 1) are free.
    table = Table(("blue", "red"), [62, 46, 1])
    table.lay(62, 0, -1, 0, "hunter", 0)
    table.play("red", {"place": {"x": -1, "y": 0, "rotation": 0}})
    moves = RULES.legal_moves(table.state, "red")
    assert sorted(str(m) for m in moves) == sorted(
        str(m)
        for m in (
            {"deploy": {"piece": "gatherer", "zone": 3}},
            {"deploy": {"piece": "fisher", "zone": 1}},
            {"deploy": {"piece": "hut", "zone": 1}},
            {"deploy": {"piece": "hunter", "zone": 2}},
            {"pass": True},
        )
    )
    assert table.refusal("red", {"deploy": {"piece": "hunter", "zone": 0}}) == "occupied"
    table.play("red", {"deploy": {"piece": "hunter", "zone": 2}})
    assert table.state.members == (4, 4)


def test_all_three_hunters_on_one_meadow_and_no_new_hunter_for_the_joining_tile() -> None:
    # Page 4, "Enga": left, three hunters each on a meadow of its own; right, the
    # new tile joins the three meadows; its layer may place no new hunter there.
    table = Table(("yellow", "red", "blue"), [36, 37, 41, 61, 62])
    table.lay(36, 1, 0, 1, "hunter", 0)  # yellow
    table.lay(37, 0, -1, 0, "hunter", 1)  # red
    table.lay(41, 0, -2, 1, "hunter", 0)  # blue
    table.lay(61, 1, -2, 0)  # yellow: a mammoth, joins blue's meadow
    tiles, board = table.state.tileset, table.state.board
    meadows = {feature_at(tiles, board, f.node, "meadow").key for f in table.state.followers}
    assert len(meadows) == 3
    table.play("red", {"place": {"x": 1, "y": -1, "rotation": 0}})  # tile 62 joins all three
    assert RULES.legal_moves(table.state, "red") == [{"pass": True}]
    assert table.refusal("red", {"deploy": {"piece": "hunter", "zone": 0}}) == "occupied"
    table.play("red", {"pass": True})
    meadow = only(table.log, "MeadowScored")
    assert meadow["hunters"] == {"yellow": 1, "red": 1, "blue": 1}
    assert (meadow["deer"], meadow["mammoth"], meadow["points"]) == (5, 1, 12)
    assert meadow["scorers"] == ["yellow", "red", "blue"]
    assert table.scores() == {"yellow": 12, "red": 12, "blue": 12}


def test_the_river_system_on_the_left_is_blues_the_one_on_the_right_reds() -> None:
    # Page 4: "Vassdraget til venstre tilhører blå. Vassdraget til høyre tilhører
    # rød." and "Den blå hytta kan settes ut": a hut claims a whole river system;
    # another system, not joined to it, takes another player's hut.
    table = Table(("red", "blue"), [46, 47, 62])
    table.lay(46, -1, 0, 0, "hut", 1)  # red: the start lake's system
    table.play("blue", {"place": {"x": 0, "y": 1, "rotation": 2}})  # a river of its own
    assert {"deploy": {"piece": "hut", "zone": 1}} in RULES.legal_moves(table.state, "blue")
    table.play("blue", {"deploy": {"piece": "hut", "zone": 1}})
    table.lay(62, 0, -1, 0)
    systems = [e for e in table.log if e["type"] == "RiverSystemScored"]
    assert [(e["huts"], e["fish"], e["scorers"]) for e in systems] == [
        ({"red": 1}, 1, ["red"]),  # the start lake's fish
        ({"blue": 1}, 1, ["blue"]),  # the fish on tile 47's river
    ]
    assert table.scores() == {"red": 1, "blue": 1}


def test_the_blue_hut_may_stand_on_a_lake() -> None:
    # "Eller hun kan sette ei hytte på ei elv eller et vann".
    table = Table(("blue", "red"), [0, 62])
    table.play("blue", {"place": {"x": -1, "y": 0, "rotation": 1}})
    moves = RULES.legal_moves(table.state, "blue")
    assert {"deploy": {"piece": "hut", "zone": 8}} in moves
    assert {"deploy": {"piece": "fisher", "zone": 8}} not in moves
    assert table.refusal("blue", {"deploy": {"piece": "fisher", "zone": 8}}) == "wrong-zone"
    table.play("blue", {"deploy": {"piece": "hut", "zone": 8}})
    table.lay(62, 0, -1, 0)
    system = only(table.log, "RiverSystemScored")
    # Both lakes of the system: the start tile's (1 fish) and tile 0's (2 fish).
    assert (system["fish"], system["points"], system["scorers"]) == (3, 3, ["blue"])
