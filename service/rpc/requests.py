"""Reading a call: its token, its ids, positions and JSON, within bounds.

Every field of a request is untrusted. A token comes as metadata
``authorization: Bearer TOKEN``; JSON fields are parsed and bounded by
``client_json``; numbers are checked against the ranges the service knows.
Each refusal is ``InvalidArgument`` with a reason, before any use case runs.

>>> checked_position(3)
3
>>> small_int(12, "rounds", 1000)
12
"""

from __future__ import annotations

import functools
from typing import Any
from uuid import UUID

import grpc

from gamelog.service.model.refusals import InvalidArgument
from gamelog.service.rpc.client_json import parse_json

MAX_MOVE_BYTES = 64 * 1024
MAX_OPTIONS_BYTES = 1024 * 1024
MAX_RECORD_FILE_BYTES = 32 * 1024 * 1024
MAX_MESSAGE_BYTES = 40 * 1024 * 1024
"""The largest message the server sends or takes (a record file, and its
answer, with room to spare)."""
MAX_POSITION = 2**40
MAX_REQUEST_ID = 128


def token_of(context: grpc.ServicerContext | grpc.aio.ServicerContext[Any, Any]) -> str | None:
    """The caller's token from ``authorization: Bearer TOKEN``; None for none."""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise InvalidArgument("bad-authorization", 'use "authorization: Bearer <token>"')
            return token.strip()
    return None


def options_and_seed(options_json: str, seed_hex: str) -> tuple[dict[str, Any], bytes | None]:
    """A create call's options (a JSON object, default empty) and seed (1 to
    64 bytes in hexadecimal; None: the server draws one)."""
    options = parse_json(options_json, "options", MAX_OPTIONS_BYTES, empty={})
    if not isinstance(options, dict):
        raise InvalidArgument("bad-options", "options must be a JSON object")
    if not seed_hex:
        return options, None
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise InvalidArgument("bad-seed", "seed_hex must be hexadecimal") from None
    if not 1 <= len(seed) <= 64:
        raise InvalidArgument("bad-seed", "a seed is 1 to 64 bytes")
    return options, seed


@functools.lru_cache(maxsize=4096)
def full_game_id(text: str) -> UUID:
    """A full game id as given (ValueError if it is none): remembered for
    the games being played, whose every move names its game again."""
    return UUID(text.strip())


def checked_position(value: int, what: str = "position") -> int:
    if value < 0 or value > MAX_POSITION:
        raise InvalidArgument("bad-position", f"{what} must be between 0 and {MAX_POSITION}")
    return value


def checked_request_id(request_id: str) -> str:
    if len(request_id) > MAX_REQUEST_ID:
        raise InvalidArgument(
            "bad-request-id", f"a request id is at most {MAX_REQUEST_ID} characters"
        )
    return request_id


def small_int(value: int, what: str, most: int = 100_000) -> int:
    if not 0 <= value <= most:
        raise InvalidArgument(f"bad-{what}", f"{what} must be between 0 and {most}")
    return value
