"""3 sind eine zu viel! as people read it: the move notation, the text board
and the picture, and what each of them hides from whom."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, Event, Viewer, rng_for
from gamelog.games.three_too_many import RULES, ThreeTooManyState
from gamelog.games.three_too_many.cards import NUMBER_CARDS, load_component_set
from gamelog.games.three_too_many.collection import Collection
from gamelog.games.three_too_many.display import Row

HOUSE = load_component_set("three-too-many/house-1")
SEATS = ("ann", "ben")
SVG = "{http://www.w3.org/2000/svg}"


def make_deal(seats: tuple[str, ...] = SEATS) -> dict[str, Any]:
    display = (10, 46, 77)
    rest = [c for c in NUMBER_CARDS if c not in display]
    hands, piles = {}, {}
    for i, seat in enumerate(seats):
        mine = rest[i * 20 : (i + 1) * 20]
        hands[seat], piles[seat] = mine[:8], mine[8:]
    return {"display": list(display), "hands": hands, "piles": piles}


def dealt(seats: tuple[str, ...] = SEATS) -> tuple[ThreeTooManyState, list[Event]]:
    options = RULES.normalize_options({"deal": make_deal(seats)}, seats)
    state = RULES.start(seats, options)
    events = RULES.setup(options, seats, rng_for(b"seed", 0))
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def table(
    hands: tuple[tuple[int, ...], ...], rows: tuple[tuple[int, ...], ...], **changes: Any
) -> ThreeTooManyState:
    state, _ = dealt()
    display = tuple(Row(start, cards) for start, cards in zip((0, 30, 60), rows))
    return replace(state, display=display, hands=tuple(tuple(sorted(h)) for h in hands), **changes)


def turn(state: ThreeTooManyState, seat: str, card: int) -> list[Event]:
    return RULES.decide(state, seat, {"card": card}, rng_for(b"seed", 1))


def line_for(state: ThreeTooManyState, seat: str, events: list[Event], viewer: Viewer) -> str:
    seen = [RULES.redact(event, viewer) for event in events]
    return RULES.notate(state, seat, {"card": 0} if viewer in (seat, ARBITER) else None, seen)


def collection_of(*cards: int) -> Collection:
    collection = Collection.empty(len(HOUSE.colours))
    for card in cards:
        colour = HOUSE.colour_of[card]
        assert colour is not None
        collection, _ = collection.add(HOUSE.colours.index(colour), card)
    return collection


# -- notation -------------------------------------------------------------------


def test_notation_example_philipp_lays_28_as_fifth_card_and_takes_10() -> None:
    state = table(((28, 1, 2, 80), (3, 4, 5, 81)), ((10, 19, 24), (40, 46, 57), (77,)))
    events = turn(state, "ann", 28)
    assert line_for(state, "ann", events, None) == "ann plays 28 on row 1, takes 10 (light-blue)"


def test_notation_example_thomas_lays_37_and_takes_40_46_and_57() -> None:
    state = table(((37, 1, 2, 80), (3, 4, 5, 81)), ((19, 24, 28), (40, 46, 57), (77,)))
    events = turn(state, "ann", 37)
    assert line_for(state, "ann", events, "ben") == (
        "ann plays 37 on row 2, takes 40 (light-blue), 46 (orange) and 57 (turquoise)"
    )


def test_notation_example_bastian_lays_40_and_takes_nothing() -> None:
    state = table(((40, 1, 2, 80), (3, 4, 5, 81)), ((10, 19, 24), (46, 57), (77,)))
    assert line_for(state, "ann", turn(state, "ann", 40), None) == "ann plays 40 on row 2"


def test_notation_names_the_colour_turned_face_down_and_the_box() -> None:
    # light-blue: 3, 10, 18; the row holds 10, 15 (colourless) and 19.
    state = table(
        ((28, 1, 2, 80), (4, 5, 6, 81)),
        ((10, 15, 19), (), ()),
        collections=(collection_of(3, 18), Collection.empty(7)),
    )
    line = line_for(state, "ann", turn(state, "ann", 28), "ben")
    assert line == (
        "ann plays 28 on row 1, takes 10 (light-blue), turns the light-blue triple face down"
    )
    state = table(((20, 1, 2, 80), (4, 5, 6, 81)), ((15, 19, 24), (), ()))
    line = line_for(state, "ann", turn(state, "ann", 20), None)
    assert line == "ann plays 20 on row 1, takes 24 (lilac)"
    state = table(((14, 1, 2, 80), (4, 5, 6, 81)), ((11, 15, 19), (), ()))
    line = line_for(state, "ann", turn(state, "ann", 14), None)
    assert line == "ann plays 14 on row 1, takes 15 (no colour, to the box) and 19 (red)"


def test_notation_names_the_interim_bonus() -> None:
    # Six colours face up (orange 1, lilac 2, light-blue 3, red 4, turquoise 5,
    # magenta 6); the olive 7 taken from row 1 completes all seven.
    state = table(
        ((29, 50, 51, 80), (52, 53, 81)),
        ((7, 8, 9), (), ()),
        collections=(collection_of(1, 2, 3, 4, 5, 6), Collection.empty(7)),
    )
    line = line_for(state, "ann", turn(state, "ann", 29), None)
    assert line == (
        "ann plays 29 on row 1, takes 7 (olive), "
        "takes the interim bonus of 10 (all colours face up)"
    )


def test_a_refill_shows_its_cards_only_to_the_drawer_and_the_arbiter() -> None:
    state, _ = dealt()
    ann = state.hands[0]
    state = replace(state, hands=(ann[:3], state.hands[1]))
    events = turn(state, "ann", ann[0])
    drawn = next(e for e in events if e["type"] == "CardsDrawn")["cards"]
    assert drawn == list(state.piles[0][:6])  # the deal fixed the drawing order
    cards = ", ".join(str(c) for c in drawn[:-1]) + f" and {drawn[-1]}"
    for viewer in ("ann", ARBITER):
        assert line_for(state, "ann", events, viewer).endswith(f", draws {cards}")
    for viewer in ("ben", None):
        line = line_for(state, "ann", events, viewer)
        assert line == f"ann plays {ann[0]} on row 1, draws 6 cards"


def test_the_deal_line_shows_each_reader_only_their_own_hand() -> None:
    state, events = dealt()
    start = RULES.start(SEATS, RULES.normalize_options({"deal": make_deal()}, SEATS))
    ann = ", ".join(str(c) for c in state.hands[0][:-1]) + f" and {state.hands[0][-1]}"

    def deal_line(viewer: Viewer) -> str:
        return RULES.notate(start, None, None, [RULES.redact(e, viewer) for e in events])

    assert deal_line(None) == (
        "deal: display 10, 46 and 77; a face-down pile of 20 cards to each seat; "
        "44 cards stay in the box unseen; each seat draws 8 cards; ann starts"
    )
    assert deal_line("ann") == (
        "deal: display 10, 46 and 77; a face-down pile of 20 cards to each seat; "
        f"44 cards stay in the box unseen; ann draws {ann}; ben draws 8 cards; ann starts"
    )
    assert "ben draws 8 cards" not in deal_line(ARBITER)


def test_the_last_turn_tells_final_bonuses_and_the_result() -> None:
    line = play_out(RULES, ("ann", "ben", "cy"), seed=2)
    seat, _, events = line.moves[-1]
    result = RULES.result(line.final_state)
    assert result is not None
    text = RULES.notate(line.states[-2], seat, None, [RULES.redact(e, None) for e in events])
    # In this play-out ben alone earns a final bonus (six colours face up).
    assert "; game over, the last two cards of each hand go to the box unscored; " in text
    assert text.endswith("; final bonus ben 5; result 1. ben 21, 2. ann 18, 3. cy 15")
    assert result.scores == {"ann": 18, "ben": 21, "cy": 15}


# -- nothing hidden in lines, boards or pictures ------------------------------------


def scrambled(state: ThreeTooManyState, viewer: Viewer, seed: int) -> ThreeTooManyState:
    """The same position with every card ``viewer`` may not know swapped for
    another unknown card: what the viewer is shown must not change."""
    hidden = sorted(c for c in RULES.hidden_from(state, viewer) if isinstance(c, int))
    shuffled = list(hidden)
    random.Random(seed).shuffle(shuffled)
    swap = dict(zip(hidden, shuffled))

    def moved(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(swap.get(c, c) for c in cards))

    return replace(
        state,
        hands=tuple(moved(h) for h in state.hands),
        piles=tuple(moved(p) for p in state.piles),
        box=moved(state.box),
        last_hands=tuple(moved(h) for h in state.last_hands),
    )


@pytest.mark.parametrize("players", [2, 4])
@given(seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_what_a_viewer_reads_does_not_depend_on_what_it_may_not_know(
    players: int, seed: int
) -> None:
    seats = tuple(f"p{i + 1}" for i in range(players))
    line = play_out(RULES, seats, seed)
    for ply, (seat, move, events) in enumerate(line.moves, start=1):
        before = line.states[ply - 1]
        for viewer in (*seats, None):
            seen = [RULES.redact(e, viewer) for e in events]
            shown_move = move if viewer == seat else None
            text = RULES.notate(before, seat, shown_move, seen)
            assert RULES.notate(scrambled(before, viewer, ply), seat, shown_move, seen) == text
            if viewer != seat:
                assert text == RULES.notate(
                    before, seat, None, [RULES.redact(e, None) for e in events]
                )
    for state in (line.states[0], line.states[len(line.states) // 2], line.final_state):
        for viewer in (*seats, None):
            other = scrambled(state, viewer, 7)
            assert RULES.render_text(other, viewer) == RULES.render_text(state, viewer)
            assert RULES.render_svg(other, viewer) == RULES.render_svg(state, viewer)
            assert not set(svg_cards(RULES.render_svg(state, viewer))) & RULES.hidden_from(
                state, viewer
            )


# -- the text board ------------------------------------------------------------------


def test_text_board_explains_itself_and_shows_no_reprs() -> None:
    state = table(
        ((28, 1, 2, 80), (3, 4, 5, 81)),
        ((10, 19, 24), (46,), ()),
        collections=(collection_of(1, 8, 16, 9, 23), Collection.empty(7)),
        interim_bonus=(7, None),
        interim_stack=(5, 3),
    )
    text = RULES.render_text(state, "ann")
    assert "{" not in text and "'" not in text
    lines = text.splitlines()
    assert lines[0] == "3 sind eine zu viel!  ann to play"
    assert "  row 1 (1-29)    [0]  10  19  24    full: the next card here takes" in lines
    assert "  row 2 (31-59)   [30] 46            2 free places, then a card takes" in lines
    assert "  row 3 (61-89)   [60]               3 free places, then a card takes" in lines
    assert "* ann: score 6 (collection -1 + interim bonus 7)" in lines
    # orange 1, 8, 16 turned face down; 23 orange again face up; 9 lilac
    assert "    collection: orange 23 [1 8 16] | lilac 9" in lines
    assert "    hand 4 cards, pile 12 cards, played 0 of 18" in lines
    assert "  ben: score 0" in lines
    assert any(
        line.startswith("collection: face-up cards by colour, [..] a triple") for line in lines
    )
    assert lines[-1] == "your hand: 1 2 28 80"
    assert "your hand" not in RULES.render_text(state, None)
    arbiter = RULES.render_text(state, ARBITER)
    assert "ann's hand: 1 2 28 80" in arbiter and "ben's hand: 3 4 5 81" in arbiter
    assert "box (never dealt): " in arbiter


def test_text_board_at_the_end_gives_the_standings() -> None:
    line = play_out(RULES, ("ann", "ben", "cy"), seed=2)
    text = RULES.render_text(line.final_state, "ben")
    assert text.splitlines()[0] == "3 sind eine zu viel!  game over: 1. ben 21, 2. ann 18, 3. cy 15"
    assert "  ben: score 21 (collection 6 + interim bonus 10 + final bonus 5)" in text
    assert "your last two cards (to the box, unscored): " in text


# -- the picture ---------------------------------------------------------------------


def svg_cards(picture: str) -> list[int]:
    """Card numbers the picture shows face up (``data-card``)."""
    root = ET.fromstring(picture)
    return [int(g.attrib["data-card"]) for g in root.iter(f"{SVG}g") if "data-card" in g.attrib]


def groups(picture: str, cls: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(picture).iter(f"{SVG}g") if g.attrib.get("class") == cls]


def test_picture_shows_rows_collections_bonus_stack_and_own_hand() -> None:
    state = table(
        ((28, 1, 2, 80), (3, 4, 5, 81)),
        ((10, 19, 24), (46,), ()),
        collections=(collection_of(1, 8, 16, 9, 23), Collection.empty(7)),
        interim_bonus=(7, None),
        interim_stack=(5, 3),
    )
    picture = RULES.render_svg(state, "ann")
    root = ET.fromstring(picture)
    assert root.attrib["viewBox"].startswith("0 0 ")
    rows = groups(picture, "row")
    assert [r.attrib["data-row"] for r in rows] == ["1", "2", "3"]
    assert [r.attrib["data-free"] for r in rows] == ["0", "2", "3"]
    row_one = [int(g.attrib["data-card"]) for g in rows[0].iter(f"{SVG}g") if g is not rows[0]]
    assert row_one == [0, 10, 19, 24]
    seats = groups(picture, "seat")
    assert [s.attrib["data-seat"] for s in seats] == ["ann", "ben"]
    assert seats[0].attrib.get("data-to-act") == "true"
    assert [s.attrib["data-score"] for s in seats] == ["6", "0"]
    colours = {
        g.attrib["data-colour"]: g
        for g in seats[0].iter(f"{SVG}g")
        if g.attrib.get("class") == "colour"
    }
    assert colours["orange"].attrib["data-face-up"] == "1"
    assert colours["orange"].attrib["data-face-down"] == "3"
    assert colours["lilac"].attrib["data-face-up"] == "1"
    assert groups(picture, "interim-bonus")[0].attrib["data-points"] == "5"  # the stack's top
    assert groups(picture, "interim-bonus")[1].attrib["data-points"] == "7"  # ann's card
    hands = {h.attrib["data-seat"]: h for h in groups(picture, "hand")}
    assert [
        int(g.attrib["data-card"]) for g in hands["ann"].iter(f"{SVG}g") if "data-card" in g.attrib
    ] == [1, 2, 28, 80]
    assert (
        len([g for g in hands["ben"].iter(f"{SVG}g") if g.attrib.get("class") == "card-back"]) == 4
    )
    assert not {3, 4, 5, 81} & set(svg_cards(picture))
    assert {1, 2, 3, 4, 5, 28, 80, 81} <= set(svg_cards(RULES.render_svg(state, ARBITER)))
    assert not {1, 2, 3, 4, 5, 28, 80, 81} & set(svg_cards(RULES.render_svg(state, None)))
    piles = {p.attrib["data-seat"]: p.attrib["data-count"] for p in groups(picture, "pile")}
    assert piles == {"ann": "12", "ben": "12"}
    assert "#f08a24" in picture  # orange, in the house set's swatch
    assert 'font-family="sans-serif"' in picture and "<script" not in picture
    assert not re.search(r"href|xlink", picture)
