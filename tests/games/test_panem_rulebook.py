"""Panem against its rulebook: the worked examples ("Beispiel") played through
the rules API, and rules checked for every player count the rulebook allows."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_panem import (
    SEATS4,
    advance,
    at_trading,
    deal4,
    decide,
    new_game,
    play,
    refused,
    seats,
)

from gamelog.games.panem import RULES
from gamelog.games.panem.state import MOVEMENT, OVER, TRADING, TRIBUTE, PanemState
from gamelog.games.protocol import Result


def to_the_end(state: PanemState, hands: dict[str, list[str]]) -> Result:
    """Play plainly to the end round's tribute, give each seat ``hands`` (six
    cards at most, so no hand limit), seal empty tributes and return the result."""
    state = advance(state, lambda s: s.round == 13 and s.phase == TRIBUTE, limit=5000)
    state = replace(state, hands={**state.hands, **{s: frozenset(c) for s, c in hands.items()}})
    for seat in state.seats:
        state = play(state, seat, {"tribute": []})
    assert state.phase == OVER
    result = RULES.result(state)
    assert result is not None
    return result


def at_my_move(state: PanemState, seat: str) -> PanemState:
    return advance(state, lambda s: RULES.to_act(s) == (seat,) and s.step == "move")


# -- the rulebook's worked examples -------------------------------------------------------


def test_beispiel_katniss_bow_is_laid_beside_the_forest() -> None:
    # "Dreimal im Spiel werden ... neue Vorteilskarten aufgedeckt und offen neben
    # die Orte gelegt, die auf der Karte angegeben sind. Beispiel: „Katniss' Bogen“
    # kommt neben den Wald."
    deal = {**deal4(ann="peeta"), "later_advantages": ["katniss_bow", "greasy_sae"]}
    state = advance(new_game(4, deal), lambda s: s.round == 3 and s.phase == TRADING)
    assert state.beside == {"forest": "katniss_bow", "hob": "greasy_sae"}
    state = advance(state, lambda s: s.phase == MOVEMENT)
    # The first player of round 3 may go to the forest and take the bow instead of
    # the forest's action.
    mover = RULES.to_act(state)[0]
    forest = next(m["go"] for m in RULES.legal_moves(state, mover) if m["go"].startswith("forest"))
    state = play(state, mover, {"go": forest})
    assert {"take_advantage": True} in RULES.legal_moves(state, mover)
    state = play(state, mover, {"take_advantage": True})
    assert state.advantage[mover] == "katniss_bow" and "forest" not in state.beside


def test_beispiel_1_katniss_bow_scores_food_worth_2_and_3_higher() -> None:
    # "Beispiel 1: „Katniss' Bogen“ bringt seinem Besitzer einen Bonus für
    # Nahrungskarten im Wert 2 und 3." Card: food worth 3 counts 5, worth 2 counts 3.
    deal = {**deal4(ann="peeta"), "tribute_lot": "dan"}
    state = replace(new_game(4, deal), beside={"forest": "katniss_bow"})
    state = play(state, "ann", {"go": "forest-1"})
    state = play(state, "ann", {"take_advantage": True})
    assert state.advantage["ann"] == "katniss_bow"
    same = ["food-3-01", "food-2-01", "food-1-04", "medicine-3-01", "medicine-2-01"]
    result = to_the_end(
        state,
        {
            "ann": same,
            "ben": ["food-3-02", "food-2-02", "food-1-05", "medicine-3-02", "medicine-2-02"],
            "cat": [],
            "dan": [],
        },
    )
    # Ann: 5 + 3 + 1 for her food, 3 + 2 for medicine (no bonus); Ben the face values.
    assert result.scores["ann"] == 5 + 3 + 1 + 3 + 2
    assert result.scores["ben"] == 3 + 2 + 1 + 3 + 2
    assert result.ranking[0] == ("ann",)


@pytest.mark.parametrize(
    ("hand", "bonus"),
    [
        (["food-1-04", "medicine-1-04", "clothing-1-04", "fuel-1-04"], 6),
        (["food-3-01", "medicine-2-01", "clothing-3-01", "fuel-1-04", "fuel-3-01"], 6),
        (["food-3-01", "medicine-2-01", "clothing-3-01", "clothing-1-04"], 0),
    ],
)
def test_beispiel_2_mayor_undersee_needs_one_card_of_each_good(hand: list[str], bonus: int) -> None:
    # "Beispiel 2: Um die Karte „Bürgermeister Undersee“ nutzen zu können, muss ihr
    # Besitzer von jeder Güterart mindestens 1 Karte besitzen. Der Wert der Karten
    # ist beliebig."
    deal = {**deal4(ann="gale"), "tribute_lot": "dan"}
    state = replace(new_game(4, deal), beside={"justice_building": "mayor_undersee"})
    state = play(state, "ann", {"go": "justice_building-1"})
    state = play(state, "ann", {"take_advantage": True})
    result = to_the_end(state, {"ann": hand})
    face = sum(int(card.split("-")[1]) for card in hand)  # ids are <good>-<value>-<nn>
    assert result.scores["ann"] == face + bonus


def test_trade_of_several_cards_for_one() -> None:
    # "Es ist nicht notwendig, dass die Tauschpartner gleich viele Karten tauschen.
    # Wenn sie sich einig sind, dürfen sie z. B. 2 oder mehr Karten gegen 1
    # einzelne Karte tauschen."
    state = at_trading()
    offer = {"to": "ben", "give": ["food-1-01", "food-3-01", "medicine-1-01"], "ask": ["fuel-1"]}
    state = play(state, "ann", {"propose": offer})
    state = play(state, "ben", {"accept": 1})
    assert state.hands["ann"] == {"fuel-1-04"}
    assert state.hands["ben"] == {
        "medicine-2-01",
        "clothing-1-02",
        "food-1-01",
        "food-3-01",
        "medicine-1-01",
    }


def test_the_value_of_a_tribute_card_does_not_matter() -> None:
    # "Für die ABGABE spielt die Zahl auf der Überlebenskarte keine Rolle."
    state = advance(new_game(4, deal4()), lambda s: s.round == 4 and s.phase == TRIBUTE)
    hands = {
        **state.hands,
        "ann": frozenset({"food-3-01"}),
        "ben": frozenset({"food-1-04"}),
    }
    state = replace(state, hands=hands)
    before = dict(state.glass_ball)
    state = play(state, "ann", {"tribute": ["food-3-01"]})
    state = play(state, "ben", {"tribute": ["food-1-04"]})
    state = play(state, "cat", {"tribute": []})
    state = play(state, "dan", {"tribute": []})
    assert state.glass_ball["ann"] == before["ann"] and state.glass_ball["ben"] == before["ben"]
    assert state.glass_ball["cat"] == before["cat"] + 1
    assert not state.hands["ann"] and not state.hands["ben"]


# -- advantage cards ----------------------------------------------------------------------


def test_a_new_advantage_ends_the_start_advantage() -> None:
    # "Die neue Vorteilskarte ersetzt seine Start-Vorteilskarte. Diese legt er in
    # die Schachtel zurück." Peeta, once exchanged, draws no card at the bakery.
    state = replace(new_game(4, deal4(ann="peeta")), beside={"forest": "katniss_bow"})
    state = play(state, "ann", {"go": "forest-1"})
    state = play(state, "ann", {"take_advantage": True})
    state = at_my_move(state, "ann")
    state = play(state, "ann", {"go": "bakery-1"})
    events = decide(state, "ann", {"act": True})
    assert [e["type"] for e in events] == ["BakeryTaken", "TurnEnded"]


def test_taking_mayor_undersee_keeps_the_player_chip() -> None:
    # The chip pays for the swap ("Um die zugehörige Aktion nutzen zu dürfen, muss
    # er seinen Spielerchip abgeben"); taking the advantage card is done instead of
    # the action, so the chip stays and may still pay for a swap later.
    state = replace(new_game(4, deal4(ann="gale")), beside={"justice_building": "mayor_undersee"})
    state = play(state, "ann", {"go": "forest-1"})
    state = play(state, "ann", {"skip": True})
    state = play(state, "ben", {"go": "justice_building-1"})
    assert {"swap_with": "ann"} in RULES.legal_moves(state, "ben")
    state = play(state, "ben", {"take_advantage": True})
    assert "ben" in state.chips and state.advantage["ben"] == "mayor_undersee"
    # Two rounds later Ben swaps at the Justice building with his chip.
    state = advance(state, lambda s: s.round == 3 and s.phase == MOVEMENT)
    barred = (state.last_location["ben"], "justice_building")
    ann_goes = next(
        m
        for m in RULES.legal_moves(state, "ann")
        if state.catalog.location_of(m["go"]) not in barred
    )
    state = play(state, "ann", ann_goes)
    state = play(state, "ann", {"skip": True})
    state = play(state, "ben", {"go": "justice_building-1"})
    state = play(state, "ben", {"swap_with": "ann"})
    assert "ben" not in state.chips and state.location("ann") == "justice_building"


# -- the Justice building -----------------------------------------------------------------


def test_the_swap_partner_may_be_put_back_on_the_justice_building() -> None:
    # The rule against staying ("Ein Spieler darf nicht an einem Ort aus der
    # Vorrunde stehen bleiben") binds a player moving in his own turn; a figure
    # moved by the swap "hat dadurch keinen Nachteil", so it may land on the Justice
    # building even though it stood there last round.
    state = new_game(4, deal4(ann="gale"))
    for seat, space in zip(SEATS4, ("justice_building-1", "bakery-1", "everdeen_house-1", "hob-1")):
        state = play(state, seat, {"go": space})
        state = play(state, seat, {"skip": True})
    assert state.last_location["ann"] == "justice_building"
    state = play(state, "ann", {"go": "forest-1"})
    state = play(state, "ann", {"skip": True})
    state = play(state, "ben", {"go": "justice_building-1"})
    assert {"swap_with": "ann"} in RULES.legal_moves(state, "ben")
    state = play(state, "ben", {"swap_with": "ann"})
    assert state.position["ann"] == "justice_building-1" and state.position["ben"] == "forest-1"


@pytest.mark.parametrize("n", [2, 3])
def test_justice_swap_with_fewer_players(n: int) -> None:
    state = new_game(n)
    first, second = seats(n)[:2]
    state = play(state, first, {"go": "hob-1"})
    state = play(state, first, {"skip": True})
    state = play(state, second, {"go": "justice_building-1"})
    state = play(state, second, {"swap_with": first})
    assert state.position[second] == "hob-1" and state.position[first] == "justice_building-1"
    assert second not in state.chips and {"act": True} in RULES.legal_moves(state, second)
    state = play(state, second, {"act": True})
    assert state.step == "exchange" and state.looking == "hob-1"


# -- tributes, lots and the hand limit for every player count -----------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tributes_cost_one_lot_per_missing_card_and_eleven_lots_suffice(n: int) -> None:
    # Rounds 4, 7, 10 and the end round ask 1, 2, 3 and 4 cards; a player who never
    # pays lays 1 + 1 + 2 + 3 + 4 = 11 lots: his whole set.
    state = new_game(n, {"tribute_lot": seats(n)[0]})
    neutral = dict(state.glass_ball).get("#neutral")
    seen: list[int] = []
    while state.phase != OVER:
        state = advance(state, lambda s: s.phase in (TRIBUTE, OVER), limit=5000)
        if state.phase == OVER:
            break
        asked = len(state.tribute_goods)
        before = dict(state.glass_ball)
        state = replace(state, hands=dict.fromkeys(state.seats, frozenset()))
        for seat in state.seats:
            state = play(state, seat, {"tribute": []})
        assert all(state.glass_ball[s] == before[s] + asked for s in seats(n))
        seen.append(asked)
    assert seen == [1, 2, 3, 4]
    assert all(state.glass_ball[s] == 11 and state.lots_left[s] == 0 for s in seats(n))
    assert state.glass_ball.get("#neutral") == neutral == (6 if n == 2 else None)


@pytest.mark.parametrize("n", [2, 3])
def test_hand_limit_of_six_with_fewer_players(n: int) -> None:
    state = advance(new_game(n), lambda s: s.round == 4 and s.phase == TRIBUTE)
    big = frozenset({f"fuel-{v}-0{i}" for v, i in ((1, 4), (1, 5), (2, 1), (2, 2), (3, 1))})
    many = big | {"food-1-04", "food-2-01", "clothing-1-04"}
    first = seats(n)[0]
    state = replace(state, hands={**dict.fromkeys(state.seats, frozenset()), first: many})
    for seat in state.seats:
        state = play(state, seat, {"tribute": ["food-1-04"] if seat == first else []})
    assert RULES.to_act(state) == (first,) and state.hand_limit == {first: 1}
    refused(state, first, {"discard": []})
    state = play(state, first, {"discard": ["fuel-3-01"]})
    assert len(state.hands[first]) == 6 and state.phase == MOVEMENT
