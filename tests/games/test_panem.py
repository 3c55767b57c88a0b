"""Panem: set-up, the round track, every location action, every advantage,
tributes, trading, the end and its tie-breaks."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from gamelog.games.leaks import find_leaks
from gamelog.games.panem import RULES
from gamelog.games.panem.scoring import card_points
from gamelog.games.panem.state import (
    MOVEMENT,
    NEUTRAL,
    OVER,
    TRADING,
    TRIBUTE,
    PanemState,
)
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, IllegalMove, InvalidOptions, Move

SEATS4 = ("ann", "ben", "cat", "dan")
START_ADVS = ("gale", "peeta", "prim", "haymitch")


def seats(n: int) -> tuple[str, ...]:
    return SEATS4[:n]


def deal4(ann: str = "gale", draws: list[str] | None = None) -> dict[str, Any]:
    others = [a for a in START_ADVS if a != ann]
    return {
        "start_advantages": dict(zip(SEATS4, [ann, *others])),
        "start_cards": {
            "ann": ["food-1-01", "medicine-1-01", "clothing-1-01"],
            "ben": ["food-1-02", "medicine-1-02", "clothing-1-02"],
            "cat": ["food-1-03", "medicine-1-03", "clothing-1-03"],
            "dan": ["fuel-1-01", "fuel-1-02", "fuel-1-03"],
        },
        "hob": {"hob-1": ["food-3-01", "fuel-3-01"], "hob-2": ["medicine-3-01", "clothing-3-01"]},
        "bakery": {"bakery-1": ["food-2-01"], "bakery-2": ["fuel-2-01"]},
        "discard": "clothing-2-01",
        "draws": draws or ["medicine-2-01", "fuel-1-04", "food-1-04", "clothing-1-04"],
    }


def new_game(n: int = 4, deal: dict[str, Any] | None = None, seed: int = 1) -> PanemState:
    options = RULES.normalize_options({"deal": deal} if deal else {}, seats(n))
    state = RULES.start(seats(n), options)
    for event in RULES.setup(options, seats(n), random.Random(seed)):
        state = RULES.evolve(state, event)
    return state


def decide(state: PanemState, seat: str, move: dict[str, Any], seed: int = 7) -> list[Any]:
    return RULES.decide(state, seat, move, random.Random(seed))


def play(state: PanemState, seat: str, move: dict[str, Any], seed: int = 7) -> PanemState:
    for event in decide(state, seat, move, seed):
        state = RULES.evolve(state, event)
    return state


def refused(state: PanemState, seat: str, move: dict[str, Any]) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        decide(state, seat, move)
    assert info.value.message
    return info.value


def advance(
    state: PanemState, until: Callable[[PanemState], bool], limit: int = 2000
) -> PanemState:
    """Plain play (first free space, skip, done, no tribute) until ``until``."""
    for _ in range(limit):
        if until(state):
            return state
        seat = RULES.to_act(state)[0]
        if state.phase == MOVEMENT and state.step == "act":
            move: dict[str, Any] = {"skip": True}
        elif state.phase == TRADING:
            move = {"done": True}
        elif state.phase == TRIBUTE:
            move = {"tribute": []}
        else:
            move = RULES.legal_moves(state, seat)[0]
        state = play(state, seat, move)
    raise AssertionError("never got there")


# -- set-up ------------------------------------------------------------------------


def test_registered_and_named() -> None:
    from gamelog.games import get_rules

    assert get_rules("panem") is RULES
    assert RULES.rules_version == "1.2"
    assert (RULES.min_players, RULES.max_players) == (2, 4)


def test_player_count_and_options_are_checked() -> None:
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({}, ("a",))
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({}, ("a", "b", "c", "d", "e"))
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"colour": "red"}, ("a", "b"))
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"component_set": "panem/none"}, ("a", "b"))
    assert RULES.normalize_options({}, ("a", "b")) == {"component_set": "panem/house-1"}


def test_set_up_for_four_players() -> None:
    state = new_game(4, deal4())
    assert state.covered == frozenset()
    assert {seat: len(state.hands[seat]) for seat in SEATS4} == dict.fromkeys(SEATS4, 3)
    assert state.glass_ball == dict.fromkeys(SEATS4, 1)
    assert state.lots_left == dict.fromkeys(SEATS4, 10)
    assert state.bakery == {"bakery-1": {"food-2-01"}, "bakery-2": {"fuel-2-01"}}
    assert state.hob == {
        "hob-1": {"food-3-01", "fuel-3-01"},
        "hob-2": {"medicine-3-01", "clothing-3-01"},
    }
    assert state.discard_top == "clothing-2-01" and not state.discard
    assert len(state.draw_pile) == 55 - 12 - 4 - 2 - 1
    assert state.advantage == {"ann": "gale", "ben": "peeta", "cat": "prim", "dan": "haymitch"}
    assert len(state.later_advantages) == 5 and not state.beside
    assert state.start_player == "ann" and state.chips == frozenset(SEATS4)
    assert (state.round, state.phase, RULES.to_act(state)) == (1, MOVEMENT, ("ann",))
    assert len(RULES.legal_moves(state, "ann")) == 12


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_set_up_for_each_player_count(n: int) -> None:
    state = new_game(n, seed=n)
    covered = {
        2: {"forest-2", "forest-3", "everdeen_house-2", "everdeen_house-3", "hob-2", "bakery-2"},
        3: {"forest-3", "everdeen_house-3", "bakery-2"},
        4: set(),
    }[n]
    assert state.covered == covered
    hands = [len(state.hands[seat]) for seat in seats(n)]
    assert hands == {2: [2, 3], 3: [2, 3, 4], 4: [3, 3, 3, 3]}[n]
    assert all(state.catalog.cards[c].start for seat in seats(n) for c in state.hands[seat])
    assert len(state.box) == 12 - sum(hands)
    assert len(state.hob) == (1 if n == 2 else 2)
    assert all(len(cards) == 2 for cards in state.hob.values())
    assert len(state.bakery) == (2 if n == 4 else 1)
    assert all(len(cards) == 1 for cards in state.bakery.values())
    assert state.discard_top is not None
    assert len({state.advantage[s] for s in seats(n)}) == n
    assert set(state.advantage.values()) <= set(START_ADVS)
    expected_ball = dict.fromkeys(seats(n), 1) | ({NEUTRAL: 6} if n == 2 else {})
    assert state.glass_ball == expected_ball
    assert len(RULES.legal_moves(state, seats(n)[0])) == 12 - len(covered)
    # Nobody else knows a hand, the Hob or the box.
    ben_hidden = RULES.hidden_from(state, "ben")
    assert state.hands["ann"] <= ben_hidden and state.box <= ben_hidden
    assert all(cards <= ben_hidden for cards in state.hob.values())
    assert state.discard_top not in ben_hidden
    assert RULES.hidden_from(state, ARBITER) == frozenset()


def test_deal_is_validated() -> None:
    bad = deal4()
    bad["hob"] = {"hob-1": ["food-1-01", "fuel-3-01"], "hob-2": ["medicine-3-01", "clothing-3-01"]}
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"deal": bad}, SEATS4)
    bad = deal4()
    bad["discard"] = "food-2-01"  # already on the bakery
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"deal": bad}, SEATS4)
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"deal": {"tribute_lot": NEUTRAL}}, SEATS4)


def test_unreadable_deal_and_components_are_refused_not_crashed() -> None:
    # A list where an id belongs used to raise TypeError (unhashable) instead.
    from gamelog.games.components import load_json

    for deal in (
        {"later_advantages": [["katniss_bow"]]},
        {"start_advantages": {"ann": ["gale"], "ben": "peeta"}},
    ):
        with pytest.raises(InvalidOptions):
            RULES.normalize_options({"deal": deal}, ("ann", "ben"))
    data = load_json("gamelog.games.panem", "house-1.json")
    data["advantages"][0]["effect"]["kind"] = ["forest_keep"]
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"components": data}, ("a", "b"))
    data = load_json("gamelog.games.panem", "house-1.json")
    data["advantages"][3]["effect"]["locations"] = [["hob"]]
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"components": data}, ("a", "b"))


def test_inline_components_are_validated_and_stored() -> None:
    from gamelog.games.components import load_json

    data = load_json("gamelog.games.panem", "house-1.json")
    data["name"] = "panem/test"
    data["hand_limit"] = 5
    options = RULES.normalize_options({"components": data}, ("a", "b"))
    assert options["components"]["hand_limit"] == 5
    assert RULES.start(("a", "b"), options).catalog.hand_limit == 5
    broken = dict(data, goods=["food"])
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"components": broken}, ("a", "b"))


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("setup", {"hob_cards": 10**50}, "setup.hob_cards"),
        ("setup", {"bakery_cards": 10**50}, "setup.bakery_cards"),
        # 2 Hob spaces x 22 cards: more than the 43 cards of the draw pile.
        ("setup", {"hob_cards": 22, "bakery_cards": 0}, "setup.hob_cards"),
        ("setup", {"hob_cards": 0, "bakery_cards": 22}, "setup.bakery_cards"),
        ("neutral_lots_two_players", 10**50, "neutral_lots_two_players"),
        ("neutral_lots_two_players", 101, "neutral_lots_two_players"),
        ("lots_per_player", 10**50, "lots_per_player"),
        ("hand_limit", 10**50, "hand_limit"),
    ],
)
def test_numbers_of_an_inline_set_that_cannot_be_played_are_refused(
    key: str, value: Any, field: str
) -> None:
    """Found by mutating options: set-up cards beyond the draw pile made the
    set-up draw its first discard from an empty pile (IndexError in setup,
    every game), and 10**50 neutral lots were counted out one by one at the
    end (the game never finished)."""
    from gamelog.games.components import load_json

    data = load_json("gamelog.games.panem", "house-1.json")
    data[key] = value
    with pytest.raises(InvalidOptions, match="bad-components") as refused:
        RULES.normalize_options({"components": data}, ("a", "b"))
    assert field in refused.value.message


def test_more_than_twenty_goods_are_refused() -> None:
    """Found by mutating options: 2,000 goods were accepted and trading then
    listed 60,000 legal moves at every position."""
    from gamelog.games.components import load_json

    data = load_json("gamelog.games.panem", "house-1.json")
    data["goods"] = [*data["goods"], *(f"good-{i}" for i in range(17))]
    with pytest.raises(InvalidOptions, match="bad-components") as refused:
        RULES.normalize_options({"components": data}, ("a", "b"))
    assert "goods names at most 20 goods" in refused.value.message
    data["goods"] = data["goods"][:20]
    assert RULES.normalize_options({"components": data}, ("a", "b"))["components"] == data


def test_a_set_whose_goods_differ_in_values_plays_to_the_end() -> None:
    """Found by mutating options: with one food card worth 4 and no other
    good of value 4, the trading phase's legal moves offered asks for
    ``fuel-4`` that ``decide`` refused as an unknown kind."""
    from gamelog.games.components import load_json

    data = load_json("gamelog.games.panem", "house-1.json")
    card = next(c for c in data["survival_cards"] if c["good"] == "food" and not c.get("start"))
    card["value"] = 4
    for seed in (1, 2, 3):
        line = play_out(RULES, SEATS4, seed, options={"components": data})
        assert RULES.result(line.final_state) is not None


# -- the round track ------------------------------------------------------------------


def no_trades(r: random.Random, moves: list[Move]) -> Move:
    """A random legal move, but straight out of every trading phase."""
    return {"done": True} if {"done": True} in moves else r.choice(moves)


def collect_rounds(n: int, seed: int = 3) -> dict[int, list[dict[str, Any]]]:
    """Every event of a random game, by the round it happened in (0: the set-up)."""
    line = play_out(RULES, seats(n), seed, choose=no_trades)
    assert line.final_state.phase == OVER
    by_round: dict[int, list[dict[str, Any]]] = {}
    number = 0
    for event in [*line.setup_events, *(e for _, _, events in line.moves for e in events)]:
        if event["type"] == "RoundStarted":
            number = event["round"]
        by_round.setdefault(number, []).append(event)
    return by_round


@pytest.mark.parametrize("n", [2, 3, 4])
def test_round_track(n: int) -> None:
    by_round = collect_rounds(n)
    assert sorted(by_round) == list(range(14))
    bakery_spaces = 2 if n == 4 else 1
    hob_spaces = 1 if n == 2 else 2
    start_players = []
    for number in range(1, 14):
        kinds = [e["type"] for e in by_round[number]]
        bakery = [e for e in by_round[number] if e["type"] == "BakeryStocked"]
        hob = [e for e in by_round[number] if e["type"] == "HobStocked"]
        refill = number in (2, 3, 5, 6, 8, 9, 11, 12)
        assert len(bakery) == (bakery_spaces if refill else 0), number
        assert [e["space"] for e in bakery] == ["bakery-1", "bakery-2"][: len(bakery)]
        assert len(hob) == (hob_spaces if number in (2, 5, 8, 11) else 0), number
        assert all(len(e["cards"]) == 2 for e in hob)
        revealed = [e for e in by_round[number] if e["type"] == "AdvantagesRevealed"]
        want = {3: 2, 6: 2, 9: 1}.get(number, 0)
        assert sum(len(e["advantages"]) for e in revealed) == want
        assert ("TradingOpened" in kinds) == (number in (3, 6, 9, 12))
        tribute = [e for e in by_round[number] if e["type"] == "TributeDemanded"]
        goods = {
            4: ["food"],
            7: ["food", "medicine"],
            10: ["clothing", "food", "fuel"],
            13: ["clothing", "food", "fuel", "medicine"],
        }.get(number)
        assert [e["goods"] for e in tribute] == ([goods] if goods else [])
        if goods:
            assert "TributesRevealed" in kinds
        assert ("StartPlayerPassed" in kinds) == (number in (4, 7, 10))
        moved = [e for e in by_round[number] if e["type"] == "FigureMoved"]
        assert len(moved) == (0 if number == 13 else n)
        if moved:
            start_players.append(moved[0]["seat"])
    first = {4: ["ann", "ben", "cat", "dan"], 3: ["ann", "ben", "cat", "ann"]}
    first[2] = ["ann", "ben", "ann", "ben"]
    assert start_players[::3] == first[n]
    end_kinds = [e["type"] for e in by_round[13]]
    assert end_kinds[-2:] == ["LotDrawn", "GameEnded"]


# -- moving -------------------------------------------------------------------------


def finish_round(state: PanemState) -> PanemState:
    number = state.round
    return advance(state, lambda s: s.round > number and s.phase == MOVEMENT)


def test_moving_rules() -> None:
    state = new_game(4, deal4())
    assert refused(state, "ann", {"go": "nowhere"}).code == "space-not-allowed"
    state = play(state, "ann", {"go": "forest-1"})
    state = play(state, "ann", {"skip": True})
    assert RULES.to_act(state) == ("ben",)
    assert "forest-1" in refused(state, "ben", {"go": "forest-1"}).message
    state = finish_round(state)
    assert state.round == 2 and state.last_location["ann"] == "forest"
    # Ann may not stay in the forest, not even on another forest space.
    refused(state, "ann", {"go": "forest-2"})
    assert all(not m["go"].startswith("forest") for m in RULES.legal_moves(state, "ann"))
    # Figures still standing from last round block their spaces.
    occupied = {state.position[s] for s in SEATS4 if s != "ann"}
    assert all(m["go"] not in occupied for m in RULES.legal_moves(state, "ann"))


def test_covered_spaces_cannot_be_entered() -> None:
    state = new_game(3)
    assert refused(state, "ann", {"go": "bakery-2"}).code == "space-not-allowed"
    state = new_game(2)
    for space in ("forest-2", "everdeen_house-2", "hob-2"):
        refused(state, "ann", {"go": space})


# -- every location action ------------------------------------------------------------


def test_forest_keeps_one_food() -> None:
    state = new_game(4, deal4(ann="peeta", draws=["medicine-2-01", "food-1-04", "food-3-02"]))
    state = play(state, "ann", {"go": "forest-1"})
    events = decide(state, "ann", {"act": True})
    assert events[0] == {
        "type": "ForestRevealed",
        "seat": "ann",
        "cards": ["medicine-2-01", "food-1-04", "food-3-02"],
    }
    state = play(state, "ann", {"act": True})
    assert {m["keep"] for m in RULES.legal_moves(state, "ann")} == {None, "food-1-04", "food-3-02"}
    refused(state, "ann", {"keep": "medicine-2-01"})
    state = play(state, "ann", {"keep": "food-3-02"})
    assert "food-3-02" in state.hands["ann"]
    assert state.discard_top == "food-1-04" and state.discard == {"clothing-2-01", "medicine-2-01"}
    assert RULES.to_act(state) == ("ben",)


def test_forest_without_food_discards_all_three() -> None:
    state = new_game(4, deal4(ann="peeta", draws=["medicine-2-01", "fuel-1-04", "clothing-1-04"]))
    state = play(state, "ann", {"go": "forest-1"})
    state = play(state, "ann", {"act": True})
    assert len(state.hands["ann"]) == 3 and RULES.to_act(state) == ("ben",)
    assert state.discard_top == "clothing-1-04"


def test_gale_keeps_food_or_medicine() -> None:
    state = new_game(4, deal4(ann="gale", draws=["medicine-2-01", "fuel-1-04", "clothing-1-04"]))
    state = play(state, "ann", {"go": "forest-1"})
    state = play(state, "ann", {"act": True})
    assert {m["keep"] for m in RULES.legal_moves(state, "ann")} == {None, "medicine-2-01"}
    state = play(state, "ann", {"keep": "medicine-2-01"})
    assert "medicine-2-01" in state.hands["ann"]


def test_everdeen_house_draws_one_secretly() -> None:
    state = new_game(4, deal4(ann="gale"))
    state = play(state, "ann", {"go": "everdeen_house-1"})
    events = decide(state, "ann", {"act": True})
    drawn = events[0]
    assert drawn["cards"] == ["medicine-2-01"]
    assert RULES.redact(drawn, "ben") == {"type": "CardsDrawn", "seat": "ann", "count": 1}
    assert "medicine-2-01" not in str(RULES.redact(drawn, None))
    state = play(state, "ann", {"act": True})
    assert "medicine-2-01" in state.hands["ann"]
    assert "medicine-2-01" in RULES.hidden_from(state, "ben")
    assert "medicine-2-01" not in RULES.hidden_from(state, "ann")
    assert not find_leaks(RULES.view(state, "ben"), RULES.hidden_from(state, "ben"))


def test_prim_draws_two_and_keeps_one() -> None:
    state = new_game(4, deal4(ann="prim"))
    state = play(state, "ann", {"go": "everdeen_house-1"})
    state = play(state, "ann", {"act": True})
    assert state.drawn == ("medicine-2-01", "fuel-1-04")
    assert RULES.legal_moves(state, "ann") == [{"keep": "medicine-2-01"}, {"keep": "fuel-1-04"}]
    assert RULES.view(state, "ben")["turn"]["drawn_count"] == 2
    refused(state, "ann", {"keep": "food-1-04"})
    events = decide(state, "ann", {"keep": "fuel-1-04"})
    assert RULES.redact(events[0], "ben") == {
        "type": "CardKept",
        "seat": "ann",
        "discarded": ["medicine-2-01"],
    }
    state = play(state, "ann", {"keep": "fuel-1-04"})
    assert "fuel-1-04" in state.hands["ann"] and state.discard_top == "medicine-2-01"


def test_hob_look_and_swap_one() -> None:
    state = new_game(4, deal4(ann="gale"))
    state = play(state, "ann", {"go": "hob-1"})
    events = decide(state, "ann", {"act": True})
    assert events[0]["cards"] == ["food-3-01", "fuel-3-01"]
    assert RULES.redact(events[0], "ben") == {
        "type": "PileLooked",
        "seat": "ann",
        "pile": "hob-1",
        "count": 2,
    }
    state = play(state, "ann", {"act": True})
    assert RULES.view(state, "ann")["turn"]["pile_cards"] == ["food-3-01", "fuel-3-01"]
    too_many = {"exchange": [["food-1-01", "food-3-01"], ["medicine-1-01", "fuel-3-01"]]}
    assert refused(state, "ann", too_many).code == "bad-exchange"
    refused(state, "ann", {"exchange": [["food-2-01", "food-3-01"]]})
    state = play(state, "ann", {"exchange": [["food-1-01", "food-3-01"]]})
    assert state.hands["ann"] == {"food-3-01", "medicine-1-01", "clothing-1-01"}
    assert state.hob["hob-1"] == {"food-1-01", "fuel-3-01"}
    # Ann remembers the stack; Ben knows nothing of it.
    assert RULES.view(state, "ann")["hob"]["hob-1"]["known"] == ["food-1-01", "fuel-3-01"]
    assert RULES.view(state, "ben")["hob"]["hob-1"] == {"count": 2, "known": []}
    assert "fuel-3-01" not in RULES.hidden_from(state, "ann")
    assert "fuel-3-01" in RULES.hidden_from(state, "ben")
    # Ben exchanges there too: Ann can no longer tell what is in the stack.
    state = play(state, "ben", {"go": "bakery-2"})
    state = play(state, "ben", {"skip": True})
    state = finish_round(state)
    state = advance(state, lambda s: RULES.to_act(s) == ("ben",) and s.step == "move")
    state = play(state, "ben", {"go": "hob-1"})
    state = play(state, "ben", {"act": True})
    state = play(state, "ben", {"exchange": [["food-1-02", "fuel-3-01"]]})
    assert RULES.view(state, "ann")["hob"]["hob-1"]["known"] == []
    ben_known = RULES.view(state, "ben")["hob"]["hob-1"]["known"]
    assert ben_known == sorted(state.hob["hob-1"]) and {"food-1-01", "food-1-02"} <= set(ben_known)


def test_haymitch_exchanges_two() -> None:
    state = new_game(4, deal4(ann="haymitch"))
    state = play(state, "ann", {"go": "hob-1"})
    state = play(state, "ann", {"act": True})
    both = {"exchange": [["food-1-01", "food-3-01"], ["medicine-1-01", "fuel-3-01"]]}
    assert both in RULES.legal_moves(state, "ann")
    three = {"exchange": [*both["exchange"], ["clothing-1-01", "food-3-01"]]}
    refused(state, "ann", three)
    state = play(state, "ann", both)
    assert state.hands["ann"] == {"food-3-01", "fuel-3-01", "clothing-1-01"}


def test_bakery_takes_the_stack() -> None:
    state = new_game(4, deal4(ann="gale"))
    state = play(state, "ann", {"go": "bakery-1"})
    state = play(state, "ann", {"act": True})
    assert "food-2-01" in state.hands["ann"] and state.bakery["bakery-1"] == frozenset()
    assert len(state.hands["ann"]) == 4


def test_peeta_also_draws_at_the_bakery() -> None:
    state = new_game(4, deal4(ann="peeta"))
    state = play(state, "ann", {"go": "bakery-2"})
    events = decide(state, "ann", {"act": True})
    assert [e["type"] for e in events[:2]] == ["BakeryTaken", "CardsDrawn"]
    assert RULES.redact(events[1], "cat")["count"] == 1
    state = play(state, "ann", {"act": True})
    assert state.hands["ann"] >= {"fuel-2-01", "medicine-2-01"}


def test_capitol_storehouse_look_and_swap() -> None:
    state = new_game(4, deal4(ann="gale"))
    state = play(state, "ann", {"go": "capitol_storehouse-1"})
    state = play(state, "ann", {"act": True})
    assert RULES.legal_moves(state, "ann")[0] == {"exchange": []}
    events = decide(state, "ann", {"exchange": [["medicine-1-01", "clothing-2-01"]]})
    assert RULES.redact(events[0], "ben")["top"] == "medicine-1-01"
    state = play(state, "ann", {"exchange": [["medicine-1-01", "clothing-2-01"]]})
    assert "clothing-2-01" in state.hands["ann"] and state.discard_top == "medicine-1-01"


def test_justice_building_swaps_with_a_player_who_moved() -> None:
    state = new_game(4, deal4(ann="gale"))
    state = play(state, "ann", {"go": "justice_building-1"})
    assert RULES.legal_moves(state, "ann") == [{"skip": True}]
    refused(state, "ann", {"swap_with": "ben"})
    state = play(state, "ann", {"skip": True})
    state = play(state, "ben", {"go": "bakery-1"})
    state = play(state, "ben", {"skip": True})
    state = finish_round(state)
    # Round 2: Ann must leave the Justice building; Cat goes there and swaps.
    state = advance(state, lambda s: RULES.to_act(s) == ("cat",) and s.step == "move")
    state = replace(state, position={**state.position, "dan": "forest-3"})
    state = play(state, "cat", {"go": "justice_building-1"})
    movers = {m["swap_with"] for m in RULES.legal_moves(state, "cat") if "swap_with" in m}
    assert movers == {"ann", "ben"} - {
        s for s in ("ann", "ben") if state.location(s) == state.last_location["cat"]
    }
    refused(state, "cat", {"swap_with": "dan"})  # has not moved yet
    target = sorted(movers)[0]
    target_space = state.position[target]
    state = play(state, "cat", {"swap_with": target})
    assert state.position["cat"] == target_space
    assert state.position[target] == "justice_building-1"
    assert "cat" not in state.chips and RULES.to_act(state) == ("cat",)
    assert {"act": True} in RULES.legal_moves(state, "cat")
    state = play(state, "cat", {"skip": True})
    assert RULES.to_act(state) == ("dan",)


def test_justice_building_without_chip() -> None:
    state = new_game(4, deal4(ann="gale"))
    state = play(state, "ann", {"go": "forest-1"})
    state = play(state, "ann", {"skip": True})
    state = replace(state, chips=frozenset({"ann", "cat", "dan"}))
    state = play(state, "ben", {"go": "justice_building-1"})
    assert refused(state, "ben", {"swap_with": "ann"}).code == "cannot-swap"
    # Mayor Undersee may still be taken there without a chip.
    state = replace(state, beside={"justice_building": "mayor_undersee"})
    state = play(state, "ben", {"take_advantage": True})
    assert state.advantage["ben"] == "mayor_undersee"


# -- advantage cards -------------------------------------------------------------------


def test_taking_an_advantage_replaces_the_start_advantage_once() -> None:
    state = new_game(4, deal4(ann="gale"))
    state = replace(state, beside={"forest": "katniss_bow", "hob": "greasy_sae"})
    refused(state, "ann", {"take_advantage": True})
    state = play(state, "ann", {"go": "everdeen_house-1"})
    assert refused(state, "ann", {"take_advantage": True}).code == "no-advantage"
    state = play(state, "ann", {"skip": True})
    state = play(state, "ben", {"go": "forest-1"})
    assert {"take_advantage": True} in RULES.legal_moves(state, "ben")
    events = decide(state, "ben", {"take_advantage": True})
    assert events[0] == {
        "type": "AdvantageTaken",
        "seat": "ben",
        "advantage": "katniss_bow",
        "returned": "peeta",
    }
    state = play(state, "ben", {"take_advantage": True})
    assert state.advantage["ben"] == "katniss_bow" and "forest" not in state.beside
    state = finish_round(state)
    state = replace(state, beside={"hob": "greasy_sae", "forest": "katniss_bow"})
    state = advance(state, lambda s: RULES.to_act(s) == ("ben",) and s.step == "move")
    state = replace(state, position={**state.position, "ann": None, "cat": None, "dan": None})
    state = play(state, "ben", {"go": "hob-1"})
    assert {"take_advantage": True} not in RULES.legal_moves(state, "ben")
    assert refused(state, "ben", {"take_advantage": True}).code == "advantage-taken"


def points(advantage: str | None, *cards: str) -> int:
    return card_points(new_game(2).catalog, frozenset(cards), advantage)


def test_katniss_bow_example() -> None:
    # Rulebook: "Katniss' Bogen" gives a bonus for food worth 2 and 3:
    # food worth 3 counts 5, food worth 2 counts 3.
    assert points("katniss_bow", "food-3-01", "food-2-01", "food-1-04") == 5 + 3 + 1
    assert points("katniss_bow", "medicine-3-01") == 3
    assert points("gale", "food-3-01", "food-2-01") == 5


@pytest.mark.parametrize(
    ("advantage", "good"),
    [
        ("mrs_everdeen_remedies", "medicine"),
        ("cinna_designs", "clothing"),
        ("greasy_sae", "fuel"),
        ("katniss_bow", "food"),
    ],
)
def test_good_bonus_advantages(advantage: str, good: str) -> None:
    assert points(advantage, f"{good}-3-01", f"{good}-2-01", f"{good}-1-04") == 9
    other = "food" if good != "food" else "fuel"
    assert points(advantage, f"{other}-3-01") == 3


def test_mayor_undersee_needs_every_good() -> None:
    all_four = ("food-1-04", "medicine-2-01", "clothing-1-04", "fuel-3-01")
    assert points("mayor_undersee", *all_four) == 7 + 6
    assert points("mayor_undersee", *all_four[:3]) == 4
    assert points(None, *all_four) == 7


def test_start_advantages_score_nothing() -> None:
    for advantage in START_ADVS:
        assert points(advantage, "food-3-01", "fuel-2-01") == 5


# -- tributes -------------------------------------------------------------------------


def at_tribute(n: int = 4) -> PanemState:
    state = new_game(n, deal4() if n == 4 else None)
    return advance(state, lambda s: s.phase == TRIBUTE)


def test_tribute_is_sealed_until_everyone_chose() -> None:
    state = at_tribute()
    assert state.round == 4 and state.tribute_goods == ("food",)
    assert state.start_player == "ben"
    assert RULES.to_act(state) == SEATS4
    assert refused(state, "ann", {"tribute": ["medicine-1-01"]}).code == "bad-tribute"
    ann_food = sorted(c for c in state.hands["ann"] if c.startswith("food"))
    assert ann_food
    events = decide(state, "ann", {"tribute": ann_food[:1]})
    assert [e["type"] for e in events] == ["TributeSealed"]
    for viewer in ("ben", "cat", "dan", None):
        assert RULES.redact(events[0], viewer) == {"type": "TributeSealed", "seat": "ann"}
    assert RULES.redact(events[0], "ann") == events[0]
    state = play(state, "ann", {"tribute": ann_food[:1]})
    assert RULES.to_act(state) == ("ben", "cat", "dan")
    refused(state, "ann", {"tribute": []})
    assert RULES.view(state, "ann")["tribute"]["mine"] == ann_food[:1]
    for viewer in ("ben", "cat", "dan", None):
        view = RULES.view(state, viewer)
        assert "mine" not in view["tribute"] and "choices" not in view["tribute"]
        assert view["tribute"]["sealed"] == ["ann"]
        assert not find_leaks(view, RULES.hidden_from(state, viewer))
        assert ann_food[0] not in str(view) or ann_food[0] not in RULES.hidden_from(state, viewer)
    state = play(state, "ben", {"tribute": []})
    state = play(state, "cat", {"tribute": []})
    events = decide(state, "dan", {"tribute": []})
    reveal = events[1]
    assert reveal["type"] == "TributesRevealed"
    assert reveal["tributes"] == {"ann": ann_food[:1], "ben": [], "cat": [], "dan": []}
    assert reveal["lots"] == {"ann": 0, "ben": 1, "cat": 1, "dan": 1}
    assert RULES.shows_hidden(reveal) and RULES.redact(reveal, None) == reveal
    state = play(state, "dan", {"tribute": []})
    assert state.glass_ball == {"ann": 1, "ben": 2, "cat": 2, "dan": 2}
    assert state.discard_top == ann_food[0] and state.phase == MOVEMENT


def test_hand_limit_after_a_tribute() -> None:
    state = at_tribute()
    big = frozenset(["food-1-04", "food-1-05", "food-2-02", "food-2-03", "fuel-2-02"])
    state = replace(state, hands={**state.hands, "cat": state.hands["cat"] | big})
    held = len(state.hands["cat"])
    for seat in ("ann", "ben", "cat"):
        state = play(state, seat, {"tribute": []})
    events = decide(state, "dan", {"tribute": []})
    assert events[-1] == {"type": "HandLimitDemanded", "discards": {"cat": held - 6}}
    state = play(state, "dan", {"tribute": []})
    assert RULES.to_act(state) == ("cat",)
    refused(state, "cat", {"discard": ["food-1-04"] * 1} if held - 6 != 1 else {"discard": []})
    refused(state, "ann", {"discard": []})
    state = play(state, "cat", RULES.legal_moves(state, "cat")[0])
    assert len(state.hands["cat"]) == 6 and state.phase == MOVEMENT


# -- trading --------------------------------------------------------------------------


def at_trading() -> PanemState:
    state = new_game(4, deal4())
    state = advance(state, lambda s: s.phase == TRADING)
    hands = {
        "ann": frozenset({"food-1-01", "food-3-01", "medicine-1-01"}),
        "ben": frozenset({"medicine-2-01", "fuel-1-04", "clothing-1-02"}),
        "cat": frozenset({"medicine-1-03", "fuel-2-01"}),
        "dan": frozenset({"fuel-1-01"}),
    }
    return replace(state, hands=hands)


def test_trade_propose_and_accept() -> None:
    state = at_trading()
    assert state.round == 3 and RULES.to_act(state) == SEATS4
    offer = {"to": "ben", "give": ["food-3-01", "food-1-01"], "ask": ["medicine-2"]}
    events = decide(state, "ann", {"propose": offer})
    assert events[0]["offer"] == {"id": 1, "from": "ann", **offer}
    assert RULES.redact(events[0], "ben") == events[0]
    assert RULES.redact(events[0], "cat")["offer"]["give"] == 2
    state = play(state, "ann", {"propose": offer})
    assert RULES.view(state, "cat")["trading"]["offers"][0]["give"] == 2
    assert {"accept": 1} in RULES.legal_moves(state, "ben")
    refused(state, "cat", {"accept": 1})
    refused(state, "ben", {"accept": 1, "cards": ["fuel-1-04"]})
    events = decide(state, "ben", {"accept": 1})
    assert RULES.redact(events[0], "dan")["take"] == 1
    state = play(state, "ben", {"accept": 1})
    assert state.hands["ann"] == {"medicine-1-01", "medicine-2-01"}
    assert state.hands["ben"] >= {"food-3-01", "food-1-01"}
    assert not state.offers


def test_trade_decline_withdraw_and_refusals() -> None:
    state = at_trading()
    refused(state, "ann", {"propose": {"to": "ben", "give": ["fuel-1-04"], "ask": []}})
    refused(state, "ann", {"propose": {"to": "ann", "give": ["food-1-01"], "ask": []}})
    refused(state, "ann", {"propose": {"to": "ben", "give": [], "ask": []}})
    refused(state, "ann", {"propose": {"to": "ben", "give": [], "ask": ["food-9"]}})
    state = play(state, "ann", {"propose": {"to": "ben", "give": ["food-1-01"], "ask": ["fuel-1"]}})
    refused(state, "ann", {"decline": 1})
    refused(state, "ben", {"withdraw": 1})
    state = play(state, "ben", {"decline": 1})
    assert not state.offers
    state = play(state, "ann", {"propose": {"to": "cat", "give": [], "ask": ["fuel-2"]}})
    state = play(state, "ann", {"withdraw": 2})
    assert not state.offers
    refused(state, "cat", {"accept": 2})
    # Dan does not hold a clothing card: he cannot accept.
    state = play(
        state, "ann", {"propose": {"to": "dan", "give": ["food-1-01"], "ask": ["clothing-1"]}}
    )
    assert {"accept": 3} not in RULES.legal_moves(state, "dan")
    refused(state, "dan", {"accept": 3})


def test_a_proposal_whose_cards_are_gone_stays_open_and_cannot_be_accepted() -> None:
    state = at_trading()
    state = play(state, "ann", {"propose": {"to": "ben", "give": ["food-3-01"], "ask": []}})
    state = play(state, "cat", {"propose": {"to": "ann", "give": ["fuel-2-01"], "ask": ["food-3"]}})
    state = play(
        state, "dan", {"propose": {"to": "ben", "give": ["fuel-1-01"], "ask": ["medicine-2"]}}
    )
    events = decide(state, "ben", {"accept": 1})
    assert [e["type"] for e in events] == ["TradeAccepted"]
    state = play(state, "ben", {"accept": 1})
    # Ann no longer holds food worth 3: Cat's proposal stays, Ann cannot take it.
    assert [o.id for o in state.offers] == [2, 3]
    assert refused(state, "ann", {"accept": 2}).code == "bad-trade"
    assert {"accept": 2} not in RULES.legal_moves(state, "ann")
    state = play(state, "ben", {"propose": {"to": "cat", "give": ["medicine-2-01"], "ask": []}})
    events = decide(state, "cat", {"accept": 4})
    assert [e["type"] for e in events] == ["TradeAccepted"]
    state = play(state, "cat", {"accept": 4})
    # Ben gave his medicine worth 2 away: Dan's proposal stays, Ben cannot take it,
    # and may decline it.
    assert refused(state, "ben", {"accept": 3}).code == "bad-trade"
    assert {"decline": 3} in RULES.legal_moves(state, "ben")
    assert [e["type"] for e in decide(state, "ben", {"decline": 3})] == ["TradeDeclined"]


def test_others_cannot_tell_which_kind_a_trade_took_from_open_proposals() -> None:
    """Dan asks Ben for medicine worth 2, in the open. Ben then gives Cat one
    card. Whether it was that medicine or another card, Ann (and a
    spectator) must see the same record and the same table: rules 1.1
    voided Dan's proposal in public when the medicine went, which named the
    kind of a card that Ann saw only as a count."""

    def after_ben_gives(card: str) -> tuple[list[Any], PanemState]:
        state = at_trading()
        state = play(
            state, "dan", {"propose": {"to": "ben", "give": ["fuel-1-01"], "ask": ["medicine-2"]}}
        )
        state = play(state, "ben", {"propose": {"to": "cat", "give": [card], "ask": []}})
        events = decide(state, "cat", {"accept": 2})
        return events, play(state, "cat", {"accept": 2})

    (asked_events, asked), (other_events, other) = (
        after_ben_gives("medicine-2-01"),
        after_ben_gives("fuel-1-04"),
    )
    for viewer in ("ann", None):
        assert [RULES.redact(e, viewer) for e in asked_events] == [
            RULES.redact(e, viewer) for e in other_events
        ]
        assert RULES.view(asked, viewer)["trading"] == RULES.view(other, viewer)["trading"]


def test_trading_ends_when_everyone_is_done() -> None:
    state = at_trading()
    state = play(state, "ann", {"propose": {"to": "ben", "give": ["food-3-01"], "ask": []}})
    events = decide(state, "ann", {"done": True})
    assert [e["type"] for e in events] == ["TradeVoided", "TradingDone"]
    state = play(state, "ann", {"done": True})
    refused(state, "ann", {"propose": {"to": "ben", "give": ["food-3-01"], "ask": []}})
    refused(state, "ben", {"propose": {"to": "ann", "give": ["fuel-1-04"], "ask": []}})
    state = play(state, "ben", {"done": True})
    state = play(state, "cat", {"done": True})
    events = decide(state, "dan", {"done": True})
    assert [e["type"] for e in events][-2:] == ["TradingClosed", "MovementStarted"]
    state = play(state, "dan", {"done": True})
    assert state.phase == MOVEMENT and RULES.to_act(state) == ("ann",)


# -- the end ------------------------------------------------------------------------------


def test_game_end_draws_the_tribute_lot() -> None:
    deal = {"tribute_lot": "ben"}
    state = new_game(3, deal)
    state = advance(state, lambda s: s.phase == OVER, limit=5000)
    result = RULES.result(state)
    assert result is not None and result.ranking[-1] == ("ben",)
    assert result.details["tribute"] == "ben" and state.lot_drawn == "ben"
    assert RULES.to_act(state) == ()
    refused(state, "ann", {"skip": True})
    assert all(len(state.hands[s]) <= 6 for s in seats(3))
    assert RULES.view(state, "cat")["hands"]["ann"] == sorted(state.hands["ann"])


def ended(hands: dict[str, list[str]], ball: dict[str, int], lot: str) -> PanemState:
    n = len(hands)
    state = new_game(n)
    return replace(
        state,
        hands={s: frozenset(c) for s, c in hands.items()},
        advantage=dict.fromkeys(hands),
        glass_ball=ball,
        lot_drawn=lot,
        phase=OVER,
    )


def test_the_tribute_loses_whatever_its_points() -> None:
    state = ended(
        {"ann": ["food-3-01", "food-3-02"], "ben": ["food-1-04"], "cat": ["fuel-1-04"]},
        {"ann": 1, "ben": 1, "cat": 1},
        "ann",
    )
    result = RULES.result(state)
    assert result is not None
    assert result.ranking == (("ben", "cat"), ("ann",))
    assert result.scores == {"ann": 6, "ben": 1, "cat": 1}


def test_tie_broken_by_fewest_lots() -> None:
    state = ended(
        {"ann": ["food-2-02"], "ben": ["food-2-03"], "cat": ["food-1-04"]},
        {"ann": 3, "ben": 2, "cat": 1},
        "cat",
    )
    result = RULES.result(state)
    assert result is not None and result.ranking == (("ben",), ("ann",), ("cat",))


def test_full_tie_gives_several_winners() -> None:
    state = ended(
        {"ann": ["food-2-02"], "ben": ["food-2-03"], "cat": ["food-1-04"], "dan": ["fuel-1-04"]},
        {"ann": 2, "ben": 2, "cat": 1, "dan": 1},
        "dan",
    )
    result = RULES.result(state)
    assert result is not None and result.winners == ("ann", "ben")


def test_two_players_neutral_lot_most_points_win() -> None:
    state = ended(
        {"ann": ["food-1-04"], "ben": ["food-3-01"]}, {"ann": 2, "ben": 3, NEUTRAL: 6}, NEUTRAL
    )
    result = RULES.result(state)
    assert result is not None and result.ranking == (("ben",), ("ann",))
    assert result.details["tribute"] is None


def test_two_players_own_lot_the_other_wins() -> None:
    state = ended(
        {"ann": ["food-1-04"], "ben": ["food-3-01"]}, {"ann": 2, "ben": 3, NEUTRAL: 6}, "ben"
    )
    result = RULES.result(state)
    assert result is not None and result.ranking == (("ann",), ("ben",))


def test_lot_draw_is_recorded_and_reproducible() -> None:
    state = new_game(2)
    state = advance(state, lambda s: s.round == 13 and s.phase == TRIBUTE, limit=5000)
    state = play(state, "ann", {"tribute": []})
    events = decide(state, "ben", {"tribute": []}, seed=99)
    assert events == decide(state, "ben", {"tribute": []}, seed=99)
    lot = next(e for e in events if e["type"] == "LotDrawn")
    assert sorted(lot["glass_ball"]) == sorted(
        owner
        for owner, count in {
            **state.glass_ball,
            "ann": state.glass_ball["ann"] + 4,
            "ben": state.glass_ball["ben"] + 4,
        }.items()
        for _ in range(count)
    )
    assert lot["owner"] == lot["glass_ball"][0]


# -- deal, drawing, redaction -------------------------------------------------------------


def test_explicit_deal_fixes_later_advantages_and_draw_order() -> None:
    deal = deal4(draws=["fuel-3-02", "fuel-3-03", "food-3-03"])
    deal["later_advantages"] = ["mayor_undersee", "greasy_sae", "katniss_bow"]
    state = new_game(4, deal)
    state = advance(state, lambda s: s.round == 2)
    # Round 2 refills bakery-1, bakery-2, then hob-1, hob-2, from the given draws.
    assert "fuel-3-02" in state.bakery["bakery-1"] or "fuel-3-02" in state.hands["ann"]
    state = advance(state, lambda s: s.round == 3)
    assert state.beside == {"justice_building": "mayor_undersee", "hob": "greasy_sae"}


def test_empty_draw_pile_is_renewed_from_the_discard_pile() -> None:
    state = new_game(4, deal4(ann="gale"))
    state = replace(
        state,
        draw_pile=frozenset(),
        discard=frozenset({"food-2-02", "fuel-2-02"}),
        discard_top="clothing-2-01",
    )
    state = play(state, "ann", {"go": "everdeen_house-1"})
    events = decide(state, "ann", {"act": True})
    assert [e["type"] for e in events[:3]] == ["DrawPileRenewed", "DiscardStarted", "CardsDrawn"]
    state = play(state, "ann", {"act": True})
    assert len(state.draw_pile) == 1 and state.discard_top is not None and not state.discard
    assert len(state.hands["ann"]) == 4


def test_draw_pile_is_renewed_at_once_when_its_last_card_is_drawn() -> None:
    # Rulebook: when the draw pile is used up, the discard pile is shuffled into
    # a new draw pile "sofort", and its top card starts a new discard pile. The
    # forest's two leftover cards then lie on the new discard pile, not in the
    # new draw pile.
    state = new_game(4, deal4(ann="peeta"))
    state = replace(
        state,
        draw_pile=frozenset({"food-1-04", "fuel-1-04", "clothing-1-04"}),
        discard=frozenset({"food-2-02", "fuel-2-02"}),
        discard_top="clothing-2-01",
    )
    state = play(state, "ann", {"go": "forest-1"})
    events = decide(state, "ann", {"act": True})
    kinds = [e["type"] for e in events]
    assert kinds[:3] == ["DrawPileRenewed", "DiscardStarted", "ForestRevealed"]
    assert events[0]["count"] == 3
    assert sorted(events[2]["cards"]) == ["clothing-1-04", "food-1-04", "fuel-1-04"]
    state = play(state, "ann", {"act": True})
    state = play(state, "ann", {"keep": "food-1-04"})
    assert len(state.draw_pile) == 2
    assert state.draw_pile < {"food-2-02", "fuel-2-02", "clothing-2-01"}
    assert state.pile("discard") - state.draw_pile == {
        "fuel-1-04",
        "clothing-1-04",
        *({"food-2-02", "fuel-2-02", "clothing-2-01"} - state.draw_pile),
    }
    assert len(state.pile("discard")) == 3


def test_a_discard_pile_of_one_card_is_not_renewed_in_vain() -> None:
    state = new_game(4, deal4(ann="gale"))
    state = replace(
        state, draw_pile=frozenset({"food-1-04"}), discard=frozenset(), discard_top="fuel-2-02"
    )
    state = play(state, "ann", {"go": "everdeen_house-1"})
    events = decide(state, "ann", {"act": True})
    assert [e["type"] for e in events][:1] == ["CardsDrawn"]
    state = play(state, "ann", {"act": True})
    assert not state.draw_pile and state.discard_top == "fuel-2-02"


def test_start_cards_are_dealt_secretly() -> None:
    options = RULES.normalize_options({}, SEATS4)
    events = RULES.setup(options, SEATS4, random.Random(5))
    dealt = next(e for e in events if e["type"] == "StartCardsDealt")
    mine = RULES.redact(dealt, "ben")
    assert mine["hands"]["ben"] == dealt["hands"]["ben"]
    assert mine["hands"]["ann"] == 3
    assert RULES.redact(dealt, None)["hands"] == dict.fromkeys(SEATS4, 3)
    hob = next(e for e in events if e["type"] == "HobStocked")
    assert RULES.redact(hob, "ann") == {"type": "HobStocked", "space": "hob-1", "count": 2}
    assert RULES.redact(hob, ARBITER) == hob
    assert all(RULES.shows_hidden(e) for e in (dealt, hob))
    assert not RULES.shows_hidden({"type": "FigureMoved", "seat": "ann", "space": "forest-1"})
    assert not RULES.shows_hidden({"type": "TributeSealed", "seat": "ann", "cards": []})


def test_render_text_shows_only_own_hand() -> None:
    state = new_game(4, deal4())
    hand = "clothing 1, food 1 and medicine 1"
    text = RULES.render_text(state, "ann")
    assert "ann (you): not on the board yet, advantage Gale" in text and hand in text
    # Dan's start cards are three fuel cards: only he sees them.
    assert "fuel 1, fuel 1 and fuel 1" not in text and "dan: " in text
    # Ben and Cat hold the same kinds as Ann; Dan and a spectator see no such hand.
    for viewer in ("dan", None):
        assert hand not in RULES.render_text(state, viewer)
    assert "fuel 1, fuel 1 and fuel 1" in RULES.render_text(state, ARBITER)


# -- the referee's checklist: rules the tests above did not pin down ------------------------


def test_bakery_and_hob_stacks_build_up_over_the_rounds() -> None:
    # Rulebook: cards may gather at the bakery over several rounds; the Hob
    # stacks are only looked at, never taken, so each refill adds to them.
    state = new_game(4, deal4())
    state = advance(state, lambda s: s.round == 3 and s.phase == TRADING)
    # Round 2 stocks bakery-1, bakery-2, then the Hob from the listed draws.
    assert {"food-2-01", "medicine-2-01"} < state.bakery["bakery-1"]
    assert {"fuel-2-01", "fuel-1-04"} < state.bakery["bakery-2"]
    assert all(len(cards) == 3 for cards in state.bakery.values())
    assert state.hob["hob-1"] == {"food-3-01", "fuel-3-01", "food-1-04", "clothing-1-04"}
    assert all(len(cards) == 4 for cards in state.hob.values())
    # Bakery cards lie face up: nobody has them hidden.
    for viewer in (*SEATS4, None):
        assert not (state.bakery["bakery-1"] & RULES.hidden_from(state, viewer))


def test_start_advantages_left_over_go_to_the_box() -> None:
    for n in (2, 3):
        events = RULES.setup(RULES.normalize_options({}, seats(n)), seats(n), random.Random(n))
        dealt = next(e for e in events if e["type"] == "StartAdvantagesDealt")
        assert len(dealt["advantages"]) == n and len(dealt["boxed"]) == 4 - n
        assert set(dealt["advantages"].values()) | set(dealt["boxed"]) == set(START_ADVS)


def test_forest_food_may_be_left() -> None:
    state = new_game(4, deal4(ann="peeta", draws=["medicine-2-01", "food-1-04", "fuel-1-04"]))
    state = play(state, "ann", {"go": "forest-1"})
    state = play(state, "ann", {"act": True})
    state = play(state, "ann", {"keep": None})
    assert len(state.hands["ann"]) == 3 and state.discard_top == "fuel-1-04"
    assert {"food-1-04", "medicine-2-01"} <= state.discard


def test_capitol_storehouse_card_given_below_the_top_stays_hidden() -> None:
    state = new_game(4, deal4(ann="gale"))
    state = replace(state, discard=frozenset({"food-2-02"}))
    state = play(state, "ann", {"go": "capitol_storehouse-1"})
    state = play(state, "ann", {"act": True})
    assert RULES.view(state, "ann")["turn"]["pile_cards"] == ["clothing-2-01", "food-2-02"]
    assert "pile_cards" not in RULES.view(state, "ben")["turn"]
    events = decide(state, "ann", {"exchange": [["medicine-1-01", "food-2-02"]]})
    for viewer in ("ben", None):
        assert RULES.redact(events[0], viewer) == {
            "type": "PileExchanged",
            "seat": "ann",
            "pile": "discard",
            "count": 1,
            "top": "clothing-2-01",
        }
    state = play(state, "ann", {"exchange": [["medicine-1-01", "food-2-02"]]})
    assert state.discard_top == "clothing-2-01" and state.discard == {"medicine-1-01"}
    assert "medicine-1-01" in RULES.hidden_from(state, "ben")
    assert "medicine-1-01" not in RULES.view(state, "ben")["discard"]["known"]
    assert RULES.view(state, "ann")["discard"]["known"] == ["clothing-2-01", "medicine-1-01"]


def test_swap_may_not_land_on_last_rounds_location() -> None:
    state = new_game(4, deal4(ann="gale"))
    for seat, space in zip(SEATS4, ("forest-1", "bakery-1", "everdeen_house-1", "hob-1")):
        state = play(state, seat, {"go": space})
        state = play(state, seat, {"skip": True})
    assert state.round == 2 and state.last_location["cat"] == "everdeen_house"
    state = play(state, "ann", {"go": "capitol_storehouse-1"})
    state = play(state, "ann", {"skip": True})
    state = play(state, "ben", {"go": "everdeen_house-2"})
    state = play(state, "ben", {"skip": True})
    state = play(state, "cat", {"go": "justice_building-1"})
    assert refused(state, "cat", {"swap_with": "ben"}).code == "cannot-swap"
    assert [m for m in RULES.legal_moves(state, "cat") if "swap_with" in m] == [
        {"swap_with": "ann"}
    ]
    state = play(state, "cat", {"swap_with": "ann"})
    assert state.position["cat"] == "capitol_storehouse-1"
    state = play(state, "cat", {"act": True})
    assert state.step == "exchange" and state.looking == "discard"


def test_partial_tribute_costs_a_lot_per_missing_card() -> None:
    state = advance(new_game(4, deal4()), lambda s: s.round == 7 and s.phase == TRIBUTE)
    assert state.tribute_goods == ("food", "medicine")
    hands = {**state.hands, "ann": frozenset({"food-1-04", "food-1-05", "fuel-1-04"})}
    state = replace(state, hands=hands)
    before = dict(state.glass_ball)
    refused(state, "ann", {"tribute": ["food-1-04", "food-1-05"]})
    refused(state, "ann", {"tribute": ["fuel-1-04"]})
    assert {"tribute": ["food-1-04", "food-1-05"]} not in RULES.legal_moves(state, "ann")
    state = play(state, "ann", {"tribute": ["food-1-05"]})
    for seat in ("ben", "cat", "dan"):
        state = play(state, seat, {"tribute": []})
    assert state.glass_ball["ann"] == before["ann"] + 1
    assert all(state.glass_ball[s] == before[s] + 2 for s in ("ben", "cat", "dan"))
    assert state.hands["ann"] == {"food-1-04", "fuel-1-04"}
    assert state.lots_left["ann"] == 11 - state.glass_ball["ann"]


def test_end_round_tribute_hand_limit_then_the_lot() -> None:
    state = new_game(4, deal4() | {"tribute_lot": "dan"})
    state = advance(state, lambda s: s.round == 13 and s.phase == TRIBUTE, limit=5000)
    assert state.tribute_goods == ("clothing", "food", "fuel", "medicine")
    rich = frozenset(
        {"food-3-01", "food-3-02", "medicine-3-01", "clothing-3-01", "fuel-3-01", "fuel-3-02"}
        | {"food-1-04", "medicine-1-04", "clothing-1-04", "fuel-1-04", "food-2-02"}
    )
    state = replace(state, hands={**state.hands, "ann": rich})
    before = state.glass_ball["ann"]
    cheap = ["food-1-04", "medicine-1-04", "clothing-1-04"]  # no fuel: one lot
    state = play(state, "ann", {"tribute": cheap})
    for seat in ("ben", "cat"):
        state = play(state, seat, {"tribute": []})
    events = decide(state, "dan", {"tribute": []})
    assert [e["type"] for e in events][-1] == "HandLimitDemanded"
    assert events[-1]["discards"] == {"ann": 2}
    state = play(state, "dan", {"tribute": []})
    assert state.glass_ball["ann"] == before + 1 and RULES.to_act(state) == ("ann",)
    events = decide(state, "ann", {"discard": ["food-2-02", "fuel-1-04"]})
    kinds = [e["type"] for e in events]
    assert kinds == ["CardsDiscarded", "LotDrawn", "GameEnded"]
    assert "FigureMoved" not in kinds
    state = play(state, "ann", {"discard": ["food-2-02", "fuel-1-04"]})
    result = RULES.result(state)
    assert result is not None and result.ranking[-1] == ("dan",)
    assert result.scores["ann"] == 18 and len(state.hands["ann"]) == 6


def test_two_players_neutral_lot_equal_points_fewest_lots_win() -> None:
    state = ended(
        {"ann": ["food-3-01"], "ben": ["fuel-3-01"]}, {"ann": 4, "ben": 3, NEUTRAL: 6}, NEUTRAL
    )
    result = RULES.result(state)
    assert result is not None and result.ranking == (("ben",), ("ann",))


def test_spectator_sees_no_private_card() -> None:
    state = new_game(4, deal4(ann="prim"))
    state = play(state, "ann", {"go": "everdeen_house-1"})
    state = play(state, "ann", {"act": True})
    view = RULES.view(state, None)
    assert view["hands"] == {} and view["turn"]["drawn_count"] == 2
    assert "drawn" not in view["turn"] and "draw_pile" not in view and "box" not in view
    assert view["hand_counts"] == {"ann": 3, "ben": 3, "cat": 3, "dan": 3}
    assert not find_leaks(view, RULES.hidden_from(state, None))
    assert set(state.drawn) <= RULES.hidden_from(state, None)
