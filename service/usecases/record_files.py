"""Record files: exporting a game and its branches, importing them as new games."""

from __future__ import annotations

import uuid
from collections.abc import Collection
from typing import Any
from uuid import UUID

from gamelog.games.protocol import ARBITER, Viewer
from gamelog.replay.audit import audit_entries
from gamelog.replay.export import (
    GameEntry,
    RecordFileError,
    build_record_file,
    file_signatures,
    game_verdicts,
    parse_record_file,
    tags_of,
)
from gamelog.replay.fold import fold
from gamelog.replay.record import Record
from gamelog.replay.redact import redact_record
from gamelog.replay.signatures import Subject
from gamelog.replay.text_export import text_export
from gamelog.service.model.credentials import Credentials
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import (
    DataLoss,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    Refused,
)
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases.access import Access
from gamelog.service.usecases.answers import CreatedGame, Imported
from gamelog.service.usecases.listing import Listing
from gamelog.service.usecases.showing import shown
from gamelog.service.usecases.signing import Signing


class RecordFiles:
    """Portable record files: export, and import after a full audit."""

    def __init__(
        self, store: GameStore, access: Access, listing: Listing, signing: Signing
    ) -> None:
        self.store = store
        self.access = access
        self.listing = listing
        self.signing = signing

    # -- portable records -------------------------------------------------------------

    def export(self, game_id: UUID, token: str | None, redacted: bool = False) -> dict[str, Any]:
        """The record file of a game and every branch forked from it.

        Rights come from the token's own game only: a seat or the arbiter of
        one game is a spectator of its forks. The game asked for is cut to what
        the token may see of it (and then the file says it is redacted). A
        running branch the token may not see whole is left out and named in
        ``left_out``, so a stranger's fork never keeps a game's export from
        importing; ``redacted`` asks for a spectator's copy of everything. A
        branch the store cannot read is left out too; the game asked for itself
        must be readable."""
        self.access.viewer(game_id, token)  # a token given must be one of this game's
        games = []
        seeds: dict[str, tuple[str, str]] = {}
        cut: list[str] = []
        left_out: dict[str, str] = {}
        for node in self.listing.subtree(game_id):
            gid = node.game_id
            if str(node.parent_game_id) in left_out:
                left_out[str(gid)] = "a branch of a game left out"
                continue
            try:
                game = self.store.game(gid)
                records = self.store.records(gid)
            except DataLoss:
                if gid == game_id:
                    raise
                left_out[str(gid)] = "unreadable in the store"
                continue
            try:
                viewer = self.access.viewer_or_spectator(gid, token)
            except PermissionDenied as refused:  # a running duplicate table's fork
                if gid == game_id:
                    raise
                left_out[str(gid)] = refused.message
                continue
            if redacted:
                records = [redact_record(game.rules, r, None, game.is_finished) for r in records]
            elif not game.is_finished:
                if viewer == ARBITER:
                    seeds[str(gid)] = (game.seed_hex, game.seed_nonce_hex)
                elif gid == game_id:
                    records = [redact_record(game.rules, r, viewer, False) for r in records]
                    cut.append(str(gid))
                else:
                    left_out[str(gid)] = "running, and this token may not see its hidden parts"
                    continue
            games.append((str(gid), records))
        chains: list[tuple[Subject, UUID, list[Record]]] = [
            ("game", UUID(gid), rs) for gid, rs in games
        ]
        signatures = self.signing.for_export(chains)
        return build_record_file(
            games,
            redacted,
            secret_seeds=seeds,
            redacted_games=cut,
            left_out=left_out,
            signatures=signatures,
        )

    def export_text(self, game_id: UUID, token: str | None, redacted: bool = False) -> str:
        """The game as text for reading and posting (``replay.text_export``):
        its tags, each record in the game's notation as the token may see it,
        the result."""
        if redacted:
            # A token of this game reads the spectator's copy; anyone else
            # must be a spectator the game lets read.
            self.access.viewer_or_spectator(game_id, token)
            viewer: Viewer = None
        else:
            viewer = self.access.viewer(game_id, token)
        game = self.store.game(game_id)
        seen = shown(self.store, game_id, game, self.store.records(game_id), viewer)
        tags = (
            tags_of(seen[0].record)
            if seen[0].record.get("options") is not None
            else {
                "Game": game.record_created["game"],
                "Players": ",".join(game.seats),
                **{str(k): str(v) for k, v in game.record_created["metadata"].items()},
            }
        )
        cut = not game.is_finished and viewer != ARBITER
        lines = [(s.record["position"], s.notation) for s in seen]
        return text_export(tags, lines, game.result, redacted=cut)

    def import_record_file(
        self, data: Any, token: str | None = None, trusted: Collection[str] | None = None
    ) -> Imported:
        """Re-validate every game in a record file and store them all as new
        games, in one transaction, or store nothing.

        Every field is checked first (``replay.validation``), then every game
        is audited: branches against their parents, which must be in the same
        file or already in this store with the same hash at the fork point.
        Grafting a branch onto a game in this store needs that game's
        arbiter token (``token``). A signature that does not verify is
        refused; with ``trusted`` (public keys, hex), so is every game not
        signed by one of them."""
        try:
            entries = parse_record_file(data)
            block = file_signatures(data)
        except RecordFileError as error:
            raise InvalidArgument("bad-record-file", str(error)) from None
        for entry in entries:
            if entry.redacted:
                raise Refused(
                    "redacted-record",
                    f"game {entry.game_id} is a redacted copy: its hidden parts are cut out, "
                    "so its moves cannot be re-validated",
                )
            if not entry.finished and not entry.secret_seed:
                raise Refused(
                    "seed-missing",
                    f"game {entry.game_id} is still running and the file lacks its secret seed",
                )
        outside = self._outside_parents(entries, token)
        for entry, report in audit_entries(entries, outside):
            if not report.ok:
                first = report.first_difference
                where = f"position {first.position}: {first.problem}" if first else "unknown"
                raise Refused(
                    "audit-failed", f"game {entry.game_id} does not audit clean at {where}"
                )
        # After the audit: a refusal names what is wrong in the records first.
        for name, verdict in game_verdicts(entries, block):
            if verdict.invalid:
                raise Refused(
                    "signature-invalid", f"{name}: signature invalid (changed after it was signed)"
                )
            if trusted is not None and not any(
                block.keys.get(signer) in trusted for signer in verdict.signed_by
            ):
                raise Refused("untrusted", f"{name} is {verdict.text}, not signed by a trusted key")
        already = {
            entry.game_id: copies
            for entry in entries
            if (copies := self.listing.games_with_creation_hash(entry.records[0]["hash"]))
        }
        id_map = {entry.game_id: uuid.uuid4() for entry in entries}
        aggregates: list[Any] = []
        created_games: list[CreatedGame] = []
        for entry in entries:
            game, credentials, created = restored_game(id_map[entry.game_id], entry, id_map)
            aggregates += [game, credentials]
            created_games.append(created)
        chains: list[tuple[Subject, UUID, list[Record]]] = [
            ("game", id_map[e.game_id], e.records) for e in entries
        ]
        aggregates += self.signing.keeping_valid(block, chains)
        self.store.commit(*aggregates)
        return Imported(created_games, id_map, already)

    def _outside_parents(
        self, entries: list[GameEntry], token: str | None
    ) -> dict[str, list[Record]]:
        """The records of every parent a file's branches name in this store."""
        in_file = {entry.game_id for entry in entries}
        parents: dict[str, list[Record]] = {}
        for entry in entries:
            parent_id = entry.parent_id
            if parent_id is None or parent_id in in_file or parent_id in parents:
                continue
            try:
                stored_id = UUID(parent_id)
                self.store.game(stored_id)
            except (ValueError, NotFound):
                raise Refused(
                    "parent-missing",
                    f"game {entry.game_id} is a branch of {parent_id}, which is neither in the "
                    "file nor in this store; export the branch with its parent",
                ) from None
            if self.access.viewer_or_spectator(stored_id, token) != ARBITER:
                raise PermissionDenied(
                    "graft-needs-arbiter",
                    f"game {entry.game_id} would become a branch of game {parent_id} in this "
                    "store; only that game's arbiter token may add branches to it",
                )
            parents[parent_id] = self.store.records(stored_id)
        return parents


def restored_game(
    game_id: UUID,
    entry: GameEntry,
    id_map: dict[str, UUID],
    tournament_id: UUID | None = None,
) -> tuple[Game, Credentials, CreatedGame]:
    """An audited game entry as a new game ``game_id``, not yet saved
    (``tournament_id``: the imported tournament here whose table it is)."""
    records = [dict(r) for r in entry.records]
    for record in records:
        record.pop("timestamp", None)
    created = records[0]
    parent = created.get("parent")
    if parent and parent["game_id"] in id_map:
        created["parent"] = {**parent, "game_id": str(id_map[parent["game_id"]])}
    last = records[-1]
    if last["kind"] == "finished":
        seed, nonce = last["seed"], last.get("seed_nonce", "")
    else:
        seed, nonce = entry.secret_seed or "", entry.secret_seed_nonce or ""
    game = Game.create(game_id, created, bytes.fromhex(seed), bytes.fromhex(nonce), tournament_id)
    states = dict(fold(game.rules, records))
    for record in records[1:]:
        game.restore(record, states.get(record.get("to_position", -1)))
    credentials, seat_tokens, arbiter_token = Credentials.issue(game_id, created["seats"])
    created_game = CreatedGame(
        game_id, seat_tokens, arbiter_token, created["commitment"], game.record_created
    )
    return game, credentials, created_game
