"""Tournament archives: exporting a tournament with all its games, importing one.

An archive (``replay.tournament_archive``) holds the tournament's records and
every game it created. The director's archive of a tournament still running
carries the secret seeds (the tournament's and each running game's), so it can
go on elsewhere; anyone else's cuts running games to what a spectator sees,
and such a copy audits for its hash chains only and does not import.

An import checks every field, audits the tournament against its games and
every game on its own, and stores everything in one transaction, or nothing.
Everything gets a new id here, the tournament as well as its games: ids are
public, and anyone can build an archive that audits clean under any id (the
hashes are anyone's to compute, the seed anyone's to pick), so an import that
kept the archive's id would let whoever imports first take that id on a
server, and refuse the real tournament's import there. Importing an archive
twice gives two tournaments, each on its own, and the second import says so
(``already_stored``: the tournaments here with the same creation record), as
a game's import does: no copy is made silently.

Nothing hashed changes: the records and the tables' ``Tournament`` tags go on
naming the id the tournament was created under (its *origin*), which the
tournament keeps beside its records (``Tournament.origin_id``) for what it
hashes and exports: the tags of tables it seats later, the audit, its archive
(which names the origin, and imports again, under yet another id). Each
imported game keeps the tournament's id here beside its creation record
(``Game.Created.tournament_id``), and the service finds a table's tournament
by that (``Game.tournament_id``): a director's and players' tokens, results
flowing in, the game index's tournament. The tag grants nothing by itself:
the tournament must have seated the game (``Tournament.table_of``).
New tokens are issued: a director's, and the players' derived from it.

An export carries the signatures of every chain's head (``usecases.signing``);
an import refuses a signature that does not verify, and keeps the ones that
do beside the chains it stores, so its own exports carry them on.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from typing import Any
from uuid import UUID

from gamelog.replay.audit import audit_entries
from gamelog.replay.export import RecordFileError
from gamelog.replay.record import Record
from gamelog.replay.redact import redact_record
from gamelog.replay.signatures import Subject
from gamelog.replay.tournament_archive import (
    build_archive,
    parse_archive,
    untrusted,
    verdicts,
)
from gamelog.replay.tournament_audit import audit_tournament
from gamelog.service.model.refusals import InvalidArgument, PermissionDenied, Refused
from gamelog.service.model.tournament import Tournament
from gamelog.service.model.tournament_credentials import DIRECTOR, TournamentCredentials
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases import tournament_input
from gamelog.service.usecases.access import Access
from gamelog.service.usecases.record_files import restored_game
from gamelog.service.usecases.signing import Signing
from gamelog.service.usecases.tournament_answers import ImportedTournament
from gamelog.service.usecases.tournament_listing import TournamentListing


def _check_players(records: list[Record]) -> None:
    """An archive registers no more players than registration allows here:
    anyone can build one that audits clean, and a field far beyond the limit
    cost minutes to import and seconds for every reading of its standings."""
    registered = sum(1 for record in records if record["kind"] == "player-registered")
    most = tournament_input.MAX_PLAYERS
    if registered > most:
        raise InvalidArgument(
            "too-many-players",
            f"the archive registers {registered} players; a tournament has at most {most}",
        )


class TournamentFiles:
    """Exporting and importing whole tournaments."""

    def __init__(
        self, store: GameStore, access: Access, listing: TournamentListing, signing: Signing
    ) -> None:
        self.store = store
        self.access = access
        self.listing = listing
        self.signing = signing

    def export_tournament(self, tournament_id: UUID, token: str | None) -> dict[str, Any]:
        tournament = self.store.tournament(tournament_id)
        # A bad token is refused; a good one names its holder.
        director = self.access.holder(tournament_id, token) == DIRECTOR
        if not tournament.is_finished and not director:
            raise PermissionDenied(
                "director-only",
                "a tournament still running is exported by its director "
                "(its seed stays secret until it is finished)",
            )
        games: list[tuple[str, list[Record]]] = []
        seeds: dict[str, tuple[str, str]] = {}
        cut: list[str] = []
        for game_id in tournament.game_ids.values():
            game = self.store.game(UUID(game_id))
            records = self.store.records(UUID(game_id))
            if not game.is_finished:
                if director:
                    seeds[game_id] = (game.seed_hex, game.seed_nonce_hex)
                else:
                    records = [redact_record(game.rules, r, None, False) for r in records]
                    cut.append(game_id)
            games.append((game_id, records))
        secret = None
        if not tournament.is_finished:
            secret = (tournament.seed_hex, tournament.seed_nonce_hex)
        records = [
            {k: v for k, v in r.items() if k != "timestamp"}
            for r in self.store.tournament_records(tournament_id)
        ]
        # This server vouches for the head of every chain it exports.
        chains: list[tuple[Subject, UUID, list[Record]]] = [("tournament", tournament_id, records)]
        chains += [("game", UUID(game_id), game) for game_id, game in games]
        # Named by the id its tables' hashed tags name (an import's origin),
        # signed by the chains' heads (an import's origin's signatures too).
        return build_archive(
            str(tournament.origin_id),
            records,
            games,
            secret,
            seeds,
            cut,
            self.signing.for_export(chains),
        )

    def import_tournament(
        self, data: Any, trusted: Collection[str] | None = None
    ) -> ImportedTournament:
        """Audit an archive and store it whole, or refuse it and store nothing.
        A signature that does not verify is refused; with ``trusted`` (public
        keys, hex), so is every chain not signed by one of them."""
        try:
            archive = parse_archive(data)
        except RecordFileError as error:
            raise InvalidArgument("bad-record-file", str(error)) from None
        try:
            origin_id = UUID(archive.tournament_id)
        except ValueError:
            raise InvalidArgument("bad-record-file", "the tournament id is no id") from None
        for entry in archive.games:
            if entry.redacted:
                raise Refused(
                    "redacted-record",
                    f"game {entry.game_id} is a redacted copy and cannot be re-validated",
                )
            if not entry.finished and not entry.secret_seed:
                raise Refused(
                    "seed-missing", f"game {entry.game_id} is running and lacks its secret seed"
                )
        records = archive.records
        _check_players(records)
        finished = records[-1]["kind"] == "finished"
        if not finished and not archive.secret_seed:
            raise Refused(
                "seed-missing", "the tournament is running and the archive lacks its secret seed"
            )
        seed = bytes.fromhex(records[-1]["seed"] if finished else archive.secret_seed or "")
        nonce = bytes.fromhex(
            records[-1]["seed_nonce"] if finished else archive.secret_seed_nonce or ""
        )
        by_hash = {entry.records[0]["hash"]: entry for entry in archive.games}
        if len(by_hash) != len(archive.games):
            raise Refused("stray-game", "a game appears twice in the archive, under two ids")
        report = audit_tournament(
            records,
            seed=seed,
            seed_nonce=nonce,
            games={h: entry.records for h, entry in by_hash.items()},
            tournament_id=str(origin_id),
        )
        if not report.ok:
            first = report.first_difference
            where = f"position {first.position}: {first.problem}" if first else "unknown"
            raise Refused("audit-failed", f"the tournament does not audit clean at {where}")
        for entry, game_report in audit_entries(archive.games):
            if not game_report.ok:
                first = game_report.first_difference
                where = f"position {first.position}: {first.problem}" if first else "unknown"
                raise Refused(
                    "audit-failed", f"game {entry.game_id} does not audit clean at {where}"
                )
        named = {t["game"] for r in records for t in r.get("tables", ())}
        strays = [e.game_id for h, e in by_hash.items() if h not in named]
        if strays:
            raise Refused("stray-game", f"game {strays[0]} is no game of this tournament")
        # After the audit: a refusal names what is wrong in the records first.
        for name, verdict in verdicts(archive):
            if verdict.invalid:
                raise Refused(
                    "signature-invalid",
                    f"{name}: signature invalid (changed after it was signed)",
                )
        refused = untrusted(archive, trusted) if trusted is not None else []
        if refused:
            name, verdict = refused[0]
            raise Refused("untrusted", f"{name} is {verdict.text}, not signed by a trusted key")
        # A new id here, as every import's games get: ids are public, and
        # an archive anyone can make must not claim the id of a tournament
        # still to be imported here (nor answer for it).
        already = self.listing.copies_of(records[0]["hash"])
        tournament_id = uuid.uuid4()
        id_map: dict[str, UUID] = {}
        aggregates: list[Any] = []
        new_ids: dict[str, str] = {}
        for entry in archive.games:
            new_id = uuid.uuid4()
            id_map[entry.game_id] = new_id
            game, credentials, _ = restored_game(new_id, entry, {}, tournament_id)
            aggregates += [game, credentials]
            new_ids[entry.records[0]["hash"]] = str(new_id)
        tournament = Tournament.create(tournament_id, records[0], seed, nonce, origin_id)
        for record in records[1:]:
            tournament.restore(record, new_ids)
        access, director_token = TournamentCredentials.issue(tournament_id)
        player_tokens = access.issue_players(
            director_token, [p.id for p in tournament.state.players]
        )
        chains: list[tuple[Subject, UUID, list[Record]]] = [("tournament", tournament_id, records)]
        chains += [("game", id_map[e.game_id], e.records) for e in archive.games]
        aggregates += self.signing.keeping_valid(archive.signatures, chains)
        self.store.commit(*aggregates, tournament, access)
        return ImportedTournament(
            tournament_id, director_token, player_tokens, id_map, origin_id, already
        )
