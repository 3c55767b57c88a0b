"""docs/schemas.md, written from every game's ``schemas()``.

The schemas live with the rules; this page shows them to client authors who do
not read our Python: per game, what its options, moves, views and events look
like, with an example of each. ``make docs`` writes the page, and a test keeps
it current.

    python -m gamelog.games.schema_docs > docs/schemas.md
    python -m gamelog.games.schema_docs --json    # every game's schemas, as JSON
"""

from __future__ import annotations

import json
from typing import Any

from gamelog.games import all_rules

PARTS = {
    "options": "Options (CreateGame `options_json`)",
    "move": "Moves (PlayMove `move_json`)",
    "view": "Views (GetState `view_json`)",
    "event": "Events (the `events` of each record)",
}


def render() -> str:
    lines = [
        "# Schemas of every game's options, moves, views and events",
        "",
        "Written by `make docs` from each game's `schemas()`; the same schemas",
        "come through the API in `ListGameTypes` (`schemas_json`) and in",
        "`gamelog games --json`. They are JSON Schema draft 2020-12. Every move",
        "`ListLegalMoves` gives, every view and every event (as stored and as",
        "each viewer receives it) validates against them; the tests check it.",
        "Each schema's `$id` (`urn:gamelog:<game>:<part>:<version>`) names its",
        "version; docs/compatibility.md says what changes a version and lists",
        "every change.",
        "",
    ]
    for rules in all_rules():
        schemas = rules.schemas()
        lines += [f"## {rules.name}: {rules.title}", ""]
        lines += [
            f"Rules {rules.rules_version}, {rules.min_players}–{rules.max_players} players.",
            "",
        ]
        for part, heading in PARTS.items():
            schema: Any = schemas[part]
            version = str(schema.get("$id", "")).rpartition(":")[2]
            lines += [f"### {heading}, version {version}", ""]
            lines += [str(schema.get("description", "")).strip(), ""]
            examples = schema.get("examples", [])
            if examples:
                lines += ["Example:", "", "```json", json.dumps(examples[0], indent=1), "```", ""]
            lines += [
                "<details><summary>Schema</summary>",
                "",
                "```json",
                json.dumps(schema, indent=1),
                "```",
                "",
                "</details>",
                "",
            ]
    return "\n".join(lines)


def published() -> dict[str, Any]:
    """Every game's schemas by game name, as ``ListGameTypes`` publishes them
    (``python -m gamelog.games.schema_docs --json``: the node tests compile
    them with a strict validator)."""
    return {rules.name: dict(rules.schemas()) for rules in all_rules()}


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--json"]:
        print(json.dumps(published()))
    else:
        print(render(), end="")
