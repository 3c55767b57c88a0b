"""The signatures of one chain (a game's or a tournament's), kept beside its record.

Signatures are not records: they sit in an aggregate of their own, one per
game and per tournament in this store, so that no record, hash or pinned
format changes when a chain is signed, and a chain may be signed again (at
its end, at an export after a key rotation) without touching its record.
What is kept: the signature (``replay.signatures.Signature``, as JSON) and
the public key that made it, so that an export can carry signatures made
with a key this server has since retired, and those an archive arrived with.

>>> from uuid import UUID
>>> kept = ChainSignatures.start("game", UUID(int=1))
>>> kept.add({"key_id": "k", "head": "h", "position": 3}, "p" * 64)
True
>>> kept.add({"key_id": "k", "head": "h", "position": 3}, "p" * 64)
False
>>> len(kept.signatures)
1
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate


class ChainSignatures(Aggregate):
    class Started(Aggregate.Created):
        subject: str
        chain_id: UUID

    class Signed(Aggregate.Event):
        signature: dict[str, Any]
        public_key: str

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, ChainSignatures)
            aggregate.signatures = (*aggregate.signatures, (self.signature, self.public_key))

    def __init__(self, subject: str, chain_id: UUID) -> None:
        self.subject = subject
        self.chain_id = chain_id
        self.signatures: tuple[tuple[dict[str, Any], str], ...] = ()

    @staticmethod
    def id_for(subject: str, chain_id: UUID) -> UUID:
        return uuid5(chain_id, f"{subject}-signatures")

    @classmethod
    def start(cls, subject: str, chain_id: UUID) -> ChainSignatures:
        return cls._create(
            cls.Started, id=cls.id_for(subject, chain_id), subject=subject, chain_id=chain_id
        )

    def add(self, signature: dict[str, Any], public_key: str) -> bool:
        """Keep a signature; False if this one is kept already."""
        if any(kept == signature for kept, _ in self.signatures):
            return False
        self.trigger_event(self.Signed, signature=dict(signature), public_key=public_key)
        return True
