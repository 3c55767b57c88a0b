"""Hadara: set-up, each phase for 2 and 5 players, the rulebook's examples,
every purple ability, options and the explicit deal."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gamelog.games.hadara import RULES
from gamelog.games.hadara.automatic import settle
from gamelog.games.hadara.cards import COLOURS, Bust
from gamelog.games.hadara.component_set import shipped_components
from gamelog.games.hadara.phases import turn_order
from gamelog.games.hadara.prices import recruit_price
from gamelog.games.hadara.scoring import complete_sets, player_scores, score_sheet
from gamelog.games.hadara.state import HadaraState, free_tiles, track_marker, tracks
from gamelog.games.leaks import find_leaks
from gamelog.games.protocol import ARBITER, Event, IllegalMove, InvalidOptions, Move, rng_for

TWO = ("ann", "bob")
FIVE = ("ann", "bob", "cid", "dee", "eve")
COMPONENTS = shipped_components("hadara/house-1")
# keeps phase B going after the card under test is taken
FILLER = {"yellow": ("I-yellow-10",)}


def epoch_deal(epoch: int, n: int) -> dict[str, list[str]]:
    return {
        colour: list(COMPONENTS.epoch_cards(epoch, colour, True)[: 2 * n]) for colour in COLOURS
    }


def table(seats: tuple[str, ...] = TWO, seed: int = 1, **options: Any) -> HadaraState:
    normalized = RULES.normalize_options(options, seats)
    state = RULES.start(seats, normalized)
    for event in RULES.setup(normalized, seats, rng_for(seed.to_bytes(8, "big"), 0)):
        state = RULES.evolve(state, event)
    return state


def dealt_table(seats: tuple[str, ...] = TWO, **options: Any) -> HadaraState:
    """Start cards by seat order (ann has initiative 1), colonies in id order,
    every epoch's stacks in id order."""
    n = len(seats)
    deal = {
        "start_cards": {seat: f"start-{i + 1}" for i, seat in enumerate(seats)},
        "colonies": {
            str(level): [f"colony-{level:02d}-{i + 1}" for i in range(n)]
            for level in (3, 9, 15, 21, 30)
        },
        "epochs": {str(e): epoch_deal(e, n) for e in (1, 2, 3)},
    }
    return table(seats, deal=deal, first_game=True, **options)


def play(
    state: HadaraState, seat: str, move: Move, ply: int = 1
) -> tuple[HadaraState, list[Event]]:
    events = RULES.decide(state, seat, move, rng_for(b"test", ply))
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def refused(state: HadaraState, seat: str, move: Move, code: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        RULES.decide(state, seat, move, rng_for(b"test", 1))
    assert caught.value.code == code, caught.value
    assert caught.value.message
    return caught.value


def set_player(state: HadaraState, seat: str, **changes: Any) -> HadaraState:
    player = replace(state.player(seat), **changes)
    return replace(state, players=state.with_player(player))


def at_section(state: HadaraState, stage: str, first: str, **changes: Any) -> HadaraState:
    return replace(
        state,
        stage=stage,
        order=turn_order(state.seats, first),
        turn=0,
        section_taken=0,
        section_paid=0,
        **changes,
    )


def run_until(state: HadaraState, done: Any, limit: int = 2000) -> HadaraState:
    """Play the first legal move of the first seat to act until ``done``."""
    ply = 1
    while not done(state) and ply < limit:
        seat = RULES.to_act(state)[0]
        state, _ = play(state, seat, RULES.legal_moves(state, seat)[0], ply)
        ply += 1
    assert done(state)
    return state


def values(state: HadaraState, seat: str) -> dict[str, int]:
    return tracks(state.player(seat), state)


# --- set-up -------------------------------------------------------------------------


def test_setup_two_players() -> None:
    state = dealt_table()
    ann, bob = state.players
    assert (ann.start_card, ann.initiative, ann.coins) == ("start-1", 1, 7)
    # bob starts only in epoch II, so he takes the one coin
    assert (bob.start_card, bob.coins) == ("start-2", 8 + 1)
    assert values(state, "bob") == {"income": 2, "military": 1, "culture": 3, "food": 4}
    assert len(state.colony_slots) == 10
    assert all(len(stack) == 4 for stack in state.inner.values())
    assert state.stage == "wheel" and state.start_player == "ann"
    assert RULES.to_act(state) == ("ann",)
    assert all(free_tiles(p) == dict.fromkeys(free_tiles(p), 2) for p in state.players)


def test_example_four_players_five_stacks_of_eight_in_epochs_one_and_two() -> None:
    # "Bei 4 Spielern 5 Stapel mit jeweils 8 Epochenkarten" and
    # "4-Personenspiel: Für Epoche II legt ihr wieder für jede Farbe jeweils
    # 8 Karten aus."; 4 colonies per level ("so viele Kolonien wie Spieler")
    seats = ("ann", "bob", "cid", "dee")
    state = table(seats, seed=4)
    assert state.epoch == 1
    assert {colour: len(stack) for colour, stack in state.inner.items()} == dict.fromkeys(
        COLOURS, 8
    )
    assert all(COMPONENTS.card(c).epoch == 1 for stack in state.inner.values() for c in stack)
    assert len(state.colony_slots) == 5 * 4
    state = run_until(state, lambda s: s.epoch == 2, limit=5000)
    assert {colour: len(stack) for colour, stack in state.inner.items()} == dict.fromkeys(
        COLOURS, 8
    )
    assert all(COMPONENTS.card(c).epoch == 2 for stack in state.inner.values() for c in stack)


def test_setup_three_players_six_cards_a_stack_and_no_coin() -> None:
    # 2 cards per colour for each player; with three players everybody starts
    # once (lowest, second and third lowest initiative), so nobody takes the coin
    seats = ("ann", "bob", "cid")
    state = table(seats, seed=6)
    assert all(len(stack) == 6 for stack in state.inner.values())
    assert len(state.colony_slots) == 15
    start = {c.id: c.coins for c in COMPONENTS.start_cards}
    assert all(p.coins == start[p.start_card] for p in state.players)
    by_initiative = [p.seat for p in sorted(state.players, key=lambda p: p.initiative)]
    assert state.start_player == by_initiative[0]


def test_setup_five_players_random() -> None:
    state = table(FIVE, seed=3)
    assert len({p.start_card for p in state.players}) == 5
    assert all(len(stack) == 10 for stack in state.inner.values())
    assert len(state.colony_slots) == 25
    by_initiative = sorted(state.players, key=lambda p: p.initiative)
    start = {c.id: c.coins for c in COMPONENTS.start_cards}
    for player in by_initiative[:3]:
        assert player.coins == start[player.start_card]
    for player in by_initiative[3:]:
        assert player.coins == start[player.start_card] + 1
    assert state.start_player == by_initiative[0].seat


def test_start_player_by_initiative_per_epoch() -> None:
    from gamelog.games.hadara.phases import never_start_players, start_player

    five = {"a": 3, "b": 1, "c": 5, "d": 2, "e": 4}
    assert [start_player(five, e) for e in (1, 2, 3)] == ["b", "d", "a"]
    assert never_start_players(five, list(five)) == ["c", "e"]
    two = {"a": 4, "b": 2}
    assert [start_player(two, e) for e in (1, 2, 3)] == ["b", "a", "b"]
    assert never_start_players(two, list(two)) == ["a"]
    three = {"a": 3, "b": 1, "c": 2}
    assert never_start_players(three, list(three)) == []


def test_first_game_uses_only_purple_cards_without_star() -> None:
    state = table(FIVE, seed=5, first_game=True)
    assert not any(COMPONENTS.card(c).later_games_only for c in state.inner["purple"])
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"first_game": True, "board_sides": {"ann": "B"}}, TWO)


def test_later_game_board_side_b() -> None:
    state = table(TWO, board_sides={"bob": "B"})
    assert [p.side for p in state.players] == ["A", "B"]


@pytest.mark.parametrize(
    "options",
    [
        {"colour": "red"},
        {"component_set": "hadara/unknown"},
        {"deal": {"start_cards": {"ann": "start-1", "bob": "start-1"}}},
        {"deal": {"epochs": {"1": {"red": ["I-red-01"]}}}},
        {"deal": {"colonies": {"3": ["colony-03-1", "colony-09-1"]}}},
        {"components": {"cards": []}},
    ],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        RULES.normalize_options(options, TWO)
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({}, ("solo",))


LEVELS = ("3", "9", "15", "21", "30")


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"start_cards": {"ann": [], "bob": "start-2"}}, "start card ids"),
        ({"start_cards": {"ann": {}, "bob": "start-2"}}, "start card ids"),
        ({"colonies": {level: [[], "colony-03-2"] for level in LEVELS}}, "colonies[3]"),
        ({"epochs": {"1": {c: [{}, "a", "b", "c"] for c in COLOURS}}}, "epoch 1"),
    ],
)
def test_a_deal_naming_lists_or_objects_as_cards_is_refused(
    deal: dict[str, Any], message: str
) -> None:
    """Found by mutating options: an id that was a list or an object reached
    set() in the deal's check and raised TypeError (INTERNAL) at creation."""
    with pytest.raises(InvalidOptions, match="bad-deal") as refused:
        RULES.normalize_options({"deal": deal}, TWO)
    assert message in refused.value.message


def test_inline_components_are_accepted_and_stored() -> None:
    import json
    from importlib import resources

    data = json.loads(
        resources.files("gamelog.games.hadara").joinpath("data/hadara-house-1.json").read_text()
    )
    options = RULES.normalize_options({"components": data}, TWO)
    assert options["component_set"] == "inline" and options["components"] == data
    state = table(TWO, components=data)
    assert state.components == COMPONENTS


def test_explicit_deal_fixes_cards_and_draw_order() -> None:
    state = dealt_table()
    assert state.inner["red"] == tuple(epoch_deal(1, 2)["red"])
    assert state.colony_slots["9a"] == "colony-09-1"
    state, events = play(state, "ann", {"wheel": "red"})
    drawn = next(e for e in events if e["type"] == "CardsDrawn")
    assert drawn["draws"]["ann"] == {"colour": "red", "cards": epoch_deal(1, 2)["red"][:2]}
    assert drawn["draws"]["bob"] == {"colour": "blue", "cards": epoch_deal(1, 2)["blue"][:2]}


# --- phase A --------------------------------------------------------------------------


def test_phase_a_sealed_draws_two_players() -> None:
    state = dealt_table()
    state, events = play(state, "ann", {"wheel": "red"})
    assert [e["type"] for e in events] == ["WheelSet", "CardsDrawn"]
    assert RULES.shows_hidden(events[1])
    seen_by_bob = RULES.redact(events[1], "bob")
    assert seen_by_bob["draws"]["ann"]["cards"] is None
    assert find_leaks(seen_by_bob, RULES.hidden_from(state, "bob")) == []
    assert find_leaks(RULES.redact(events[1], None), RULES.hidden_from(state, None)) == []
    assert set(RULES.to_act(state)) == {"ann", "bob"}
    ann_cards = state.drawn["ann"]
    assert set(ann_cards) <= RULES.hidden_from(state, "bob")

    state, events = play(state, "ann", {"place": ann_cards[0], "action": "sell"})
    assert [e["type"] for e in events] == ["DrawChosen"]
    assert RULES.redact(events[0], "bob") == {"type": "DrawChosen", "seat": "ann"}
    assert RULES.redact(events[0], None) == {"type": "DrawChosen", "seat": "ann"}
    assert RULES.to_act(state) == ("bob",)
    refused(state, "ann", {"place": ann_cards[0], "action": "sell"}, "not-your-turn")
    assert find_leaks(RULES.view(state, "bob"), RULES.hidden_from(state, "bob")) == []

    bob_cards = state.drawn["bob"]
    coins_before = state.player("bob").coins
    card = COMPONENTS.card(bob_cards[1])
    state, events = play(state, "bob", {"place": bob_cards[0], "action": "recruit"})
    kinds = [e["type"] for e in events]
    assert kinds == ["DrawChosen", "DrawsRevealed", "WheelTurned", "CardsDrawn"]
    reveal = events[1]
    assert RULES.shows_hidden(reveal)
    assert RULES.redact(reveal, "bob")["choices"]["ann"]["card"] is None  # sold face down
    assert RULES.redact(reveal, "ann")["choices"]["ann"]["card"] == ann_cards[1]
    assert state.outer["red"] == (ann_cards[0],)
    assert state.outer["blue"] == (bob_cards[0],)
    assert state.player("bob").cards == (bob_cards[1],)
    assert state.player("bob").coins == coins_before - card.price
    assert state.player("ann").coins == 7 + 2  # epoch-I sale price
    assert ann_cards[1] in RULES.hidden_from(state, "bob")
    assert ann_cards[1] not in RULES.hidden_from(state, "ann")
    # the wheel turned: every crest moved on one stack (red -> yellow, as in
    # the rulebook's example; blue -> red)
    assert events[3]["draws"]["ann"]["colour"] == "yellow"
    assert events[3]["draws"]["bob"]["colour"] == "red"


def test_choice_refusals() -> None:
    state = dealt_table()
    refused(state, "bob", {"wheel": "red"}, "not-your-turn")
    refused(state, "ann", {"wheel": "black"}, "bad-move")
    state, _ = play(state, "ann", {"wheel": "purple"})
    ann_cards = state.drawn["ann"]
    refused(state, "ann", {"place": "I-red-09", "action": "sell"}, "bad-move")
    refused(state, "ann", {"place": ann_cards[0]}, "bad-move")
    poor = set_player(state, "ann", coins=0)
    expensive = next((c for c in ann_cards if COMPONENTS.card(c).price > 0), ann_cards[0])
    other = next(c for c in ann_cards if c != expensive)
    refused(poor, "ann", {"place": other, "action": "recruit"}, "too-expensive")


@pytest.mark.parametrize("seats", [TWO, FIVE])
def test_phase_a_runs_five_rounds_then_income_colony_bust(seats: tuple[str, ...]) -> None:
    state = dealt_table(seats)
    n = len(seats)
    coins = {p.seat: p.coins for p in state.players}
    state = run_until(state, lambda s: s.stage not in ("wheel", "choose"))
    assert all(not stack for stack in state.inner.values())
    assert all(len(state.outer[c]) == n for c in COLOURS)
    for player in state.players:
        assert len(player.cards) + len(player.sold_face_down) == 5
    # the first legal move always sells: 5 sales at 2 coins, then income
    for player in state.players:
        assert player.cards == () and len(player.sold_face_down) == 5
        income = tracks(player, state)["income"]
        assert player.coins == coins[player.seat] + 5 * 2 + income
    assert state.stage in ("colony", "bust", "take")


@pytest.mark.parametrize("seats", [TWO, FIVE])
def test_phase_b_takes_every_card_then_feeding_and_seals(seats: tuple[str, ...]) -> None:
    state = dealt_table(seats)
    state = run_until(state, lambda s: s.stage == "take")
    assert state.phase == "B" and state.actor == state.start_player
    first = state.actor
    top = state.outer["purple"][-1]
    state, events = play(state, first, {"take": "purple", "action": "sell"})
    assert events[0]["card"] == top and top in state.discard
    assert state.actor == turn_order(seats, first)[1]
    state = run_until(state, lambda s: s.stage != "take")
    assert all(not stack for stack in state.outer.values())
    state = run_until(state, lambda s: s.epoch == 2)
    assert state.stage == "wheel" and state.phase == "A"
    assert all(len(p.cards) <= tracks(p, state)["food"] for p in state.players)


@pytest.mark.parametrize("seats", [TWO, FIVE])
def test_whole_game_ends_with_score_sheet(seats: tuple[str, ...]) -> None:
    state = run_until(dealt_table(seats), lambda s: s.stage == "over", limit=5000)
    result = RULES.result(state)
    assert result is not None and set(result.scores) == set(seats)
    view = RULES.view(state, None)
    assert view["final"] and view["score_sheet"]["columns"] == list(seats)
    assert [r["category"] for r in view["score_sheet"]["rows"]][-1] == "total"
    assert "Total" in RULES.render_text(state, "ann")
    refused(state, "ann", {"pass": True}, "game-over")


# --- the rulebook's examples -----------------------------------------------------------


def test_example_blue_card_price_reduced_from_5_to_3() -> None:
    state = dealt_table()
    state = set_player(state, "ann", cards=("I-blue-01", "I-blue-02"), coins=3)
    card = COMPONENTS.card("I-blue-08")
    assert card.price == 5
    assert recruit_price(state, state.player("ann"), card) == 3
    state = at_section(state, "take", "ann", phase="B", outer={**FILLER, "blue": ("I-blue-08",)})
    state, events = play(state, "ann", {"take": "blue", "action": "recruit"})
    assert events[0]["price"] == 3 and state.player("ann").coins == 0


def test_price_never_below_zero() -> None:
    state = set_player(dealt_table(), "ann", cards=("I-red-01", "I-red-02", "I-red-03"))
    assert recruit_price(state, state.player("ann"), COMPONENTS.card("I-red-01")) == 0


def test_example_selling_in_epoch_one_gives_two_coins() -> None:
    state = at_section(
        dealt_table(), "take", "ann", phase="B", outer={**FILLER, "red": ("I-red-10",)}
    )
    state = set_player(state, "ann", coins=0)
    state, _ = play(state, "ann", {"take": "red", "action": "sell"})
    assert state.player("ann").coins == 2


def test_example_start_card() -> None:
    start = COMPONENTS.start_by_id["start-2"]
    assert (start.initiative, start.coins, start.values) == (2, 8, (2, 1, 3, 4))


def colony_table(military: int, culture: int = 3, coins: int = 10) -> HadaraState:
    state = dealt_table()
    state = set_player(state, "ann", start_values=(2, military, culture, 4), coins=coins)
    return at_section(state, "colony", "ann")


def test_example_alliance_pays_one_coin_for_two_military_one_culture() -> None:
    state = colony_table(12)
    state = set_player(state, "bob", start_values=(2, 3, 3, 4))
    assert state.colony_slots["9a"] == "colony-09-1"
    assert "colony-09-1" in RULES.hidden_from(state, "ann")
    state, events = play(state, "ann", {"colony": "9a", "ally": True})
    assert events[0]["type"] == "ColonyAllied" and RULES.shows_hidden(events[0])
    assert state.player("ann").coins == 9
    assert values(state, "ann")["military"] == 14 and values(state, "ann")["culture"] == 4
    assert player_scores(state, state.player("ann"))["colonies"] == 5
    assert "colony-09-1" not in RULES.hidden_from(state, "bob")
    assert RULES.to_act(state) == ("bob",)  # one colony per section


def test_example_plunder_with_military_19() -> None:
    state = colony_table(19)
    state = set_player(state, "ann", colonies=(("3a", False), ("9b", False)))
    options = {m["colony"] for m in RULES.legal_moves(state, "ann") if "colony" in m}
    assert options == {"15a", "15b"}  # levels 3 and 9 taken, 21 out of reach
    state, events = play(state, "ann", {"colony": "15a", "ally": False})
    assert events[0] == {
        "type": "ColonyPlundered",
        "seat": "ann",
        "slot": "15a",
        "requirement_coins": 0,
        "colony_coins": 0,
        "coins": 5,
    }
    assert state.player("ann").coins == 15
    assert "colony-15-1" in RULES.hidden_from(state, "ann")  # plundered: never turned
    assert find_leaks(RULES.view(state, "ann"), RULES.hidden_from(state, "ann")) == []
    assert player_scores(state, state.player("ann"))["colonies"] == 2 + 5 + 8


def test_colony_refusals() -> None:
    state = colony_table(8)
    refused(state, "ann", {"colony": "9a", "ally": False}, "requirement")
    refused(state, "ann", {"colony": "99z", "ally": False}, "no-such-colony")
    refused(state, "ann", {"colony": "3a"}, "bad-move")
    state = set_player(state, "ann", colonies=(("3a", False),))
    state = replace(state, colony_owner={"3a": "ann"})
    refused(state, "ann", {"colony": "3b", "ally": False}, "level-taken")
    refused(state, "ann", {"colony": "3a", "ally": False}, "colony-taken")
    poor = set_player(colony_table(30, coins=0), "ann", coins=0)
    refused(poor, "ann", {"colony": "30a", "ally": True}, "too-expensive")


def test_example_colony_points_2_5_8_11() -> None:
    state = dealt_table()
    slots = (("3a", False), ("9a", False), ("15a", False), ("21a", False))
    state = set_player(state, "ann", colonies=slots)
    assert player_scores(state, state.player("ann"))["colonies"] == 26


def bust_table(culture: int, side: str = "A") -> HadaraState:
    state = dealt_table()
    state = set_player(state, "ann", start_values=(2, 1, culture, 4), side=side)
    return at_section(state, "bust", "ann")


def test_example_bust_with_culture_13_front_income_three_steps() -> None:
    state = bust_table(13)
    state, _ = play(state, "ann", {"bust": 2, "tile": "income", "side": "front"})
    assert values(state, "ann")["income"] == 2 + 3
    assert free_tiles(state.player("ann"))["income"] == 1
    assert player_scores(state, state.player("ann"))["busts"] == 8


def test_example_bust_with_culture_20_point_side() -> None:
    state = bust_table(20)
    state, _ = play(state, "ann", {"bust": 3, "tile": "military", "side": "back"})
    assert values(state, "ann")["military"] == 1
    assert player_scores(state, state.player("ann"))["busts"] == 14 + 4


def test_example_bust_points_4_8_14_and_4() -> None:
    state = dealt_table()
    busts = ((1, "food", "front"), (2, "income", "front"), (3, "culture", "back"))
    state = set_player(state, "ann", busts=busts)
    assert player_scores(state, state.player("ann"))["busts"] == 30


def test_bust_refusals() -> None:
    state = bust_table(10)
    refused(state, "ann", {"bust": 2, "tile": "income", "side": "front"}, "requirement")
    refused(state, "ann", {"bust": 1, "tile": "income"}, "bad-move")
    carved = set_player(state, "ann", busts=((1, "income", "front"),))
    refused(carved, "ann", {"bust": 1, "tile": "food", "side": "front"}, "bust-carved")
    no_tiles = set_player(state, "ann", silver_seals=("food", "food"))
    refused(no_tiles, "ann", {"bust": 1, "tile": "food", "side": "front"}, "no-tile")


def test_example_silver_seal_military_27_gives_14_income_18_gives_9() -> None:
    state = dealt_table()
    state = set_player(state, "ann", start_values=(18, 27, 0, 0), silver_seals=("military",))
    assert player_scores(state, state.player("ann"))["silver_seals"] == 14
    state = set_player(state, "ann", silver_seals=("military", "income"))
    assert player_scores(state, state.player("ann"))["silver_seals"] == 14 + 9
    state = set_player(state, "ann", start_values=(18, 30, 0, 0), silver_seals=("military",))
    assert player_scores(state, state.player("ann"))["silver_seals"] == 15


def three_sets() -> tuple[str, ...]:
    others = (f"I-{c}-0{i}" for c in COLOURS for i in (1, 2, 3) if c != "purple")
    return (*others, "I-purple-05", "I-purple-06", "I-purple-07")


def test_example_three_sets_give_21_with_one_golden_seal() -> None:
    state = set_player(dealt_table(), "ann", cards=three_sets(), golden_seals=1)
    assert player_scores(state, state.player("ann"))["golden_seals"] == 21
    state = set_player(state, "ann", golden_seals=2)
    assert player_scores(state, state.player("ann"))["golden_seals"] == 42


def test_example_eleven_coins_give_two_points() -> None:
    state = set_player(dealt_table(), "ann", coins=11)
    assert player_scores(state, state.player("ann"))["coins"] == 2


def test_score_sheet_rows_and_tie_break_by_coins() -> None:
    state = dealt_table()
    state = set_player(state, "ann", coins=11)
    state = set_player(state, "bob", coins=10, cards=("I-red-01",))  # 2 card points
    sheet = score_sheet(state)
    totals = sheet["rows"][-1]["scores"]
    assert totals == {"ann": 2, "bob": 4}
    state = set_player(state, "bob", coins=4)
    state = replace(state, final_sheet=score_sheet(state), stage="over")
    result = RULES.result(state)
    # 2 points each; ann keeps 1 coin of 11, bob 4 of 4, so bob wins the tie
    assert result is not None and result.scores == {"ann": 2, "bob": 2}
    assert result.ranking == (("bob",), ("ann",))


def test_tie_on_points_broken_by_coins() -> None:
    state = dealt_table()
    state = set_player(state, "ann", coins=14)  # 2 points, 14 coins
    state = set_player(state, "bob", coins=10)  # 2 points, 10 coins
    state = replace(state, final_sheet=score_sheet(state), stage="over")
    result = RULES.result(state)
    assert result is not None and result.ranking == (("ann",), ("bob",))
    state = set_player(state, "bob", coins=14)
    state = replace(state, final_sheet=score_sheet(state))
    result = RULES.result(state)
    assert result is not None and result.ranking == (("ann", "bob"),)


def test_tracks_past_ten_take_ten_markers() -> None:
    assert track_marker(10) == {"value": 10, "position": 10, "ten_markers": 0}
    assert track_marker(11) == {"value": 11, "position": 1, "ten_markers": 1}
    assert track_marker(27) == {"value": 27, "position": 7, "ten_markers": 2}
    state = set_player(dealt_table(), "ann", start_values=(2, 23, 3, 4))
    assert RULES.view(state, "bob")["players"]["ann"]["tracks"]["military"]["ten_markers"] == 2


def feeding_table(cards: tuple[str, ...], food: int, coins: int = 0) -> HadaraState:
    state = dealt_table()
    state = set_player(state, "ann", cards=cards, coins=coins, start_values=(2, 1, 3, 0))
    state = set_player(state, "ann", start_values=(2, 1, 3, food - values(state, "ann")["food"]))
    return at_section(state, "feed", "ann", phase="B")


SEVEN = (
    "I-yellow-01",
    "I-yellow-02",
    "I-red-01",
    "I-red-03",
    "I-blue-01",
    "I-blue-02",
    "I-blue-05",
)


def test_example_feeding_food_6_with_7_cards_removes_one_card() -> None:
    state = feeding_table(SEVEN, 6)
    assert values(state, "ann")["food"] == 6 and RULES.to_act(state) == ("ann",)
    refused(state, "ann", {"remove": []}, "not-fed")
    refused(state, "ann", {"remove": ["I-yellow-02", "I-red-01"]}, "not-fed")
    refused(state, "ann", {"remove": ["I-green-01"]}, "not-fed")
    before = values(state, "ann")
    state, events = play(state, "ann", {"remove": ["I-yellow-02"]})
    assert events[0]["type"] == "PeopleFed" and events[0]["removed"] == ["I-yellow-02"]
    after = values(state, "ann")
    assert after["military"] == before["military"] - 1
    assert after["income"] == before["income"] - 1
    assert "I-yellow-02" in state.discard and state.player("ann").coins == 0
    assert all(m["remove"] for m in RULES.legal_moves(feeding_table(SEVEN, 6), "ann"))


def test_example_feeding_food_9_with_6_cards_is_fed() -> None:
    state = feeding_table(SEVEN[:6], 9)
    state = replace(state, stage="feed")
    events = settle(state, [], rng_for(b"x", 1))
    assert events[0] == {
        "type": "PeopleFed",
        "seat": "ann",
        "removed": [],
        "paid": 0,
        "surplus_coins": 0,
    }


def test_removing_a_food_card_can_require_more_removals() -> None:
    cards = (*SEVEN[:5], "I-green-01")  # 6 cards, the green one gives 2 food
    state = feeding_table(cards, 5)
    refused(state, "ann", {"remove": ["I-green-01"]}, "not-fed")
    state, _ = play(state, "ann", {"remove": ["I-red-01"]})


def test_hint_a_food_card_removed_first_then_further_cards_is_legal() -> None:
    # "Es ist nicht ratsam, Karten zu entfernen, die Ernährung bringen. Da du
    # durch das Entfernen der Karte die Ernährung ... zurückziehen musst.
    # Dadurch müsstest du noch weitere Karten entfernen." Cards go one by one
    # "so lange ..., bis" the people are fed: removing the food card first is
    # unwise but allowed, and then the further cards must go too.
    cards = (*SEVEN[:6], "I-green-01")  # 7 cards; the green one gives 2 food
    state = feeding_table(cards, 6)  # lacks 1
    refused(state, "ann", {"remove": ["I-green-01", "I-yellow-01"]}, "not-fed")  # lacks 1
    # fed after either card: the second one is removed after they are fed
    refused(state, "ann", {"remove": ["I-yellow-01", "I-red-01"]}, "not-fed")
    # fed after the third card whatever the order: the fourth is one too many
    too_many = ["I-green-01", "I-yellow-01", "I-red-01", "I-blue-01"]
    refused(state, "ann", {"remove": too_many}, "not-fed")
    removal = ["I-green-01", "I-yellow-01", "I-red-01"]
    state, events = play(state, "ann", {"remove": removal})
    assert events[0]["type"] == "PeopleFed" and events[0]["removed"] == sorted(removal)
    ann = state.player("ann")
    assert len(ann.cards) == 4 and values(state, "ann")["food"] == 4
    assert set(removal) <= set(state.discard)


def test_removing_the_colour_bonus_card_first_takes_its_food_steps_with_it() -> None:
    # the green card's extra steps go when the purple card goes ("musst Werte,
    # die du über ihre Eigenschaften erhalten hast zurückziehen"): with it gone
    # first, one more card must go
    cards = (*SEVEN[:5], "I-green-01", "I-purple-14")  # 7 cards, food 3 + 2 + 1
    state = feeding_table(cards, 6)
    assert values(state, "ann")["food"] == 6
    refused(state, "ann", {"remove": ["I-green-01", "I-yellow-01"]}, "not-fed")
    refused(state, "ann", {"remove": list(cards)}, "not-fed")
    state, _ = play(state, "ann", {"remove": ["I-purple-14", "I-yellow-01"]})
    assert len(state.player("ann").cards) == 5 and values(state, "ann")["food"] == 5


# --- seals -------------------------------------------------------------------------------


def seal_table(epoch: int = 1, coins: int = 50, cards: tuple[str, ...] = ()) -> HadaraState:
    state = set_player(dealt_table(), "ann", coins=coins, cards=cards)
    return at_section(state, "seals", "ann", phase="B", epoch=epoch)


def test_buying_seals_at_epoch_prices() -> None:
    state = seal_table(1)
    state, events = play(state, "ann", {"silver": ["military", "culture"], "golden": 1})
    assert events[0]["cost"] == 2 * 6 + 8
    ann = state.player("ann")
    assert ann.coins == 50 - 20 and ann.golden_seals == 1
    assert free_tiles(ann)["military"] == 1
    assert seal_table(3).components.prices(3).golden == 25


def test_seal_refusals() -> None:
    state = seal_table(2, coins=10)
    refused(state, "ann", {"golden": 1, "silver": ["food"]}, "seals")  # 12 + 9 > 10
    refused(state, "ann", {"silver": ["gold"]}, "seals")
    full = set_player(state, "ann", silver_seals=("food", "income"), coins=99)
    refused(full, "ann", {"silver": ["military"]}, "seals")
    no_tile = set_player(state, "ann", busts=((1, "food", "front"), (2, "food", "back")))
    refused(set_player(no_tile, "ann", coins=99), "ann", {"silver": ["food"]}, "seals")
    refused(state, "ann", {"golden": 3}, "seals")
    refused(state, "ann", {"silver": "food"}, "bad-move")
    state, events = play(state, "ann", {"pass": True})
    assert events[0]["type"] == "SealsPassed"


def test_both_silver_seals_may_score_one_track() -> None:
    # "legst du dazu eines deiner Bonusplättchen ... in die Einbuchtung": each
    # seat has two tiles of each track, so both silver seals may name military,
    # each scoring half of it, rounded up alone
    state = seal_table(1, coins=12)
    state, events = play(state, "ann", {"silver": ["military", "military"]})
    assert events[0]["cost"] == 2 * 6 and state.player("ann").silver_seals == (
        "military",
        "military",
    )
    assert free_tiles(state.player("ann"))["military"] == 0
    state = set_player(state, "ann", start_values=(0, 27, 0, 0))
    assert player_scores(state, state.player("ann"))["silver_seals"] == 14 + 14
    # with one military tile on a bust only one silver seal can take military
    carved = set_player(seal_table(1, coins=12), "ann", busts=((1, "military", "front"),))
    refused(carved, "ann", {"silver": ["military", "military"]}, "seals")


# --- purple abilities -----------------------------------------------------------------------


def test_ability_sell_bonus() -> None:
    state = at_section(
        dealt_table(), "take", "ann", phase="B", outer={**FILLER, "red": ("I-red-10",)}
    )
    state = set_player(state, "ann", coins=0, cards=("I-purple-01",))
    after, _ = play(state, "ann", {"take": "red", "action": "sell"})
    assert after.player("ann").coins == 3
    state = set_player(state, "ann", cards=("I-purple-01", "I-purple-02"))
    after, _ = play(state, "ann", {"take": "red", "action": "sell"})
    assert after.player("ann").coins == 4  # the bonus stacks


def test_ability_bonus_tile_steps() -> None:
    state = at_section(
        dealt_table(), "take", "ann", phase="B", outer={**FILLER, "purple": ("I-purple-03",)}
    )
    state = set_player(state, "ann", coins=10)
    refused(state, "ann", {"take": "purple", "action": "recruit"}, "tile-needed")
    state, events = play(state, "ann", {"take": "purple", "action": "recruit", "tile": "food"})
    assert events[0]["tile"] == "food"
    assert values(state, "ann")["food"] == 5 + 2
    assert free_tiles(state.player("ann"))["food"] == 1
    # removed when feeding: steps back, tile free again
    fed = feeding_table(("I-purple-03", *SEVEN), 0)
    fed = set_player(fed, "ann", card_tiles={"I-purple-03": "culture"})
    assert free_tiles(fed.player("ann"))["culture"] == 1
    removal = RULES.legal_moves(fed, "ann")[0]["remove"]
    fed, _ = play(fed, "ann", {"remove": removal})
    assert free_tiles(fed.player("ann"))["culture"] == 2
    assert values(fed, "ann")["culture"] == 3


def test_ability_bonus_tile_steps_without_free_tile_has_no_effect() -> None:
    outer = {**FILLER, "purple": ("I-purple-04",)}
    state = at_section(dealt_table(), "take", "ann", phase="B", outer=outer)
    busts = ((1, "income", "back"), (2, "military", "back"), (3, "culture", "back"))
    state = set_player(
        state,
        "ann",
        coins=10,
        busts=(*busts, (4, "food", "back")),
        silver_seals=("income", "military"),
        cards=("I-purple-01", "I-purple-03"),
        card_tiles={"I-purple-03": "culture"},
    )
    state = set_player(state, "ann", cards=("I-purple-03", "II-purple-01"))
    state = set_player(state, "ann", card_tiles={"I-purple-03": "culture", "II-purple-01": "food"})
    assert sum(free_tiles(state.player("ann")).values()) == 0
    state, events = play(state, "ann", {"take": "purple", "action": "recruit"})
    assert "tile" not in events[0]
    assert "I-purple-04" not in state.player("ann").card_tiles


def test_ability_bust_step_bonus() -> None:
    state = bust_table(13)
    state = set_player(state, "ann", cards=("II-purple-01",), busts=((1, "food", "front"),))
    base_food = 4 + 2 + 2  # start, bust 1 reward, the card's 2 for the carved bust
    assert values(state, "ann")["food"] == base_food
    state, _ = play(state, "ann", {"bust": 2, "tile": "income", "side": "front"})
    assert values(state, "ann")["income"] == 2 + 3 + 2
    point_side = set_player(state, "ann", busts=((2, "income", "back"),))
    assert player_scores(point_side, point_side.player("ann"))["busts"] == 8 + 3 + 2


def test_ability_seal_discount() -> None:
    state = seal_table(2, coins=10, cards=("II-purple-03",))
    state, events = play(state, "ann", {"silver": ["food"], "golden": 1})
    assert events[0]["cost"] == 4 + 6
    state = seal_table(3, coins=37, cards=("II-purple-03", "II-purple-04"))
    state, events = play(state, "ann", {"silver": ["food"], "golden": 1})
    assert events[0]["cost"] == 15 + 22  # a second card adds nothing
    state = seal_table(1, coins=14, cards=("II-purple-03",))
    state, events = play(state, "ann", {"silver": ["food"], "golden": 1})
    assert events[0]["cost"] == 6 + 8  # epoch I keeps the normal prices


def test_ability_silver_seal_full_points() -> None:
    state = dealt_table()
    state = set_player(
        state,
        "ann",
        start_values=(18, 27, 0, 0),
        silver_seals=("military", "income"),
        cards=("III-purple-01",),
    )
    assert player_scores(state, state.player("ann"))["silver_seals"] == 27 + 9


def test_ability_set_points() -> None:
    state = set_player(dealt_table(), "ann", cards=(*three_sets(), "III-purple-03"))
    # the card is purple too: still 3 complete sets (4 purple, 3 of the others)
    assert player_scores(state, state.player("ann"))["golden_seals"] == 3 * 4


def test_ability_colour_step_bonus() -> None:
    state = at_section(
        dealt_table(), "take", "bob", phase="B", outer={**FILLER, "purple": ("I-purple-14",)}
    )
    state = set_player(state, "bob", cards=("I-green-01", "I-green-02"), coins=10)
    food = values(state, "bob")["food"]
    state, _ = play(state, "bob", {"take": "purple", "action": "recruit"})
    assert values(state, "bob")["food"] == food + 2
    state = at_section(state, "take", "bob", outer={**FILLER, "green": ("I-green-03",)})
    state, _ = play(state, "bob", {"take": "green", "action": "recruit"})
    assert values(state, "bob")["food"] == food + 2 + 2 + 1
    removed = set_player(state, "bob", cards=("I-green-01", "I-purple-14", "I-green-03"))
    assert values(removed, "bob")["food"] == 4 + 2 + 2 + 2


def test_ability_feed_with_coins() -> None:
    cards = (*SEVEN, "I-red-04", "I-red-05", "I-blue-03", "II-purple-11")  # 11 cards
    state = feeding_table(cards, 9, coins=4)
    assert RULES.legal_moves(state, "ann")
    state, events = play(state, "ann", {"remove": [], "pay_for": 2})
    assert events[0]["paid"] == 4 and state.player("ann").coins == 0
    assert len(state.player("ann").cards) == 11
    state = feeding_table(cards, 9, coins=4)
    refused(state, "ann", {"remove": [], "pay_for": 3}, "not-fed")
    refused(state, "ann", {"remove": [], "pay_for": 1}, "not-fed")
    state, events = play(state, "ann", {"remove": ["I-red-04"], "pay_for": 1})
    assert events[0]["paid"] == 2


def test_ability_food_surplus_coins() -> None:
    state = feeding_table(("I-blue-01", "II-purple-12"), 4)
    events = settle(state, [], rng_for(b"x", 1))
    assert events[0]["surplus_coins"] == 6
    state = feeding_table(("I-blue-01", "II-purple-12"), 20)
    assert settle(state, [], rng_for(b"x", 1))[0]["surplus_coins"] == 12


def test_ability_income_per_track_above_income() -> None:
    state = dealt_table()
    state = set_player(state, "ann", cards=("II-purple-13",), start_values=(3, 5, 9, 2), coins=0)
    state = set_player(state, "bob", coins=0)
    state = replace(state, stage="income", order=TWO)
    events = settle(state, [], rng_for(b"x", 1))
    income = events[0]
    assert income["income"] == {"ann": 3, "bob": 2} and income["extra"] == {"ann": 4}
    state = set_player(state, "ann", start_values=(1, 5, 9, 2))
    assert settle(state, [], rng_for(b"x", 1))[0]["extra"] == {"ann": 6}


def test_ability_colony_coins() -> None:
    state = set_player(colony_table(12, coins=0), "ann", cards=("II-purple-14",), coins=0)
    state, events = play(state, "ann", {"colony": "9a", "ally": True})
    assert events[0]["colony_coins"] == 4
    assert state.player("ann").coins == 4 - 1


def test_ability_golden_set_wildcard() -> None:
    cards = tuple(c for c in three_sets() if c != "I-green-03")
    state = set_player(dealt_table(), "ann", cards=cards, golden_seals=1)
    assert player_scores(state, state.player("ann"))["golden_seals"] == 14
    state = set_player(state, "ann", cards=(*cards, "III-purple-11"))
    assert player_scores(state, state.player("ann"))["golden_seals"] == 21
    assert complete_sets({"yellow": 3, "red": 3, "blue": 1, "green": 3, "purple": 3}, 1) == 2


def test_ability_double_colony_bust() -> None:
    state = set_player(colony_table(12), "ann", cards=("III-purple-12",))
    state, _ = play(state, "ann", {"colony": "3a", "ally": False})
    assert RULES.to_act(state) == ("ann",)
    refused(state, "ann", {"colony": "3b", "ally": False}, "level-taken")
    state, _ = play(state, "ann", {"colony": "9a", "ally": False})
    assert len(state.player("ann").colonies) == 2
    assert (state.stage, state.actor) != ("colony", "ann")
    busts = set_player(bust_table(13), "ann", cards=("III-purple-12",))
    busts, _ = play(busts, "ann", {"bust": 1, "tile": "food", "side": "front"})
    assert busts.actor == "ann"
    busts, _ = play(busts, "ann", {"bust": 2, "tile": "food", "side": "back"})
    assert len(busts.player("ann").busts) == 2
    assert (busts.stage, busts.actor) != ("bust", "ann")


def test_ability_requirement_reduction() -> None:
    state = set_player(colony_table(5), "ann", cards=("III-purple-13",))
    state, events = play(state, "ann", {"colony": "9a", "ally": False})
    assert events[0]["requirement_coins"] == 0
    busts = set_player(bust_table(8), "ann", cards=("III-purple-13",))
    busts, _ = play(busts, "ann", {"bust": 2, "tile": "food", "side": "front"})


def test_ability_buy_requirement() -> None:
    state = set_player(colony_table(14, coins=5), "ann", cards=("III-purple-14",))
    state, events = play(state, "ann", {"colony": "15a", "ally": False})
    assert events[0]["requirement_coins"] == 3
    assert state.player("ann").coins == 5 - 3 + 5
    far = set_player(colony_table(9, coins=99), "ann", cards=("III-purple-14",))
    refused(far, "ann", {"colony": "21a", "ally": False}, "requirement")  # 36 > 30 coins
    busts = set_player(bust_table(10), "ann", cards=("III-purple-14",), coins=6)
    busts, events = play(busts, "ann", {"bust": 2, "tile": "food", "side": "front"})
    assert events[0]["requirement_coins"] == 6 and busts.player("ann").coins == 0


def test_every_ability_of_the_set_is_tested() -> None:
    prefix = "test_ability_"
    tested = {name[len(prefix) :] for name in globals() if name.startswith(prefix)}
    abilities = {c.ability for c in COMPONENTS.cards if c.ability}
    assert abilities <= {t.removesuffix("_without_free_tile_has_no_effect") for t in tested}


def test_arbiter_sees_everything_and_spectator_nothing_hidden() -> None:
    state = dealt_table(FIVE)
    state, _ = play(state, "ann", {"wheel": "green"})
    assert RULES.hidden_from(state, ARBITER) == frozenset()
    assert RULES.view(state, ARBITER)["inner_cards"]["red"]
    for viewer in (*FIVE, None):
        assert find_leaks(RULES.view(state, viewer), RULES.hidden_from(state, viewer)) == []


# --- review: fixes (each fails on rules 1.0) and rules untested before ----------------


def test_example_wheel_turn_moves_the_monkey_from_red_to_yellow() -> None:
    # "Dein Affen-Wappen liegt vor dem Drehen beim roten Kartenstapel. Nach dem
    # Drehen liegt es beim gelben Kartenstapel."
    state = dealt_table()
    state, _ = play(state, "ann", {"wheel": "red"})
    for seat in TWO:
        state, events = play(state, seat, {"place": state.drawn[seat][0], "action": "sell"})
    turned = next(e for e in events if e["type"] == "WheelTurned")
    drawn = next(e for e in events if e["type"] == "CardsDrawn")
    assert turned["wheel"] == state.wheel
    assert drawn["draws"]["ann"]["colour"] == "yellow"


@pytest.mark.parametrize("seats", [TWO, ("ann", "bob", "cid"), FIVE])
def test_every_seat_draws_every_colour_once_per_epoch(seats: tuple[str, ...]) -> None:
    state = dealt_table(seats)
    state, events = play(state, "ann", {"wheel": "green"})
    colours: dict[str, list[str]] = {seat: [] for seat in seats}
    ply = 2
    while state.stage in ("choose", "wheel"):
        for event in events:
            if event["type"] == "CardsDrawn":
                for seat, draw in event["draws"].items():
                    colours[seat].append(draw["colour"])
        seat = RULES.to_act(state)[0]
        state, events = play(state, seat, {"place": state.drawn[seat][0], "action": "sell"}, ply)
        ply += 1
    assert all(sorted(drawn) == sorted(COLOURS) for drawn in colours.values())
    assert colours["ann"][:2] == ["green", "blue"]  # set by the start player, then turned


def test_example_one_coin_is_kept_for_a_tie() -> None:
    # "Du hast 11 Münzen. Du gibst 2x5 Münzen ab ... (1 Münze behältst du für
    # einen möglichen Gleichstand.)": the coins left after handing in break ties
    state = dealt_table()
    state = set_player(state, "ann", coins=10)  # 2 points, keeps 0
    state = set_player(state, "bob", coins=9, cards=("I-blue-01",))  # 1 + 1 point, keeps 4
    sheet = score_sheet(state)
    assert sheet["rows"][-1]["scores"] == {"ann": 2, "bob": 2}
    assert sheet["coins_left"] == {"ann": 0, "bob": 4}
    state = replace(state, final_sheet=sheet, stage="over")
    result = RULES.result(state)
    assert result is not None and result.ranking == (("bob",), ("ann",))
    state = set_player(state, "ann", coins=11)
    assert score_sheet(state)["coins_left"]["ann"] == 1


def test_a_colony_shows_only_its_front_before_an_alliance() -> None:
    # the backs stay unknown until an alliance ("Du weißt also nicht, welche
    # Werte verbessert werden würden"): views carry fronts, never ids or backs
    state = table(FIVE, seed=9)
    for viewer in (*FIVE, None):
        rows = RULES.view(state, viewer)["colonies"]
        assert rows
        assert all("colony" not in r and "back_values" not in r for r in rows)
        assert all({"plunder_coins", "alliance_cost", "front_points"} <= set(r) for r in rows)


def test_bust_number_must_be_an_integer() -> None:
    state = bust_table(13)
    refused(state, "ann", {"bust": True, "tile": "income", "side": "front"}, "bad-move")
    refused(state, "ann", {"bust": "1", "tile": "income", "side": "front"}, "bad-move")
    refused(state, "ann", {"bust": 5, "tile": "income", "side": "front"}, "requirement")


def test_rules_version_names_the_review_fixes() -> None:
    # 1.1: the review fixes; 1.2: reveals and takes say which cards a reader
    # may see (stays_on_top, uncovered), as the outer stacks show only their
    # tops; 1.3: feeding lets a card with food go first, then further cards
    assert RULES.rules_version == "1.3"


def test_example_blue_card_price_3_two_culture_one_food_two_points() -> None:
    state = at_section(
        dealt_table(), "take", "ann", phase="B", outer={**FILLER, "blue": ("I-blue-04",)}
    )
    state = set_player(state, "ann", coins=3)
    before = values(state, "ann")
    state, events = play(state, "ann", {"take": "blue", "action": "recruit"})
    assert events[0]["price"] == 3 and state.player("ann").coins == 0
    after = values(state, "ann")
    assert (after["culture"] - before["culture"], after["food"] - before["food"]) == (2, 1)
    assert player_scores(state, state.player("ann"))["cards"] == 2


@pytest.mark.parametrize(("epoch", "card", "coins"), [(2, "II-red-01", 3), (3, "III-red-01", 4)])
def test_selling_gives_three_coins_in_epoch_two_and_four_in_three(
    epoch: int, card: str, coins: int
) -> None:
    state = at_section(
        dealt_table(), "take", "ann", phase="B", epoch=epoch, outer={**FILLER, "red": (card,)}
    )
    state = set_player(state, "ann", coins=0)
    state, _ = play(state, "ann", {"take": "red", "action": "sell"})
    assert state.player("ann").coins == coins
    assert card in state.discard  # sold face up in phase B: public


def test_example_income_12_takes_12_coins_and_keeps_the_track() -> None:
    state = set_player(dealt_table(), "ann", start_values=(12, 1, 3, 4), coins=0)
    state = replace(state, stage="income", order=TWO)
    events = settle(state, [], rng_for(b"x", 1))
    assert events[0]["income"]["ann"] == 12
    state = RULES.evolve(state, events[0])
    assert state.player("ann").coins == 12 and values(state, "ann")["income"] == 12


def test_example_colony_plus_3_slash_1_and_its_back() -> None:
    colony = COMPONENTS.colony_by_id["colony-03-1"]
    assert (colony.requirement, colony.plunder_coins, colony.alliance_cost) == (3, 3, 1)
    assert (colony.front_points, colony.back_values, colony.back_points) == (2, (1, 1, 0, 0), 2)
    state = colony_table(3)
    before = values(state, "ann")
    state, _ = play(state, "ann", {"colony": "3a", "ally": True})
    after = values(state, "ann")
    assert (after["income"], after["military"]) == (before["income"] + 1, before["military"] + 1)
    assert state.player("ann").coins == 10 - 1
    assert player_scores(state, state.player("ann"))["colonies"] == 2


def test_example_bust_requirement_6_four_points_two_steps() -> None:
    assert COMPONENTS.busts["A"][0] == Bust(requirement=6, points=4, reward_steps=2)
    refused(bust_table(5), "ann", {"bust": 1, "tile": "food", "side": "front"}, "requirement")
    state, _ = play(bust_table(6), "ann", {"bust": 1, "tile": "food", "side": "front"})
    assert values(state, "ann")["food"] == 4 + 2
    assert player_scores(state, state.player("ann"))["busts"] == 4


def test_colonies_and_busts_are_kept_when_feeding_lowers_the_tracks() -> None:
    cards = ("I-red-04", "I-red-05", "I-blue-05", "I-blue-06")
    state = feeding_table(cards, 3)
    state = set_player(state, "ann", colonies=(("3a", False),), busts=((1, "income", "front"),))
    state = replace(state, colony_owner={"3a": "ann"})
    state, _ = play(state, "ann", {"remove": ["I-red-04"]})
    ann = state.player("ann")
    assert ann.colonies == (("3a", False),) and len(ann.busts) == 1
    assert player_scores(state, ann)["colonies"] == 2


def test_silver_seals_round_up_each_seal_alone() -> None:
    state = set_player(
        dealt_table(), "ann", start_values=(0, 27, 27, 0), silver_seals=("military", "culture")
    )
    assert player_scores(state, state.player("ann"))["silver_seals"] == 14 + 14


def test_start_players_of_epochs_two_and_three_in_play() -> None:
    state = dealt_table(FIVE)  # initiative 1..5 in seat order
    state = run_until(state, lambda s: s.epoch == 2, limit=5000)
    assert state.start_player == "bob" and state.order[0] == "bob"
    state = run_until(state, lambda s: s.epoch == 3, limit=5000)
    assert state.start_player == "cid"


def test_four_players_the_highest_initiative_takes_the_coin() -> None:
    seats = ("ann", "bob", "cid", "dee")
    state = dealt_table(seats)
    assert [p.coins for p in state.players] == [7, 8, 8, 8 + 1]
    three = dealt_table(("ann", "bob", "cid"))
    assert [p.coins for p in three.players] == [7, 8, 8]


def test_nobody_else_sees_inner_stacks_draws_or_colony_backs() -> None:
    state = dealt_table(FIVE)
    normalized = RULES.normalize_options({"first_game": True}, FIVE)
    setup = RULES.setup(normalized, FIVE, rng_for(b"s", 0))
    laid = next(e for e in setup if e["type"] == "ColoniesLaid")
    begun = next(e for e in setup if e["type"] == "EpochBegun")
    for viewer in (*FIVE, None):
        assert "colonies" not in RULES.redact(laid, viewer)
        assert all(isinstance(n, int) for n in RULES.redact(begun, viewer)["stacks"].values())
    state, events = play(state, "ann", {"wheel": "yellow"})
    drawn = events[-1]
    ann_draw = state.drawn["ann"]
    for viewer in ("bob", None):
        seen = RULES.redact(drawn, viewer)
        assert seen["draws"]["ann"]["cards"] is None
        view = RULES.view(state, viewer)
        assert "inner_cards" not in view and "draws" not in view
        assert not find_leaks(view, set(ann_draw))
        assert set(ann_draw) <= RULES.hidden_from(state, viewer)
    assert RULES.view(state, "ann")["your_draw"] == list(ann_draw)
    state, events = play(state, "ann", {"place": ann_draw[0], "action": "sell"})
    for viewer in ("bob", None):
        assert RULES.redact(events[0], viewer) == {"type": "DrawChosen", "seat": "ann"}
        assert RULES.view(state, viewer).get("your_choice") is None


@pytest.mark.parametrize("epoch", [1, 2, 3])
def test_a_seat_passes_seals_automatically_exactly_when_it_can_buy_none(epoch: int) -> None:
    from gamelog.games.hadara.seals import may_buy_seal, seal_moves

    for coins in (0, 5, 6, 8, 9, 12, 18, 25, 60):
        for silver in ((), ("food",), ("food", "income")):
            for golden in (0, 1, 2):
                state = set_player(seal_table(epoch, coins), "ann", silver_seals=silver)
                state = set_player(state, "ann", golden_seals=golden)
                assert may_buy_seal(state, "ann") == bool(seal_moves(state, "ann"))
    # a silver seal left to buy, but every bonus tile is in use
    busts = ((1, "income", "front"), (2, "military", "back"), (3, "military", "back"))
    no_tiles = set_player(
        seal_table(epoch, 99),
        "ann",
        golden_seals=2,
        silver_seals=("income",),
        busts=(*busts, (4, "culture", "back")),
        card_tiles={"I-purple-03": "culture", "I-purple-04": "food", "II-purple-01": "food"},
    )
    assert sum(free_tiles(no_tiles.player("ann")).values()) == 0
    assert not may_buy_seal(no_tiles, "ann") and not seal_moves(no_tiles, "ann")
