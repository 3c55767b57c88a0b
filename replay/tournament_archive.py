"""A tournament archive: the tournament's record and every one of its games' records.

One JSON file, so a tournament can be posted, audited anywhere, and moved to
another server::

    {
      "format": "gamelog-tournament",
      "version": 1,
      "tournament": {"tournament_id": "…", "records": [ … ],
                     "secret_seed": "…", "secret_seed_nonce": "…"},
      "games": [ {"game_id": "…", "tags": {…}, "records": [ … ]}, … ],
      "signatures": {"keys": {…}, "heads": [ … ]}
    }

Each entry of ``games`` is a game entry of a record file (``replay.export``),
checked the same way; the secret seeds appear only in a director's archive of
a tournament (or a game) still running, so it can go on elsewhere. The
``signatures`` (``replay.signatures``), the exporting server's on the head of
the tournament's chain and of every game's, are left out of archives made
before servers signed.

>>> from gamelog.replay.record import seal
>>> created = seal({"position": 0, "kind": "created", "prev_hash": "", "format": 2,
...     "time": "2026-11-30T20:00:00.000Z", "game": "freeform", "rules_version": "1.0",
...     "seats": ["a"], "options": {"component_set": "freeform/none", "title": ""},
...     "undo_policy": "none", "metadata": {}, "commitment": "0" * 64, "parent": None,
...     "base_ply": 0, "events": []})
>>> try:
...     parse_archive({"format": FORMAT, "version": 1, "games": [],
...                    "tournament": {"tournament_id": "t", "records": []}})
... except RecordFileError as refusal:
...     print(refusal)
tournament: a tournament needs at least its creation record
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from gamelog.replay.audit import audit_entries
from gamelog.replay.audit_report import AuditReport
from gamelog.replay.export import (
    FORMAT as RECORD_FILE_FORMAT,
)
from gamelog.replay.export import (
    FORMAT_VERSION,
    GameEntry,
    RecordFileError,
    build_record_file,
    parse_record_file,
)
from gamelog.replay.record import Record
from gamelog.replay.signatures import (
    NO_SIGNATURES,
    SignatureBlock,
    SignatureError,
    Verdict,
    parse_signatures,
)
from gamelog.replay.tournament_audit import audit_tournament
from gamelog.replay.tournament_validation import check_tournament_records
from gamelog.replay.validation import NONCE_HEX, SEED_HEX, check_secret

FORMAT = "gamelog-tournament"
VERSION = 1
MAX_GAMES = 4096

__all__ = [
    "FORMAT",
    "Archive",
    "RecordFileError",
    "audit_archive",
    "build_archive",
    "parse_archive",
    "untrusted",
    "verdicts",
]


@dataclass(frozen=True)
class Archive:
    tournament_id: str
    records: list[Record]
    secret_seed: str | None
    secret_seed_nonce: str | None
    games: list[GameEntry]
    signatures: SignatureBlock = NO_SIGNATURES


def build_archive(
    tournament_id: str,
    records: list[Record],
    games: Sequence[tuple[str, list[Record]]],
    secret_seed: tuple[str, str] | None = None,
    game_seeds: dict[str, tuple[str, str]] | None = None,
    redacted_games: Sequence[str] = (),
    signatures: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The archive's JSON (``signatures``: ``signatures.signatures_json``)."""
    tournament: dict[str, Any] = {"tournament_id": tournament_id, "records": records}
    if secret_seed is not None:
        tournament["secret_seed"], tournament["secret_seed_nonce"] = secret_seed
    entries = build_record_file(games, secret_seeds=game_seeds, redacted_games=redacted_games)[
        "games"
    ]
    archive = {"format": FORMAT, "version": VERSION, "tournament": tournament, "games": entries}
    if signatures is not None:
        archive["signatures"] = signatures
    return archive


def parse_archive(data: Any) -> Archive:
    """The archive's parts, every field checked; ``RecordFileError`` names
    the first thing wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordFileError(f"not a {FORMAT} file")
    if data.get("version") != VERSION:
        raise RecordFileError(
            f"tournament archive version {data.get('version')!r} is not {VERSION}"
        )
    if (
        not {"format", "version", "tournament", "games"}
        <= set(data)
        <= {
            "format",
            "version",
            "tournament",
            "games",
            "signatures",
        }
    ):
        raise RecordFileError(
            "the archive holds format, version, tournament, games and its signatures"
        )
    try:
        signatures = parse_signatures(data["signatures"]) if "signatures" in data else None
    except SignatureError as error:
        raise RecordFileError(str(error)) from None
    raw = data["tournament"]
    if not isinstance(raw, dict) or not set(raw) <= {
        "tournament_id",
        "records",
        "secret_seed",
        "secret_seed_nonce",
    }:
        raise RecordFileError("tournament holds tournament_id, records and its secret seed")
    tournament_id = raw.get("tournament_id")
    if not isinstance(tournament_id, str) or not 0 < len(tournament_id) <= 64:
        raise RecordFileError("tournament: tournament_id must be text of 1 to 64 characters")
    records = raw.get("records")
    problem = check_tournament_records(records if isinstance(records, list) else [])
    if problem:
        raise RecordFileError(f"tournament: {problem}")
    assert isinstance(records, list)
    for secret, pattern in (("secret_seed", SEED_HEX), ("secret_seed_nonce", NONCE_HEX)):
        problem = check_secret(raw.get(secret), secret, pattern)
        if problem:
            raise RecordFileError(f"tournament: {problem}")
    games = data["games"]
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise RecordFileError(f"games must be a list of at most {MAX_GAMES} games")
    entries: list[GameEntry] = []
    for game in games:
        file = {"format": RECORD_FILE_FORMAT, "version": FORMAT_VERSION, "games": [game]}
        entries.extend(parse_record_file(file))
    ids = [entry.game_id for entry in entries]
    if len(set(ids)) != len(ids):
        raise RecordFileError("a game id appears twice in the archive")
    if any(entry.parent_id for entry in entries):
        raise RecordFileError("a tournament's games are no branches")
    return Archive(
        tournament_id,
        records,
        raw.get("secret_seed"),
        raw.get("secret_seed_nonce"),
        entries,
        signatures or NO_SIGNATURES,
    )


def verdicts(archive: Archive) -> list[tuple[str, Verdict]]:
    """Each chain of the archive, named (``tournament <id>``, ``game <id>``),
    with its signature's verdict, the tournament first."""
    block = archive.signatures
    named = [(f"tournament {archive.tournament_id}", block.verdict("tournament", archive.records))]
    for entry in archive.games:
        named.append((f"game {entry.game_id}", block.verdict("game", entry.records)))
    return named


def untrusted(archive: Archive, trusted: Collection[str]) -> list[tuple[str, Verdict]]:
    """The chains not signed by a key among ``trusted`` (public keys, hex)."""
    keys = archive.signatures.keys
    return [
        (name, verdict)
        for name, verdict in verdicts(archive)
        if not any(keys.get(signer) in trusted for signer in verdict.signed_by)
    ]


def audit_archive(archive: Archive) -> list[tuple[str, AuditReport, Verdict]]:
    """Every chain of the archive audited, as an import audits it (the
    tournament against its tables' games, every game on its own), named as
    :func:`verdicts` names it, with its signature's verdict."""
    records = archive.records
    finished = records[-1]["kind"] == "finished"
    seed_hex = records[-1]["seed"] if finished else archive.secret_seed
    nonce_hex = records[-1]["seed_nonce"] if finished else archive.secret_seed_nonce
    games = {entry.records[0]["hash"]: entry.records for entry in archive.games}
    tournament = audit_tournament(
        records,
        seed=bytes.fromhex(seed_hex) if seed_hex else None,
        seed_nonce=bytes.fromhex(nonce_hex) if nonce_hex else None,
        games=games,
        tournament_id=archive.tournament_id,
    )
    reports = [tournament, *(report for _, report in audit_entries(archive.games))]
    return [
        (name, report, verdict)
        for (name, verdict), report in zip(verdicts(archive), reports, strict=True)
    ]
