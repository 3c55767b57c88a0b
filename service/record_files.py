"""Record files: exporting a game and its branches, importing them as new games."""

from __future__ import annotations

import uuid
from typing import Any
from uuid import UUID

from gamelog.games.protocol import ARBITER
from gamelog.replay.audit import audit_entries
from gamelog.replay.export import GameEntry, RecordFileError, build_record_file, parse_record_file
from gamelog.replay.fold import fold
from gamelog.replay.redact import redact_record
from gamelog.service.credentials import Credentials
from gamelog.service.errors import InvalidArgument, Refused
from gamelog.service.game import Game
from gamelog.service.listing import Listing
from gamelog.service.outcomes import CreatedGame, Imported


class RecordFiles(Listing):
    """Portable record files: export, and import after a full audit."""

    # -- portable records -------------------------------------------------------------

    def export(self, game_id: UUID, token: str | None, redacted: bool = False) -> dict[str, Any]:
        """The record file of a game and every branch forked from it."""
        viewer = self.viewer(game_id, token)
        _, nodes = self.tree(game_id)
        subtree = self._subtree(game_id, nodes)
        games = []
        seeds: dict[str, str] = {}
        cut: list[str] = []
        for gid in subtree:
            game = self._game(gid)
            records = self.records(gid)
            if redacted:
                records = [redact_record(game.rules, r, None, game.is_finished) for r in records]
            elif not game.is_finished:
                if viewer == ARBITER:
                    seeds[str(gid)] = game.seed_hex
                else:
                    records = [redact_record(game.rules, r, viewer, False) for r in records]
                    cut.append(str(gid))
            games.append((str(gid), records))
        return build_record_file(games, redacted, secret_seeds=seeds, redacted_games=cut)

    def import_record_file(self, data: Any) -> Imported:
        """Re-validate every game in a record file and store each as a new game.

        Every game must audit clean (its branches against their parents in the
        file); if any does not, nothing is stored."""
        try:
            entries = parse_record_file(data)
        except RecordFileError as error:
            raise InvalidArgument("bad-record-file", str(error)) from None
        for entry, report in audit_entries(entries):
            if entry.redacted:
                raise Refused(
                    "redacted-record",
                    f"game {entry.game_id} is a redacted copy: its hidden parts are cut out, "
                    "so its moves cannot be re-validated",
                )
            if report.ok and entry.records[-1]["kind"] != "finished" and not entry.secret_seed:
                raise Refused(
                    "seed-missing",
                    f"game {entry.game_id} is still running and the file lacks its seed",
                )
            if not report.ok:
                first = report.first_difference
                where = f"position {first.position}: {first.problem}" if first else "unknown"
                raise Refused(
                    "audit-failed", f"game {entry.game_id} does not audit clean at {where}"
                )
        id_map: dict[str, UUID] = {}
        created_games: list[CreatedGame] = []
        for entry in entries:
            new_id = uuid.uuid4()
            id_map[entry.game_id] = new_id
            created_games.append(self._restore(new_id, entry, id_map))
        return Imported(created_games, id_map)

    def _restore(self, game_id: UUID, entry: GameEntry, id_map: dict[str, UUID]) -> CreatedGame:
        records = [dict(r) for r in entry.records]
        for record in records:
            record.pop("timestamp", None)
        created = records[0]
        if created.get("parent") and created["parent"]["game_id"] in id_map:
            created["parent"] = {
                **created["parent"],
                "game_id": str(id_map[created["parent"]["game_id"]]),
            }
        finished = [r for r in records if r["kind"] == "finished"]
        seed = bytes.fromhex(finished[-1]["seed"] if finished else entry.secret_seed or "")
        game = Game.create(game_id, created, seed)
        rules = game.rules
        states = dict(fold(rules, records))
        for record in records[1:]:
            game.restore(record, states.get(record.get("to_position", -1)))
        credentials, seat_tokens, arbiter_token = Credentials.issue(game_id, created["seats"])
        self._save(game, credentials)
        return CreatedGame(game_id, seat_tokens, arbiter_token, created["commitment"], created)
