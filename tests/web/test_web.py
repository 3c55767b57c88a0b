"""The replay page in a real headless Chromium: every game as pictures, move by
move, for each viewer.

A gamelog server and a ``gamelog web`` front end run as processes, games
are played through gRPC, and the page is driven as a person would: keys, the
slider, the move list, a token typed in or passed in the URL's fragment.
What the page shows is checked against what the service says (the move list
line by line against ListEvents, the picture against GetState), and a seat's
page, everything the browser received included, against the components the
rules hide from that seat. Screenshots of every game's board go to
.ci/screenshots/.
"""

from __future__ import annotations

import json
import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import Client
from gamelog.cli.process import ServerProcess, WebProcess, start_web_process
from gamelog.games import all_rules, get_rules
from gamelog.games.leaks import find_leaks
from gamelog.replay.fold import fold

from support.cli import gamelog_json
from support.page import ReplayPage, seats_for, svg_class_count
from support.random_play import GrpcGame, play_random

pytestmark = pytest.mark.e2e

GAMES = [rules.name for rules in all_rules()]
PICTURE = {
    "three-too-many": ["g.row", "g.seat", "g.hand"],
    "panem": ["g.location", "g.round", "g.pile"],
    "carcassonne-hg": ["g.tile", "text.coordinate", "g.tile-in-hand"],
    "hadara": ["g.colony", "g.stack", "g.track"],
    "freeform": ["text"],
    "pyramidion": ["g.location", "g.seat"],
}
"""Elements each game's picture must have (a game not named here: any element)."""
MOVES = 24
STATIC = Path(__file__).resolve().parents[2] / "web" / "static"


@pytest.fixture
def page(browser: Any, web: WebProcess) -> Iterator[ReplayPage]:
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    replay = ReplayPage(context.new_page(), web.url)
    yield replay
    context.close()
    assert not replay.errors, f"the page reported errors: {replay.errors}"


def new_game(
    client: Client, game: str, moves: int, seed: int, players: int = 0, **tags: str
) -> Any:
    rules = get_rules(game)
    seats = seats_for(game, rules.min_players, rules.max_players)
    if players:
        seats = [f"s{i + 1}" for i in range(players)]
    created = client.create(game, seats, metadata=tags, seed_hex=f"{seed:016x}")
    play_random(GrpcGame.of(client, created), random.Random(seed), moves)
    return created


def spectator_lines(
    client: Client, game_id: str, token: str | None = None
) -> list[tuple[int, str]]:
    return [(record["position"], line) for record, line in client.log(game_id, token)]


# -- serving ---------------------------------------------------------------------------


def http(
    url: str, headers: dict[str, str] | None = None, data: bytes | None = None
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {}, data=data)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_the_page_and_its_files_come_from_the_package_alone(web: WebProcess) -> None:
    status, headers, body = http(web.url)
    assert status == 200 and b'<script type="module" src="/static/main.js">' in body
    assert "script-src 'self'" in headers["content-security-policy"]
    files = sorted(str(p.relative_to(STATIC)) for p in STATIC.rglob("*") if p.is_file())
    assert {"index.html", "main.js", "style.css", "replay.js", "pickers/engine.js"} <= set(files)
    for name in files:
        status, _, content = http(web.url + f"static/{name}")
        assert status == 200, name
        text = content.decode()
        # An SVG's namespace is a name, not a fetch; nothing else may point outside.
        outside = re.findall(r"https?://(?!www\.w3\.org/2000/svg)[^\s\"')]+", text)
        assert not outside, f"{name} refers to {outside}"
        assert "@import" not in text and "//cdn" not in text


def test_refusals_are_http_statuses_with_the_service_reason(
    web: WebProcess, client: Client
) -> None:
    created = client.create("three-too-many", ["ann", "ben"])
    other = client.create("three-too-many", ["cy", "dee"])
    base = web.url + "api/games/"

    status, _, body = http(base + "not*an*id/state")
    assert status == 400 and json.loads(body)["error"]["reason"] == "bad-game-id"
    status, _, body = http(base + "00000000-0000-4000-8000-000000000000/state")
    assert status == 404 and json.loads(body)["error"]["code"] == "NOT_FOUND"
    status, _, body = http(base + f"{created.game_id}/state?at=x")
    assert status == 400 and json.loads(body)["error"]["reason"] == "bad-position"
    status, _, body = http(base + f"{created.game_id}/state?at=99")
    assert status == 404
    status, _, body = http(base + f"{created.game_id}/state", {"Authorization": "Basic abc"})
    assert status == 400 and json.loads(body)["error"]["reason"] == "bad-authorization"
    wrong = {"Authorization": f"Bearer {other.seat_tokens['cy']}"}
    status, _, body = http(base + f"{created.game_id}/state", wrong)
    assert status in (401, 403), body
    status, _, _ = http(base + f"{created.game_id}/follow", wrong)
    assert status in (401, 403), "a bad token is refused before the stream starts"
    as_json = {"Content-Type": "application/json"}
    status, _, body = http(
        base + f"{created.game_id}/fork", as_json, data=json.dumps({"at": 0}).encode()
    )
    assert status == 403 and json.loads(body)["error"]["reason"] == "arbiter-only"
    # A page bound to localhost answers to loopback names only.
    status, _, _ = http(web.url, {"Host": "attacker.example"})
    assert status == 400


def test_the_fork_dialogs_tokens_come_in_seat_order(web: WebProcess, client: Client) -> None:
    seats = ["zoe", "amy", "max", "bea", "kim"]
    created = client.create("freeform", seats)
    headers = {
        "Content-Type": "application/json",
        "Authorization": f"Bearer {created.arbiter_token}",
    }
    url = web.url + f"api/games/{created.game_id}/fork"
    status, _, body = http(url, headers, data=json.dumps({"at": 0}).encode())
    forked = json.loads(body)
    assert status == 200 and forked["seats"] == seats
    assert list(forked["seat_tokens"]) == seats


def test_a_seats_answers_carry_its_view_and_the_spectators_do_not(
    web: WebProcess, client: Client
) -> None:
    created = new_game(client, "three-too-many", 4, seed=3)
    url = web.url + f"api/games/{created.game_id}/state"
    _, _, seat_body = http(url, {"Authorization": f"Bearer {created.seat_tokens['s1']}"})
    _, _, spectator_body = http(url)
    seat, spectator = json.loads(seat_body), json.loads(spectator_body)
    assert seat["viewer"] == "s1" and spectator["viewer"] is None
    assert seat["svg"] == client.state(created.game_id, created.seat_tokens["s1"], picture=True).svg
    assert spectator["svg"] == client.state(created.game_id, picture=True).svg
    assert 'data-seat="s1"' in seat["svg"] and seat["svg"] != spectator["svg"]


def first_event(web: WebProcess, game_id: str, token: str) -> bytes:
    """Open the live stream as a page does, read up to its first event, and
    go away (closing the connection, as a closed tab does)."""
    host, port = urllib.parse.urlsplit(web.url).netloc.split(":")
    connection = HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request(
            "GET",
            f"/api/games/{game_id}/follow?from=0",
            headers={"Authorization": f"Bearer {token}"},
        )
        response = connection.getresponse()
        assert response.status == 200
        seen = b""
        while b"event: " not in seen:
            seen += response.read1(4096)
        return seen[seen.index(b"event: ") :].split(b"\n", 1)[0]
    finally:
        connection.close()


def test_a_closed_page_gives_its_live_stream_back(web: WebProcess, client: Client) -> None:
    """A seat may hold a few follow streams at once (the service's limit):
    each page that goes away must give its stream back, all the way to the
    service, or a seat reloading its page would soon be refused."""
    created = new_game(client, "three-too-many", 2, seed=71)
    for attempt in range(12):
        event = first_event(web, created.game_id, created.seat_tokens["s1"])
        if event == b"event: error":  # the last close may still be on its way
            time.sleep(0.5)
            event = first_event(web, created.game_id, created.seat_tokens["s1"])
        assert event == b"event: record", f"stream {attempt + 1} was refused"


# -- every game on the board -----------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_each_game_steps_by_key_slider_and_move_list(
    game: str, page: ReplayPage, client: Client
) -> None:
    created = new_game(client, game, MOVES, seed=11, Event="Board tests", Table=game)
    last = client.state(created.game_id).last_position
    assert last >= 6, f"{game}: too few positions to step through"

    page.open_game(created.game_id)
    page.wait_position(last)
    assert page.shown_number() == last == page.last_number()
    assert page.highlighted() == last
    assert page.move_lines() == spectator_lines(client, created.game_id)
    for selector in PICTURE.get(game, ["*"]):
        assert page.count(f"#board svg {selector}") > 0, f"{game}: no {selector} in the picture"
    page.screenshot(game)
    page.screenshot(f"{game}-board", board_only=True)

    page.press("ArrowLeft", 2)
    page.wait_position(last - 2)
    assert page.highlighted() == last - 2 == page.shown_number()
    page.press("ArrowRight")
    page.wait_position(last - 1)
    page.press("Home")
    page.wait_position(0)
    assert page.highlighted() == 0
    page.press("End")
    page.wait_position(last)

    middle = last // 2
    page.slide_to(middle)
    page.wait_position(middle)
    assert page.highlighted() == middle
    expected = client.state(created.game_id, at=middle, picture=True).svg
    assert page.count("#board [class]") == svg_class_count(expected)
    page.page.wait_for_function("h => location.hash.includes(h)", arg=f"at={middle}")

    page.page.click(f"#move-list li[data-position='{middle - 1}']")
    page.wait_position(middle - 1)
    assert page.highlighted() == middle - 1


def test_a_link_reopens_the_same_position_and_viewer(page: ReplayPage, client: Client) -> None:
    created = new_game(client, "three-too-many", 10, seed=5)
    page.open_game(created.game_id, token=created.seat_tokens["s2"])
    page.press("Home")
    page.press("ArrowRight", 3)
    page.wait_position(3)
    page.page.wait_for_function("() => location.hash.includes('at=3')")
    fragment = page.fragment()
    assert f"token={created.seat_tokens['s2']}" in fragment, "a token from the link stays in it"

    page.page.reload()
    page.wait_open(created.game_id)
    page.wait_position(3)
    assert page.viewer_badge() == "as s2"
    assert page.count("#board .hand[data-seat='s2'] [data-card]") > 0


# -- viewers ---------------------------------------------------------------------------


def test_switching_viewer_shows_what_each_may_see(page: ReplayPage, client: Client) -> None:
    created = new_game(client, "three-too-many", 6, seed=7)
    hands = "#board .hand [data-card]"
    page.open_game(created.game_id)
    assert page.viewer_badge() == "as spectator"
    assert page.count(hands) == 0, "a spectator sees no hand"

    page.use_token(created.seat_tokens["s1"])
    page.page.wait_for_function(
        "() => document.querySelector('#viewer-badge').textContent === 'as s1'"
    )
    page.page.wait_for_selector("#board .hand[data-seat='s1'] [data-card]")
    assert page.count("#board .hand[data-seat='s2'] [data-card]") == 0
    assert "token" not in page.fragment(), "a typed token stays out of the URL"

    page.use_token(created.arbiter_token)
    page.page.wait_for_function(
        "() => document.querySelector('#viewer-badge').textContent === 'as arbiter'"
    )
    page.page.wait_for_selector("#board .hand[data-seat='s3'] [data-card]")
    for seat in created.seat_tokens:
        assert page.count(f"#board .hand[data-seat='{seat}'] [data-card]") > 0

    page.choose_viewer("s1")
    page.page.wait_for_function(
        "() => document.querySelector('#viewer-badge').textContent === 'as s1'"
    )
    page.choose_viewer("spectator")
    page.page.wait_for_function(
        "() => document.querySelector('#viewer-badge').textContent === 'as spectator'"
    )
    page.page.wait_for_function(f"() => document.querySelectorAll('{hands}').length === 0")


def test_a_token_of_another_game_falls_back_to_the_spectator(
    page: ReplayPage, client: Client
) -> None:
    created = new_game(client, "three-too-many", 2, seed=8)
    other = client.create("three-too-many", ["x", "y"])
    page.open_game(created.game_id)
    page.use_token(other.seat_tokens["x"])
    page.page.wait_for_selector("#toast:not([hidden])")
    page.page.wait_for_function("() => document.querySelector('#viewer-select').value === ''")
    assert page.viewer_badge() == "as spectator"
    page.errors.clear()  # the refused calls are logged by the browser as failed loads


HIDDEN_GAMES = [g for g in GAMES if g != "freeform"]


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_a_seats_page_never_holds_another_seats_hidden_cards(
    game: str, page: ReplayPage, client: Client
) -> None:
    """Everything the browser shows and everything it received, at every
    position the seat visits, against ``rules.hidden_from``."""
    created = new_game(client, game, 30, seed=23)
    rules = get_rules(game)
    records = client.records(created.game_id, created.arbiter_token)
    states = dict(fold(rules, records))
    last = records[-1]["position"]
    assert records[-1]["kind"] != "finished", "a running game: hidden cards exist"
    seat = next(iter(created.seat_tokens))
    hidden_at = {p: frozenset(rules.hidden_from(s, seat)) for p, s in states.items()}
    # What the seat could never know, at any position: the move list may show
    # later what an earlier position hid (a card shown, a draw of its own).
    never_known = frozenset.intersection(*hidden_at.values())

    received: list[Any] = []
    page.page.on("response", lambda r: received.append(r) if "/api/" in r.url else None)
    page.open_game(created.game_id, token=created.seat_tokens[seat])
    assert page.viewer_badge() == f"as {seat}"
    # The table (the seat's picker, its list of moves, the schema form) is in
    # the page too, and in what the browser received.
    page.page.wait_for_selector(f"#table-panel[data-ready='{last}']")

    visited = [last]
    page.press("ArrowLeft", 3)
    visited.append(last - 3)
    page.wait_position(last - 3)
    page.slide_to(last // 2)
    visited.append(last // 2)
    page.wait_position(last // 2)
    page.press("Home")
    visited.append(0)
    page.wait_position(0)
    page.press("End")
    page.wait_position(last)
    for position in visited:
        page.page.locator("#slider").fill(str(position))
        page.wait_position(position)
        hidden = hidden_at[position]
        board = page.data_attributes("#board")
        assert not find_leaks(board, hidden), f"{game} at {position}: {find_leaks(board, hidden)}"
        assert not word_leaks(page.board_svg(), hidden), f"{game} at {position}"
        page_words = page.html()
        assert not word_leaks(page_words, never_known), f"{game}: the page shows {seat} too much"

    for response in received:
        if "/follow" in response.url:
            continue  # the live stream: it stays open, and it brings nothing new here
        if response.url.endswith("/api/game-types"):
            # The games' published schemas: the same for everyone (examples name cards).
            continue
        body = response.text()
        match = re.search(r"[?&]at=(\d+)", response.url)
        hidden = hidden_at[int(match.group(1))] if match else never_known
        if "/state" in response.url and response.ok:
            svg = json.loads(body)["svg"]
            attributes = [
                {key: int(v) if re.fullmatch(r"-?\d+", v) else v}
                for key, v in re.findall(r"data-([\w-]+)=\"([^\"]*)\"", svg)
            ]
            assert not find_leaks(attributes, hidden), (
                response.url,
                find_leaks(attributes, hidden),
            )
        assert not word_leaks(body, hidden), response.url

    # And the seat does see what is its own: something hidden from a spectator.
    own = {str(c) for c in rules.hidden_from(states[last], None) - hidden_at[last]}
    if own:
        page.press("End")
        page.wait_position(last)
        shown = {str(v) for row in page.data_attributes("#board") for v in row.values()}
        shown |= set(re.findall(r"[\w-]+", page.board_svg()))
        assert own & shown, f"{game}: the seat's own hidden cards are not on its board"


def word_leaks(text: str, hidden: frozenset[str | int]) -> list[str]:
    """Hidden string ids (three characters or more) found as whole words."""
    names = {h for h in hidden if isinstance(h, str) and len(h) >= 3}
    return sorted(set(re.findall(r"[\w-]+", text)) & names)


# -- live ------------------------------------------------------------------------------


def test_a_running_game_updates_as_moves_are_stored(page: ReplayPage, client: Client) -> None:
    created = new_game(client, "three-too-many", 3, seed=31)
    page.open_game(created.game_id)
    page.wait_position(3)
    page.page.wait_for_selector("#live-badge:not([hidden])")

    chooser = random.Random(31)
    play_random(GrpcGame.of(client, created), chooser, 2)
    page.wait_position(5)  # the page was at the end, so it follows the game
    assert page.last_number() == 5 == page.highlighted()
    assert page.move_lines() == spectator_lines(client, created.game_id)
    expected = client.state(created.game_id, picture=True).svg
    assert page.count("#board [class]") == svg_class_count(expected)

    page.press("Home")
    page.wait_position(0)
    play_random(GrpcGame.of(client, created), chooser, 1)
    page.page.wait_for_function("() => document.querySelector('#last-number').textContent === '6'")
    assert page.position() == 0, "a reader looking back stays where they are"
    assert page.move_lines() == spectator_lines(client, created.game_id)


def test_a_live_game_that_ends_shows_its_result(page: ReplayPage, client: Client) -> None:
    created = new_game(client, "freeform", 4, seed=37)
    page.open_game(created.game_id, token=created.seat_tokens["s1"])
    page.wait_position(4)
    page.page.wait_for_selector("#live-badge:not([hidden])")
    from support.page import end_freeform

    end_freeform(client, created)
    page.page.wait_for_function(
        "() => document.querySelector('#status-line').textContent.startsWith('Finished')"
    )
    page.page.wait_for_selector("#live-badge[hidden]", state="attached")
    last = client.state(created.game_id).last_position
    assert page.position() == last
    assert page.move_lines() == spectator_lines(client, created.game_id, created.seat_tokens["s1"])
    assert "1. s3 3" in page.page.inner_text("#status-line")


# -- branches --------------------------------------------------------------------------


def test_the_branch_tree_and_a_fork_from_the_shown_position(
    page: ReplayPage, client: Client
) -> None:
    created = new_game(client, "freeform", 6, seed=41)
    from support.page import end_freeform

    end_freeform(client, created)
    page.open_game(created.game_id, at=3)
    page.wait_position(3)
    page.page.wait_for_selector(".tree li.current")
    assert page.count(".tree li") == 1
    assert page.page.is_enabled("#fork-button"), "anyone may fork a finished game"

    page.page.click("#fork-button")
    page.page.wait_for_selector("#fork-dialog[open]")
    branch_id = page.page.inner_text("#fork-id")
    assert page.page.inner_text("#fork-at") == "3"
    assert page.count("#fork-links li.seat-link") == len(created.seat_tokens) + 1
    page.page.wait_for_selector("#fork-links li.seat-link .qr svg")
    page.page.click("#fork-open")
    page.page.wait_for_function("id => location.hash.startsWith('#/game/' + id)", arg=branch_id)
    page.wait_position(0)
    page.page.wait_for_selector(f".tree li.current[data-game='{branch_id}']")
    assert page.count(".tree li") == 2
    assert page.viewer_badge() == "as arbiter"
    assert "from position 3" in page.page.inner_text(".tree li.current")
    assert [n.game_id for n in client.tree(branch_id).nodes] == [created.game_id, branch_id]

    # The parent shows where the branch leaves it, and opens it from there.
    # (The branch's arbiter token is not the parent's: the parent opens for
    # a spectator, and the browser logs the refused calls.)
    page.page.click(f".tree li[data-game='{created.game_id}'] > a")
    page.page.wait_for_function(
        "() => document.querySelector('#viewer-badge').textContent === 'as spectator'"
    )
    page.errors = [e for e in page.errors if "status of 401" not in e]
    page.page.wait_for_selector("#move-list li[data-position='3'] a.branch")
    page.page.click("#move-list li[data-position='3'] a.branch")
    page.page.wait_for_function("id => location.hash.includes(id)", arg=branch_id)


def test_a_running_game_is_forked_by_its_arbiter_only(page: ReplayPage, client: Client) -> None:
    created = new_game(client, "three-too-many", 5, seed=43)
    page.open_game(created.game_id)
    assert not page.page.is_enabled("#fork-button")
    assert "arbiter" in page.page.inner_text("#fork-note")
    page.use_token(created.arbiter_token)
    page.page.wait_for_function("() => !document.querySelector('#fork-button').disabled")
    page.press("ArrowLeft", 2)
    page.wait_position(3)
    page.page.click("#fork-button")
    page.page.wait_for_selector("#fork-dialog[open]")
    branch_id = page.page.inner_text("#fork-id")
    page.page.click("#fork-dialog button[value=close]")
    page.page.wait_for_function("() => document.querySelectorAll('.tree li').length === 2")
    # The dialog's close event comes in a task of its own, after the click:
    # the tree may well be drawn before it.
    page.page.wait_for_selector("#fork-dialog:not([open])", state="attached")
    page.page.wait_for_function("() => document.querySelectorAll('#fork-links li').length === 0")
    assert page.count("#fork-links li") == 0, "the tokens leave the page with the dialog"
    assert client.state(branch_id).position == 0


# -- the game list and tournaments -------------------------------------------------------


@pytest.fixture(scope="module")
def club_night(client_module: Client) -> dict[str, Any]:
    event = f"Club night {random.Random().randrange(10**6)}"
    games = {
        "r1t1": new_game(client_module, "three-too-many", 2, 51, Event=event, Round="1", Table="1"),
        "r1t2": new_game(
            client_module, "panem", 2, 52, players=4, Event=event, Round="1", Table="2"
        ),
        "r2t1": new_game(client_module, "freeform", 2, 53, Event=event, Round="2", Table="1"),
    }
    from support.page import end_freeform

    end_freeform(client_module, games["r2t1"])
    return {"event": event, "games": games}


@pytest.fixture(scope="module")
def client_module(sqlite_server: ServerProcess) -> Iterator[Client]:
    with sqlite_server.client() as c:
        yield c


def listed(page: ReplayPage) -> list[str]:
    # Until the list the address asks for is in (not the one before it).
    page.page.wait_for_function(
        "() => document.querySelector('#games-summary').dataset.hash === location.hash"
    )
    return [
        str(g)
        for g in page.page.eval_on_selector_all(
            "#games-body tr", "rows => rows.map(r => r.dataset.game)"
        )
    ]


def test_the_game_list_filters_by_game_tag_event_and_round(
    page: ReplayPage, club_night: dict[str, Any]
) -> None:
    event, games = club_night["event"], club_night["games"]
    ids = {key: created.game_id for key, created in games.items()}
    page.goto(f"#/games?event={urllib.parse.quote(event)}")
    assert listed(page) == [ids["r2t1"], ids["r1t2"], ids["r1t1"]], "newest first"
    page.screenshot("game-list")

    page.page.fill("#filter-form input[name=round]", "1")
    page.page.click("#filter-form button[type=submit]")
    page.page.wait_for_function("() => location.hash.includes('round=1')")
    assert sorted(listed(page)) == sorted([ids["r1t1"], ids["r1t2"]])

    page.page.select_option("#filter-form select[name=game]", "panem")
    page.page.click("#filter-form button[type=submit]")
    page.page.wait_for_function("() => location.hash.includes('game=panem')")
    assert listed(page) == [ids["r1t2"]]

    page.goto(f"#/games?event={urllib.parse.quote(event)}&player=s4")
    assert listed(page) == [ids["r1t2"]], "only the panem table has four seats"
    page.goto(f"#/games?event={urllib.parse.quote(event)}&tag=Table%3D1")
    assert sorted(listed(page)) == sorted([ids["r1t1"], ids["r2t1"]])
    page.goto(f"#/games?event={urllib.parse.quote(event)}&status=finished")
    assert listed(page) == [ids["r2t1"]]

    page.page.click(f"#games-body tr[data-game='{ids['r2t1']}'] td:nth-child(3)")
    page.wait_open(ids["r2t1"])
    assert page.fragment().startswith(f"#/game/{ids['r2t1']}")


def test_a_listing_answered_late_never_replaces_a_newer_one(
    page: ReplayPage, club_night: dict[str, Any]
) -> None:
    event, games = club_night["event"], club_night["games"]
    ids = {key: created.game_id for key, created in games.items()}
    held: list[Any] = []

    def hold_the_finished_list(route: Any) -> None:
        if "status=finished" in route.request.url and not held:
            held.append(route)
        else:
            route.continue_()

    quoted = urllib.parse.quote(event)
    page.goto(f"#/games?event={quoted}")
    listed(page)
    page.page.route("**/api/games*", hold_the_finished_list)
    page.page.evaluate(f"() => {{ location.hash = '#/games?event={quoted}&status=finished'; }}")
    while not held:
        page.page.wait_for_timeout(20)
    page.goto(f"#/games?event={quoted}&round=1")
    assert sorted(listed(page)) == sorted([ids["r1t1"], ids["r1t2"]])
    with page.page.expect_response(lambda response: "status=finished" in response.url):
        held[0].continue_()
    page.page.wait_for_timeout(200)  # time for the late answer to be handled
    assert sorted(listed(page)) == sorted([ids["r1t1"], ids["r1t2"]]), "the newer list stays"
    page.page.unroute("**/api/games*")


def test_tournaments_list_events_with_rounds_and_tables(
    page: ReplayPage, club_night: dict[str, Any]
) -> None:
    event, games = club_night["event"], club_night["games"]
    page.goto("#/tournaments")
    page.page.click(f"#events a:text-is('{event}')")
    page.page.wait_for_selector("#event section.round")
    rounds = page.page.eval_on_selector_all(
        "#event section.round h3", "hs => hs.map(h => h.textContent)"
    )
    assert rounds == ["Round 1", "Round 2"]
    assert "recorded one by one" in page.page.inner_text("#event .standings")
    finished = page.page.inner_text("#event section.round:nth-of-type(3) tr:nth-child(2)")
    assert "won by s3 3" in finished
    page.screenshot("tournament")
    page.page.click("#event section.round >> text=Table 2")
    page.wait_open(games["r1t2"].game_id)
    assert page.fragment().startswith(f"#/game/{games['r1t2'].game_id}")


def test_a_gamelog_tournament_shows_its_standings(
    page: ReplayPage, sqlite_server: ServerProcess
) -> None:
    """A tournament run by gamelog: its event page shows the standings the
    Tournaments service computes, a row per player in place order."""

    def gamelog(*args: str) -> Any:
        return gamelog_json(sqlite_server, *args)

    name = f"Web open {random.randrange(10**6)}"
    created = gamelog(
        "tournament", "new", name, "--game", "three-too-many", "--table-size", "2", "--rounds", "1"
    )
    tid, director = created["tournament_id"], created["director_token"]
    gamelog("tournament", "register", tid, "Ann", "Ben", "Cy", "Dee", "--token", director)
    gamelog("tournament", "pair", tid, "--token", director)
    gamelog("tournament", "selfplay", tid, "--token", director, "--seed", "3")
    standings = gamelog("tournament", "standings", tid)
    page.goto("#/tournaments")
    page.page.click(f"#events a:text-is('{name}')")
    page.page.wait_for_selector("#event .standings-table tr[data-player]")
    shown = page.page.eval_on_selector_all(
        "#event .standings-table tr[data-player]", "rows => rows.map(r => r.dataset.player)"
    )
    expected = [
        row["player"]
        for row in (standings["standings"] if isinstance(standings, dict) else standings)
    ]
    assert shown == expected and len(shown) == 4
    # Each row's rating links to the player's page; the round's sheets are linked below.
    ratings = page.page.eval_on_selector_all(
        "#event .standings-table tr[data-player] td:last-child a", "a => a.map(x => x.href)"
    )
    assert [href.rsplit("/", 1)[-1] for href in ratings] == expected
    sheets = page.page.eval_on_selector_all("#event p.sheets a", "a => a.map(x => x.href)")
    assert [href.split("/rounds/")[-1] for href in sheets] == ["1/pairings", "1/slips"]
    page.screenshot("tournament-standings")


# -- tokens stay out of logs ---------------------------------------------------------------


def test_tokens_never_reach_the_front_ends_log(
    browser: Any, sqlite_server: ServerProcess, client: Client, tmp_path: Path
) -> None:
    """uvicorn's access log prints every request line: tokens travel in
    headers, so none is in it, however the page was given them."""
    created = client.create("three-too-many", ["s1", "s2", "s3"], undo_policy="consent")
    play_random(GrpcGame.of(client, created), random.Random(61), 4)
    web = start_web_process(tmp_path, sqlite_server.address)
    try:
        context = browser.new_context()
        page = ReplayPage(context.new_page(), web.url)
        page.open_game(created.game_id, token=created.seat_tokens["s1"])
        page.press("ArrowLeft")
        page.use_token(created.arbiter_token)
        page.page.wait_for_function(
            "() => document.querySelector('#viewer-badge').textContent === 'as arbiter'"
        )
        page.page.click("#fork-button")
        page.page.wait_for_selector("#fork-dialog[open] #fork-links .qr svg")
        fork_links = page.page.eval_on_selector_all(
            "#fork-links a.link", "links => links.map(a => a.href)"
        )
        fork_tokens = [
            urllib.parse.parse_qs(link.split("?", 1)[1])["token"][0] for link in fork_links
        ]
        page.page.click("#fork-dialog button[value=close]")
        # A seat moves and asks for a take-back from its own link.
        seat_page = ReplayPage(context.new_page(), web.url)
        to_act = client.state(created.game_id).to_act[0]
        seat_page.open_game(created.game_id, token=created.seat_tokens[to_act])
        seat_page.page.wait_for_selector("#table-panel fieldset button[data-move]")
        seat_page.page.locator("#table-panel fieldset button[data-move]").first.click()
        seat_page.page.wait_for_selector("#table-panel[data-ready='5']")
        seat_page.page.click("#takeback-panel button.ask-own")
        seat_page.page.wait_for_selector("#takeback-panel .said")
        context.close()
    finally:
        web.stop()
    log = web.log_path.read_text()
    assert '"GET /api/games/' in log and "/follow" in log and '"POST /api/games/' in log
    assert "/moves" in log and "/takeback" in log and "/table" in log and '"POST /api/qr' in log
    assert len(fork_tokens) == len(created.seat_tokens) + 1
    for token in [*created.seat_tokens.values(), created.arbiter_token, *fork_tokens]:
        assert token not in log
