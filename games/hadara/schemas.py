"""JSON Schemas (draft 2020-12) of Hadara's options, moves, views and events.

They live in ``data/schemas.json`` and are read once; every legal move,
every view for every viewer and every event, stored or redacted, validates
(tests/test_rules_contract.py and tests/games/test_hadara_notation.py check).
"""

from __future__ import annotations

from collections.abc import Mapping

from gamelog.games.components import load_json
from gamelog.games.protocol import JSON

SCHEMAS: Mapping[str, JSON] = load_json("gamelog.games.hadara", "schemas.json")
