"""Signatures on the heads of hash chains: who vouches for a record.

A hash chain proves that a record is consistent with itself, and nothing
more: anyone who reads ``replay.record`` can change a record and seal every
hash again. A signature adds an origin. A server holds an Ed25519 key and
signs the *head* of a game's or a tournament's chain: which chain (its kind
and the hash of its creation record, the same in every store), how long it
is, and the hash of its last record, which covers every record before it.

A signature proves that the holder of the key saw this chain with this head.
It does not prove that the moves were played fairly, that the key was never
stolen, or anything about records nobody signed.

>>> key = SigningKey.generate()
>>> head = ChainHead("game", "a" * 64, 7, "b" * 64)
>>> signed = key.sign(head)
>>> verdict_of(head, [signed], {key.key_id: key.public_key}).signed_by == (key.key_id,)
True
>>> forged = ChainHead("game", "a" * 64, 7, "c" * 64)
>>> verdict_of(forged, [signed], {key.key_id: key.public_key}).text
'signature invalid'
>>> verdict_of(head, [], {}).text
'unsigned'

Signatures travel beside the records, never inside them: a record's hash,
its format and every pinned hash stay what they are, and a record signed
twice (at its end, then again at an export after a key rotation) is the same
record. In an archive they are one block (:func:`signatures_json`)::

    "signatures": {"keys": {"<key id>": "<public key, 64 hex>"},
                   "heads": [{"subject": "game", "creation": "…", "position": 41,
                              "head": "…", "key_id": "…", "signature": "<128 hex>"}]}
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final, Literal

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from gamelog.replay.record import Record

DOMAIN: Final = b"gamelog chain head v1\n"
"""Prefixed to every signed message, so a gamelog signature means nothing elsewhere."""
SUBJECTS: Final = ("game", "tournament")
MAX_SIGNATURES = 20_000
PUBLIC_HEX = re.compile(r"[0-9a-f]{64}")
KEY_ID = re.compile(r"[0-9a-f]{16}")
SIGNATURE_HEX = re.compile(r"[0-9a-f]{128}")
HASH_HEX = re.compile(r"[0-9a-f]{64}")

Subject = Literal["game", "tournament"]


class SignatureError(ValueError):
    """A signature block that is not well formed."""


def key_id_of(public_key: str) -> str:
    """A key's id: the first 16 hex digits of the SHA-256 of its public key.

    >>> key_id_of("00" * 32)
    '66687aadf862bd77'
    """
    return hashlib.sha256(bytes.fromhex(public_key)).hexdigest()[:16]


@dataclass(frozen=True)
class ChainHead:
    """What a signature covers: one chain, at one length."""

    subject: str
    creation: str
    """The hash of the chain's creation record: the same in every store."""
    position: int
    head: str
    """The hash of the record at ``position``, the chain's last."""

    def message(self) -> bytes:
        return DOMAIN + f"{self.subject} {self.creation} {self.position} {self.head}".encode()


def head_of(subject: Subject, records: Sequence[Record]) -> ChainHead:
    return ChainHead(subject, records[0]["hash"], records[-1]["position"], records[-1]["hash"])


@dataclass(frozen=True)
class Signature:
    head: ChainHead
    key_id: str
    signature: str
    """128 hex digits: Ed25519's 64 bytes."""

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.head.subject,
            "creation": self.head.creation,
            "position": self.head.position,
            "head": self.head.head,
            "key_id": self.key_id,
            "signature": self.signature,
        }


class SigningKey:
    """An Ed25519 private key, and what it signs with."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes_raw()
        self.public_key = raw.hex()
        self.key_id = key_id_of(self.public_key)

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed_hex: str) -> SigningKey:
        return cls(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seed_hex)))

    def seed_hex(self) -> str:
        return self._private.private_bytes_raw().hex()

    def sign(self, head: ChainHead) -> Signature:
        return Signature(head, self.key_id, self._private.sign(head.message()).hex())


def verifies(public_key: str, signature: Signature) -> bool:
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
        key.verify(bytes.fromhex(signature.signature), signature.head.message())
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Verdict:
    """One chain's standing: signed by keys, unsigned, or signature invalid."""

    signed_by: tuple[str, ...] = ()
    """The ids of the keys whose signatures of this very head verify."""
    invalid: bool = False

    @property
    def text(self) -> str:
        if self.signed_by:
            return f"signed by {', '.join(self.signed_by)}"
        return "signature invalid" if self.invalid else "unsigned"


def verdict_of(
    head: ChainHead, signatures: Sequence[Signature], keys: Mapping[str, str]
) -> Verdict:
    """The verdict on a chain whose head is ``head``, from the signatures
    that name its chain (its subject and creation) and the public keys by id.
    With no signature of this very head that verifies, a signature naming the
    chain makes it "signature invalid": someone changed the chain (or the
    signature) after it was signed, or it went on without being signed again."""
    own = [
        s for s in signatures if (s.head.subject, s.head.creation) == (head.subject, head.creation)
    ]
    if not own:
        return Verdict()
    signers = [
        s.key_id for s in own if s.head == head and s.key_id in keys and verifies(keys[s.key_id], s)
    ]
    if signers:
        return Verdict(tuple(dict.fromkeys(signers)))
    return Verdict(invalid=True)


@dataclass(frozen=True)
class SignatureBlock:
    keys: Mapping[str, str]
    """Key id → public key (64 hex), as the archive carries them."""
    signatures: tuple[Signature, ...]

    @cached_property
    def by_chain(self) -> Mapping[tuple[str, str], tuple[Signature, ...]]:
        """The signatures of each chain (subject, creation hash): an archive of
        4,096 games is read in one pass, never once per game."""
        chains: dict[tuple[str, str], list[Signature]] = {}
        for signature in self.signatures:
            chains.setdefault((signature.head.subject, signature.head.creation), []).append(
                signature
            )
        return {chain: tuple(signatures) for chain, signatures in chains.items()}

    def of(self, subject: Subject, records: Sequence[Record]) -> tuple[Signature, ...]:
        """The signatures naming the chain whose records are ``records``."""
        return self.by_chain.get((subject, records[0]["hash"]), ())

    def verdict(self, subject: Subject, records: Sequence[Record]) -> Verdict:
        return verdict_of(head_of(subject, records), self.of(subject, records), self.keys)


NO_SIGNATURES: Final = SignatureBlock({}, ())


def signatures_json(
    keys: Collection[SigningKey] | Mapping[str, str], signatures: Sequence[Signature]
) -> dict[str, Any]:
    """An archive's signature block: the public keys (signing keys, or key
    ids to public keys) and the signatures."""
    public = keys if isinstance(keys, Mapping) else {k.key_id: k.public_key for k in keys}
    return {"keys": dict(public), "heads": [signature.to_json() for signature in signatures]}


def signature_of(raw: Any) -> Signature:
    """A signature from its JSON (``SignatureError`` if it is not one)."""
    return _signature(raw)


def parse_signatures(data: Any) -> SignatureBlock:
    """An archive's signature block, every field checked (``SignatureError``).
    A key listed under another key's id is refused: the id is what a reader
    compares with the server's."""
    if not isinstance(data, dict) or set(data) != {"keys", "heads"}:
        raise SignatureError("signatures hold keys and heads")
    keys, heads = data["keys"], data["heads"]
    if not isinstance(keys, dict) or len(keys) > 64:
        raise SignatureError("signatures: keys map key ids to public keys (at most 64)")
    for key_id, public in keys.items():
        if not (isinstance(public, str) and PUBLIC_HEX.fullmatch(public)):
            raise SignatureError("signatures: a public key is 64 lowercase hex digits")
        if key_id != key_id_of(public):
            raise SignatureError(f"signatures: key id {key_id[:16]!r} is not its key's id")
    if not isinstance(heads, list) or len(heads) > MAX_SIGNATURES:
        raise SignatureError(f"signatures: heads is a list of at most {MAX_SIGNATURES}")
    return SignatureBlock(dict(keys), tuple(_signature(raw) for raw in heads))


def _signature(raw: Any) -> Signature:
    fields = {"subject", "creation", "position", "head", "key_id", "signature"}
    if not isinstance(raw, dict) or set(raw) != fields:
        raise SignatureError(f"signatures: each head holds {', '.join(sorted(fields))}")
    position = raw["position"]
    if (
        raw["subject"] not in SUBJECTS
        or not _matches(HASH_HEX, raw["creation"])
        or not _matches(HASH_HEX, raw["head"])
        or not isinstance(position, int)
        or isinstance(position, bool)
        or not 0 <= position <= 2**40
        or not _matches(KEY_ID, raw["key_id"])
        or not _matches(SIGNATURE_HEX, raw["signature"])
    ):
        raise SignatureError("signatures: a head names a subject, hashes, a key id and a signature")
    head = ChainHead(raw["subject"], raw["creation"], position, raw["head"])
    return Signature(head, raw["key_id"], raw["signature"])


def _matches(pattern: re.Pattern[str], value: Any) -> bool:
    return isinstance(value, str) and bool(pattern.fullmatch(value))
