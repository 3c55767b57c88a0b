"""The web front end's fixtures: a ``gamelog web`` process before the shared
``sqlite_server``, and the system's headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gamelog.cli.process import ServerProcess, WebProcess, start_web_process

from support.page import launch, require_browser


@pytest.fixture(scope="module")
def web(
    sqlite_server: ServerProcess, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[WebProcess]:
    running = start_web_process(tmp_path_factory.mktemp("web"), sqlite_server.address)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()
