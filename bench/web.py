"""Case i: the replay page in a headless browser, on a 1,000-move game.

A ``gamelog serve --db <tmp sqlite>`` process holds a 1,000-move freeform
game, recorded through PlayMove; a ``gamelog web`` process serves the page,
and Debian's Chromium (headless, driven by Playwright) opens it. Inside the
page, each measurement runs from the input event's own timestamp (the key
press, the slider's input) to the first moment after the board was redrawn
and painted: the ``gamelog:drawn`` event, then the next animation frame,
then a task after it (which runs once that frame is painted).

- **step**: ArrowRight, pressed again as soon as the last step was painted
  (as fast as a person could hold the key), from position 0 on.
- **jump**: the slider set to random positions (a fetch each, mostly: only
  the positions next to the one on show are fetched ahead).
- **big picture**: the same steps on a Hadara game, whose table is some 70 kB
  of SVG against freeform's 0.5 kB.
- **move**: a seat's click on a legal move in the table's picker (a
  three-too-many game, two seats each in a page of its own) to the board
  redrawn at the new position after the server acknowledged the move:
  from the click event's timestamp to the paint after ``gamelog:drawn``.
  Its baseline is a bare PlayMove round trip from Python in the same run.

Baselines measured in the same run: the raw GetState round trip with its
picture over gRPC from Python (what a jump must wait for at least), and the
browser's own fetch of one position through the front end.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

from bench.common import CaseResult, Row, Settings, median, percentile
from gamelog.cli.process import start_server_process, start_web_process

CHROMIUM = Path(os.environ.get("GAMELOG_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
STEP_GOAL_MS = 50.0
JUMP_GOAL_MS = 200.0
MOVE_GOAL_MS = 150.0

# Installed once per page: times each input from its event's timestamp to
# the paint after the board showed the new position.
PROBE = """() => {
  const probe = { start: null, times: [], cached: [], handler: [] };
  const started = (event) => { probe.start = event.timeStamp; };
  window.addEventListener("keydown", started, true);
  document.querySelector("#slider").addEventListener("input", started, true);
  window.addEventListener("gamelog:drawn", (event) => {
    const start = probe.start;
    if (start === null) return;
    probe.start = null;
    probe.cached.push(event.detail.cached);
    probe.handler.push(performance.now() - start);
    requestAnimationFrame(() => setTimeout(() => probe.times.push(performance.now() - start), 0));
  });
  window.__probe = probe;
}"""


def browser_problem() -> str | None:
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed"
    return None


def record_freeform(client: Any, moves: int) -> str:
    created = client.create("freeform", ["white", "black"])
    seats = ["white", "black"]
    for ply in range(moves):
        seat = seats[ply % 2]
        move = {"ply": ply + 1, "note": f"move {ply + 1}"}
        client.play(created.game_id, move, ply, created.seat_tokens[seat])
    return str(created.game_id)


def record_hadara(client: Any, moves: int, seed: int = 3) -> str:
    chooser = random.Random(seed)
    created = client.create("hadara", ["ann", "ben", "cy"], seed_hex=f"{seed:016x}")
    for _ in range(moves):
        state = client.state(created.game_id)
        if state.finished:
            break
        seat = chooser.choice([s for s in state.to_act if s != "#arbiter"])
        move = chooser.choice(client.legal_moves(created.game_id, created.arbiter_token, seat))
        client.play(created.game_id, move, state.last_position, created.seat_tokens[seat])
    return str(created.game_id)


def grpc_round_trips(client: Any, game_id: str, last: int, samples: int) -> list[float]:
    rng = random.Random(11)
    times = []
    for _ in range(samples):
        position = rng.randint(0, last)
        t = time.perf_counter()
        client.state(game_id, at=position, picture=True)
        times.append(time.perf_counter() - t)
    return [t * 1000 for t in times]


class Page:
    """The page on one game, with the probe installed."""

    def __init__(self, browser: Any, url: str, game_id: str, at: int) -> None:
        self.page = browser.new_page(viewport={"width": 1440, "height": 1000})
        self.page.add_init_script(LOAD_PROBE)
        self.page.goto(f"{url}#/game/{game_id}?at={at}")
        self.page.wait_for_selector(f"#board[data-position='{at}']")
        self.page.evaluate(PROBE)

    def measured(self) -> int:
        return int(self.page.evaluate("window.__probe.times.length"))

    def wait_for(self, count: int) -> None:
        self.page.wait_for_function(f"() => window.__probe.times.length >= {count}")

    def samples(self) -> list[tuple[float, bool]]:
        """Each measured time, and whether the position came from the page's cache."""
        times, cached = self.page.evaluate("[window.__probe.times, window.__probe.cached]")
        return [(float(t), bool(c)) for t, c in zip(times, cached)]

    def steps(self, count: int) -> list[tuple[float, bool]]:
        for i in range(count):
            self.page.keyboard.press("ArrowRight")
            self.wait_for(i + 1)
        return self.samples()

    def jumps(self, positions: list[int]) -> list[tuple[float, bool]]:
        slider = self.page.locator("#slider")
        for i, position in enumerate(positions):
            slider.fill(str(position))
            self.wait_for(i + 1)
            self.page.wait_for_timeout(20)  # let the fetches ahead settle, as between drags
        return self.samples()

    def fetches(self, game_id: str, positions: list[int]) -> list[float]:
        """The browser's own round trip for one position through the front end."""
        return [
            float(t)
            for t in self.page.evaluate(
                """async ([game, positions]) => {
                    const times = [];
                    for (const p of positions) {
                        const t = performance.now();
                        await (await fetch(`/api/games/${game}/state?at=${p}`)).json();
                        times.push(performance.now() - t);
                    }
                    return times;
                }""",
                [game_id, positions],
            )
        ]

    def load_times(self, url: str, game_id: str) -> tuple[float, float]:
        """From navigation to the latest position drawn, and to the whole move
        list in, in milliseconds (read in the page, from its time origin)."""
        self.page.goto("about:blank")
        self.page.goto(f"{url}#/game/{game_id}")
        self.page.wait_for_function("() => window.__loaded && window.__loaded.list")
        board, listed = self.page.evaluate("[window.__loaded.board, window.__loaded.list]")
        return float(board), float(listed)


# Installed before the page's own scripts: when the first board is drawn,
# and when the move list is in.
LOAD_PROBE = """
window.__loaded = { board: null, list: null };
window.addEventListener("gamelog:drawn", () => {
  if (window.__loaded.board === null) window.__loaded.board = performance.now();
});
new MutationObserver(() => {
  const list = document.querySelector("#move-list[data-game]");
  if (list && window.__loaded.list === null) window.__loaded.list = performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-game"] });
"""


# Installed in each seat's page: times a click on a legal move to the paint
# after the board showed the position the move made.
MOVE_PROBE = """() => {
  const probe = { start: null, target: null, times: [] };
  document.querySelector("#table-panel").addEventListener("click", (event) => {
    if (!event.target.closest("button[data-move]")) return;
    probe.start = event.timeStamp;
    probe.target = Number(document.querySelector("#table-panel").dataset.position) + 1;
  }, true);
  window.addEventListener("gamelog:drawn", (event) => {
    if (probe.start === null || event.detail.position < probe.target) return;
    const start = probe.start;
    probe.start = null;
    requestAnimationFrame(() => setTimeout(() => probe.times.push(performance.now() - start), 0));
  });
  window.__moveProbe = probe;
}"""


def play_round_trips(client: Any, count: int) -> list[float]:
    """Bare PlayMove round trips (ms) on a three-too-many game of two seats."""
    created = client.create("three-too-many", ["ann", "ben"], seed_hex="0000000000000b0b")
    times: list[float] = []
    while len(times) < count:
        state = client.state(created.game_id)
        if state.finished:
            created = client.create("three-too-many", ["ann", "ben"])
            continue
        seat = state.to_act[0]
        move = client.legal_moves(created.game_id, created.seat_tokens[seat])[0]
        t = time.perf_counter()
        client.play(created.game_id, move, state.last_position, created.seat_tokens[seat])
        times.append((time.perf_counter() - t) * 1000)
    return times


def click_moves(browser: Any, url: str, client: Any, count: int) -> list[float]:
    """Moves played by clicking the picker, each seat in its own page."""
    created = client.create("three-too-many", ["ann", "ben"], seed_hex="0000000000000b0c")
    game_id = created.game_id
    pages = {}
    for seat, token in created.seat_tokens.items():
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.goto(f"{url}#/game/{game_id}?token={token}")
        page.wait_for_selector("#table-panel[data-ready]")
        page.evaluate(MOVE_PROBE)
        pages[seat] = page
    done = 0
    while done < count:
        state = client.state(game_id)
        if state.finished:
            break
        page = pages[state.to_act[0]]
        page.wait_for_selector(f"#table-panel[data-ready='{state.last_position}']")
        before = int(page.evaluate("window.__moveProbe.times.length"))
        page.locator("#table-panel fieldset button[data-move]").first.click()
        page.wait_for_function(f"() => window.__moveProbe.times.length > {before}")
        done += 1
    times = [float(t) for page in pages.values() for t in page.evaluate("window.__moveProbe.times")]
    for page in pages.values():
        page.close()
    return times


def case_i(settings: Settings) -> CaseResult:
    from gamelog.cli.client import Client

    result = CaseResult(
        "i",
        "replay page in headless Chromium, 1,000-move game",
        "GetState with its picture over gRPC from Python, random positions",
    )
    problem = browser_problem()
    if problem is not None:
        result.skipped = problem
        return result
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright

    moves = settings.pick(1000, 120)
    steps = settings.pick(300, 20)
    jumps = settings.pick(100, 10)
    hadara_moves = settings.pick(120, 30)
    clicks = settings.pick(40, 8)
    server = start_server_process(settings.workdir, "--db", str(settings.workdir / "i.sqlite"))
    web = start_web_process(settings.workdir, server.address)
    try:
        with Client(server.address) as client:
            t0 = time.perf_counter()
            game_id = record_freeform(client, moves)
            recorded = time.perf_counter() - t0
            hadara_id = record_hadara(client, hadara_moves)
            hadara_last = client.state(hadara_id).last_position
            baseline = grpc_round_trips(client, game_id, moves, jumps * 2)
            hadara_baseline = grpc_round_trips(client, hadara_id, hadara_last, jumps)
        rng = random.Random(5)
        targets = [rng.randint(0, moves) for _ in range(jumps)]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
            try:
                page = Page(browser, web.url, game_id, 0)
                step_times = page.steps(steps)
                page = Page(browser, web.url, game_id, 0)
                jump_times = page.jumps(targets)
                fetch_times = page.fetches(game_id, targets)
                loads = [page.load_times(web.url, game_id) for _ in range(settings.pick(5, 2))]
                big = Page(browser, web.url, hadara_id, 0)
                big_steps = big.steps(min(steps, hadara_last))
                with Client(server.address) as client:
                    move_times = click_moves(browser, web.url, client, clicks)
                    play_baseline = play_round_trips(client, clicks)
            finally:
                browser.close()
    finally:
        web.stop()
        server.stop()

    def row(label: str, samples: list[tuple[float, bool]], base: list[float], goal: float) -> Row:
        times = [t for t, _ in samples]
        hits = [t for t, cached in samples if cached]
        misses = [t for t, cached in samples if not cached]
        value, base_value = median(times), median(base)
        return Row(
            label=label,
            value=value,
            baseline=base_value,
            unit="ms",
            ratio=value / base_value,
            ratio_meaning="page time / GetState round trip (lower is better)",
            goal=f"< {goal:.0f} ms",
            met=value < goal,
            context={
                "p50_ms": value,
                "p99_ms": percentile(times, 99),
                "max_ms": max(times),
                "baseline_p50_ms": base_value,
                "baseline_p99_ms": percentile(base, 99),
                "samples": len(times),
                "from_page_cache": len(hits),
                "cached_p50_ms": median(hits),
                "cached_p99_ms": percentile(hits, 99),
                "fetched_p50_ms": median(misses),
                "fetched_p99_ms": percentile(misses, 99),
            },
        )

    result.rows.append(
        row(f"step: key press → board ({steps} steps)", step_times, baseline, STEP_GOAL_MS)
    )
    result.rows.append(
        row(f"jump: slider → board ({jumps} random positions)", jump_times, baseline, JUMP_GOAL_MS)
    )
    result.rows[-1].context["browser_fetch_p50_ms"] = median(fetch_times)
    result.rows[-1].context["browser_fetch_p99_ms"] = percentile(fetch_times, 99)
    result.rows[-1].context["load_board_p50_ms"] = median([board for board, _ in loads])
    result.rows[-1].context["load_move_list_p50_ms"] = median([listed for _, listed in loads])
    result.rows.insert(
        0,
        row(
            f"step on a Hadara game: key press → board ({len(big_steps)} steps, ~70 kB SVG)",
            big_steps,
            hadara_baseline,
            STEP_GOAL_MS,
        ),
    )
    moved = row(
        f"move: click on a legal move → board after the server's answer ({len(move_times)} moves)",
        [(t, False) for t in move_times],
        play_baseline,
        MOVE_GOAL_MS,
    )
    moved.ratio_meaning = "page time / bare PlayMove round trip (lower is better)"
    result.rows.append(moved)
    board_load = median([board for board, _ in loads])
    list_load = median([listed for _, listed in loads])
    result.notes.append(
        f"{moves}-move freeform game recorded over gRPC in {recorded:.1f} s; a page load "
        f"(median of {len(loads)}) draws the latest position after {board_load:.0f} ms and "
        f"has the move list of {moves + 1} lines in after {list_load:.0f} ms"
    )
    result.notes.append(
        "the browser's own fetch of one position through the front end: median "
        f"{median(fetch_times):.1f} ms, p99 {percentile(fetch_times, 99):.1f} ms"
    )
    return result
