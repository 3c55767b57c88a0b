"""Portable record files: one versioned JSON file per game and its branches.

A record file holds the game's tag pairs (in the manner of PGN: game, rules
version, component set, players, undo policy, and any event / round / table
tags given at creation), every stored record of the game, and the same for each
branch forked from it. ``docs/record-format.md`` describes the format.

>>> data = build_record_file([("g1", [{"position": 0, "kind": "created", "game": "freeform",
...     "rules_version": "1.0", "seats": ["a"], "options": {"component_set": "freeform/none"},
...     "undo_policy": "free", "metadata": {"Event": "club night"}, "parent": None}])])
>>> data["format"], data["games"][0]["tags"]["Players"], data["games"][0]["tags"]["Event"]
('gamelog-record', 'a', 'club night')
>>> parse_record_file(data)[0].game_id
'g1'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamelog.replay.record import Record

FORMAT = "gamelog-record"
FORMAT_VERSION = 1


class RecordFileError(ValueError):
    """The file is not a record file this version can read."""


@dataclass(frozen=True)
class GameEntry:
    game_id: str
    records: list[Record]
    secret_seed: str | None = None
    redacted: bool = False

    @property
    def parent_id(self) -> str | None:
        parent = self.records[0].get("parent")
        return parent.get("game_id") if isinstance(parent, dict) else None


def tags_of(created: Record) -> dict[str, str]:
    options = created.get("options") or {}
    tags = {
        "Game": created["game"],
        "RulesVersion": created["rules_version"],
        "ComponentSet": str(options.get("component_set", "")),
        "Players": ",".join(created["seats"]),
        "UndoPolicy": created["undo_policy"],
    }
    for key, value in (created.get("metadata") or {}).items():
        tags.setdefault(str(key), str(value))
    return tags


def build_record_file(
    games: Sequence[tuple[str, list[Record]]],
    redacted: bool = False,
    secret_seeds: dict[str, str] | None = None,
    redacted_games: Sequence[str] = (),
) -> dict[str, Any]:
    """The file's JSON: the root game first, then its branches, parents first.
    ``redacted_games`` names games whose hidden parts were cut out for the
    reader (running games exported by someone who may not see everything)."""
    entries = []
    for game_id, records in games:
        entry: dict[str, Any] = {
            "game_id": game_id,
            "tags": tags_of(records[0]),
            "records": records,
        }
        if redacted or game_id in redacted_games:
            entry["redacted"] = True
        if secret_seeds and game_id in secret_seeds:
            entry["secret_seed"] = secret_seeds[game_id]
        entries.append(entry)
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "redacted": redacted or bool(redacted_games),
        "games": entries,
    }


def parse_record_file(data: Any) -> list[GameEntry]:
    """The games of a record file (redacted ones flagged), parents first."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordFileError(f"not a {FORMAT} file")
    if data.get("version") != FORMAT_VERSION:
        raise RecordFileError(
            f"record file version {data.get('version')!r} is not {FORMAT_VERSION}"
        )
    games = data.get("games")
    if not isinstance(games, list) or not games:
        raise RecordFileError("the file holds no games")
    entries: list[GameEntry] = []
    for raw in games:
        if not isinstance(raw, dict) or not isinstance(raw.get("records"), list):
            raise RecordFileError("each game needs its records")
        records = raw["records"]
        if not records or not all(isinstance(r, dict) for r in records):
            raise RecordFileError("each game needs at least its creation record")
        seed = raw.get("secret_seed")
        if seed is not None and not isinstance(seed, str):
            raise RecordFileError("secret_seed must be hex text")
        redacted = bool(raw.get("redacted") or data.get("redacted"))
        entries.append(GameEntry(str(raw.get("game_id", "")), records, seed, redacted))
    ids = [e.game_id for e in entries]
    if len(set(ids)) != len(ids):
        raise RecordFileError("a game id appears twice in the file")
    for index, entry in enumerate(entries):
        parent = entry.parent_id
        if parent is not None and parent in ids and ids.index(parent) > index:
            raise RecordFileError("a branch comes before its parent in the file")
    return entries
