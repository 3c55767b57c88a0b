"""The replay page in a real headless Chromium, for the web tests.

The browser is the system's (Debian's ``chromium`` at /usr/bin/chromium),
driven by Playwright's Python package; nothing downloads a browser. Where
Chromium or Playwright is missing the browser tests skip, unless
GAMELOG_REQUIRE_BROWSER=1 (as .ci/run sets), where that is a failure.

``ReplayPage`` is the page as a person uses it: open a game, press keys,
drag the slider, type a token, read what the board and the move list show.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from gamelog.cli.client import Client

CHROMIUM = Path(os.environ.get("GAMELOG_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / ".ci" / "screenshots"
VIEWPORT = {"width": 1440, "height": 1000}
WAIT_MS = 15_000

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")


def browser_problem() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium chromium-driver)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as error:
        return f"Playwright is not installed: {error}"
    return None


def require_browser() -> None:
    problem = browser_problem()
    if problem is None:
        return
    if os.environ.get("GAMELOG_REQUIRE_BROWSER") == "1":
        pytest.fail(f"the browser tests are required but cannot run: {problem}")
    pytest.skip(problem)


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)


# -- games for the page ----------------------------------------------------------------


def seats_for(game: str, min_players: int, max_players: int) -> list[str]:
    count = min(max(3, min_players), max_players)
    return [f"s{i + 1}" for i in range(count)]


def end_freeform(client: Client, created: Any) -> None:
    """The arbiter enters the result: every seat scores its seat number."""
    seats = sorted(created.seat_tokens)
    result = {
        "scores": {seat: index + 1 for index, seat in enumerate(seats)},
        "ranking": [[seat] for seat in reversed(seats)],
    }
    last = client.state(created.game_id).last_position
    client.play(created.game_id, {"result": result}, last, created.arbiter_token)


# -- the page --------------------------------------------------------------------------


class ReplayPage:
    """One browser tab on the replay page."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.page = page
        self.base = base_url
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    def goto(self, fragment: str = "") -> None:
        self.page.goto(self.base + fragment)
        self.page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)

    def open_game(self, game_id: str, at: int | None = None, token: str | None = None) -> None:
        parts = [f"at={at}"] if at is not None else []
        if token:
            parts.append(f"token={token}")
        self.goto(f"#/game/{game_id}" + ("?" + "&".join(parts) if parts else ""))
        self.wait_open(game_id)

    def wait_open(self, game_id: str) -> None:
        """Until the board and the move list of ``game_id`` are in."""
        self.page.wait_for_selector("#board[data-position]", timeout=WAIT_MS)
        self.page.wait_for_selector(f"#move-list[data-game='{game_id}']", timeout=WAIT_MS)

    # -- what it shows

    def position(self) -> int:
        return int(self.page.get_attribute("#board", "data-position") or -1)

    def wait_position(self, position: int) -> None:
        self.page.wait_for_function(
            """p => document.querySelector('#board').dataset.position === String(p)
                   && !document.querySelector('#board').classList.contains('loading')""",
            arg=position,
            timeout=WAIT_MS,
        )

    def shown_number(self) -> int:
        return int(self.page.inner_text("#position-number"))

    def last_number(self) -> int:
        return int(self.page.inner_text("#last-number"))

    def highlighted(self) -> int:
        return int(self.page.get_attribute("#move-list li.current", "data-position") or -1)

    def move_lines(self) -> list[tuple[int, str]]:
        items = self.page.eval_on_selector_all(
            "#move-list li",
            "items => items.map(li => [Number(li.dataset.position),"
            " li.querySelector('.line').textContent])",
        )
        return [(int(p), str(text)) for p, text in items]

    def board_svg(self) -> str:
        return str(self.page.inner_html("#board"))

    def count(self, selector: str) -> int:
        return int(self.page.eval_on_selector_all(selector, "items => items.length"))

    def viewer_badge(self) -> str:
        return str(self.page.inner_text("#viewer-badge"))

    def fragment(self) -> str:
        return str(self.page.evaluate("location.hash"))

    def data_attributes(self, within: str = "body") -> list[dict[str, Any]]:
        """Every element's data-* attributes, numbers as numbers: what
        ``find_leaks`` reads as one component under a key like ``card``."""
        rows = self.page.eval_on_selector_all(
            f"{within} *",
            """items => items.map(el => Object.fromEntries([...el.attributes]
                 .filter(a => a.name.startsWith('data-'))
                 .map(a => [a.name.slice(5), a.value]))).filter(r => Object.keys(r).length)""",
        )
        return [{key: as_number(value) for key, value in row.items()} for row in rows]

    def html(self) -> str:
        return str(self.page.content())

    # -- what a person does

    def press(self, key: str, times: int = 1) -> None:
        # Keys go to the page, not to a field that had the focus.
        self.page.evaluate("document.activeElement && document.activeElement.blur()")
        for _ in range(times):
            self.page.keyboard.press(key)

    def slide_to(self, position: int) -> None:
        self.page.locator("#slider").fill(str(position))

    def use_token(self, token: str) -> None:
        self.page.fill("#token-input", token)
        self.page.click("#viewer-form button[type=submit]")

    def choose_viewer(self, label: str) -> None:
        options = self.page.eval_on_selector_all(
            "#viewer-select option", "items => items.map(o => [o.value, o.textContent])"
        )
        value = next(v for v, text in options if text.startswith(label))
        self.page.select_option("#viewer-select", value)

    def screenshot(self, name: str, board_only: bool = False) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        # Two frames: the move list scrolls to the current move after a paint.
        self.page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        path = SCREENSHOTS / f"{name}.png"
        target = self.page.locator("#board") if board_only else self.page
        target.screenshot(path=str(path))
        return path


def as_number(value: str) -> int | str:
    return int(value) if re.fullmatch(r"-?\d+", value) else value


def svg_class_count(svg: str) -> int:
    """Elements carrying a class attribute in an SVG as the service sent it."""
    return len(re.findall(r"<[a-zA-Z][^>]*\sclass=\"", svg))


# -- the table -------------------------------------------------------------------------

AXE = ROOT / "tests" / "web" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = [(390, 844), (1280, 720), (1920, 1080)]
"""A phone, a laptop, a desktop screen: every page is checked at each."""


def axe_problem() -> str | None:
    if not AXE.exists():
        return f"axe-core is not installed: run `npm ci` in {AXE.parents[2]}"
    return None


def require_axe() -> None:
    problem = axe_problem()
    if problem is None:
        return
    if os.environ.get("GAMELOG_REQUIRE_BROWSER") == "1":
        pytest.fail(f"the accessibility checks are required but cannot run: {problem}")
    pytest.skip(problem)


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now
    (the context must bypass the page's CSP, which allows no injected script)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
             const result = await axe.run(document, { resultTypes: ["violations"] });
             return result.violations
               .filter(v => v.impact === "serious" || v.impact === "critical")
               .map(v => `${v.id} (${v.impact}): `
                 + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | "));
           }"""
    )
    return [str(line) for line in found]


def seat_url(base: str, game_id: str, token: str) -> str:
    """A seat link as `gamelog new --links` prints it."""
    from gamelog.web.links import seat_link

    return seat_link(base, game_id, token)


class TablePage(ReplayPage):
    """One seat's browser on the table: its own context, opened from its link."""

    def open_link(self, link: str, game_id: str) -> None:
        self.page.goto(link)
        self.page.wait_for_selector("body[data-ready]", timeout=WAIT_MS)
        self.wait_open(game_id)

    def wait_table(self, position: int) -> None:
        """Until the table panel shows the game at ``position``."""
        self.page.wait_for_selector(f"#table-panel[data-ready='{position}']", timeout=WAIT_MS)

    def offered(self, selector: str = "#table-panel button[data-move]") -> list[Any]:
        import json

        found = self.page.eval_on_selector_all(selector, "bs => bs.map(b => b.dataset.move)")
        return [json.loads(text) for text in found]

    def click_move(self, move: Any) -> None:
        import json

        buttons = self.page.locator("#table-panel button[data-move]")
        for index in range(buttons.count()):
            button = buttons.nth(index)
            if json.loads(button.get_attribute("data-move") or "null") == move:
                button.click()
                return
        raise AssertionError(f"{move} is not offered")
