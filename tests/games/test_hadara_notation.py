"""Hadara's move notation: one line per stored move, in the game's words,
hiding exactly what the reader's record hides (another seat's draw, sealed
choice and face-down sale, a laid card that a later card covers)."""

from __future__ import annotations

import pytest
from hadara_tables import (
    FIVE,
    TWO,
    VIEWERS,
    at_section,
    deal_events,
    dealt,
    line_for,
    names,
    play,
    set_player,
    through_phase_a,
)

from gamelog.games.hadara import RULES
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, Event


def test_the_deal() -> None:
    options = RULES.normalize_options({}, TWO)
    deal = deal_events(TWO, options)
    start = RULES.start(TWO, options)
    for viewer in VIEWERS:
        line = RULES.notate(start, None, None, [RULES.redact(e, viewer) for e in deal])
        assert line.startswith("deal: start cards ann start-")
        assert "takes 1 coin (starts only once)" in line
        assert "10 colonies laid coin side up, 2 per military level 3, 9, 15, 21 and 30" in line
        assert line.endswith("4 cards face down on each inner stack")
        assert "colony-" not in line  # the backs stay hidden, even in the arbiter's line


def test_the_deal_with_three_never_starting_seats_takes_no_coin() -> None:
    options = RULES.normalize_options({}, FIVE)
    deal = deal_events(FIVE, options)
    line = RULES.notate(RULES.start(FIVE, options), None, None, deal)
    assert "take 1 coin (never starts)" in line  # the two highest initiatives


RED_01 = "I-red-01 (+1 military; 2 points)"
"""A card in a line: its id and what it gives, as the board shows it."""


def test_setting_the_wheel_and_the_draws_each_seat_sees() -> None:
    state = dealt()
    before = state
    state, events = play(state, "ann", {"wheel": "red"})
    public = "ann sets the wheel: ann at red, bob at blue; round 1: each seat draws 2 cards"
    assert line_for(before, "ann", events, None) == public + " at its crest"
    assert line_for(before, "ann", events, "ann") == (
        public + " at its crest (ann I-red-01 (+1 military; 2 points) and "
        "I-red-02 (+2 military, +1 food; 0 points))"
    )
    assert line_for(before, "ann", events, "bob") == (
        public + " at its crest (bob I-blue-01 (+1 culture; 1 point) and "
        "I-blue-02 (+2 culture; 2 points))"
    )


def test_a_sealed_choice_shows_its_cards_only_to_its_seat() -> None:
    state, _ = play(dealt(), "ann", {"wheel": "red"})
    choice = {"place": "I-red-01", "action": "recruit"}
    after, events = play(state, "ann", choice)
    assert line_for(state, "ann", events, "ann") == (
        "ann chooses (sealed): lays I-red-01 (+1 military; 2 points) face up, "
        "recruits I-red-02 (+2 military, +1 food; 0 points) for 2 coins"
    )
    assert line_for(state, "ann", events, ARBITER) == line_for(state, "ann", events, "ann")
    for viewer in ("bob", None):
        assert line_for(state, "ann", events, viewer) == "ann chooses (sealed)"
    assert after.stage == "choose"


def test_the_reveal_as_each_seat_reads_it() -> None:
    # "Du verkaufst diese Karte ... Da es eine Karte aus Epoche 1 ist, nimmst
    # du dir 2 Münzen": ann's sale is face down, so bob reads only the coins
    state, _ = play(dealt(), "ann", {"wheel": "red"})
    state, _ = play(state, "ann", {"place": "I-red-01", "action": "sell"})
    before = state
    state, events = play(state, "bob", {"place": "I-blue-01", "action": "recruit"})
    bob = line_for(before, "bob", events, "bob")
    assert bob.startswith(
        "bob chooses (sealed): lays I-blue-01 (+1 culture; 1 point) face up, "
        "recruits I-blue-02 (+2 culture; 2 points) for 2 coins; "
        "round 1 revealed: ann lays a red card face up (covered later) and sells a card "
        "face down for 2 coins, bob lays I-blue-01 (+1 culture; 1 point) on blue and "
        "recruits I-blue-02 (+2 culture; 2 points) for 2 coins; "
        "the wheel turns: ann at yellow, bob at red; round 2"
    )
    ann = line_for(before, "bob", events, "ann")
    assert ann.startswith(f"bob chooses (sealed); round 1 revealed: ann lays {RED_01} on red and ")
    assert "sells I-red-02 (+2 military, +1 food; 0 points) for 2 coins" in ann
    spectator = line_for(before, "bob", events, None)
    assert "a red card face up (covered later)" in spectator
    assert "a blue card face up (covered later)" in spectator  # bob's, for others
    assert not names(spectator, "I-red-01") and not names(spectator, "I-red-02")


def test_example_plunder_with_military_19() -> None:
    state = set_player(dealt(), "ann", start_values=(2, 19, 3, 4), coins=10)
    state = set_player(state, "ann", colonies=(("3a", False), ("9b", False)))
    state = at_section(state, "colony", "ann")
    _, events = play(state, "ann", {"colony": "15a", "ally": False})
    assert line_for(state, "ann", events, None).startswith("ann plunders colony 15a for 5 coins")


def test_example_alliance_turns_the_colony_for_everybody() -> None:
    # "Dein Militärwert ist 12 ... du bezahlst 1 Münze. Dann drehst du die Kolonie um."
    state = set_player(dealt(), "ann", start_values=(2, 12, 3, 4), coins=10)
    state = at_section(state, "colony", "ann")
    _, events = play(state, "ann", {"colony": "9a", "ally": True})
    for viewer in VIEWERS:
        assert line_for(state, "ann", events, viewer).startswith(
            "ann allies with colony 9a for 1 coin: colony-09-1, +2 military, +1 culture, 5 points"
        )


def test_example_bust_with_culture_13_on_the_step_side() -> None:
    state = set_player(dealt(), "ann", start_values=(2, 1, 13, 4))
    state = at_section(state, "bust", "ann")
    _, events = play(state, "ann", {"bust": 2, "tile": "income", "side": "front"})
    assert line_for(state, "ann", events, None).startswith(
        "ann carves bust 2 with an income tile on its step side"
    )


def test_passes_with_nothing_to_take_are_told_once_for_all_their_seats() -> None:
    state = set_player(dealt(FIVE), "ann", start_values=(2, 3, 3, 4))
    for seat in FIVE[1:]:  # out of every colony's and bust's reach
        state = set_player(state, seat, start_values=(2, 1, 1, 4))
    state = at_section(state, "colony", "ann")
    _, events = play(state, "ann", {"pass": True})
    line = line_for(state, "ann", events, None)
    assert line.startswith("ann takes no colony; bob, cid, dee and eve cannot take a colony; ")
    assert "ann, bob, cid, dee and eve cannot carve a bust" in line


def test_taking_a_face_up_card_names_the_card_that_comes_to_light() -> None:
    state, _ = through_phase_a(dealt())
    _, events = play(state, "ann", {"take": "blue", "action": "recruit"})
    for viewer in VIEWERS:
        assert line_for(state, "ann", events, viewer) == (
            "ann takes I-blue-03 (+1 culture, +1 food; 1 point) from blue and "
            "recruits it for 2 coins; "
            "I-blue-01 (+1 culture; 1 point) now lies on top"
        )


def test_example_feeding_food_6_with_7_cards_removes_one_card() -> None:
    cards = (
        "I-yellow-02",
        "I-red-04",
        "I-red-05",
        "I-blue-05",
        "I-blue-06",
        "I-red-06",
        "I-red-07",
    )
    state = set_player(dealt(), "ann", cards=cards, start_values=(2, 2, 2, 6))
    state = at_section(state, "feed", "ann", phase="B")
    _, events = play(state, "ann", {"remove": ["I-yellow-02"]})
    assert line_for(state, "ann", events, None).startswith(
        "ann removes I-yellow-02 to feed the people"
    )


def test_buying_seals() -> None:
    state = set_player(dealt(), "ann", coins=30)
    state = at_section(state, "seals", "ann", phase="B", epoch=1)
    _, events = play(state, "ann", {"silver": ["military"], "golden": 1})
    assert line_for(state, "ann", events, None).startswith(
        "ann buys a silver seal (military tile) and 1 golden seal for 14 coins"
    )


def test_the_end_ranks_ties_by_coins_kept_then_shares_the_place() -> None:
    sheet = {
        "columns": ["ann", "bob", "cid"],
        "rows": [
            {"category": "total", "label": "Total", "scores": {"ann": 50, "bob": 50, "cid": 50}}
        ],
        "coins_left": {"ann": 3, "bob": 3, "cid": 1},
    }
    ended: Event = {"type": "GameEnded", "sheet": sheet}
    state = dealt(("ann", "bob", "cid"))
    assert RULES.notate(state, "cid", None, [ended]) == "game over: 1. ann 50, 1. bob 50, 3. cid 50"


@pytest.mark.parametrize("players", [2, 4])
def test_every_line_of_a_whole_game_is_one_line_in_words(players: int) -> None:
    seats = tuple(f"s{i + 1}" for i in range(players))
    line = play_out(RULES, seats, seed=21)
    kinds = {e["type"] for _, _, events in line.moves for e in events}
    assert {"CardTaken", "PeopleFed", "GameEnded"} <= kinds
    for viewer in (*seats, None, ARBITER):
        for ply, (seat, _, events) in enumerate(line.moves, start=1):
            text = line_for(line.states[ply - 1], seat, events, viewer)
            assert text and "\n" not in text and "{" not in text and "None" not in text
            assert not any(word in text for word in ("Taken", "Revealed", "Passed"))
        last = line_for(line.states[-2], line.moves[-1][0], line.moves[-1][2], viewer)
        assert "game over: 1. " in last
