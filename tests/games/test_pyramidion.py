"""Pyramidion through the service: page 7's rules and worked examples, for 2
to 5 players, and the declared facts' consistency checks.

Every game here is created with ``GameLog`` on the in-memory store and played
move by move with each seat's token (the arbiter's for its declarations), as
a club would record it. A refused move must store nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from gamelog.games.protocol import ARBITER
from gamelog.games.pyramidion.state import PyramidionState
from gamelog.service.model.refusals import GamelogError
from gamelog.service.usecases.application import GameLog

NAMES = ("blue", "red", "yellow", "green", "white")
PLAYER_COUNTS = [2, 3, 4, 5]
BLUES_BOAT = {"camel": 2, "food": 1, "stone": 2, "worker": 1}
TEST_SET: dict[str, Any] = {
    "name": "test-fictional",
    "about": "made up for tests only: no real card data",
    "resources": ["camel", "food", "statue", "stone", "worker"],
    "locations": [
        {"id": "gizeh", "name": "Gizeh", "produces": ["camel"]},
        {"id": "cairo", "name": "Cairo", "produces": ["food"]},
        {"id": "quarry", "name": "Quarry", "produces": ["stone", "worker"]},
    ],
    "boats": [
        {"card": "TB-1", "requirements": {"stone": 1}, "points": 3},
        {"card": "TB-2", "requirements": {"food": 1}, "points": 4},
        {"card": "TB-3", "requirements": {"camel": 1, "worker": 1}, "points": 5},
    ],
}


class Table:
    """One Pyramidion game on the service, moves played with the seats' tokens."""

    def __init__(
        self,
        memory_app: GameLog,
        players: int,
        options: dict[str, Any] | None = None,
        undo: str = "none",
    ) -> None:
        self.app = memory_app
        self.seats = list(NAMES[:players])
        self.created = memory_app.games.create_game(
            "pyramidion", self.seats, options or {}, undo_policy=undo, seed=b"pyramidion tests"
        )
        self.id = self.created.game_id

    def token(self, seat: str) -> str:
        return self.created.arbiter_token if seat == ARBITER else self.created.tokens[seat]

    @property
    def position(self) -> int:
        return self.app.queries.state_at(self.id).position

    @property
    def state(self) -> PyramidionState:
        state: PyramidionState = self.app.queries.state_at(self.id).state
        return state

    @property
    def finished(self) -> bool:
        return self.app.queries.state_at(self.id).is_finished

    def play(self, seat: str, move: dict[str, Any]) -> list[dict[str, Any]]:
        played = self.app.games.play(self.id, self.token(seat), move, self.position)
        return [event for record in played.records for event in record.get("events", [])]

    def declare(self, seat: str, kind: str, **fields: Any) -> list[dict[str, Any]]:
        return self.play(seat, {"declare": kind, **fields})

    def refused(self, seat: str, move: dict[str, Any]) -> str:
        """The refusal's code; the records must be unchanged."""
        before = self.app.store.records(self.id)
        with pytest.raises(GamelogError) as refusal:
            self.play(seat, move)
        assert self.app.store.records(self.id) == before, "a refused move stored something"
        assert refusal.value.message
        return refusal.value.code

    def view(self, viewer: str | None) -> dict[str, Any]:
        token = None if viewer is None else self.token(viewer)
        return self.app.queries.view(self.id, token).view

    def events_seen(self, viewer: str | None) -> list[dict[str, Any]]:
        token = None if viewer is None else self.token(viewer)
        records = [shown.record for shown in self.app.queries.visible_records(self.id, token)]
        return [event for record in records for event in record.get("events", [])]

    # -- getting through a round -------------------------------------------------

    def end_phases(self) -> list[dict[str, Any]]:
        """Declare what phases 1 to 5 still need (two players: the three
        activations and a card on each while holding cards), then everyone done."""
        if len(self.seats) == 2:
            while len(self.state.activations) < 3:
                state = self.state
                due = state.order[0] if len(state.activations) in (0, 2) else state.order[1]
                free = [p for p in state.components.location_ids if not state.activated(p)]
                self.declare(due, "activate", location=free[0])
            for seat in self.seats:
                for place, _ in self.state.activations:
                    state = self.state
                    if state.hands[seat] and not state.cards.get(place, {}).get(seat):
                        self.declare(seat, "play", location=place, cards=1)
        events: list[dict[str, Any]] = []
        for seat in self.state.order:
            if seat not in self.state.done:
                events = self.declare(seat, "done")
        return events

    def boat(self, requirements: dict[str, int], points: int) -> int:
        self.declare(ARBITER, "boat", requirements=requirements, points=points)
        return len(self.state.boats)

    def to_loading(self, *boats: tuple[dict[str, int], int]) -> list[dict[str, Any]]:
        """Through phases 1 to 6, turn up ``boats``, confirm the display."""
        self.end_phases()
        for requirements, points in boats:
            self.boat(requirements, points)
        return self.declare(ARBITER, "display-complete")

    def red_loads_boat_one(
        self, stones: int, *boats: tuple[dict[str, int], int]
    ) -> list[dict[str, Any]]:
        """Red gains ``stones``; phases 1 to 6 pass, ``boats`` are turned up;
        blue (first in order) passes and red loads boat 1."""
        self.declare("red", "gain", resources={"stone": stones})
        self.to_loading(*boats)
        self.play("blue", {"pass": True})
        return self.play("red", {"load": 1})

    def pass_until(self, seat: str) -> None:
        """Everybody before ``seat`` in the loading order passes."""
        while self.state.loader != seat:
            self.play(self.state.loader or "", {"pass": True})

    def pass_all(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        while self.state.loader is not None:
            events = self.play(self.state.loader, {"pass": True})
        return events


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def of(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(event for event in events if event["type"] == kind)


# -- phase 6: the player order ----------------------------------------------------------


def test_order_example_red_takes_marker_one(memory_app: GameLog) -> None:
    """Page 7: Red plays a torturer on Gizeh and takes marker "1"; nobody else
    takes one; the new order is Red - Blue - Yellow."""
    table = Table(memory_app, 3)  # blue, red, yellow
    table.declare("yellow", "draw", cards=1)
    table.declare("blue", "activate", location="gizeh")
    table.declare("red", "draw", cards=5)
    table.declare("red", "play", location="gizeh", cards=1)
    table.declare("red", "marker", number=1)
    events = table.end_phases()
    order = of(events, "OrderSet")
    assert order["order"] == ["red", "blue", "yellow"] and order["rule"] == "markers"
    assert table.state.order == ("red", "blue", "yellow")
    assert table.state.phase == "display" and table.state.loader is None


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_markers_one_and_two_take_the_first_spaces_the_rest_keep_their_order(
    memory_app: GameLog, players: int
) -> None:
    table = Table(memory_app, players)
    if players == 2:
        table.declare("blue", "activate", location="gizeh")
    else:
        table.declare("yellow", "activate", location="gizeh")
    last = table.seats[-1]
    table.declare(last, "marker", number=1)
    if players >= 4:
        table.declare("red", "marker", number=2)
    events = table.end_phases()
    expected = [last, *(["red"] if players >= 4 else [])]
    expected += [s for s in table.seats if s not in expected]
    assert of(events, "OrderSet")["order"] == expected


@pytest.mark.parametrize("players", [3, 4, 5])
def test_marker_n_takes_space_n_the_rest_keep_their_order(
    memory_app: GameLog, players: int
) -> None:
    """Page 7: "Der Spieler mit der “1” legt seinen Spieler-Marker auf das erste
    Feld dieses Ortes usw. Spieler, die keine Folterknecht-Karte ausgespielt
    haben und dadurch keinen Spielerreihenfolge-Marker bekommen haben, behalten
    ihre entsprechende Position in der Spielerreihenfolge bei." Nobody takes
    "1": the holder of "2" is second, blue keeps the first space."""
    table = Table(memory_app, players)
    table.declare("yellow", "activate", location="gizeh")
    last = table.seats[-1]
    table.declare(last, "marker", number=2)
    events = table.end_phases()
    others = [s for s in table.seats if s != last]
    assert of(events, "OrderSet")["order"] == [others[0], last, *others[1:]]
    assert table.state.order[0] == "blue"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_without_gizeh_the_order_stays(memory_app: GameLog, players: int) -> None:
    table = Table(memory_app, players)
    table.declare("red", "activate", location="cairo")
    events = table.end_phases()
    assert of(events, "OrderSet") == {
        "type": "OrderSet",
        "order": table.seats,
        "markers": {},
        "rule": "unchanged",
    }


def without_gizeh(table: Table) -> None:
    """Two players activate three locations, none of them Gizeh."""
    first, second = table.state.order
    table.declare(first, "activate", location="cairo")
    table.declare(second, "activate", location="location-3")
    table.declare(first, "activate", location="location-4")


def test_two_players_without_gizeh_the_second_player_starts_the_next_round(
    memory_app: GameLog,
) -> None:
    """Page 7, two players: "Wird Gizeh während einer Runde nicht aktiviert, ist
    der zweite Spieler automatisch Startspieler für die nächste Runde." This
    round's order stays ("wird die Spielerreihenfolge nicht verändert"): blue
    still loads first; the swap takes effect when the next round begins."""
    table = Table(memory_app, 2)
    for seat in table.seats:
        table.declare(seat, "gain", resources={"stone": 1})
    without_gizeh(table)
    events = table.end_phases()
    assert of(events, "OrderSet") == {
        "type": "OrderSet",
        "order": ["blue", "red"],
        "markers": {},
        "rule": "unchanged",
    }
    assert table.state.order == ("blue", "red")
    table.boat({"stone": 1}, 1)
    table.boat({"stone": 1}, 1)
    table.declare(ARBITER, "display-complete")
    assert table.state.loader == "blue", "phase 7 of this round keeps the order"
    table.play("blue", {"load": 1})
    events = table.play("red", {"load": 2})
    assert kinds(events)[-2:] == ["RoundEnded", "OrderSet"]
    assert events[-1] == {
        "type": "OrderSet",
        "order": ["red", "blue"],
        "markers": {},
        "rule": "two-player-swap",
    }
    state = table.state
    assert state.round == 2 and state.phase == "phases-1-to-5"
    assert state.order == ("red", "blue")
    # Red starts round 2: red activates the first location.
    assert table.refused("blue", {"declare": "activate", "location": "gizeh"}) == (
        "not-your-activation"
    )
    table.declare("red", "activate", location="gizeh")


def test_two_players_a_gizeh_round_keeps_the_start_player(memory_app: GameLog) -> None:
    """Gizeh activated and no marker taken: nobody swaps (the rule speaks of
    Gizeh not being activated)."""
    table = Table(memory_app, 2)
    table.end_phases()  # activates Gizeh first
    assert table.state.activated("gizeh")
    events = table.declare(ARBITER, "display-complete")
    assert "OrderSet" not in kinds(events)
    assert table.state.round == 2 and table.state.order == ("blue", "red")


def test_two_players_the_game_ends_before_the_swap(memory_app: GameLog) -> None:
    """The swap is for the next round: a game ending in a round without Gizeh
    breaks a tie by this round's order, blue first."""
    table = Table(memory_app, 2)
    for seat in table.seats:
        table.declare(seat, "gain", resources={"stone": 1})
    without_gizeh(table)
    table.end_phases()
    table.boat({"stone": 1}, 10)
    table.boat({"stone": 1}, 10)
    table.declare(ARBITER, "display-complete")
    table.play("blue", {"load": 1})
    events = table.play("red", {"load": 2})
    assert kinds(events)[-2:] == ["RoundEnded", "GameEnded"]
    assert of(events, "GameEnded")["order"] == ["blue", "red"]
    assert of(events, "GameEnded")["ranking"] == ["blue", "red"]
    result = memory_app.queries.state_at(table.id).result
    assert result is not None and result["winners"] == ["blue"]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_a_marker_needs_no_card_declared_on_gizeh(memory_app: GameLog, players: int) -> None:
    """Decision: page 7 ties markers to torturer cards played on Gizeh, but a
    card's kind is not recorded and taking markers is on the missing pages:
    a marker is declared as stated, and phase 6 uses it."""
    table = Table(memory_app, players)
    table.declare("blue", "activate", location="gizeh")
    last = table.seats[-1]
    assert table.state.cards == {} and table.state.hands[last] == 0
    table.declare(last, "marker", number=1)
    events = table.end_phases()
    assert of(events, "OrderSet")["order"][0] == last


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_order_markers_are_checked(memory_app: GameLog, players: int) -> None:
    table = Table(memory_app, players)
    marker = {"declare": "marker", "number": 1}
    assert table.refused("red", marker) == "gizeh-not-activated"
    table.declare("blue", "activate", location="gizeh")
    too_high = {"declare": "marker", "number": players + 1}
    assert table.refused("red", too_high) == "no-such-marker"
    assert table.refused("red", {"declare": "marker", "number": 0}) == "no-such-marker"
    table.declare("red", "marker", number=1)
    assert table.refused("blue", marker) == "marker-taken"
    assert table.refused("red", {"declare": "marker", "number": 2}) == "has-marker"


# -- phase 7: loading boats -------------------------------------------------------------


def blue_ready(table: Table) -> None:
    """Blue's position in page 7's example: troops in Gizeh and Cairo; a camel,
    a statue, 2 stones and a worker; Cairo produces camels."""
    table.declare("blue", "place-troops", location="gizeh", count=1)
    table.declare("blue", "place-troops", location="cairo", count=1)
    table.declare("blue", "gain", resources={"camel": 1, "statue": 1, "stone": 2, "worker": 1})
    table.declare(ARBITER, "production", location="cairo", produces=["camel"])


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_blues_boat_example(memory_app: GameLog, players: int) -> None:
    """Page 7: a troop fetches a camel, the statue stands in for food, and 6
    resources go back to the supply; the boat lies face down before Blue."""
    table = Table(memory_app, players)
    blue_ready(table)
    table.to_loading((BLUES_BOAT, 4))
    assert table.state.loader == "blue"
    events = table.play(
        "blue",
        {"load": 1, "fetch": [{"location": "cairo", "resource": "camel"}], "statue_for": ["food"]},
    )
    loaded = of(events, "BoatLoaded")
    assert sum(loaded["used"].values()) == 6
    assert loaded["used"] == {"camel": 2, "statue": 1, "stone": 2, "worker": 1}
    assert loaded["own"] == {"camel": 1, "statue": 1, "stone": 2, "worker": 1}
    state = table.state
    assert state.stock("blue") == {}
    assert state.loaded["blue"] == (1,) and state.display == ()
    assert loaded["fetch"] == [{"location": "cairo", "resource": "camel"}]
    # The display is empty: phase 8 follows at once.
    ended = of(events, "RoundEnded")
    assert ended["counts"]["blue"] == 5  # 4 on the boat, +1 for the most troops
    assert ended["troop_bonus"] == "blue" and not ended["game_ends"]
    assert state.round == 2 and state.phase == "phases-1-to-5"
    assert state.troops_used == {}, "a new round: the troop may fetch again"
    # Face down: its points are Blue's and the arbiter's alone.
    assert table.view("blue")["seats"]["blue"]["boats"][0]["points"] == 4
    for viewer in ("red", None):
        assert table.view(viewer)["seats"]["blue"]["boats"] == [
            {"boat": 1, "requirements": BLUES_BOAT}
        ]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_each_troop_fetches_once_per_round(memory_app: GameLog, players: int) -> None:
    table = Table(memory_app, players)
    table.declare("blue", "place-troops", location="cairo", count=1)
    table.declare("blue", "gain", resources={"stone": 2})
    table.declare(ARBITER, "production", location="cairo", produces=["camel"])
    table.to_loading(({"camel": 1}, 1), ({"camel": 1, "stone": 1}, 1), ({"stone": 1}, 1))
    fetch = [{"location": "cairo", "resource": "camel"}]
    table.play("blue", {"load": 1, "fetch": fetch})
    for seat in table.seats[1:]:
        table.play(seat, {"pass": True})
    assert table.state.loader == "blue"
    assert table.refused("blue", {"load": 2, "fetch": fetch}) == "no-free-troop"
    table.play("blue", {"load": 3})
    table.play("blue", {"pass": True})
    assert table.state.round == 2
    # A new round: the troop may fetch again.
    table.to_loading()
    table.play("blue", {"load": 2, "fetch": fetch})
    assert table.state.loaded["blue"] == (1, 3, 2)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_payments_are_checked(memory_app: GameLog, players: int) -> None:
    table = Table(memory_app, players)
    table.declare("blue", "place-troops", location="gizeh", count=1)
    table.declare("blue", "place-troops", location="cairo", count=1)
    table.declare("blue", "gain", resources={"statue": 1, "stone": 1})
    table.declare(ARBITER, "production", location="gizeh", produces=["food"])
    table.to_loading(({"camel": 1, "stone": 1}, 3))
    cases = {
        "not-enough-resources": {"load": 1},
        "production-unknown": {"load": 1, "fetch": [{"location": "cairo", "resource": "camel"}]},
        "not-produced-there": {"load": 1, "fetch": [{"location": "gizeh", "resource": "camel"}]},
        "fetch-not-used": {
            "load": 1,
            "fetch": [{"location": "gizeh", "resource": "food"}],
            "statue_for": ["camel"],
        },
        "bad-statue": {"load": 1, "statue_for": ["food"]},
        "no-free-troop": {"load": 1, "fetch": [{"location": "location-3", "resource": "camel"}]},
        "no-such-boat": {"load": 7},
        "bad-move": {"load": 1, "pay": {}},
    }
    for code, move in cases.items():
        assert table.refused("blue", move) == code, move
    assert table.refused("red", {"pass": True}) == "not-your-turn"
    # An arbiter declaration is due: blue's troop in Cairo could fetch, but
    # what Cairo produces is unknown.
    assert ARBITER in memory_app.queries.view(table.id, None).to_act
    table.declare(ARBITER, "production", location="cairo", produces=["camel"])
    assert memory_app.queries.view(table.id, None).to_act == ["blue"]
    table.play("blue", {"load": 1, "statue_for": ["camel"]})
    assert table.state.stock("blue") == {}


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_loading_goes_round_in_order_until_nobody_loads(memory_app: GameLog, players: int) -> None:
    table = Table(memory_app, players)
    for seat in table.seats:
        table.declare(seat, "gain", resources={"stone": 3})
    table.to_loading(*[({"stone": 1}, 1)] * (players + 2))
    loaders = []
    table.play("blue", {"pass": True})
    while table.state.loader is not None:
        seat = table.state.loader
        loaders.append(seat)
        number = table.state.display[0]
        table.play(seat, {"load": number} if len(loaders) <= players + 1 else {"pass": True})
    # Blue passed and is out; the others load in order, going round.
    others = table.seats[1:]
    expected = (others * 3)[: players + 1]
    assert loaders[: players + 1] == expected
    assert table.state.round == 2


# -- phase 8: the end of the round -------------------------------------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_round_end_keeps_troops_and_resources_clears_sundials_and_hands(
    memory_app: GameLog, players: int
) -> None:
    table = Table(memory_app, players)
    table.declare(ARBITER, "produce", location="cairo", resources={"food": 3})
    table.declare("red", "place-troops", location="cairo", count=2)
    table.declare("red", "gain", resources={"food": 1}, **{"from": "cairo"})
    table.declare("red", "draw", cards=4)
    table.declare("blue", "activate", location="gizeh")
    table.to_loading()
    state = table.state
    assert state.round == 2
    assert state.hands == {seat: 0 for seat in table.seats}
    assert state.activations == () and state.cards == {}
    assert state.troops == {"cairo": {"red": 2}}
    assert state.piles == {"cairo": {"food": 2}} and state.stock("red") == {"food": 1}
    table.declare(table.state.order[0], "activate", location="gizeh")


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_ten_points_end_the_game_nine_do_not(memory_app: GameLog, players: int) -> None:
    table = Table(memory_app, players)
    events = table.red_loads_boat_one(2, ({"stone": 1}, 9), ({"stone": 1}, 1))
    events += table.pass_all()
    ended = of(events, "RoundEnded")
    assert not ended["game_ends"] and not table.finished
    table.to_loading()
    table.pass_until("red")
    events = table.play("red", {"load": 2})
    events += table.pass_all()
    assert of(events, "RoundEnded")["game_ends"]
    assert table.finished
    result = memory_app.queries.state_at(table.id).result
    assert result is not None and result["winners"] == ["red"]
    assert result["scores"]["red"] == 10


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_troop_bonus_counts_and_is_decided_afresh(memory_app: GameLog, players: int) -> None:
    table = Table(memory_app, players)
    table.declare("red", "gain", resources={"stone": 1})
    table.declare("red", "place-troops", location="gizeh", count=1)
    table.to_loading(({"stone": 1}, 9))
    table.play("blue", {"pass": True})
    events = table.play("red", {"load": 1})
    # 9 points and the most troops: 10, the game ends.
    assert of(events, "RoundEnded")["troop_bonus"] == "red"
    assert of(events, "RoundEnded")["game_ends"] and table.finished

    again = Table(memory_app, players)
    again.declare("red", "gain", resources={"stone": 1})
    again.declare("red", "place-troops", location="gizeh", count=1)
    again.declare("blue", "place-troops", location="cairo", count=1)
    again.to_loading(({"stone": 1}, 9))
    again.play("blue", {"pass": True})
    events = again.play("red", {"load": 1})
    # A tie for the most troops gives the point to nobody.
    assert of(events, "RoundEnded")["troop_bonus"] is None and not again.finished
    # Next round red moves ahead in troops: the bonus is decided afresh.
    again.declare("red", "place-troops", location="cairo", count=1)
    events = again.to_loading()  # no boat on display: phase 8 at once
    assert of(events, "RoundEnded")["troop_bonus"] == "red"
    assert again.finished


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_count_is_secret_only_whether_the_game_ends_is_known(
    memory_app: GameLog, players: int
) -> None:
    table = Table(memory_app, players)
    table.red_loads_boat_one(1, ({"stone": 1}, 4))
    assert table.view("red")["seats"]["red"]["count"] == 4
    assert table.view(ARBITER)["seats"]["red"]["count"] == 4
    for viewer in ("blue", None):
        assert "count" not in table.view(viewer)["seats"]["red"]
        ended = [e for e in table.events_seen(viewer) if e["type"] == "RoundEnded"]
        assert ended[-1]["game_ends"] is False
        assert "red" not in ended[-1]["counts"]
        turned = [e for e in table.events_seen(viewer) if e["type"] == "BoatTurnedUp"]
        assert "points" not in turned[0] and "card" not in turned[0]
    ended = [e for e in table.events_seen("red") if e["type"] == "RoundEnded"]
    assert ended[-1]["counts"] == {"red": 4}


# -- the end of the game: winner and tie-breaks ------------------------------------------


def two_loaders(table: Table, boats: dict[str, list[int]]) -> None:
    """Round 1: each seat in ``boats`` loads boats worth these points."""
    for seat, points in boats.items():
        table.declare(seat, "gain", resources={"stone": len(points)})
    displayed = [({"stone": 1}, p) for points in boats.values() for p in points]
    table.to_loading(*displayed)
    numbers: dict[str, list[int]] = {}
    n = 1
    for seat, points in boats.items():
        numbers[seat] = list(range(n, n + len(points)))
        n += len(points)
    while table.state.loader is not None:
        seat = table.state.loader
        mine = [b for b in numbers.get(seat, []) if b in table.state.display]
        table.play(seat, {"load": mine[0]} if mine else {"pass": True})


@pytest.mark.parametrize("players", [3, 4, 5])
def test_tie_breaks_points_then_hand_then_boats_then_order(
    memory_app: GameLog, players: int
) -> None:
    more_points = Table(memory_app, players)
    two_loaders(more_points, {"red": [11], "yellow": [10]})
    assert memory_app.queries.state_at(more_points.id).result["ranking"][:2] == [
        ["red"],
        ["yellow"],
    ]

    hands = Table(memory_app, players)
    hands.declare("yellow", "draw", cards=2)
    hands.declare("red", "draw", cards=1)
    two_loaders(hands, {"red": [10], "yellow": [10]})
    result = memory_app.queries.state_at(hands.id).result
    assert result["ranking"][:2] == [["yellow"], ["red"]]
    assert result["details"]["hands"]["yellow"] == 2, "hands are counted before the discard"

    boats = Table(memory_app, players)
    two_loaders(boats, {"red": [10], "yellow": [5, 5]})
    assert memory_app.queries.state_at(boats.id).result["ranking"][:2] == [["yellow"], ["red"]]

    order = Table(memory_app, players)
    two_loaders(order, {"red": [10], "yellow": [10]})
    result = memory_app.queries.state_at(order.id).result
    assert result["ranking"][:2] == [["red"], ["yellow"]], "red is earlier in player order"
    assert result["winners"] == ["red"]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_end_reveals_every_boat(memory_app: GameLog, players: int) -> None:
    table = Table(memory_app, players)
    events = table.red_loads_boat_one(1, ({"stone": 1}, 10), ({"camel": 3}, 2))
    events += table.pass_all()
    ended = of(events, "GameEnded")
    assert ended["boats"] == [
        {"boat": 1, "seat": "red", "card": "declared-1", "points": 10},
        {"boat": 2, "seat": None, "card": "declared-2", "points": 2},
    ]
    spectator = table.view(None)
    assert spectator["seats"]["red"]["boats"][0]["points"] == 10
    assert spectator["display"][0]["points"] == 2
    assert all(e.get("points") is not None for e in table.events_seen(None) if "card" in e)


# -- the variants -----------------------------------------------------------------------


@pytest.mark.parametrize(("goal", "players"), [(12, 2), (15, 4)])
def test_longer_games_need_twelve_or_fifteen_points(
    memory_app: GameLog, goal: int, players: int
) -> None:
    table = Table(memory_app, players, {"goal": goal})
    events = table.red_loads_boat_one(2, ({"stone": 1}, goal - 1), ({"stone": 1}, 1))
    events += table.pass_all()
    assert not of(events, "RoundEnded")["game_ends"]
    table.to_loading()
    table.pass_until("red")
    table.play("red", {"load": 2})
    table.pass_all()
    assert memory_app.queries.state_at(table.id).result["scores"]["red"] == goal


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_until_every_boat_is_loaded_with_declared_boats(memory_app: GameLog, players: int) -> None:
    table = Table(memory_app, players, {"goal": "all-boats"})
    table.red_loads_boat_one(2, ({"stone": 1}, 20))
    assert not table.finished, "20 points do not end this variant"
    table.end_phases()
    table.boat({"stone": 1}, 1)
    table.declare(ARBITER, "deck-empty")
    assert table.refused(ARBITER, {"declare": "deck-empty"}) == "deck-empty"
    assert table.refused(
        ARBITER, {"declare": "boat", "requirements": {"stone": 1}, "points": 1}
    ) == ("deck-empty")
    table.declare(ARBITER, "display-complete")
    table.pass_until("red")
    events = table.play("red", {"load": 2})
    assert of(events, "RoundEnded")["game_ends"] and table.finished


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_a_clubs_deck_is_dealt_from_the_seed(memory_app: GameLog, players: int) -> None:
    options = {"components": TEST_SET, "goal": "all-boats", "deal": {"boats": ["TB-2"]}}
    table = Table(memory_app, players, options)
    for seat in table.seats:
        table.declare(seat, "place-troops", location="quarry", count=1)
    table.declare("red", "gain", resources={"camel": 1, "food": 1, "stone": 1})
    table.end_phases()
    assert (
        table.refused(ARBITER, {"declare": "boat", "requirements": {}, "points": 1}) == "bad-move"
    )
    assert table.refused(ARBITER, {"declare": "deck-empty"}) == "dealt-deck"
    first = of(table.declare(ARBITER, "boat"), "BoatTurnedUp")
    assert first["card"] == "TB-2" and first["requirements"] == {"food": 1} and first["dealt"]
    for _ in range(2):
        table.declare(ARBITER, "boat")
    assert table.refused(ARBITER, {"declare": "boat"}) == "deck-empty"
    assert sorted(b.card for b in table.state.boats.values()) == ["TB-1", "TB-2", "TB-3"]
    seen = [e for e in table.events_seen(None) if e["type"] == "BoatTurnedUp"]
    assert all("card" not in e and "points" not in e for e in seen)
    table.declare(ARBITER, "display-complete")
    # Blue loads the stone boat with its quarry troop; red takes the others.
    by_card = {b.card: b.number for b in table.state.boats.values()}
    table.play(
        "blue", {"load": by_card["TB-1"], "fetch": [{"location": "quarry", "resource": "stone"}]}
    )
    table.play("red", {"load": by_card["TB-2"]})
    for seat in table.seats[2:]:
        table.play(seat, {"pass": True})
    table.play("blue", {"pass": True})
    fetch = [{"location": "quarry", "resource": "worker"}]
    events = table.play("red", {"load": by_card["TB-3"], "fetch": fetch})
    ended = of(events, "GameEnded")
    assert ended["scores"]["red"] == 9 and ended["ranking"][0] == "red"
    report = memory_app.queries.audit(table.id)
    assert report.ok and report.seed_checked


# -- the two-player rules -----------------------------------------------------------------


def test_two_players_activate_three_locations_first_second_first(memory_app: GameLog) -> None:
    table = Table(memory_app, 2)
    assert table.refused("red", {"declare": "activate", "location": "gizeh"}) == (
        "not-your-activation"
    )
    table.declare("blue", "activate", location="gizeh")
    assert table.refused("blue", {"declare": "activate", "location": "cairo"}) == (
        "not-your-activation"
    )
    assert table.refused("red", {"declare": "activate", "location": "gizeh"}) == (
        "already-activated"
    )
    table.declare("red", "activate", location="cairo")
    assert table.refused("red", {"declare": "done"}) == "three-locations"
    table.declare("blue", "activate", location="location-3")
    assert table.refused("blue", {"declare": "activate", "location": "location-4"}) == (
        "three-locations"
    )


def test_two_players_play_a_card_on_each_location_if_they_can(memory_app: GameLog) -> None:
    table = Table(memory_app, 2)
    for location, seat in (("gizeh", "blue"), ("cairo", "red"), ("location-3", "blue")):
        table.declare(seat, "activate", location=location)
    table.declare("blue", "draw", cards=2)
    table.declare("blue", "play", location="gizeh", cards=1)
    assert table.refused("blue", {"declare": "done"}) == "card-on-each-location"
    table.declare("blue", "play", location="cairo", cards=1)
    # Blue's hand is empty: the third location cannot get a card from blue.
    table.declare("blue", "done")
    table.declare("red", "done")  # red holds no card
    assert table.state.phase == "display"


def test_two_players_play_at_most_five_cards_on_a_location(memory_app: GameLog) -> None:
    table = Table(memory_app, 2)
    table.declare("blue", "activate", location="gizeh")
    table.declare("blue", "draw", cards=7)
    table.declare("blue", "play", location="gizeh", cards=4)
    assert table.refused("blue", {"declare": "play", "location": "gizeh", "cards": 2}) == (
        "five-cards"
    )
    table.declare("blue", "play", location="gizeh", cards=1)


def test_two_players_do_not_recruit(memory_app: GameLog) -> None:
    table = Table(memory_app, 2)
    assert table.refused("blue", {"declare": "recruit"}) == "no-recruiting"
    three = Table(memory_app, 3)
    events = three.declare("blue", "recruit", character="thief")
    assert events == [
        {"type": "CharacterRecruited", "declared": True, "seat": "blue", "character": "thief"}
    ]


# -- declared facts: consistency checks, refused and stored nothing --------------------------


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_inconsistent_declarations_are_refused_and_store_nothing(
    memory_app: GameLog, players: int
) -> None:
    table = Table(memory_app, players)
    table.declare("blue", "gain", resources={"stone": 1})
    table.declare("blue", "place-troops", location="cairo", count=1)
    refusals = {
        "not-enough-resources": ("blue", {"declare": "return", "resources": {"stone": 2}}),
        "unknown-location": ("blue", {"declare": "activate", "location": "memphis"}),
        "unknown-resource": ("blue", {"declare": "gain", "resources": {"gold": 1}}),
        "bad-resources": ("blue", {"declare": "gain", "resources": {"stone": -1}}),
        "not-enough-cards": ("blue", {"declare": "play", "location": "gizeh", "cards": 1}),
        "not-enough-troops": (
            "blue",
            {"declare": "move-troops", "from": "gizeh", "to": "cairo", "count": 1},
        ),
        "same-location": (
            "blue",
            {"declare": "move-troops", "from": "cairo", "to": "cairo", "count": 1},
        ),
        "not-in-pile": ("blue", {"declare": "gain", "resources": {"food": 1}, "from": "cairo"}),
        "bad-number": ("blue", {"declare": "draw", "cards": 0}),
        "bad-declaration": ("blue", {"declare": "cheat"}),
        "arbiter-declares": (
            "blue",
            {"declare": "boat", "requirements": {"stone": 1}, "points": 1},
        ),
        "bad-move": ("blue", {"declare": "draw", "cards": 1, "secretly": True}),
        "not-now": (ARBITER, {"declare": "display-complete"}),
        "production-known": (
            ARBITER,
            {"declare": "production", "location": "cairo", "produces": ["food"]},
        ),
        "bad-production": (
            ARBITER,
            {"declare": "production", "location": "gizeh", "produces": ["food", "food"]},
        ),
        "bad-name": (
            ARBITER,
            {
                "declare": "production",
                "location": "location-3",
                "produces": ["food"],
                "name": "a\nb",
            },
        ),
    }
    table.declare(ARBITER, "production", location="cairo", produces=["camel"])
    for code, (seat, move) in refusals.items():
        assert table.refused(seat, move) == code, move
    table.end_phases()
    assert table.refused("blue", {"declare": "draw", "cards": 1}) == "not-your-turn"
    assert table.refused("blue", {"load": 1}) == "not-your-turn"


def test_a_declaration_can_be_taken_back_like_a_move(memory_app: GameLog) -> None:
    table = Table(memory_app, 3, undo="free")
    table.declare("red", "gain", resources={"stone": 2})
    before = table.position
    table.declare("red", "place-troops", location="gizeh", count=3)
    memory_app.games.take_back(table.id, table.token("red"), "request", before, table.position)
    assert table.state.troops == {} and table.state.stock("red") == {"stone": 2}
    assert memory_app.queries.audit(table.id).ok


# -- options and component sets -----------------------------------------------------------


def broken(**changes: Any) -> dict[str, Any]:
    return {**TEST_SET, **changes}


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"component_set": "pyramidion/full"}, "unknown-component-set"),
        ({"goal": 11}, "bad-goal"),
        ({"goal": 10.0}, "bad-goal"),
        ({"deal": {"boats": []}}, "bad-deal"),
        ({"components": TEST_SET, "deal": {"boats": ["TB-9"]}}, "bad-deal"),
        ({"components": TEST_SET, "deal": {"boats": ["TB-1", "TB-1"]}}, "bad-deal"),
        ({"components": broken(resources=["camel", "stone"])}, "bad-components"),
        ({"components": broken(locations=TEST_SET["locations"][1:] * 2)}, "bad-components"),
        (
            {"components": broken(boats=[*TEST_SET["boats"], TEST_SET["boats"][0]])},
            "bad-components",
        ),
        (
            {
                "components": broken(
                    boats=[{"card": "X1", "requirements": {"gold": 1}, "points": 1}]
                )
            },
            "unknown-resource",
        ),
        (
            {"components": broken(locations=[{"id": "gizeh", "produces": ["gold"]}] * 3)},
            "bad-components",
        ),
        ({"components": TEST_SET, "component_set": "pyramidion/page-7"}, "unknown-component-set"),
    ],
)
def test_bad_options_are_refused_at_creation(
    memory_app: GameLog, options: dict[str, Any], code: str
) -> None:
    with pytest.raises(GamelogError) as refusal:
        memory_app.games.create_game("pyramidion", ["ann", "ben"], options)
    assert refusal.value.code == code


def test_a_clubs_set_names_and_production_are_used(memory_app: GameLog) -> None:
    table = Table(memory_app, 3, {"components": TEST_SET, "goal": 15})
    assert table.state.production == {
        "gizeh": ("camel",),
        "cairo": ("food",),
        "quarry": ("stone", "worker"),
    }
    assert table.view(None)["component_set"] == "test-fictional"
    assert table.view(None)["deck"] == {"cards_left": 3}
    # The production is known: nothing to declare.
    move = {"declare": "production", "location": "quarry", "produces": ["camel"]}
    assert table.refused(ARBITER, move) == "production-known"
