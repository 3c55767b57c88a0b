"""JSON Schemas (draft 2020-12) of panem's options, moves, views and events,
read once from ``data/schemas.json`` (tests/games/test_rules_contract.py checks
every move, view and event against them)."""

from __future__ import annotations

from collections.abc import Mapping

from gamelog.games.components import load_json
from gamelog.games.protocol import JSON

SCHEMAS: Mapping[str, JSON] = load_json("gamelog.games.panem", "schemas.json")
