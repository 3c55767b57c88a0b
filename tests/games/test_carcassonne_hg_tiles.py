"""The tile set: counts match the file, every tile's edges agree with its zones."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from gamelog.games.carcassonne_hg import RULES
from gamelog.games.carcassonne_hg.tiles import (
    SIDES,
    parse_tileset,
    segment_number,
    shipped_data,
    shipped_tileset,
)
from gamelog.games.protocol import InvalidOptions

SET = "carcassonne-hg/house-2002"


def _data() -> Any:
    return copy.deepcopy(shipped_data(SET))


def test_counts_match_the_file() -> None:
    data = _data()
    tiles = shipped_tileset(SET)
    summary = data["summary"]
    kinds = Counter(t.kind for t in tiles.tiles)
    assert dict(kinds) == summary["tiles_per_kind"] == {"start": 1, "land": 78, "bonus": 12}
    assert len(tiles.tiles) == summary["tiles"] == 91
    zones = [z for t in tiles.tiles for z in t.zones]
    assert sum(z.fish for z in zones if z.type == "lake") == summary["fish_in_lakes"]
    assert sum(z.fish for z in zones if z.type == "river") == summary["fish_in_rivers"]
    assert sum(z.type == "lake" for z in zones) == summary["lakes"]
    for animal in ("deer", "mammoth", "aurochs", "tiger"):
        assert sum(getattr(z, animal) for z in zones) == summary["animals_total"][animal]
    gold = sorted(t.id for t in tiles.tiles if any(z.gold_nugget for z in t.zones))
    assert gold == summary["tile_ids_with_gold_nugget"]
    mushrooms = sorted(t.id for t in tiles.tiles if any(z.mushrooms for z in t.zones))
    assert mushrooms == summary["tile_ids_with_mushrooms"]
    assert tiles.start_tile == 56


def test_every_edge_agrees_with_its_zones() -> None:
    data = _data()
    for raw in data["tiles"]:
        owner: dict[int, dict[str, Any]] = {}
        for zone in raw["zones"]:
            for name in zone["segments"]:
                assert segment_number(name) not in owner
                owner[segment_number(name)] = zone
        assert sorted(owner) == list(range(12)), raw["id"]
        for s, side in enumerate(raw["sides"]):
            assert side["side"] == SIDES[s]
            types = [owner[3 * s + k]["type"] for k in range(3)]
            if side["type"] == "river":
                assert types == ["meadow", "river", "meadow"], raw["id"]
            else:
                assert types == [side["type"]] * 3, raw["id"]
            assert side["zones"] == [owner[3 * s + k]["zone"] for k in range(3)]
        for zone in raw["zones"]:
            if zone["type"] == "lake":
                assert zone["segments"] == []
                rivers = [z for z in raw["zones"] if z["type"] == "river"]
                assert any(z.get("lake") == zone["zone"] for z in rivers)


def test_shipped_file_is_the_shared_set() -> None:
    # The package's copy is what gets used; it must stay a valid set.
    parse_tileset("copy", json.loads(json.dumps(_data())))


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda d: d["tiles"][0]["sides"][2].update(type="meadow"), "disagrees"),
        (lambda d: d["tiles"][0]["zones"].pop(), "lake"),
        (lambda d: d["tiles"].append(copy.deepcopy(d["tiles"][0])), "unique"),
        (lambda d: d["tiles"][0].update(kind="castle"), "kind"),
    ],
)
def test_a_broken_inline_set_is_refused(damage: Any, reason: str) -> None:
    data = _data()
    damage(data)
    with pytest.raises(InvalidOptions) as refused:
        RULES.normalize_options({"components": data}, ("a", "b"))
    assert reason in refused.value.message


@pytest.mark.parametrize("zones", [0, 7.5, True, {"a": 1}, "012"])
def test_a_side_whose_zones_are_no_list_is_refused(zones: Any) -> None:
    """Found by mutating options: a number as a side's ``zones`` reached
    list() and raised TypeError (INTERNAL) at creation."""
    data = _data()
    data["tiles"][0]["sides"][2]["zones"] = zones
    with pytest.raises(InvalidOptions, match="bad-components") as refused:
        RULES.normalize_options({"components": data}, ("a", "b"))
    assert "side S zones must list the zones of its segments" in refused.value.message


def test_an_inline_set_is_stored_in_the_options() -> None:
    data = _data()
    options = RULES.normalize_options({"components": data}, ("a", "b"))
    assert options["components"] == data
    state = RULES.start(("a", "b"), options)
    assert len(state.land_pile) == 78


def test_unknown_set_and_player_counts_are_refused() -> None:
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"component_set": "carcassonne-hg/nope"}, ("a", "b"))
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({}, ("a",))
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({}, tuple("abcdef"))
    assert RULES.normalize_options({}, ("a", "b")) == {"component_set": SET}


def test_an_unknown_set_is_refused_with_the_known_names() -> None:
    with pytest.raises(InvalidOptions) as refused:
        RULES.normalize_options({"component_set": "carcassonne-hg/nope"}, ("a", "b"))
    assert refused.value.code == "unknown-component-set"
    assert SET in refused.value.message
