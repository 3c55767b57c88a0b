"""Panem for readers and client authors: the notation line of each kind of
move as each viewer reads it, the text board, the picture, the schemas, and
what ``sampled`` and ``concurrent`` say."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from typing import Any

import jsonschema
import pytest
from test_panem import (
    SEATS4,
    advance,
    at_trading,
    at_tribute,
    deal4,
    decide,
    new_game,
    play,
    seats,
)

from gamelog.games.panem import RULES
from gamelog.games.panem.state import TRADING, PanemState
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, Event, IllegalMove, Viewer

VIEWERS: tuple[Viewer, ...] = (*SEATS4, None, ARBITER)


def line(state: PanemState, seat: str, move: dict[str, Any], viewer: Viewer) -> str:
    """The notation of ``move`` as ``viewer`` reads the record."""
    events = decide(state, seat, move)
    seen = [RULES.redact(event, viewer) for event in events]
    return RULES.notate(state, seat, move if viewer in (seat, ARBITER) else None, seen)


def deal_line(n: int, deal: dict[str, Any] | None, viewer: Viewer) -> str:
    options = RULES.normalize_options({"deal": deal} if deal else {}, seats(n))
    events = RULES.setup(options, seats(n), random.Random(1))
    start = RULES.start(seats(n), options)
    return RULES.notate(start, None, None, [RULES.redact(e, viewer) for e in events])


# -- notation ---------------------------------------------------------------------------


def test_the_deal_line_hides_other_hands_and_the_hob() -> None:
    ann = deal_line(4, deal4(), "ann")
    assert ann.startswith("deal: ann, ben, cat and dan at the table, ann starts;")
    assert "start advantages ann Gale, ben Peeta, cat Prim, dan Haymitch" in ann
    assert "start cards ann 3 (food 1, medicine 1 and clothing 1), ben 3, cat 3, dan 3" in ann
    assert "2 cards face down on the Hob (space 1)" in ann
    assert "food 2 face up on the bakery (space 1)" in ann
    assert "clothing 2 starts the discard pile" in ann
    spectator = deal_line(4, deal4(), None)
    assert "start cards ann 3, ben 3, cat 3, dan 3" in spectator
    arbiter = deal_line(4, deal4(), ARBITER)
    assert "food 3 and fuel 3 face down on the Hob (space 1)" in arbiter
    assert "dan 3 (fuel 1, fuel 1 and fuel 1)" in arbiter


def test_the_deal_line_for_two_players_names_the_covered_spaces() -> None:
    text = deal_line(2, None, None)
    assert "ann and ben at the table, ann starts, 6 action spaces covered" in text
    # One open space at the Hob: no space number is needed.
    assert "face down on the Hob;" in text


def test_moving_and_the_everdeen_house_draw_hide_only_the_card() -> None:
    state = new_game(4, deal4())
    for viewer in VIEWERS:
        assert line(state, "ann", {"go": "everdeen_house-2"}, viewer) == (
            "ann goes to the Everdeen house (space 2)"
        )
    state = play(state, "ann", {"go": "everdeen_house-2"})
    assert line(state, "ann", {"act": True}, "ann") == "ann draws medicine 2"
    assert line(state, "ann", {"act": True}, ARBITER) == "ann draws medicine 2"
    for viewer in ("ben", None):
        assert line(state, "ann", {"act": True}, viewer) == "ann draws 1 card"


def test_prim_keeps_one_card_secretly_and_discards_the_other_openly() -> None:
    state = new_game(4, deal4(ann="prim"))
    state = play(state, "ann", {"go": "everdeen_house-1"})
    assert line(state, "ann", {"act": True}, "ann") == "ann draws medicine 2 and fuel 1 to keep one"
    assert line(state, "ann", {"act": True}, "ben") == "ann draws 2 cards to keep one"
    state = play(state, "ann", {"act": True})
    keep = {"keep": "fuel-1-04"}
    assert line(state, "ann", keep, "ann") == "ann keeps fuel 1 and discards medicine 2"
    assert line(state, "ann", keep, "cat") == "ann keeps one card and discards medicine 2"


def test_the_hob_look_and_exchange_as_each_reader_sees_them() -> None:
    state = new_game(4, deal4())
    state = play(state, "ann", {"go": "hob-1"})
    assert line(state, "ann", {"act": True}, "ann") == (
        "ann looks at the stack at the Hob (space 1): food 3 and fuel 3"
    )
    assert line(state, "ann", {"act": True}, "ben") == (
        "ann looks at the 2 cards of the stack at the Hob (space 1)"
    )
    state = play(state, "ann", {"act": True})
    swap = {"exchange": [["food-1-01", "food-3-01"]]}
    assert (
        line(state, "ann", swap, "ann") == "ann gives food 1 and takes food 3 at the Hob (space 1)"
    )
    assert line(state, "ann", swap, None) == "ann exchanges 1 card at the Hob (space 1)"
    assert (
        line(state, "ann", {"exchange": []}, None) == "ann exchanges nothing at the Hob (space 1)"
    )


def test_the_capitol_storehouse_exchange_shows_the_new_top_card_to_all() -> None:
    state = new_game(4, deal4())
    state = play(state, "ann", {"go": "capitol_storehouse-1"})
    state = play(state, "ann", {"act": True})
    swap = {"exchange": [["medicine-1-01", "clothing-2-01"]]}
    assert line(state, "ann", swap, "ben") == (
        "ann exchanges 1 card at the Capitol storehouse (medicine 1 now lies on top)"
    )
    assert line(state, "ann", swap, "ann") == (
        "ann gives medicine 1 and takes clothing 2 at the Capitol storehouse "
        "(medicine 1 now lies on top)"
    )


def test_the_forest_is_open_to_everybody() -> None:
    deal = deal4(draws=["food-2-02", "fuel-1-04", "medicine-3-02", "clothing-1-04"])
    state = play(new_game(4, deal), "ann", {"go": "forest-1"})
    for viewer in ("ann", None):
        assert line(state, "ann", {"act": True}, viewer) == (
            "ann turns up food 2, fuel 1 and medicine 3 in the forest"
        )
    state = play(state, "ann", {"act": True})
    assert line(state, "ann", {"keep": "food-2-02"}, "ben") == (
        "ann keeps food 2 and discards fuel 1 and medicine 3"
    )


def test_katniss_bow_is_revealed_beside_the_forest() -> None:
    # Rulebook: "Katniss' Bogen" kommt neben den Wald.
    deal = {**deal4(), "later_advantages": ["katniss_bow", "greasy_sae"]}
    state = new_game(4, deal)
    state = advance(
        state, lambda s: s.round == 2 and RULES.to_act(s) == ("dan",) and s.step == "act"
    )
    text = line(state, "dan", {"skip": True}, None)
    assert text.startswith("dan skips the action; round 3 begins;")
    assert (
        "advantage cards revealed: Katniss' bow beside the forest and Greasy Sae beside the Hob"
        in text
    )
    assert text.endswith("trading opens")


def test_sealed_tributes_and_their_reveal() -> None:
    state = at_tribute()
    food = sorted(c for c in state.hands["ann"] if c.startswith("food"))[:1]
    assert line(state, "ann", {"tribute": food}, "ann") == "ann seals a tribute of food 1"
    for viewer in ("ben", None):
        assert line(state, "ann", {"tribute": food}, viewer) == "ann seals a tribute"
    state = play(state, "ann", {"tribute": food})
    state = play(state, "ben", {"tribute": []})
    state = play(state, "cat", {"tribute": []})
    assert line(state, "dan", {"tribute": []}, "dan").startswith("dan seals an empty tribute;")
    text = line(state, "dan", {"tribute": []}, None)
    assert text.startswith(
        "dan seals a tribute; tributes revealed: ann (food 1), ben (no card) and 1 lot, "
        "cat (no card) and 1 lot, dan (no card) and 1 lot; the glass ball now holds 7 lots"
    )


def test_trading_lines_show_offered_cards_only_to_the_partners() -> None:
    state = at_trading()
    offer = {"propose": {"to": "ben", "give": ["food-3-01", "food-1-01"], "ask": ["medicine-2"]}}
    for viewer in ("ann", "ben"):
        assert line(state, "ann", offer, viewer) == (
            "ann offers ben food 3 and food 1 for medicine 2 (proposal 1)"
        )
    for viewer in ("cat", None):
        assert (
            line(state, "ann", offer, viewer)
            == "ann offers ben 2 cards for medicine 2 (proposal 1)"
        )
    gift = {"propose": {"to": "cat", "give": ["food-1-01"], "ask": []}}
    assert line(state, "ann", gift, "cat") == "ann offers cat food 1 as a gift (proposal 1)"
    state = play(state, "ann", offer)
    assert line(state, "ben", {"accept": 1}, "ann") == (
        "ben accepts proposal 1: ann gives food 3 and food 1, ben gives medicine 2"
    )
    assert line(state, "ben", {"accept": 1}, "dan") == (
        "ben accepts proposal 1: ann gives 2 cards, ben gives 1 card"
    )
    assert line(state, "ben", {"decline": 1}, None) == "ben declines proposal 1"
    assert line(state, "ann", {"withdraw": 1}, None) == "ann withdraws proposal 1"
    assert line(state, "ann", {"done": True}, None) == "proposal 1 is void; ann is done trading"


def test_the_end_line_names_the_lot_and_ranks_ties_one_one_three() -> None:
    state = new_game(3)
    events: list[Event] = [
        {"type": "LotDrawn", "glass_ball": ["cat", "ann", "ben", "cat"], "owner": "cat"},
        {
            "type": "GameEnded",
            "hands": {"ann": ["food-3-01"], "ben": ["fuel-3-01"], "cat": []},
            "scores": {"ann": 3, "ben": 3, "cat": 0},
            "ranking": [["ann", "ben"], ["cat"]],
            "winners": ["ann", "ben"],
            "details": {"tribute": "cat", "lot_drawn": "cat", "lots_placed": {}},
        },
    ]
    text = RULES.notate(state, "ann", None, events)
    assert text == (
        "the 4 lots in the glass ball are shuffled, cat's lot is drawn: cat is the tribute; "
        "final hands: ann (food 3), ben (fuel 3), cat (no card); "
        "result: 1. ann 3, 1. ben 3, 3. cat 0"
    )
    neutral = {"type": "LotDrawn", "glass_ball": ["#neutral", "ann"], "owner": "#neutral"}
    assert RULES.notate(state, "ann", None, [neutral]) == (
        "the 2 lots in the glass ball are shuffled, a neutral lot is drawn: nobody is the tribute"
    )


def test_every_line_of_random_games_is_one_readable_line() -> None:
    for n in (2, 3, 4):
        played = play_out(RULES, SEATS4[:n], 5)
        for ply, (seat, move, events) in enumerate(played.moves, start=1):
            before = played.states[ply - 1]
            for viewer in (*SEATS4[:n], None, ARBITER):
                seen = [RULES.redact(e, viewer) for e in events]
                text = RULES.notate(before, seat, move if viewer in (seat, ARBITER) else None, seen)
                assert text and "\n" not in text and not re.search(r"[{}\[\]]|'\w+'|#", text)


# -- text -------------------------------------------------------------------------------


def test_text_board_speaks_words() -> None:
    played = play_out(RULES, SEATS4[:3], 11)
    for state in played.states[::7]:
        for viewer in (*SEATS4[:3], None, ARBITER):
            text = RULES.render_text(state, viewer)
            assert not re.search(r"[{}\[\]]|'\w+'|#|_", text), text
            assert "Cards are named by good and survival points" in text


def test_text_board_tells_who_was_shown_what() -> None:
    state = play(at_trading(), "cat", {"show": ["fuel-2-01"], "to": ["ann"]})
    assert "2 cards, shown: fuel 2" in RULES.render_text(state, "ann")
    assert "shown" not in RULES.render_text(state, "ben")
    trading = RULES.render_text(state, "ann")
    assert "trading; done: nobody yet" in trading


# -- picture ----------------------------------------------------------------------------

SVG_NS = "{http://www.w3.org/2000/svg}"


def picture(state: PanemState, viewer: Viewer) -> ET.Element:
    return ET.fromstring(RULES.render_svg(state, viewer))


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG_NS}g") if cls in g.get("class", "").split()]


def card_ids(root: ET.Element) -> set[str]:
    return {g.get("data-card", "") for g in groups(root, "card")} - {""}


def test_picture_of_the_start_for_each_viewer() -> None:
    state = new_game(4, deal4())
    for viewer in VIEWERS:
        root = picture(state, viewer)
        assert root.get("viewBox", "").startswith("0 0 1200 ")
        assert [g.get("data-seat") for g in groups(root, "seat")] == list(SEATS4)
        assert {g.get("data-location") for g in groups(root, "location")} == {
            "forest",
            "everdeen_house",
            "hob",
            "bakery",
            "capitol_storehouse",
            "justice_building",
        }
        assert len(groups(root, "space")) == 12 and not groups(root, "figure")
        current = [
            g.get("data-round") for g in groups(root, "round") if g.get("data-current") == "true"
        ]
        assert current == ["1"] and len(groups(root, "round")) == 13
        assert groups(root, "glass-ball")[0].get("data-lots") == "4"
        piles = {g.get("data-pile"): g.get("data-count") for g in groups(root, "pile")}
        assert piles["hob-1"] == "2" and piles["discard"] == "1" and piles["draw"] == "36"
        # Face up for everybody: the bakery cards and the discard pile's top card.
        assert {"food-2-01", "fuel-2-01", "clothing-2-01"} <= card_ids(root)
        seen = card_ids(root)
        for seat in SEATS4:
            hand = set(state.hands[seat])
            assert (hand <= seen) == (viewer in (seat, ARBITER)), (viewer, seat)
            assert (hand & seen == set()) == (viewer not in (seat, ARBITER))
        hob_cards = {"food-3-01", "fuel-3-01", "medicine-3-01", "clothing-3-01"}
        assert (hob_cards <= seen) == (viewer == ARBITER)
        assert not seen & set(state.draw_pile)


def test_picture_covers_spaces_for_two_players_and_moves_figures() -> None:
    state = new_game(2)
    root = picture(state, None)
    covered = [
        g.get("data-space") for g in groups(root, "space") if g.get("data-covered") == "true"
    ]
    assert sorted(covered) == sorted(state.covered) and len(covered) == 6
    state = play(state, "ann", {"go": "hob-1"})
    root = picture(state, "ben")
    figures = [(g.get("data-seat"), g.get("data-space")) for g in groups(root, "figure")]
    assert figures == [("ann", "hob-1")]
    lots = {g.get("data-owner"): g.get("data-lots") for g in groups(root, "lots")}
    assert lots == {"ann": "1", "ben": "1", "#neutral": "6"}


def test_picture_shows_advantages_beside_their_locations_and_shown_cards() -> None:
    state = play(at_trading(), "cat", {"show": "hand", "to": ["ann"]})
    beside = {
        g.get("data-location"): g.get("data-advantage")
        for g in groups(picture(state, None), "advantage")
    }
    assert beside == dict(state.beside) and len(beside) == 2
    # medicine-1-03 is one of Cat's start cards: nobody else has seen it.
    assert "medicine-1-03" in card_ids(picture(state, "ann"))
    for viewer in ("ben", None):
        assert "medicine-1-03" not in card_ids(picture(state, viewer))


def test_picture_of_the_end_shows_every_hand_and_the_result() -> None:
    played = play_out(RULES, SEATS4[:3], 4)
    final = played.final_state
    root = picture(final, None)
    assert set().union(*(final.hands[s] for s in SEATS4[:3])) <= card_ids(root)
    text = " ".join(root.itertext())
    result = RULES.result(final)
    assert result is not None
    assert "the tribute" in text or "neutral lot" in text
    for seat in result.winners:
        assert f"1. {seat}" in text


# -- schemas ----------------------------------------------------------------------------


def validator(part: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(RULES.schemas()[part])


def test_event_schema_tells_stored_from_redacted_forms() -> None:
    events = validator("event")
    sealed = {"type": "TributeSealed", "seat": "ann", "cards": ["food-1-01"]}
    assert events.is_valid(sealed) and events.is_valid(RULES.redact(sealed, "ben"))
    assert not events.is_valid({**sealed, "cards": 2})
    assert not events.is_valid({"type": "TributeSealed"})
    assert not events.is_valid({"type": "NoSuchThing"})
    shown = {
        "type": "CardsShown",
        "seat": "ann",
        "to": ["ben"],
        "public": True,
        "whole_hand": False,
        "count": 2,
    }
    assert not events.is_valid(shown), "a public show is never redacted"


def test_view_schema_keeps_the_arbiter_fields_to_the_arbiter() -> None:
    views = validator("view")
    state = at_tribute()
    arbiter = RULES.view(state, ARBITER)
    assert views.is_valid(arbiter)
    for viewer in ("ann", None):
        view = RULES.view(state, viewer)
        assert views.is_valid(view)
        assert not views.is_valid({**view, "draw_pile": arbiter["draw_pile"]})
    assert not views.is_valid({k: v for k, v in arbiter.items() if k != "box"})


def test_move_schema_allows_one_kind_at_a_time() -> None:
    moves = validator("move")
    assert moves.is_valid({"show": "hand", "to": "all"})
    assert moves.is_valid({"accept": 1, "cards": ["food-1-01"]})
    assert not moves.is_valid({"show": "hand"})
    assert not moves.is_valid({"go": "hob-1", "skip": True})
    assert not moves.is_valid({"cards": ["food-1-01"]})
    assert not moves.is_valid({})


def test_options_schema_describes_the_explicit_deal() -> None:
    options = validator("options")
    assert options.is_valid(RULES.normalize_options({"deal": deal4()}, SEATS4))
    assert not options.is_valid({"deal": {"draws": "food-1-04"}})
    assert not options.is_valid({"colour": "red"})


# -- sampled and concurrent -------------------------------------------------------------


def test_sampled_says_where_legal_moves_is_a_sample() -> None:
    state = new_game(4, deal4(ann="haymitch"))
    assert RULES.sampled(state, "ann") is None
    assert RULES.sampled(at_tribute(), "ann") is None
    trading = at_trading()
    note = RULES.sampled(trading, "ann")
    assert note and "proposals" in note and "any size" in note and "showing" in note
    # Haymitch at a Hob stack of two cards, holding three: every double is listed.
    state = play(state, "ann", {"go": "hob-1"})
    state = play(state, "ann", {"act": True})
    assert RULES.sampled(state, "ann") is None
    assert RULES.sampled(state, "ben") is None


def test_sampled_is_none_when_nothing_is_left_to_trade() -> None:
    state = at_trading()
    for seat in ("ben", "cat", "dan"):
        state = play(state, seat, {"done": True})
    assert RULES.sampled(state, "ann")  # Ann still holds cards she may show.
    empty = replace(state, hands={**state.hands, "ann": frozenset()})
    assert RULES.sampled(empty, "ann") is None
    assert RULES.legal_moves(empty, "ann") == [{"done": True}]


def test_a_sealed_tribute_is_concurrent_a_reveal_is_not() -> None:
    state = at_tribute()
    food = sorted(c for c in state.hands["ann"] if c.startswith("food"))[:1]
    (sealed,) = decide(state, "ann", {"tribute": food})
    assert RULES.concurrent(sealed)
    after = play(state, "ann", {"tribute": food})
    for seat in ("ben", "cat", "dan"):
        assert RULES.legal_moves(after, seat) == RULES.legal_moves(state, seat)
    after = play(play(after, "ben", {"tribute": []}), "cat", {"tribute": []})
    events = decide(after, "dan", {"tribute": []})
    assert [RULES.concurrent(e) for e in events] == [True, False] + [False] * (len(events) - 2)


def test_ending_ones_trading_is_concurrent_and_only_takes_choices_away() -> None:
    state = at_trading()
    ben = RULES.legal_moves(state, "ben")
    events = decide(state, "ann", {"done": True})
    assert all(RULES.concurrent(e) for e in events)
    after = play(state, "ann", {"done": True})
    to_ann = [m for m in ben if m.get("propose", {}).get("to") == "ann"]
    assert to_ann and not any(m in RULES.legal_moves(after, "ben") for m in to_ann)
    assert all(m in ben for m in RULES.legal_moves(after, "ben"))
    with pytest.raises(IllegalMove):
        decide(after, "ben", to_ann[0])
    assert after.phase == TRADING


def test_the_last_seat_done_ends_trading_in_a_record_that_is_not_concurrent() -> None:
    state = at_trading()
    for seat in ("ann", "ben", "cat"):
        state = play(state, seat, {"done": True})
    events = decide(state, "dan", {"done": True})
    assert not all(RULES.concurrent(e) for e in events)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_concurrent_event_adds_no_choice_for_the_other_seats(n: int) -> None:
    played = play_out(RULES, SEATS4[:n], 9 + n)
    checked = 0
    for ply, (seat, _, events) in enumerate(played.moves, start=1):
        if not all(RULES.concurrent(e) for e in events):
            continue
        before, after = played.states[ply - 1], played.states[ply]
        for other in RULES.to_act(before):
            if other != seat:
                # Listed moves may be a sample: each is checked as legal before.
                for move in RULES.legal_moves(after, other):
                    decide(before, other, move)
                checked += 1
    assert checked
