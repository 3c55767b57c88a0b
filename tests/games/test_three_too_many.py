"""3 sind eine zu viel!: every rule, the rulebook's worked examples, and
property tests over random legal play-outs."""

from __future__ import annotations

import doctest
import importlib
import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.games import get_rules
from gamelog.games.codec import decode, encode
from gamelog.games.leaks import find_leaks
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, Event, IllegalMove, InvalidOptions, rng_for
from gamelog.games.three_too_many import RULES, ThreeTooManyState
from gamelog.games.three_too_many.cards import NUMBER_CARDS, load_component_set
from gamelog.games.three_too_many.collection import Collection, score_collection
from gamelog.games.three_too_many.display import Row, place

HOUSE = load_component_set("three-too-many/house-1")
COLOURS = HOUSE.colours
SEATS2 = ("ann", "ben")


def colour(card: int) -> int:
    name = HOUSE.colour_of[card]
    assert name is not None
    return COLOURS.index(name)


def cards_of(colour_index: int, low: int = 1, high: int = 89) -> list[int]:
    return [n for n in range(low, high + 1) if HOUSE.colour_of[n] == COLOURS[colour_index]]


def make_deal(seats: tuple[str, ...], display: tuple[int, ...] = (10, 46, 77)) -> dict[str, Any]:
    """Hands and piles from the remaining number cards in ascending order."""
    rest = [c for c in NUMBER_CARDS if c not in display]
    hands, piles = {}, {}
    for i, seat in enumerate(seats):
        mine = rest[i * 20 : (i + 1) * 20]
        hands[seat], piles[seat] = mine[:8], mine[8:]
    return {"display": list(display), "hands": hands, "piles": piles}


def new_game(
    seats: tuple[str, ...] = SEATS2, seed: bytes = b"seed", **options: Any
) -> ThreeTooManyState:
    normalized = RULES.normalize_options(options, seats)
    state = RULES.start(seats, normalized)
    for event in RULES.setup(normalized, seats, rng_for(seed, 0)):
        state = RULES.evolve(state, event)
    return state


def play(state: ThreeTooManyState, seat: str, card: int) -> tuple[ThreeTooManyState, list[Event]]:
    events = RULES.decide(state, seat, {"card": card}, rng_for(b"seed", sum(state.played) + 1))
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def collection_with(*cards: int) -> Collection:
    collection = Collection.empty(len(COLOURS))
    for card in cards:
        collection, _ = collection.add(colour(card), card)
    return collection


def table(
    hands: tuple[tuple[int, ...], ...],
    rows: tuple[tuple[int, ...], ...] = ((), (), ()),
    **changes: Any,
) -> ThreeTooManyState:
    """A hand-made position of a two-player game (for rule tests only)."""
    base = new_game()
    return replace(
        base,
        display=tuple(Row(start, cards) for start, cards in zip((0, 30, 60), rows)),
        hands=hands,
        **changes,
    )


# -- set-up -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_display_piles_hands_and_box(players: int) -> None:
    seats = tuple(f"p{i}" for i in range(players))
    state = new_game(seats)
    assert [row.start for row in state.display] == [0, 30, 60]
    assert sum(len(row.cards) for row in state.display) == 3
    for k, row in enumerate(state.display):
        assert list(row.cards) == sorted(row.cards)
        assert all(c // 30 == k for c in row.cards)
    assert [len(h) for h in state.hands] == [8] * players
    assert [len(p) for p in state.piles] == [12] * players
    assert len(state.box) == 87 - 3 - 20 * players
    assert state.interim_stack == (10, 7, 5, 3)
    assert RULES.to_act(state) == (seats[0],)


def test_start_seat_option_picks_the_first_player() -> None:
    state = new_game(("a", "b", "c"), start_seat="b")
    assert RULES.to_act(state) == ("b",)
    state, _ = play(state, "b", state.hands[1][0])
    assert RULES.to_act(state) == ("c",)


def test_options_are_checked() -> None:
    with pytest.raises(InvalidOptions) as err:
        RULES.normalize_options({}, ("a",))
    assert err.value.code == "player-count"
    with pytest.raises(InvalidOptions) as err:
        RULES.normalize_options({}, ("a", "b", "c", "d", "e"))
    assert err.value.code == "player-count"
    with pytest.raises(InvalidOptions) as err:
        RULES.normalize_options({"colour": "red"}, SEATS2)
    assert err.value.code == "unknown-option"
    with pytest.raises(InvalidOptions) as err:
        RULES.normalize_options({"component_set": "three-too-many/house-9"}, SEATS2)
    assert err.value.code == "unknown-component-set"
    with pytest.raises(InvalidOptions) as err:
        RULES.normalize_options({"start_seat": "zoe"}, SEATS2)
    assert err.value.code == "bad-start-seat"
    assert RULES.normalize_options({}, SEATS2) == {
        "component_set": "three-too-many/house-1",
        "start_seat": "ann",
    }


def test_inline_component_set_is_validated_and_stored() -> None:
    data = HOUSE.to_json() | {"name": "three-too-many/printed"}
    options = RULES.normalize_options({"components": data}, SEATS2)
    assert options["component_set"] == "three-too-many/printed"
    assert RULES.start(SEATS2, options).components == replace(HOUSE, name="three-too-many/printed")
    broken = data | {"cards": data["cards"][:-1]}
    with pytest.raises(InvalidOptions) as err:
        RULES.normalize_options({"components": broken}, SEATS2)
    assert err.value.code == "bad-components"


@pytest.mark.parametrize("extra", [81, 20_000])
def test_more_colours_than_number_cards_are_refused(extra: int) -> None:
    """Found by mutating options: 20,000 colours were accepted and each
    picture then took seconds (its cost grows with colours times cards)."""
    data = HOUSE.to_json()
    data["colours"] = [*data["colours"], *(f"extra-{i}" for i in range(extra))]
    with pytest.raises(InvalidOptions, match="bad-components") as refused:
        RULES.normalize_options({"components": data}, SEATS2)
    assert "colours names at most 87 colours" in refused.value.message
    data["colours"] = data["colours"][:87]
    assert RULES.normalize_options({"components": data}, SEATS2)["components"] == data


def test_registered_under_its_name() -> None:
    assert get_rules("three-too-many") is RULES
    assert RULES.default_component_set == "three-too-many/house-1"
    assert (RULES.min_players, RULES.max_players, RULES.rules_version) == (2, 4, "1.0")


def test_shipped_set_is_read_once() -> None:
    # start() needs the set on every fold of a game: it must not reread the file.
    assert load_component_set("three-too-many/house-1") is HOUSE
    with pytest.raises(InvalidOptions) as err:
        load_component_set("three-too-many/house-9")
    assert err.value.code == "unknown-component-set"


def test_house_set_has_seven_colours_of_twelve() -> None:
    counts = Counter(c for c in HOUSE.colour_of if c is not None)
    assert counts == dict.fromkeys(COLOURS, 12)
    assert [n for n, c in enumerate(HOUSE.colour_of) if c is None] == [0, 15, 30, 45, 60, 75]


# -- the rulebook's worked examples ---------------------------------------------

EXAMPLE_ROWS = ((10, 19, 24), (46, 57), (77,))


def test_example_bastian_places_40_into_the_middle_row() -> None:
    state = table(((40, 1, 2), (3, 4, 5)), EXAMPLE_ROWS)
    state, events = play(state, "ann", 40)
    assert state.display[1] == Row(30, (40, 46, 57))
    assert of_type(events, "CardsTaken") == []
    assert events[0] == {"type": "CardPlaced", "seat": "ann", "card": 40, "row": 1}


def test_example_philipp_places_28_as_fifth_card_and_takes_10() -> None:
    state = table(((28, 1, 2), (3, 4, 5)), ((10, 19, 24), (40, 46, 57), (77,)))
    state, events = play(state, "ann", 28)
    assert state.display[0] == Row(0, (19, 24, 28))
    assert of_type(events, "CardsTaken")[0]["cards"] == [10]
    assert state.collections[0].cards() == (10,)


def test_example_thomas_places_37_as_fifth_card_and_takes_40_46_57() -> None:
    state = table(((37, 1, 2), (3, 4, 5)), ((19, 24, 28), (40, 46, 57), (77,)))
    state, events = play(state, "ann", 37)
    assert state.display[1] == Row(30, (37,))
    assert of_type(events, "CardsTaken")[0]["cards"] == [40, 46, 57]
    assert sorted(state.collections[0].cards()) == [40, 46, 57]


def test_example_thomas_takes_his_third_green_card_then_a_fourth() -> None:
    """Rulebook: "Thomas muss die dritte grüne Karte nehmen. Er dreht sie
    zusammen mit seinen beiden grünen Karten auf die Rückseite." and "Im
    weiteren Verlauf des Spiels bekommt Thomas seine vierte grüne Karte"
    ("behandelst du sie so, als wäre sie die erste"). The example's green is
    85's colour in the house set (light-blue); the fourth is the 40 he takes
    with his 37."""
    green = colour(85)
    assert colour(40) == green
    first, second = [c for c in cards_of(green, 1, 29) if c not in (19, 24)][:2]
    state = table(
        ((83, 37, 1, 2, 6), (5, 7, 8, 9, 11)),
        ((19, 24), (40, 46, 57), (77, 81, 85)),
        collections=(collection_with(first, second), Collection.empty(7)),
    )
    state, events = play(state, "ann", 83)  # the fifth card of row 3, not the highest
    taken = of_type(events, "CardsTaken")[0]
    assert taken["cards"] == [85] and taken["turned_face_down"] == [COLOURS[green]]
    assert state.display[2] == Row(60, (77, 81, 83))
    assert state.collections[0].face_up[green] == ()
    assert sorted(state.collections[0].face_down[green]) == sorted([first, second, 85])
    assert score_collection(state.collections[0]).points == -3
    state, _ = play(state, "ben", 5)
    state, events = play(state, "ann", 37)
    assert of_type(events, "CardsTaken")[0]["turned_face_down"] == []
    assert state.collections[0].face_up[green] == (40,), "the fourth counts as a first"
    assert len(state.collections[0].face_down[green]) == 3
    # -3 for the turned triple, +1 for each single: green (40), 46, 57.
    assert colour(46) != green and colour(57) != green and colour(46) != colour(57)
    assert score_collection(state.collections[0]).points == -3 + 3


def thomas_collection() -> Collection:
    """Four single colours, two pairs, six cards face down: an olive triple,
    and three orange ones under a fourth orange that counts as a first."""
    return collection_with(
        *cards_of(0)[:4],
        cards_of(1)[0],
        cards_of(2)[0],
        cards_of(3)[0],
        *cards_of(4)[:2],
        *cards_of(5)[:2],
        *cards_of(6)[:3],
    )


def test_example_thomas_final_scoring_is_20_points() -> None:
    thomas = thomas_collection()
    assert score_collection(thomas).singles == 4
    assert score_collection(thomas).pairs == 2
    assert score_collection(thomas).face_down == 6
    assert thomas.face_up_colours() == 6
    state = table(
        ((1, 61, 62), (31, 32)),
        piles=((), ()),
        collections=(thomas, Collection.empty(7)),
        interim_bonus=(7, None),
        interim_stack=(5, 3),
    )
    state, events = play(state, "ann", 61)
    ended = of_type(events, "GameEnded")[0]
    assert ended["final_bonus"] == {"ann": 5, "ben": 0}
    result = RULES.result(state)
    assert result is not None
    assert result.scores["ann"] == 4 * 1 + 2 * 5 - 6 + 7 + 5 == 20
    assert result.details["ann"] == {
        "single_colours": 4,
        "pairs": 2,
        "face_down": 6,
        "collection": 8,
        "interim_bonus": 7,
        "final_bonus": 5,
        "total": 20,
    }


# -- taking cards and the collection ------------------------------------------


def test_third_card_of_a_colour_turns_all_three_face_down() -> None:
    first, second, third = cards_of(0)[:3]
    state = table(
        ((29, 80), (81, 82)),
        ((third, 26, 27), (), ()),
        collections=(collection_with(first, second), Collection.empty(7)),
    )
    state, events = play(state, "ann", 29)
    taken = of_type(events, "CardsTaken")[0]
    assert taken["cards"] == [third]
    assert taken["turned_face_down"] == [COLOURS[0]]
    assert state.collections[0].face_up[0] == ()
    assert sorted(state.collections[0].face_down[0]) == [first, second, third]
    assert score_collection(state.collections[0]).points == -3


def test_fourth_card_counts_as_a_first_and_the_sixth_turns_again() -> None:
    orange = cards_of(0)
    collection = collection_with(*orange[:4])
    assert collection.face_up[0] == (orange[3],)
    assert score_collection(collection).points == 1 - 3
    collection = collection_with(*orange[:5])
    assert score_collection(collection).points == 5 - 3
    collection, turned = collection_with(*orange[:5]).add(0, orange[5])
    assert turned and collection.face_up[0] == ()
    assert score_collection(collection).points == -6


def test_cards_taken_together_enter_in_order_and_the_third_turns() -> None:
    lilac = cards_of(1, 32, 59)[:2]
    other = next(c for c in range(32, 60) if c != 45 and colour(c) not in (1, colour(31)))
    assert colour(31) != 1
    state = table(
        ((31, 80), (81, 82)),
        ((), tuple(sorted([*lilac, other])), ()),
        collections=(collection_with(cards_of(1)[0]), Collection.empty(7)),
    )
    state, events = play(state, "ann", 31)
    taken = of_type(events, "CardsTaken")[0]
    assert taken["cards"] == sorted([*lilac, other])
    assert taken["turned_face_down"] == [COLOURS[1]]
    assert state.collections[0].face_up[1] == ()
    assert sorted(state.collections[0].face_down[1]) == sorted([cards_of(1)[0], *lilac])
    assert state.collections[0].face_up[colour(other)] == (other,)
    assert state.display[1] == Row(30, (31,))


@pytest.mark.parametrize("colourless", [15, 45, 75])
def test_colourless_cards_go_to_the_box_and_score_nothing(colourless: int) -> None:
    row = colourless // 30
    start = row * 30
    rows: list[tuple[int, ...]] = [(), (), ()]
    rows[row] = (colourless, start + 20, start + 21)
    state = table(((start + 29, 80), (81, 82)), tuple(rows))
    state, events = play(state, "ann", start + 29)
    taken = of_type(events, "CardsTaken")[0]
    assert taken["cards"] == [colourless] and taken["to_box"] == [colourless]
    assert state.colourless == (colourless,)
    assert state.collections[0].cards() == ()
    assert RULES.view(state, None)["box"]["colourless"] == [colourless]


# -- bonuses ------------------------------------------------------------------


def six_colours(skip: int) -> Collection:
    return collection_with(*(cards_of(k, 61, 89)[0] for k in range(7) if k != skip))


def test_interim_bonus_goes_in_stack_order_and_once_per_player() -> None:
    olive = cards_of(6, 1, 25)[0]
    magenta = cards_of(5, 31, 55)[0]
    state = table(
        ((28, 29, 1), (58, 59, 2)),
        ((olive, 26, 27), (magenta, 56, 57), ()),
        collections=(six_colours(6), six_colours(5)),
    )
    state, events = play(state, "ann", 28)
    assert of_type(events, "InterimBonusTaken") == [
        {"type": "InterimBonusTaken", "seat": "ann", "points": 10}
    ]
    state, events = play(state, "ben", 58)
    assert of_type(events, "InterimBonusTaken")[0]["points"] == 7
    assert state.interim_stack == (5, 3)
    assert state.interim_bonus == (10, 7)
    # Still all seven colours face up after another take: no second bonus.
    state = replace(state, display=(Row(0, (3, 4, 5)), *state.display[1:]))
    state, events = play(state, "ann", 29)
    assert of_type(events, "CardsTaken") and of_type(events, "InterimBonusTaken") == []
    assert state.interim_bonus == (10, 7)


def test_interim_bonus_needs_all_seven_face_up() -> None:
    olive = cards_of(6, 1, 25)
    state = table(
        ((28, 1), (2, 3)),
        ((olive[0], 26, 27), (), ()),
        collections=(collection_with(*six_colours(6).cards(), *olive[1:3]), Collection.empty(7)),
    )
    state, events = play(state, "ann", 28)  # the third olive turns: six face up
    assert of_type(events, "InterimBonusTaken") == []


@pytest.mark.parametrize(("skip", "bonus"), [(None, 10), (6, 5), (5, 5)])
def test_final_bonus_for_six_or_seven_colours(skip: int | None, bonus: int) -> None:
    collection = collection_with(*(cards_of(k)[0] for k in range(7) if k != skip))
    state = table(((1, 2, 3), (4, 5)), piles=((), ()), collections=(collection, collection))
    state, events = play(state, "ann", 1)
    assert of_type(events, "GameEnded")[0]["final_bonus"] == {"ann": bonus, "ben": bonus}


def test_no_final_bonus_for_five_colours() -> None:
    collection = collection_with(*(cards_of(k)[0] for k in range(5)))
    state = table(((1, 2, 3), (4, 5)), piles=((), ()), collections=(collection, collection))
    state, events = play(state, "ann", 1)
    assert of_type(events, "GameEnded")[0]["final_bonus"] == {"ann": 0, "ben": 0}


def test_equal_totals_make_several_winners() -> None:
    collection = collection_with(*cards_of(0)[:2], cards_of(1)[0])
    other = collection_with(*cards_of(2)[:2], cards_of(3)[0])
    state = table(
        ((1, 2, 3), (4, 5), (6, 7)),
        piles=((), (), ()),
        collections=(collection, Collection.empty(7), other),
        seats=("ann", "ben", "cy"),
        interim_bonus=(None, None, None),
        played=(15, 16, 16),
    )
    state, _ = play(state, "ann", 1)
    result = RULES.result(state)
    assert result is not None
    assert result.ranking == (("ann", "cy"), ("ben",))
    assert result.winners == ("ann", "cy")
    assert result.scores == {"ann": 6, "ben": 0, "cy": 6}


# -- refills and the end --------------------------------------------------------


def test_refills_twice_in_deal_order_then_the_pile_is_empty() -> None:
    deal = make_deal(SEATS2)
    state = new_game(deal=deal)
    draws: dict[str, list[list[int]]] = {"ann": [], "ben": []}
    for turn in range(36):
        seat = SEATS2[turn % 2]
        assert RULES.to_act(state) == (seat,)
        before = len(state.hands[turn % 2])
        state, events = play(state, seat, state.hands[turn % 2][0])
        for drawn in of_type(events, "CardsDrawn"):
            assert before == 3  # played down to two, then drew six
            draws[seat].append(drawn["cards"])
    for seat in SEATS2:
        pile = deal["piles"][seat]
        assert draws[seat] == [sorted(pile[:6]), sorted(pile[6:])]
    assert state.ended and state.piles == ((), ())
    assert [len(h) for h in state.last_hands] == [2, 2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_ends_after_18_cards_each(players: int) -> None:
    seats = tuple(f"p{i}" for i in range(players))
    line = play_out(RULES, seats, seed=players)
    state = line.final_state
    assert len(line.moves) == 18 * players
    assert state.played == (18,) * players
    assert RULES.to_act(state) == ()
    assert line.moves[-1][2][-1]["type"] == "GameEnded"
    assert all(not of_type(events, "GameEnded") for _, _, events in line.moves[:-1])
    drawn = Counter(e["seat"] for _, _, events in line.moves for e in of_type(events, "CardsDrawn"))
    assert drawn == dict.fromkeys(seats, 2)
    assert [len(h) for h in state.last_hands] == [2] * players
    assert state.hands == ((),) * players
    # The last two cards are unscored and stay hidden from the others.
    view = RULES.view(state, seats[1])
    assert view["last_hand"] == list(state.last_hands[1])
    assert set(state.last_hands[0]) <= RULES.hidden_from(state, seats[1])
    with pytest.raises(IllegalMove) as err:
        RULES.decide(state, seats[0], {"card": 1}, rng_for(b"x", 1))
    assert err.value.code == "game-over"


# -- explicit deal ----------------------------------------------------------------


def test_explicit_deal_fixes_display_hands_and_piles() -> None:
    deal = make_deal(("a", "b", "c"), display=(5, 33, 88))
    state = new_game(("a", "b", "c"), deal=deal)
    assert state.display == (Row(0, (5,)), Row(30, (33,)), Row(60, (88,)))
    for i, seat in enumerate(("a", "b", "c")):
        assert list(state.hands[i]) == sorted(deal["hands"][seat])
        assert list(state.piles[i]) == deal["piles"][seat]
    dealt = {5, 33, 88} | {c for s in deal["hands"].values() for c in s}
    dealt |= {c for s in deal["piles"].values() for c in s}
    assert set(state.box) == set(NUMBER_CARDS) - dealt
    # The seed does not matter once the deal is given.
    assert new_game(("a", "b", "c"), seed=b"other", deal=deal) == state


def bad_deal(deal: dict[str, Any]) -> str:
    with pytest.raises(InvalidOptions) as err:
        RULES.normalize_options({"deal": deal}, SEATS2)
    return err.value.code


def test_explicit_deal_is_validated() -> None:
    good = make_deal(SEATS2)
    assert RULES.normalize_options({"deal": good}, SEATS2)["deal"] == good
    reused = json.loads(json.dumps(good))
    reused["piles"]["ben"][0] = good["hands"]["ann"][0]
    assert bad_deal(reused) == "bad-deal"
    short = json.loads(json.dumps(good))
    short["hands"]["ann"] = short["hands"]["ann"][:7]
    assert bad_deal(short) == "bad-deal"
    long_pile = json.loads(json.dumps(good))
    long_pile["piles"]["ann"].append(89)
    assert bad_deal(long_pile) == "bad-deal"
    for start in (0, 30, 60):
        with_start = json.loads(json.dumps(good))
        with_start["display"][0] = start
        assert bad_deal(with_start) == "bad-deal"
    out_of_range = json.loads(json.dumps(good))
    out_of_range["display"][0] = 90
    assert bad_deal(out_of_range) == "bad-deal"
    unknown_seat = json.loads(json.dumps(good))
    unknown_seat["hands"]["zoe"] = unknown_seat["hands"].pop("ben")
    assert bad_deal(unknown_seat) == "bad-deal"
    assert bad_deal({"display": [1, 2, 3]}) == "bad-deal"
    assert bad_deal([1, 2, 3]) == "bad-deal"  # type: ignore[arg-type]
    two_displays = json.loads(json.dumps(good))
    two_displays["display"] = [10, 46]
    assert bad_deal(two_displays) == "bad-deal"


# -- illegal moves --------------------------------------------------------------


def refused(state: ThreeTooManyState, seat: str, move: Any) -> str:
    with pytest.raises(IllegalMove) as err:
        RULES.decide(state, seat, move, rng_for(b"seed", 1))
    return err.value.code


def test_every_illegal_move_has_its_code() -> None:
    state = new_game(deal=make_deal(SEATS2))
    mine, theirs = state.hands
    assert refused(state, "zoe", {"card": mine[0]}) == "not-a-seat"
    assert refused(state, ARBITER, {"card": mine[0]}) == "not-a-seat"
    assert refused(state, "ben", {"card": theirs[0]}) == "not-your-turn"
    assert refused(state, "ann", {"card": "12"}) == "bad-move"
    assert refused(state, "ann", {"card": True}) == "bad-move"
    assert refused(state, "ann", {"card": mine[0], "row": 0}) == "bad-move"
    assert refused(state, "ann", {}) == "bad-move"
    assert refused(state, "ann", [mine[0]]) == "bad-move"
    assert refused(state, "ann", {"card": 90}) == "no-such-card"
    assert refused(state, "ann", {"card": -1}) == "no-such-card"
    assert refused(state, "ann", {"card": theirs[0]}) == "not-in-hand"
    assert refused(state, "ann", {"card": 0}) == "not-in-hand"
    assert refused(state, "ann", {"card": 10}) == "not-in-hand"  # in the display
    assert refused(replace(state, ended=True), "ann", {"card": mine[0]}) == "game-over"


def test_legal_moves_list_every_hand_card_for_the_seat_to_act() -> None:
    state = new_game()
    assert RULES.legal_moves(state, "ann") == [{"card": c} for c in state.hands[0]]
    assert RULES.legal_moves(state, "ben") == []
    assert RULES.legal_moves(state, "zoe") == []


# -- hidden information -----------------------------------------------------------


def test_views_show_own_hand_only_and_piles_as_counts() -> None:
    state = new_game()
    ann = RULES.view(state, "ann")
    assert ann["hand"] == list(state.hands[0])
    assert ann["players"]["ben"]["holding"] == 8
    assert ann["players"]["ann"]["reserve"] == 12
    assert "hands" not in ann and "piles" not in ann and "box_cards" not in ann
    spectator = RULES.view(state, None)
    assert "hand" not in spectator
    arbiter = RULES.view(state, ARBITER)
    assert arbiter["box_cards"] == list(state.box)
    assert arbiter["piles"] == {s: list(p) for s, p in zip(SEATS2, state.piles)}
    hidden = RULES.hidden_from(state, "ann")
    assert set(state.piles[0]) <= hidden and set(state.hands[1]) <= hidden
    assert set(state.box) <= hidden and not set(state.hands[0]) & hidden
    assert RULES.hidden_from(state, ARBITER) == frozenset()
    for viewer in ("ann", "ben", None):
        assert find_leaks(RULES.view(state, viewer), RULES.hidden_from(state, viewer)) == []


def test_draws_are_redacted_for_everyone_but_the_drawer() -> None:
    options = RULES.normalize_options({}, SEATS2)
    events = RULES.setup(options, SEATS2, rng_for(b"seed", 0))
    drawn = of_type(events, "CardsDrawn")[0]
    assert RULES.shows_hidden(drawn)
    assert RULES.redact(drawn, "ann") == drawn
    assert RULES.redact(drawn, "ben") == {"type": "CardsDrawn", "seat": "ann", "count": 8}
    assert RULES.redact(drawn, None) == {"type": "CardsDrawn", "seat": "ann", "count": 8}
    assert RULES.redact(drawn, ARBITER) == drawn
    piles = of_type(events, "PilesDealt")[0]
    assert not RULES.shows_hidden(piles)
    assert RULES.redact(piles, "ann")["piles"] == {"ann": 20, "ben": 20}
    assert RULES.redact(piles, None)["box"] == 87 - 3 - 40
    assert not RULES.shows_hidden({"type": "CardPlaced", "seat": "ann", "card": 1, "row": 0})


def test_placing_the_lowest_fifth_card_takes_the_three_higher() -> None:
    assert place(Row(60, ()), 61).row == Row(60, (61,))
    assert place(Row(60, (62, 63, 64)), 61).taken == (62, 63, 64)
    assert place(Row(60, (61, 62, 63)), 64).taken == (61,)
    assert place(Row(60, (61, 63, 64)), 62).taken == (63, 64)


# -- properties over random play-outs ---------------------------------------------


def locations(state: ThreeTooManyState) -> Counter[int]:
    where: Counter[int] = Counter()
    for row in state.display:
        where.update((row.start, *row.cards))
    for part in (*state.hands, *state.piles, *state.last_hands, state.box, state.colourless):
        where.update(part)
    for collection in state.collections:
        where.update(collection.cards())
    return where


def recount(seats: tuple[str, ...], events: list[Event]) -> dict[str, int]:
    """Scores from the taking and bonus events alone, counted afresh."""
    taken: dict[str, Counter[int]] = {s: Counter() for s in seats}
    bonus = dict.fromkeys(seats, 0)
    for event in events:
        if event["type"] == "CardsTaken":
            taken[event["seat"]].update(colour(c) for c in event["cards"] if c not in (15, 45, 75))
        if event["type"] == "InterimBonusTaken":
            bonus[event["seat"]] += event["points"]
    scores = {}
    for seat in seats:
        up = [taken[seat][k] % 3 for k in range(7)]
        down = sum(3 * (taken[seat][k] // 3) for k in range(7))
        points = sum({0: 0, 1: 1, 2: 5}[n] for n in up) - down
        face_up = sum(1 for n in up if n)
        final = 10 if face_up == 7 else 5 if face_up == 6 else 0
        scores[seat] = points + bonus[seat] + final
    return scores


@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_playouts_keep_every_promise(seed: int, players: int) -> None:
    seats = tuple(f"p{i}" for i in range(players))
    line = play_out(RULES, seats, seed)
    viewers = (*seats, None)

    state = RULES.start(seats, line.options)
    events: list[Event] = []
    positions = [(line.setup_events, line.states[0])]
    positions += [(evs, after) for (_, _, evs), after in zip(line.moves, line.states[1:])]
    for new_events, live in positions:
        for event in new_events:
            state = RULES.evolve(state, event)
        events.extend(new_events)
        assert state == live
        assert locations(state) == Counter(range(90))
        for viewer in viewers:
            hidden = RULES.hidden_from(state, viewer)
            assert find_leaks(RULES.view(state, viewer), hidden) == []
            redacted = [RULES.redact(e, viewer) for e in events]
            assert find_leaks(redacted, hidden) == []

    final = line.final_state
    assert decode(json.loads(json.dumps(encode(final)))) == final
    result = RULES.result(final)
    assert result is not None
    assert dict(result.scores) == recount(seats, events)
    assert of_type(events, "GameEnded")[0]["scores"] == dict(result.scores)


@given(seed=st.integers(0, 2**32), data=st.data())
@settings(max_examples=5, deadline=None)
def test_illegal_moves_are_refused_in_random_positions(seed: int, data: st.DataObject) -> None:
    line = play_out(RULES, SEATS2, seed, max_moves=data.draw(st.integers(0, 35)))
    state = line.final_state
    (seat,) = RULES.to_act(state)
    other = SEATS2[1 - SEATS2.index(seat)]
    not_held = [c for c in range(90) if c not in state.hands[SEATS2.index(seat)]]
    card = data.draw(st.sampled_from(not_held))
    assert refused(state, seat, {"card": card}) == "not-in-hand"
    assert refused(state, other, {"card": state.hands[SEATS2.index(other)][0]}) == "not-your-turn"


# -- documentation and text -------------------------------------------------------


@pytest.mark.parametrize("module", ["cards", "collection", "display", "options", "rules"])
def test_docstring_examples_hold(module: str) -> None:
    loaded = importlib.import_module(f"gamelog.games.three_too_many.{module}")
    failures, tried = doctest.testmod(loaded)
    assert tried > 0 and failures == 0


def test_render_text_shows_only_the_viewers_hand() -> None:
    state = new_game(deal=make_deal(SEATS2))
    ann = " ".join(str(c) for c in state.hands[0])
    ben = " ".join(str(c) for c in state.hands[1])
    text = RULES.render_text(state, "ann")
    assert f"your hand: {ann}" in text and ben not in text
    assert "your hand" not in RULES.render_text(state, None)
    line = play_out(RULES, SEATS2, seed=3)
    final = RULES.render_text(line.final_state, "ben")
    assert "game over: 1. " in final and "your last two cards" in final
