"""The table in the browser: seats play from their own screens.

Each seat is a browser context of its own, opened from its seat link (the
token in the fragment, as `gamelog new --links` prints it); everything is
done by clicking the page (the pickers, the picture, the take-back panel);
afterwards the server's records are read through gRPC and compared with what
was clicked. Every page is checked with axe-core at a phone's, a laptop's
and a desktop's size, for horizontal overflow too, and photographed to
.ci/screenshots/.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from gamelog.cli.client import Client
from gamelog.cli.process import WebProcess
from gamelog.games import all_rules, get_rules

from support.page import (
    SCREENSHOTS,
    SIZES,
    TablePage,
    require_axe,
    seat_url,
    serious_violations,
)
from support.random_play import GrpcGame, play_random

pytestmark = pytest.mark.e2e

GAMES = [rules.name for rules in all_rules()]


class Seats:
    """One browser context per seat (and more for spectators), closed together."""

    def __init__(self, browser: Any, web: WebProcess) -> None:
        self.browser = browser
        self.web = web
        self.contexts: list[Any] = []
        self.pages: list[TablePage] = []

    def open(
        self, game_id: str, token: str | None, size: tuple[int, int] = (1280, 720)
    ) -> TablePage:
        context = self.browser.new_context(
            viewport={"width": size[0], "height": size[1]}, bypass_csp=True
        )
        self.contexts.append(context)
        page = TablePage(context.new_page(), self.web.url)
        self.pages.append(page)
        if token:
            page.open_link(seat_url(self.web.url, game_id, token), game_id)
        else:
            page.open_game(game_id)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        errors = [e for page in self.pages for e in page.errors]
        assert not errors, f"the pages reported errors: {errors}"


@pytest.fixture
def seats(browser: Any, web: WebProcess) -> Iterator[Seats]:
    opened = Seats(browser, web)
    yield opened
    opened.close()


def moves_of(client: Client, game_id: str, token: str) -> list[tuple[str, Any]]:
    """(seat, move) of every stored move, as the arbiter reads the record."""
    return [
        (record["seat"], record["move"])
        for record in client.records(game_id, token)
        if record["kind"] == "move"
    ]


# -- playing ---------------------------------------------------------------------------


def test_a_whole_three_too_many_game_from_two_seat_links(seats: Seats, client: Client) -> None:
    created = client.create("three-too-many", ["ann", "ben"], seed_hex="00000000000000aa")
    game_id = created.game_id
    pages = {seat: seats.open(game_id, token) for seat, token in created.seat_tokens.items()}
    clicked: list[tuple[str, Any]] = []
    chooser = random.Random(5)
    while True:
        state = client.state(game_id)
        if state.finished:
            break
        seat = state.to_act[0]
        page = pages[seat]
        page.wait_table(state.last_position)
        offered = page.offered("#table-panel fieldset button[data-move]")
        assert offered, f"{seat} is to act but is offered nothing"
        move = chooser.choice(offered)
        if len(clicked) % 2:
            # Every other card by the picture: the hand's card itself.
            page.page.click(f"#board .hand [data-card='{move['card']}'].target")
        else:
            page.click_move(move)
        clicked.append((seat, move))
        for other in pages.values():
            other.page.wait_for_function(
                "p => Number(document.querySelector('#board').dataset.position) >= p",
                arg=state.last_position + 1,
            )
    assert moves_of(client, game_id, created.arbiter_token) == clicked
    for page in pages.values():
        page.page.wait_for_function(
            "() => document.querySelector('#status-line').textContent.startsWith('Finished')"
        )
        assert page.page.text_content("#table-heading") == "The game is over"


def test_a_carcassonne_turn_placed_by_clicking_the_map(seats: Seats, client: Client) -> None:
    created = client.create("carcassonne-hg", ["red", "blue"], seed_hex="00000000000000cc")
    game_id = created.game_id
    state = client.state(game_id)
    seat = state.to_act[0]
    page = seats.open(game_id, created.seat_tokens[seat])
    page.wait_table(state.last_position)
    place = page.page.locator("#board g.fits.target").first
    x, y = int(place.get_attribute("data-x") or 0), int(place.get_attribute("data-y") or 0)
    place.click()
    page.page.wait_for_selector("#table-panel fieldset[data-kind='place'] button.back")
    turns = page.offered("#table-panel fieldset[data-kind='place'] button[data-move]")
    assert turns and all(t["place"]["x"] == x and t["place"]["y"] == y for t in turns)
    page.click_move(turns[-1])
    page.wait_table(state.last_position + 1)
    figures = page.offered("#table-panel button[data-move]")
    assert {"pass": True} in figures
    # The figure and its zone by keyboard alone: focus the step, press Enter.
    steps = page.page.locator("#table-panel fieldset[data-kind='deploy'] button.step")
    if steps.count():
        steps.first.focus()
        page.page.keyboard.press("Enter")
        page.page.wait_for_selector("#table-panel fieldset[data-kind='deploy'] button.back")
        zone = page.page.locator(
            "#table-panel fieldset[data-kind='deploy'] button[data-move]"
        ).first
        chosen = json.loads(zone.get_attribute("data-move") or "null")
        zone.focus()
        page.page.keyboard.press("Enter")
    else:
        chosen = {"pass": True}
        page.click_move(chosen)
    page.page.wait_for_function(
        "p => Number(document.querySelector('#board').dataset.position) >= p",
        arg=state.last_position + 2,
    )
    assert moves_of(client, game_id, created.arbiter_token) == [(seat, turns[-1]), (seat, chosen)]


def propose_a_trade(page: TablePage, hands: dict[str, list[str]], me: str) -> None:
    """The trade builder: to a seat, one of my cards, for a good that seat holds."""
    section = "#table-panel fieldset[data-kind='propose']"
    for target in page.page.locator(f"{section} button.step").all():
        partner = (target.text_content() or "").removeprefix("to ")
        held = {card.rsplit("-", 1)[0] for card in hands[partner]}
        target.click()
        asks = page.page.locator(f"{section} button.toggle[data-item]")
        wanted = [a for a in asks.all() if json.loads(a.get_attribute("data-item") or "0") in held]
        if wanted and hands[me]:
            page.page.locator(f"{section} button.toggle").first.click()  # a card of mine
            wanted[0].click()
            page.page.locator(f"{section} button.send").click()
            return
        page.page.locator(f"{section} button.back").click()
    raise AssertionError("no seat holds a good worth asking for")


def test_a_panem_round_with_a_trade_and_sealed_tributes(seats: Seats, client: Client) -> None:
    """Up to the first tribute: the trading phase (one trade proposed and
    accepted, from two screens) and the tributes sealed at the same time."""
    created = client.create("panem", ["ann", "ben", "cy"], seed_hex="00000000000000ab")
    game_id = created.game_id
    pages = {seat: seats.open(game_id, token) for seat, token in created.seat_tokens.items()}
    proposed = False
    for _ in range(80):
        state = client.state(game_id)
        view = json.loads(client.state(game_id, created.arbiter_token).view_json)
        actors = [s for s in state.to_act if s in pages]
        for seat in actors:
            pages[seat].wait_table(state.last_position)
        kinds = {
            seat: set(
                pages[seat].page.eval_on_selector_all(
                    "#table-panel fieldset", "fs => fs.map(f => f.dataset.kind)"
                )
            )
            for seat in actors
        }
        if all("tribute" in kinds[seat] for seat in actors) and len(actors) == 3:
            # Every seat seals at once from its own screen: all click, then wait.
            for seat in actors:
                cards = pages[seat].page.locator("fieldset[data-kind='tribute'] button.toggle")
                if cards.count():
                    cards.first.click()
            for seat in actors:
                pages[seat].page.locator("fieldset[data-kind='tribute'] button.send").click(
                    no_wait_after=True
                )
            for seat in actors:
                pages[seat].wait_table(state.last_position + 3)
            break
        seat = actors[0]
        page = pages[seat]
        accepting = [s for s in actors if "accept" in kinds[s]]
        if accepting:
            seat, page = accepting[0], pages[accepting[0]]
            page.page.locator("fieldset[data-kind='accept'] button[data-move]").first.click()
        elif "propose" in kinds[seat] and not proposed:
            propose_a_trade(page, view["hands"], seat)
            proposed = True
        elif "done" in kinds[seat]:
            page.page.locator("fieldset[data-kind='done'] button[data-move]").click()
        else:
            first = page.page.locator("#table-panel fieldset button.choice:not(.back)").first
            first.click()
            if not first.get_attribute("data-move"):  # a step: the next click finishes it
                page.page.locator("#table-panel fieldset button[data-move]").first.click()
        for _ in range(200):
            if client.state(game_id).last_position > state.last_position:
                break
            page.page.wait_for_timeout(25)
    records = client.records(game_id, created.arbiter_token)
    kinds_played = [next(iter(r["move"])) for r in records if r["kind"] == "move"]
    assert "propose" in kinds_played and "accept" in kinds_played, kinds_played
    assert kinds_played.count("tribute") == 3, kinds_played
    sealed = [
        r["move"]["tribute"] for r in records if r["kind"] == "move" and "tribute" in r["move"]
    ]
    assert any(sealed), "a card was sealed"


# -- taking back -----------------------------------------------------------------------


def test_a_take_back_asked_approved_and_seen_live_by_a_spectator(
    seats: Seats, client: Client
) -> None:
    created = client.create("three-too-many", ["ann", "ben"], undo_policy="consent")
    game_id = created.game_id
    ann = seats.open(game_id, created.seat_tokens["ann"])
    ben = seats.open(game_id, created.seat_tokens["ben"])
    spectator = seats.open(game_id, None)
    ann.wait_table(0)
    move = ann.offered("#table-panel fieldset button[data-move]")[0]
    ann.click_move(move)
    ann.wait_table(1)
    ann.page.click("#takeback-panel button.ask-own")
    ann.page.wait_for_selector("#takeback-panel .said")
    assert "ann asked to go back to position 0; waiting for ben" in ann.page.inner_text(
        "#takeback-panel .said"
    )
    ben.page.wait_for_selector("#takeback-panel button.approve")
    assert "ann asks to go back to position 0" in ben.page.inner_text("#takeback-panel .pending")
    ben.page.click("#takeback-panel button.approve")
    ben.page.wait_for_function(
        "() => (document.querySelector('#takeback-panel .said') || {}).textContent"
        "?.startsWith('ben approved; back to position 0')"
    )
    spectator.page.wait_for_selector("#move-list li.kind-takeback")
    kinds = [r["kind"] for r in client.records(game_id)]
    assert kinds == ["created", "move", "undo-request", "undo-approve", "takeback"]
    assert client.state(game_id).to_act == ["ann"], "ann moves again"


# -- every page at every size ----------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_page_fits_the_screen_and_passes_axe(
    size: tuple[int, int], seats: Seats, client: Client
) -> None:
    """At a phone's, a laptop's and a desktop's size: nothing wider than the
    screen, no serious or critical axe-core finding, a screenshot of each
    game's table as its seat to act sees it."""
    require_axe()
    width, height = size
    problems: list[str] = []
    for game in GAMES:
        rules = get_rules(game)
        seats_named = [
            f"s{i + 1}" for i in range(min(max(3, rules.min_players), rules.max_players))
        ]
        created = client.create(game, seats_named, seed_hex="000000000000001f")
        play_random(GrpcGame.of(client, created), random.Random(3), 12)
        state = client.state(game_id := created.game_id)
        seat = next((s for s in state.to_act if s in created.seat_tokens), seats_named[0])
        page = seats.open(game_id, created.seat_tokens[seat], size)
        page.wait_table(state.last_position)
        problems += check_page(page, width, f"table-{game}-{width}x{height}")
    page = seats.open(game_id, None, size)
    for fragment, name in [
        ("#/games", "games"),
        ("#/new", "new-game"),
        ("#/tournaments", "tournaments"),
    ]:
        page.goto(fragment)
        page.page.wait_for_timeout(300)
        problems += check_page(page, width, f"{name}-{width}x{height}")
    assert not problems, problems


def check_page(page: TablePage, width: int, name: str) -> list[str]:
    """What is wrong with the page as it is now; a screenshot of it."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
    problems = [f"{name}: {found}" for found in serious_violations(page.page)]
    scroll_width = int(page.page.evaluate("document.documentElement.scrollWidth"))
    if scroll_width > width:
        problems.append(f"{name}: the page is {scroll_width} px wide")
    return problems
