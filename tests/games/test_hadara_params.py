"""Hadara ability params from an inline component set: hostile ones are
refused when the game is created (by the rules and over gRPC, writing
nothing), and every set the parser accepts plays without an exception."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.cli.client import ApiError, Client
from gamelog.games.components import load_json
from gamelog.games.hadara import RULES
from gamelog.games.hadara.cards import ABILITIES, TRACKS, Param
from gamelog.games.hadara.colonies import colony_options, per_section, requirement_coins
from gamelog.games.hadara.component_set import parse_components
from gamelog.games.hadara.feeding import feeding_moves
from gamelog.games.hadara.prices import income_extra, sale_coins, seal_price
from gamelog.games.hadara.scoring import score_sheet
from gamelog.games.hadara.state import HadaraState, tracks
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, InvalidOptions
from gamelog.games.protocol import frozen_replace as replace

HOUSE: dict[str, Any] = load_json("gamelog.games.hadara", "hadara-house-1.json")
TWO = ("ann", "bob")


def with_params(ability: str, params: Any) -> tuple[dict[str, Any], str]:
    """The shipped set with the first card of ``ability`` given ``params``
    instead of its own, and that card's id."""
    data = json.loads(json.dumps(HOUSE))
    card = next(c for c in data["cards"] if (c["ability"] or {}).get("id") == ability)
    card["ability"]["params"] = params
    return data, card["id"]


HOSTILE: list[tuple[str, Any, str]] = [
    # (ability, params, what the error says after "card <id>: ")
    ("sell_bonus", {"extra_coins": "1"}, "sell_bonus param 'extra_coins' must be an integer"),
    ("sell_bonus", {"extra_coins": 1.0}, "param 'extra_coins' must be an integer from 0 to 100"),
    ("sell_bonus", {"extra_coins": True}, "param 'extra_coins' must be an integer from 0 to 100"),
    ("sell_bonus", {"extra_coins": 10**30}, "param 'extra_coins' must be an integer from 0 to 100"),
    ("sell_bonus", {"extra_coins": None}, "param 'extra_coins' must be an integer from 0 to 100"),
    ("sell_bonus", {"extra_coins": [1]}, "param 'extra_coins' must be an integer from 0 to 100"),
    ("sell_bonus", {"extra_coins": {"n": 1}}, "param 'extra_coins' must be an integer"),
    ("sell_bonus", {"extra_coin": 1}, "sell_bonus takes no param 'extra_coin'"),
    ("sell_bonus", {"stacks": False}, "param 'stacks' can only be true"),
    ("sell_bonus", [1], "ability params must be an object"),
    ("feed_with_coins", {"coins_per_card": 0}, "param 'coins_per_card' must be an integer from 1"),
    ("colour_step_bonus", {"colour": "green", "steps_per_card": -1}, "'steps_per_card' must be"),
    ("colour_step_bonus", {"colour": "black"}, "param 'colour' must be one of"),
    ("colour_step_bonus", {"colour": ["green"]}, "param 'colour' must be one of"),
    ("colour_step_bonus", {"colour": "green", "track": "gold"}, "param 'track' must be one of"),
    ("colour_step_bonus", {"steps_per_card": 1}, "colour_step_bonus needs the param 'colour'"),
    ("bonus_tile_steps", {"steps": -2}, "param 'steps' must be an integer from 0 to 100"),
    ("bonus_tile_steps", {"tile_side": "back"}, "param 'tile_side' can only be \"front\""),
    ("bust_step_bonus", {"steps_per_bust": 2.5}, "param 'steps_per_bust' must be an integer"),
    ("income_per_track_above_income", {"tracks": ["gold"]}, "param 'tracks' must be a list"),
    ("income_per_track_above_income", {"tracks": ["food", "food"]}, "'tracks' must be a list"),
    ("income_per_track_above_income", {"tracks": "food"}, "'tracks' must be a list"),
    ("income_per_track_above_income", {"tracks": [["food"]]}, "'tracks' must be a list"),
    ("seal_discount", {"silver": {"2": "4"}}, "param 'silver' must map epochs"),
    ("seal_discount", {"silver": {"4": 4}}, "param 'silver' must map epochs"),
    ("seal_discount", {"golden": {"2": {"3": 1}}}, "param 'golden' must map epochs"),
    ("seal_discount", {"golden": [6, 22]}, "param 'golden' must map epochs"),
    ("golden_set_wildcard", {"missing_cards": True}, "param 'missing_cards' can only be 1"),
    ("double_colony_bust", {"colonies_per_section": 0}, "'colonies_per_section' must be"),
    ("buy_requirement", {"applies_to": ["colony", "seal"]}, "param 'applies_to' must be a list"),
    ("requirement_reduction", {"colony": -4}, "param 'colony' must be an integer from 0 to 100"),
]
HOSTILE_IDS = [f"{ability}-{json.dumps(params)}" for ability, params, _ in HOSTILE]


@pytest.mark.parametrize(("ability", "params", "said"), HOSTILE, ids=HOSTILE_IDS)
def test_hostile_params_are_refused_when_the_game_is_created(
    ability: str, params: Any, said: str
) -> None:
    data, card_id = with_params(ability, params)
    with pytest.raises(InvalidOptions) as refused:
        RULES.normalize_options({"components": data}, TWO)
    assert refused.value.code == "bad-components"
    assert refused.value.message.startswith(f"card {card_id}: ")
    assert said in refused.value.message


def test_an_ability_takes_only_an_id_params_and_a_text() -> None:
    data, card_id = with_params("sell_bonus", {})
    card = next(c for c in data["cards"] if c["id"] == card_id)
    card["ability"]["effect"] = {"extra_coins": 9}
    with pytest.raises(InvalidOptions, match=f"card {card_id}: an ability has an id"):
        parse_components(data)


def test_left_out_params_take_the_declared_defaults() -> None:
    """A set may leave params out; the parsed card holds the defaults the
    table declares, which for the shipped set are exactly its own values."""
    data, card_id = with_params("feed_with_coins", {})
    card = parse_components(data).card(card_id)
    assert card.params == {"coins_per_card": 2, "max_coins_per_section": 12, "stacks": False}
    shipped = {c["id"]: c for c in HOUSE["cards"] if c["ability"]}
    assert card.params == shipped[card_id]["ability"]["params"]


@pytest.mark.parametrize(
    ("ability", "params"),
    [
        ("sell_bonus", {"extra_coins": "1"}),
        ("feed_with_coins", {"coins_per_card": 0}),
        ("colour_step_bonus", {"colour": "green", "steps_per_card": -1}),
        ("colour_step_bonus", {"colour": "green", "track": "gold"}),
        ("seal_discount", {"silver": {"2": {"deep": [1]}}}),
        ("set_points", {"points_per_set": 4, "bonus": 1}),
    ],
)
def test_the_service_refuses_hostile_params_and_stores_nothing(
    client: Client, ability: str, params: Any
) -> None:
    data, card_id = with_params(ability, params)
    before = len(client.games(limit=10_000))
    with pytest.raises(ApiError) as refused:
        client.create("hadara", list(TWO), {"components": data})
    assert refused.value.code == "INVALID_ARGUMENT", refused.value
    assert refused.value.reason == "bad-components"
    assert f"card {card_id}: {ability}" in refused.value.message
    assert len(client.games(limit=10_000)) == before, "a refused creation writes nothing"


# --- every accepted set plays ----------------------------------------------------------


def param_values(spec: Param) -> st.SearchStrategy[Any]:
    """Every value ``spec`` accepts (the strategy follows the table), the
    ends of a range often: 0 or 1, and 100."""
    if spec.kind == "count":
        ends = st.sampled_from([spec.low, spec.high])
        return st.one_of(ends, ends, st.integers(spec.low, spec.high))
    if spec.kind == "one":
        return st.sampled_from(spec.choices)
    if spec.kind == "some":
        return st.lists(st.sampled_from(spec.choices), unique=True)
    if spec.kind == "prices":
        return st.dictionaries(st.sampled_from(["1", "2", "3"]), st.integers(spec.low, spec.high))
    return st.just(spec.default)


@st.composite
def params_for(draw: st.DrawFn, ability: str) -> dict[str, Any]:
    """Params of ``ability`` that the parser accepts: some left out, the rest
    anywhere in their declared range."""
    return {
        name: draw(param_values(spec))
        for name, spec in ABILITIES[ability].items()
        if spec.required or draw(st.booleans())
    }


@st.composite
def accepted_sets(draw: st.DrawFn) -> dict[str, Any]:
    """The shipped set with its 24 ability cards given the 15 abilities in
    turn (from a drawn one on), each with drawn params: every ability is in
    every set."""
    data = json.loads(json.dumps(HOUSE))
    names = sorted(ABILITIES)
    offset = draw(st.integers(0, len(names) - 1))
    ability_cards = [card for card in data["cards"] if card["ability"]]
    for index, card in enumerate(ability_cards):
        ability = names[(index + offset) % len(names)]
        card["ability"] = {"id": ability, "params": draw(params_for(ability))}
    return data


def everything_at_once(state: HadaraState) -> HadaraState:
    """The first seat with every ability card of the set in its display, a
    bonus tile on each tile card, coins, busts and a colony: no real position,
    but one where every ability is read at once."""
    components = state.components
    player = state.players[0]
    owned = [c.id for c in components.cards if c.ability] + [
        c.id for c in components.cards if not c.ability and c.epoch == 1
    ][:6]
    tiles = {c: TRACKS[i % 4] for i, c in enumerate(owned)}
    tiles = {c: t for c, t in tiles.items() if components.card(c).ability == "bonus_tile_steps"}
    player = replace(
        player,
        cards=tuple(owned),
        card_tiles=tiles,
        coins=37,
        busts=((1, "food", "front"), (2, "culture", "back")),
    )
    return replace(state, players=(player, *state.players[1:]), epoch=max(state.epoch, 2))


def read_every_ability(state: HadaraState) -> None:
    """Everything in the rules that reads ability params, for the first seat,
    and every way of showing the table."""
    player = state.players[0]
    seat = player.seat
    tracks(player, state)
    score_sheet(state)
    feeding_moves(state, seat)
    colony_options(state, seat)
    income_extra(state, player)
    sale_coins(state, player, state.components.cards[0])
    for kind in ("silver", "golden"):
        seal_price(state, player, kind)
    for kind in ("colony", "bust"):
        per_section(player, state.components, kind)
        requirement_coins(state, player, 30, 0, kind)
    for viewer in (seat, None, ARBITER):
        RULES.view(state, viewer)
        RULES.render_text(state, viewer)
        RULES.render_svg(state, viewer)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(accepted_sets(), st.integers(2, 5), st.integers(0, 2**32))
def test_every_accepted_set_plays_without_an_exception(
    data: dict[str, Any], players: int, seed: int
) -> None:
    """A whole random game with the set, every move noted, then every
    ability read at once from one display."""
    seats = tuple(f"s{i + 1}" for i in range(players))
    line = play_out(RULES, seats, seed, options={"components": data})
    assert RULES.result(line.final_state) is not None
    for (seat, move, events), before in zip(line.moves, line.states):
        RULES.notate(before, seat, move, events)
    read_every_ability(line.states[len(line.states) // 2])
    read_every_ability(everything_at_once(line.final_state))


@pytest.mark.parametrize(
    ("where", "change", "message"),
    [
        ("limits", {"coins_per_end_point": 0}, "coins_per_end_point must be an integer from 1"),
        ("limits", {"max_silver_seals": 10**6}, "max_silver_seals must be an integer from 0 to"),
        ("limits", {"golden_seal_points_per_set": -1}, "golden_seal_points_per_set must be"),
        ("card", {"price": 10**9}, "price must be an integer from 0 to 1000"),
        ("card", {"points": 10**400}, "points must be an integer from 0 to 1000"),
    ],
)
def test_the_sets_own_numbers_are_bounded(where: str, change: dict[str, Any], message: str) -> None:
    """A divisor of 0 among the limits ended every game in a ZeroDivisionError
    at the final scoring; a number of hundreds of digits is no card's."""
    data = json.loads(json.dumps(load_json("gamelog.games.hadara", "hadara-house-1.json")))
    target = data["limits"] if where == "limits" else data["cards"][0]
    target.update(change)
    with pytest.raises(InvalidOptions) as refused:
        parse_components(data)
    assert message in str(refused.value)


def test_the_double_cards_params_under_the_names_read_before_are_read_alike() -> None:
    """Before the params were declared the rules read ``colony_per_section``
    and ``bust_per_section``; a stored game whose set used them was played
    with them, so it must still load and read the same."""
    data, card_id = with_params(
        "double_colony_bust", {"colony_per_section": 1, "bust_per_section": 3}
    )
    params = parse_components(data).card(card_id).params
    assert (params["colonies_per_section"], params["busts_per_section"]) == (1, 3)
