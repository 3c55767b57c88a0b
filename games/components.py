"""Component data (cards, tiles) shipped as JSON files beside each game.

Every game keeps its component data in a data file, names the set it used in
each record (``component_set``), and accepts another set at creation.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load_json(package: str, filename: str) -> Any:
    """Read ``filename`` from the ``data/`` folder of a game package."""
    return json.loads(resources.files(package).joinpath("data", filename).read_text("utf-8"))
