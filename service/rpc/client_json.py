"""JSON from clients: a move, options, a record file, read within limits.

Everything a client sends as JSON text is untrusted: it must parse, stay
within a size and a nesting limit, and hold only what the event store keeps
exactly as sent. A refusal names only the caller's own input.

    >>> parse_json('{"card": 42}', "move", 1024)
    {'card': 42}
    >>> parse_json('{"card": 4.2}', "move", 1024)
    Traceback (most recent call last):
    ...
    gamelog.service.model.refusals.InvalidArgument: bad-move: move may hold integers, not fractions

A move is parsed on every PlayMove, so the common case takes a short path:
orjson parses the text, and one walk checks the nesting and that nothing in
it could be read differently by the standard library's parser. Anything else
(text orjson refuses, a fraction, a number past 64 bits, which orjson reads
as a fraction, a transcoder-shaped object, deep nesting) is parsed again by
the standard library's ``json`` and judged by the reference checks, so the
answer, refusal and message alike, never depends on which path was taken.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from gamelog.service.model.refusals import GamelogError, InvalidArgument

MAX_JSON_DEPTH = 32

_TRANSCODER_KEYS = {"_type_", "_data_"}


class TooLarge(GamelogError):
    status = "RESOURCE_EXHAUSTED"


def parse_json(
    text: str, what: str, limit: int, empty: Any = None, depth: int = MAX_JSON_DEPTH
) -> Any:
    """Parse client JSON within a size and nesting limit."""
    if not text:
        if empty is not None:
            return empty
        raise InvalidArgument(f"bad-{what}", f"{what} is required (JSON)")
    if len(text) > limit:
        raise TooLarge(f"{what}-too-large", f"{what} is over {limit} bytes")
    try:
        value = orjson.loads(text)
    except ValueError:  # orjson's JSONDecodeError among them
        pass  # the reference parser words the refusal (or reads what orjson refused)
    else:
        if _is_plain(value, depth):
            return value
    return _parse_by_reference(text, what, depth)


def _is_plain(value: Any, depth: int) -> bool:
    """True if ``value``, as orjson parsed it, is what ``json.loads`` gives
    too and passes every check: no float (orjson reads a number past 64 bits
    as one), no transcoder-shaped object, no deeper than ``depth``. Strings
    need no look: orjson refuses a lone surrogate."""
    kind = type(value)
    if kind is dict:
        if depth < 1 or value.keys() == _TRANSCODER_KEYS:
            return False
        items: Any = value.values()
    elif kind is list:
        if depth < 1:
            return False
        items = value
    else:
        return kind is not float
    for item in items:
        kind = type(item)
        if kind is dict or kind is list:
            if not _is_plain(item, depth - 1):
                return False
        elif kind is float:
            return False
    return True


def _parse_by_reference(text: str, what: str, depth: int) -> Any:
    """The standard library's reading of ``text`` and every check, each
    refusal worded for the caller."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise InvalidArgument(f"bad-{what}", f"{what} nests deeper than {depth}") from None
    except ValueError as error:
        raise InvalidArgument(f"bad-{what}", f"{what} is not valid JSON: {error}") from None
    if _depth(value) > depth:
        raise InvalidArgument(f"bad-{what}", f"{what} nests deeper than {depth}")
    problem = _unstorable(value)
    if problem:
        raise InvalidArgument(f"bad-{what}", f"{what} {problem}{_draw_hint(value)}")
    return value


def _draw_hint(value: Any) -> str:
    """For a fraction among a result's scores (a half point for a draw), how
    a draw is recorded instead.

    >>> _draw_hint({"result": {"scores": {"ann": 0.5, "ben": 0.5}}})
    ': scores are whole numbers; a draw is equal scores, which share a place ({"ann": 1, "ben": 1})'
    >>> _draw_hint({"card": 4.2})
    ''
    """
    if isinstance(value, list):
        return next((hint for hint in map(_draw_hint, value) if hint), "")
    if not isinstance(value, dict):
        return ""
    scores = value.get("scores")
    if isinstance(scores, dict) and any(isinstance(v, float) for v in scores.values()):
        draw = json.dumps(dict.fromkeys(scores, 1))
        return f": scores are whole numbers; a draw is equal scores, which share a place ({draw})"
    return next((hint for hint in map(_draw_hint, value.values()) if hint), "")


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _unstorable(value: Any) -> str | None:
    """Why the event store cannot keep ``value`` exactly as sent, or None.

    Fractions do not survive every store's JSON alike; and eventsourcing's
    transcoder reads an object whose only keys are ``_type_`` and ``_data_``
    as one of its own encoded values, so such an object would come back as
    something else, or make the game unreadable."""
    if isinstance(value, float):
        return "may hold integers, not fractions"
    if isinstance(value, str):
        return None if _is_unicode(value) else "may not hold lone surrogates (\\ud800-\\udfff)"
    if isinstance(value, dict):
        if value.keys() == _TRANSCODER_KEYS:
            return 'may not hold an object whose only keys are "_type_" and "_data_"'
        if not all(_is_unicode(key) for key in value):
            return "may not hold lone surrogates (\\ud800-\\udfff)"
        items: Any = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return None
    return next((p for p in map(_unstorable, items) if p), None)


def _is_unicode(text: str) -> bool:
    """False for text holding a lone surrogate, which JSON's ``\\ud800`` escape
    lets through but no store (and no UTF-8) can keep."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
