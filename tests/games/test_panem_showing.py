"""Panem: "Die Spieler dürfen zeigen, welche Karten sie auf der Hand haben".

While trading, a seat may show hand cards (or its whole hand) to chosen seats
or to everybody. Only those shown see the cards; they know them until the
cards could have left the shower's hand unseen.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_panem import advance, at_trading, decide, new_game, play, refused

from gamelog.games.leaks import find_leaks
from gamelog.games.panem import RULES
from gamelog.games.panem.state import MOVEMENT, TRADING, TRIBUTE, PanemState
from gamelog.games.protocol import ARBITER

SHOW_TO_BEN = {"show": ["medicine-1-01", "food-3-01"], "to": ["ben"]}


def shown(state: PanemState, viewer: str | None) -> dict[str, Any]:
    found: dict[str, Any] = RULES.view(state, viewer)["shown"]
    return found


def test_showing_cards_to_one_seat() -> None:
    state = at_trading()
    events = decide(state, "ann", SHOW_TO_BEN)
    assert events == [
        {
            "type": "CardsShown",
            "seat": "ann",
            "to": ["ben"],
            "public": False,
            "whole_hand": False,
            "cards": ["medicine-1-01", "food-3-01"],
        }
    ]
    (event,) = events
    assert RULES.redact(event, "ben") == event
    assert RULES.redact(event, "ann") == event
    assert RULES.redact(event, ARBITER) == event
    for other in ("cat", "dan", None):
        seen = RULES.redact(event, other)
        assert "cards" not in seen and seen["count"] == 2 and seen["to"] == ["ben"]
    after = play(state, "ann", SHOW_TO_BEN)
    assert shown(after, "ben") == {"ann": ["food-3-01", "medicine-1-01"]}
    for other in ("cat", "dan", None, "ann"):
        assert shown(after, other) == {}
    assert RULES.view(after, ARBITER)["shown_to"] == {
        "ben": {"ann": ["food-3-01", "medicine-1-01"]}
    }
    assert "food-3-01" not in RULES.hidden_from(after, "ben")
    assert "food-3-01" in RULES.hidden_from(after, "cat")
    assert "food-3-01" in RULES.hidden_from(after, None)
    for viewer in ("cat", "dan", None):
        hidden = RULES.hidden_from(after, viewer)
        assert not find_leaks(RULES.view(after, viewer), hidden)
        assert not find_leaks(RULES.redact(event, viewer), hidden)
        assert "food 3" not in RULES.notate(state, "ann", None, [RULES.redact(event, viewer)])


def test_showing_the_whole_hand_to_everybody() -> None:
    state = at_trading()
    events = decide(state, "cat", {"show": "hand", "to": "all"})
    assert events[0]["to"] == ["ann", "ben", "dan"] and events[0]["public"]
    assert events[0]["whole_hand"] and events[0]["cards"] == ["fuel-2-01", "medicine-1-03"]
    for viewer in ("ann", "ben", "dan", None):
        assert RULES.redact(events[0], viewer) == events[0]
    after = play(state, "cat", {"show": "hand", "to": "all"})
    for viewer in ("ann", "ben", "dan", None):
        assert shown(after, viewer) == {"cat": ["fuel-2-01", "medicine-1-03"]}
        assert "fuel-2-01" not in RULES.hidden_from(after, viewer)
    assert shown(after, "cat") == {}


def test_showing_is_refused_out_of_the_trading_phase() -> None:
    state = new_game(4)
    assert state.phase == MOVEMENT
    card = sorted(state.hands["ann"])[0]
    for seat in ("ann", "ben"):
        assert refused(state, seat, {"show": [card], "to": ["ben"]}).code == "show-not-now"
    tribute = advance(state, lambda s: s.phase == TRIBUTE)
    card = sorted(tribute.hands["ann"])[0]
    assert refused(tribute, "ann", {"show": [card], "to": "all"}).code == "show-not-now"
    trading = at_trading()
    done = play(trading, "ann", {"done": True})
    assert refused(done, "ann", SHOW_TO_BEN).code == "show-not-now"
    assert not any("show" in move for move in RULES.legal_moves(state, "ann"))


def test_showing_is_refused_for_cards_not_in_hand() -> None:
    state = at_trading()
    # Ben holds medicine-2-01; Ann cannot show it, nor a card that does not exist.
    for cards in (["medicine-2-01"], ["food-1-01", "medicine-2-01"], ["no-such-card"]):
        assert refused(state, "ann", {"show": cards, "to": ["ben"]}).code == "not-in-hand"
    for bad in ([], "everything", 3, [["food-1-01"]], ["food-1-01", "food-1-01"]):
        assert refused(state, "ann", {"show": bad, "to": ["ben"]}).code in ("bad-show", "bad-move")
    empty = play(state, "dan", {"propose": {"to": "ben", "give": ["fuel-1-01"], "ask": []}})
    empty = play(empty, "ben", {"accept": 1})
    assert refused(empty, "dan", {"show": "hand", "to": "all"}).code == "bad-show"


@pytest.mark.parametrize(
    "to", [["zed"], ["ann"], ["ben", "zed"], [{"seat": "ben"}], "everybody", [], None]
)
def test_showing_is_refused_to_unknown_seats(to: Any) -> None:
    state = at_trading()
    move = {"show": ["food-1-01"], "to": to}
    assert refused(state, "ann", move).code in ("unknown-seat", "bad-show")


def test_showing_refuses_extra_keys_and_a_seat_named_twice() -> None:
    state = at_trading()
    assert refused(state, "ann", {**SHOW_TO_BEN, "done": True}).code == "bad-move"
    assert refused(state, "ann", {"show": ["food-1-01"], "to": ["ben", "ben"]}).code == "bad-show"


def test_shown_cards_are_forgotten_once_they_could_have_left_unseen() -> None:
    state = play(at_trading(), "ann", SHOW_TO_BEN)
    state = play(state, "ann", {"show": ["food-1-01"], "to": ["cat"]})
    # Ann gives food-3-01 to dan: ben did not see which card went, so he can no
    # longer tell whether medicine-1-01 is still there; cat forgets too.
    state = play(state, "ann", {"propose": {"to": "dan", "give": ["food-3-01"], "ask": []}})
    assert shown(state, "ben") == {"ann": ["food-3-01", "medicine-1-01"]}
    state = play(state, "dan", {"accept": 1})
    assert shown(state, "ben") == {} and shown(state, "cat") == {}
    # What ben was shown stays known to him: the record he may read names it.
    assert "medicine-1-01" not in RULES.hidden_from(state, "ben")


def test_a_trade_partner_keeps_the_shown_cards_that_stayed() -> None:
    state = play(at_trading(), "ann", {"show": "hand", "to": "all"})
    state = play(state, "ann", {"propose": {"to": "ben", "give": ["food-3-01"], "ask": []}})
    state = play(state, "ben", {"accept": 1})
    assert shown(state, "ben") == {"ann": ["food-1-01", "medicine-1-01"]}
    assert shown(state, "cat") == {} and shown(state, None) == {}


def test_open_discards_keep_the_rest_of_the_shown_cards() -> None:
    state = play(at_trading(), "ann", {"show": "hand", "to": ["ben"]})
    for seat in ("ann", "ben", "cat", "dan"):
        state = play(state, seat, {"done": True})
    assert state.phase == MOVEMENT
    state = advance(state, lambda s: s.phase == TRIBUTE)
    assert shown(state, "ben") == {"ann": ["food-1-01", "food-3-01", "medicine-1-01"]}
    for seat in ("ann", "ben", "cat", "dan"):
        state = play(state, seat, {"tribute": ["food-1-01"] if seat == "ann" else []})
    assert shown(state, "ben") == {"ann": ["food-3-01", "medicine-1-01"]}


def test_showing_does_not_change_what_anyone_may_do() -> None:
    state = at_trading()
    after = play(state, "ann", SHOW_TO_BEN)
    (event,) = decide(state, "ann", SHOW_TO_BEN)
    assert RULES.concurrent(event) and RULES.shows_hidden(event)
    for seat in ("ben", "cat", "dan"):
        assert RULES.legal_moves(after, seat) == RULES.legal_moves(state, seat)
    assert after.phase == TRADING and RULES.to_act(after) == RULES.to_act(state)
    assert not any("show" in move for move in RULES.legal_moves(after, "ann"))
    assert RULES.legal_moves(state, "ann")[-1]["show"]
