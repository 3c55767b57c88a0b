"""Hadara's face-up outer stacks show only their top card (rules 1.2).

"Achtung: Dabei darfst du die Stapel nie durchsuchen, sondern musst immer die
Karte nehmen, die oben auf dem jeweiligen Stapel liegt." Seats and spectators
see each stack's top card and count; a card below the top is hidden in every
view, redacted event, notation line, text and picture, except to the arbiter
and to the seat that drew it. A reveal names a laid card to others only when
it stays on top until phase B; a take names the card it uncovers.
"""

from __future__ import annotations

from typing import Any

import pytest
from hadara_tables import TWO, dealt, names, play, through_phase_a

from gamelog.games.hadara import RULES
from gamelog.games.hadara.cards import COLOURS
from gamelog.games.hadara.phases import stays_on_top, wheel_for
from gamelog.games.hadara.state import HadaraState
from gamelog.games.leaks import find_leaks
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, Event, Viewer


def below_tops(state: HadaraState) -> set[str]:
    return {card for stack in state.outer.values() for card in stack[:-1]}


def test_views_show_each_outer_stack_as_its_top_card_and_count() -> None:
    state, _ = through_phase_a(dealt())
    assert all(len(state.outer[c]) == 2 for c in COLOURS)
    for viewer in (*TWO, None):
        stacks = RULES.view(state, viewer)["outer_stacks"]
        assert stacks == {c: {"top": state.outer[c][-1], "count": 2} for c in COLOURS}
        assert "outer_cards" not in RULES.view(state, viewer)
    assert RULES.view(state, ARBITER)["outer_cards"] == {c: list(state.outer[c]) for c in COLOURS}


def test_a_card_below_the_top_is_hidden_from_all_but_its_seat_and_the_arbiter() -> None:
    state, _ = through_phase_a(dealt())
    laid_by = {card: p.seat for p in state.players for card in p.laid_face_up}
    below = below_tops(state)
    assert len(below) == 5
    for card in below:
        for viewer in (*TWO, None):
            hidden = RULES.hidden_from(state, viewer)
            assert (card in hidden) == (viewer != laid_by[card]), (card, viewer)
            view = RULES.view(state, viewer)
            assert find_leaks(view, {card}) == []
            assert not names(RULES.render_text(state, viewer), card)
            assert not names(RULES.render_svg(state, viewer), card)
        assert card in str(RULES.view(state, ARBITER)["outer_cards"])
        assert names(RULES.render_svg(state, ARBITER), card)
        assert names(RULES.render_text(state, ARBITER), card)
    assert RULES.hidden_from(state, ARBITER) == frozenset()


def test_a_reveal_names_a_covered_card_only_to_its_seat() -> None:
    state = dealt()
    state, _ = play(state, "ann", {"wheel": "red"})  # ann at red, bob at blue
    ann_card, bob_card = state.drawn["ann"][0], state.drawn["bob"][0]
    state, _ = play(state, "ann", {"place": ann_card, "action": "sell"})
    state, events = play(state, "bob", {"place": bob_card, "action": "sell"})
    reveal = next(e for e in events if e["type"] == "DrawsRevealed")
    # the wheel turns red -> yellow, blue -> red: bob covers ann's red card
    # next round, and a later crest comes to blue too
    assert reveal["choices"]["ann"]["stays_on_top"] is False
    assert RULES.redact(reveal, "bob")["choices"]["ann"]["place"] is None
    assert RULES.redact(reveal, None)["choices"]["ann"]["place"] is None
    assert RULES.redact(reveal, "ann")["choices"]["ann"]["place"] == ann_card
    assert RULES.redact(reveal, ARBITER) == reveal
    # while it lies on top, everybody sees it in the view
    assert RULES.view(state, "bob")["outer_stacks"]["red"]["top"] == ann_card
    line = RULES.notate(state, "bob", None, [RULES.redact(e, None) for e in events])
    assert "ann lays a red card face up (covered later)" in line
    assert ann_card not in line


@pytest.mark.parametrize("seats", [TWO, ("ann", "bob", "cid"), ("a", "b", "c", "d", "e")])
def test_stays_on_top_is_true_exactly_for_the_tops_at_the_end_of_phase_a(
    seats: tuple[str, ...],
) -> None:
    state, events = through_phase_a(dealt(seats))
    tops = {state.outer[c][-1] for c in COLOURS}
    laid = {
        choice["place"]: choice["stays_on_top"]
        for event in events
        if event["type"] == "DrawsRevealed"
        for choice in event["choices"].values()
    }
    assert len(laid) == 5 * len(seats)
    assert {card for card, stays in laid.items() if stays} == tops


def test_with_five_seats_only_the_last_rounds_cards_stay_on_top() -> None:
    seats = ("a", "b", "c", "d", "e")
    wheel = wheel_for(seats, "a", "green")
    for colour in COLOURS:
        assert [stays_on_top(seats, wheel, r, colour) for r in range(1, 6)] == [
            False,
            False,
            False,
            False,
            True,
        ]


def test_taking_the_top_card_names_the_card_it_uncovers() -> None:
    state, _ = through_phase_a(dealt())
    top, below = state.outer["purple"][-1], state.outer["purple"][0]
    assert below in RULES.hidden_from(state, None)
    seat = RULES.to_act(state)[0]
    state, events = play(state, seat, {"take": "purple", "action": "sell"})
    assert events[0]["card"] == top and events[0]["uncovered"] == below
    assert RULES.shows_hidden(events[0])
    assert below not in RULES.hidden_from(state, None)
    assert RULES.view(state, None)["outer_stacks"]["purple"] == {"top": below, "count": 1}
    line = RULES.notate(state, seat, None, [RULES.redact(e, None) for e in events])
    assert f"{below} (" in line and "now lies on top" in line
    state, events = play(state, RULES.to_act(state)[0], {"take": "purple", "action": "sell"})
    assert events[0]["uncovered"] is None and not RULES.shows_hidden(events[0])


def records_until(line: Any, viewer: Viewer) -> list[tuple[HadaraState, list[Event]]]:
    """Each position with every event stored so far, as ``viewer`` sees them."""
    seen = [RULES.redact(e, viewer) for e in line.setup_events]
    out = []
    for index, (_, _, events) in enumerate(line.moves, start=1):
        seen = seen + [RULES.redact(e, viewer) for e in events]
        out.append((line.states[index], seen))
    return out


@pytest.mark.parametrize("players", [2, 3, 5])
def test_no_record_but_the_arbiters_ever_names_a_card_below_a_top(players: int) -> None:
    seats = tuple(f"s{i + 1}" for i in range(players))
    line = play_out(RULES, seats, seed=players)
    found_by_arbiter = False
    for viewer in (*seats, None, ARBITER):
        for state, seen in records_until(line, viewer)[::7]:
            own = set(state.player(viewer).laid_face_up) if viewer in seats else set()
            below = below_tops(state) - own
            leaks = find_leaks(seen, below) + find_leaks(RULES.view(state, viewer), below)
            if viewer == ARBITER:
                found_by_arbiter = found_by_arbiter or bool(leaks)
            else:
                assert leaks == [], (viewer, leaks[:3])
    assert found_by_arbiter
