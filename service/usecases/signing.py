"""Signing chain heads: when a game or a tournament ends, and on export.

The server signs the head of a game's chain once its end is stored, and a
tournament's once it is finished; each signature is kept beside the chain
(``model.chain_signatures``), never in it. An export signs every chain it
carries again, with the key the server has then, and carries the kept
signatures too (made with keys since retired, or brought by an import).

A signature made at an end is written after the end is committed, in a
transaction of its own: the end never waits on it, nor fails for it. A
process lost in between leaves that end unsigned until it is exported, which
signs it then; a clash with another process signing the same chain at once
is left to that process.

>>> from gamelog.service.storage.store import GameStore
>>> from gamelog.service.storage.signing_key import KeyRing
>>> from gamelog.replay.signatures import SigningKey, ChainHead
>>> from uuid import UUID
>>> signing = Signing(GameStore({"PERSISTENCE_MODULE": "eventsourcing.popo"}),
...                   KeyRing(SigningKey.generate()))
>>> signing.sign_end(UUID(int=1), ChainHead("game", "c" * 64, 9, "d" * 64))
>>> [s.head.position for s, _ in signing.kept("game", UUID(int=1))]
[9]
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from gamelog.replay.record import Record
from gamelog.replay.signatures import (
    ChainHead,
    Signature,
    SignatureBlock,
    SignatureError,
    Subject,
    head_of,
    signature_of,
)
from gamelog.service.model.chain_signatures import ChainSignatures
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import GamelogError
from gamelog.service.model.tournament import Tournament
from gamelog.service.storage.signing_key import KeyRing
from gamelog.service.storage.store import GameStore

log = logging.getLogger(__name__)


def game_head(game: Game) -> ChainHead:
    return ChainHead("game", game.record_created["hash"], game.position, game.last_hash)


def tournament_head(tournament: Tournament) -> ChainHead:
    state = tournament.state
    return ChainHead(
        "tournament", tournament.record_created["hash"], state.position, state.last_hash
    )


class Signing:
    """The server's signatures: made at ends and on exports, kept beside the chains."""

    def __init__(self, store: GameStore, keys: KeyRing) -> None:
        self.store = store
        self.keys = keys

    def games_ended(self, games: Iterable[Game]) -> None:
        """Sign the head of each game whose end is stored."""
        for game in games:
            if game.is_finished:
                self.sign_end(game.id, game_head(game))

    def tournament_finished(self, tournament: Tournament) -> None:
        if tournament.is_finished:
            self.sign_end(tournament.id, tournament_head(tournament))

    def sign_end(self, chain_id: UUID, head: ChainHead) -> None:
        """Sign ``head`` and keep the signature; a failure is logged, never raised."""
        key = self.keys.current
        try:
            kept = self._kept_or_new(head.subject, chain_id)
            if kept.add(key.sign(head).to_json(), key.public_key):
                self.store.commit(kept)
        except GamelogError as error:
            log.warning("the end of %s %s is not signed: %s", head.subject, chain_id, error)
        except Exception:
            # The end is stored: a failure here must not turn it into a failed
            # (and then retried) command. Its export signs it.
            log.exception("the end of %s %s is not signed", head.subject, chain_id)

    def keeping(
        self, subject: Subject, chain_id: UUID, signed: Sequence[tuple[Signature, str]]
    ) -> ChainSignatures | None:
        """An aggregate keeping ``signed`` (signature, public key) for a chain
        new to this store (an import's), to save with it; None if nothing to keep."""
        if not signed:
            return None
        kept = ChainSignatures.start(subject, chain_id)
        for signature, public in signed:
            kept.add(signature.to_json(), public)
        return kept

    def keeping_valid(
        self, block: SignatureBlock, chains: Sequence[tuple[Subject, UUID, Sequence[Record]]]
    ) -> list[ChainSignatures]:
        """Aggregates keeping the signatures of a file (``block``) that verify
        on the head of each imported chain (its subject, its new id here, its
        records), to save with the chains: this server's exports carry them
        on, the origin's word beside this server's own."""
        kept: list[ChainSignatures] = []
        for subject, chain_id, records in chains:
            head = head_of(subject, records)
            verdict = block.verdict(subject, records)
            signed = [
                (s, block.keys[s.key_id])
                for s in block.of(subject, records)
                if s.head == head and s.key_id in verdict.signed_by
            ]
            aggregate = self.keeping(subject, chain_id, signed)
            if aggregate is not None:
                kept.append(aggregate)
        return kept

    def kept(self, subject: Subject, chain_id: UUID) -> list[tuple[Signature, str]]:
        """The signatures kept for a chain, each with its public key."""
        kept = self.store.chain_signatures(subject, chain_id)
        if kept is None:
            return []
        out = []
        for raw, public in kept.signatures:
            try:
                out.append((signature_of(raw), public))
            except SignatureError:
                log.warning("a kept signature of %s %s is unreadable", subject, chain_id)
        return out

    def for_export(
        self, chains: Sequence[tuple[Subject, UUID, Sequence[Record]]]
    ) -> dict[str, Any]:
        """The signature block of an export: for each chain (its subject, its
        id here, its records as exported), the kept signatures and one made
        now with the current key."""
        key = self.keys.current
        public = {key.key_id: key.public_key}
        signatures: list[Signature] = []
        for subject, chain_id, records in chains:
            for signature, kept_public in self.kept(subject, chain_id):
                public.setdefault(signature.key_id, kept_public)
                signatures.append(signature)
            signatures.append(key.sign(head_of(subject, records)))
        return {
            "keys": public,
            "heads": [signature.to_json() for signature in dict.fromkeys(signatures)],
        }

    def _kept_or_new(self, subject: str, chain_id: UUID) -> ChainSignatures:
        return self.store.chain_signatures(subject, chain_id) or ChainSignatures.start(
            subject, chain_id
        )
