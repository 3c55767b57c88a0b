"""Seat and arbiter tokens: random secrets, kept only as hashes.

A token is shown once, when the game is created (or forked, or imported).
The store keeps its SHA-256; a presented token is hashed and compared in
constant time.

>>> token = new_token()
>>> matches(token, token_hash(token)), matches("guess", token_hash(token))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(token_hash(token), stored_hash)
