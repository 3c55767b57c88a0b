"""Fixtures the service's rooms share."""

from __future__ import annotations

from typing import Any

import pytest

from gamelog.cli.client import Client

from support.two_seats import finished_game


@pytest.fixture
def finished_export(client: Client) -> dict[str, Any]:
    """The record file of a finished two-seat game, as ``client`` exports it."""
    created = finished_game(client)
    return dict(client.export(created.game_id))
