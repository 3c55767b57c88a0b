"""Every published schema's shape is pinned under its versioned ``$id``
(docs/compatibility.md): a schema that changes shape under the same ``$id``
fails here, so a client that trusts the ``$id`` it was built for is never
broken unannounced (as Hadara's ``outer_stacks`` once broke one)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from gamelog.games.schema_docs import published

HERE = Path(__file__).parent
FINGERPRINTS = HERE / "schema_fingerprints.json"
COMPATIBILITY = HERE.parent.parent / "docs" / "compatibility.md"
ID = re.compile(r"^urn:gamelog:(?P<game>[a-z0-9-]+):(?P<part>options|move|view|event):(?P<v>\d+)$")
WORDS_ONLY = {"description", "examples", "title", "$comment"}


NAMED = {"properties", "patternProperties", "$defs"}
"""Keywords whose keys are names (a property called "title"), not keywords."""


def shape(schema: Any) -> Any:
    """The schema without what only explains it (descriptions, examples)."""
    if isinstance(schema, dict):
        return {
            k: {name: shape(s) for name, s in v.items()} if k in NAMED else shape(v)
            for k, v in schema.items()
            if k not in WORDS_ONLY
        }
    if isinstance(schema, list):
        return [shape(item) for item in schema]
    return schema


def fingerprint(schema: Any) -> str:
    text = json.dumps(shape(schema), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def current() -> dict[str, str]:
    return {
        schema["$id"]: fingerprint(schema)
        for parts in published().values()
        for schema in parts.values()
    }


def test_every_schema_has_a_versioned_id_naming_its_game_and_part() -> None:
    for game, parts in published().items():
        for part, schema in parts.items():
            found = ID.match(schema.get("$id", ""))
            assert found, f"{game} {part}: $id {schema.get('$id')!r}"
            assert (found["game"], found["part"]) == (game, part)


def test_no_schema_changes_shape_under_the_same_id() -> None:
    pinned = json.loads(FINGERPRINTS.read_text())
    changed = {i: f for i, f in current().items() if pinned.get(i) not in (None, f)}
    assert not changed, (
        f"these schemas changed shape under the same $id: {sorted(changed)}. If a client "
        "built for that $id could break, raise its version and add a line to "
        "docs/compatibility.md; otherwise record the new fingerprint in "
        f"{FINGERPRINTS.name} (docs/compatibility.md, 'What changes a version')"
    )
    assert set(current()) <= set(pinned), f"record {sorted(set(current()) - set(pinned))}"


def test_every_version_above_one_is_in_the_table_of_changes() -> None:
    table = COMPATIBILITY.read_text()
    for schema_id in current():
        found = ID.match(schema_id)
        assert found
        if int(found["v"]) > 1:
            row = f"| `urn:gamelog:{found['game']}:{found['part']}` | {found['v']} |"
            assert row in table, f"docs/compatibility.md lists no change for {schema_id}"


if __name__ == "__main__":
    # Records the fingerprints of the schemas as they are (after a decision).
    FINGERPRINTS.write_text(json.dumps(current(), indent=1, sort_keys=True) + "\n")
