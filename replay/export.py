"""Portable record files: one versioned JSON file per game and its branches.

A record file holds the game's tag pairs (in the manner of PGN: game, rules
version, component set, players, undo policy, and any event / round / table
tags given at creation), every stored record of the game, and the same for each
branch forked from it. ``docs/record-format.md`` describes the format.

>>> from gamelog.replay.record import seal
>>> created = seal({"position": 0, "kind": "created", "prev_hash": "", "format": 2,
...     "time": "2026-11-30T20:00:00.000Z",
...     "game": "freeform", "rules_version": "1.0", "seats": ["a"],
...     "options": {"component_set": "freeform/none", "title": ""}, "undo_policy": "free",
...     "metadata": {"Event": "club night"}, "commitment": "0" * 64, "parent": None,
...     "base_ply": 0, "events": []})
>>> data = build_record_file([("g1", [created])])
>>> data["format"], data["games"][0]["tags"]["Players"], data["games"][0]["tags"]["Event"]
('gamelog-record', 'a', 'club night')
>>> parse_record_file(data)[0].game_id
'g1'
>>> try:
...     parse_record_file({**data, "games": [{"game_id": "g1", "records": [{"kind": "move"}]}]})
... except RecordFileError as refusal:
...     print(refusal)
game g1: record 0: position must be a whole number from 0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gamelog.replay.record import RECORD_FORMAT, Record
from gamelog.replay.signatures import (
    NO_SIGNATURES,
    SignatureBlock,
    SignatureError,
    Verdict,
    parse_signatures,
)
from gamelog.replay.validation import (
    MAX_GAMES_PER_FILE,
    NONCE_HEX,
    SEED_HEX,
    check_records,
    check_secret,
)

FORMAT = "gamelog-record"
FORMAT_VERSION = RECORD_FORMAT
"""The file's version is the record format its games are written in."""
READABLE_VERSIONS = (1, 2)


class RecordFileError(ValueError):
    """The file is not a record file this version can read."""


@dataclass(frozen=True)
class GameEntry:
    game_id: str
    records: list[Record]
    secret_seed: str | None = None
    secret_seed_nonce: str | None = None
    redacted: bool = False

    @property
    def finished(self) -> bool:
        return self.records[-1].get("kind") == "finished"

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
    secret_seeds: dict[str, tuple[str, str]] | None = None,
    redacted_games: Sequence[str] = (),
    left_out: dict[str, str] | None = None,
    signatures: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The file's JSON: the root game first, then its branches, parents first.
    ``secret_seeds`` gives running games' (seed, seed nonce) for an arbiter's
    export; ``redacted_games`` names games whose hidden parts were cut out for
    the reader (running games exported by someone who may not see everything)."""
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
            seed, nonce = secret_seeds[game_id]
            entry["secret_seed"] = seed
            if nonce:
                entry["secret_seed_nonce"] = nonce
        entries.append(entry)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "redacted": redacted or bool(redacted_games),
        "games": entries,
    }
    if left_out:
        data["left_out"] = [{"game_id": g, "reason": why} for g, why in left_out.items()]
    if signatures is not None:
        data["signatures"] = signatures
    return data


GAME_FIELDS = frozenset(
    {"game_id", "tags", "records", "secret_seed", "secret_seed_nonce", "redacted"}
)


def parse_record_file(data: Any) -> list[GameEntry]:
    """The games of a record file (redacted ones flagged), parents first.

    Every field of every record is checked (``validation``) before any game is
    returned: a file is read whole or refused whole."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordFileError(f"not a {FORMAT} file")
    version = data.get("version")
    if version not in READABLE_VERSIONS:
        raise RecordFileError(
            f"record file version {version!r} is not one this server reads "
            f"({', '.join(map(str, READABLE_VERSIONS))})"
        )
    if set(data) - {"format", "version", "redacted", "games", "left_out", "signatures"}:
        raise RecordFileError("the file has fields no record file has")
    file_signatures(data)
    if not isinstance(data.get("redacted", False), bool):
        raise RecordFileError("redacted must be true or false")
    games = data.get("games")
    if not isinstance(games, list) or not games:
        raise RecordFileError("the file holds no games")
    if len(games) > MAX_GAMES_PER_FILE:
        raise RecordFileError(f"a file holds at most {MAX_GAMES_PER_FILE} games")
    entries = [_entry(index, raw, bool(data.get("redacted"))) for index, raw in enumerate(games)]
    ids = [e.game_id for e in entries]
    if len(set(ids)) != len(ids):
        raise RecordFileError("a game id appears twice in the file")
    for index, entry in enumerate(entries):
        parent = entry.parent_id
        if parent is not None and parent in ids and ids.index(parent) > index:
            raise RecordFileError("a branch comes before its parent in the file")
        if version == 1 and not entry.finished:
            raise RecordFileError(
                f"game {entry.game_id} is a running game in record format 1, whose part hashes "
                "do not hide what they stand for; export it again from a current server"
            )
    return entries


def _entry(index: int, raw: Any, file_redacted: bool) -> GameEntry:
    where = f"game {index + 1}"
    if not isinstance(raw, dict) or not isinstance(raw.get("records"), list):
        raise RecordFileError(f"{where}: each game needs its records")
    if set(raw) - GAME_FIELDS:
        raise RecordFileError(
            f"{where}: fields no game entry has: {sorted(set(raw) - GAME_FIELDS)}"
        )
    game_id = raw.get("game_id", "")
    if not isinstance(game_id, str) or not 0 < len(game_id) <= 64:
        raise RecordFileError(f"{where}: game_id must be text of 1 to 64 characters")
    where = f"game {game_id}"
    redacted = raw.get("redacted", False)
    if not isinstance(redacted, bool):
        raise RecordFileError(f"{where}: redacted must be true or false")
    tags = raw.get("tags", {})
    if not isinstance(tags, dict):
        raise RecordFileError(f"{where}: tags must be an object")
    for secret, pattern in (("secret_seed", SEED_HEX), ("secret_seed_nonce", NONCE_HEX)):
        problem = check_secret(raw.get(secret), secret, pattern)
        if problem:
            raise RecordFileError(f"{where}: {problem}")
    redacted = redacted or file_redacted
    problem = check_records(raw["records"], redacted=redacted)
    if problem:
        raise RecordFileError(f"{where}: {problem}")
    return GameEntry(
        game_id,
        raw["records"],
        raw.get("secret_seed"),
        raw.get("secret_seed_nonce"),
        redacted,
    )


def file_signatures(data: Mapping[str, Any]) -> SignatureBlock:
    """A record file's signatures (``replay.signatures``; none in files made
    before servers signed); ``RecordFileError`` if they are not well formed."""
    if "signatures" not in data:
        return NO_SIGNATURES
    try:
        return parse_signatures(data["signatures"])
    except SignatureError as error:
        raise RecordFileError(str(error)) from None


def game_verdicts(entries: Sequence[GameEntry], block: SignatureBlock) -> list[tuple[str, Verdict]]:
    """Each game of a file, named ``game <id>``, with its signature's verdict."""
    return [(f"game {entry.game_id}", block.verdict("game", entry.records)) for entry in entries]
