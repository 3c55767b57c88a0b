"""JSON Schemas (draft 2020-12) of freeform's options, moves, views and events
(tests/games/test_rules_contract.py checks every move, view and event against them)."""

from __future__ import annotations

from gamelog.games.protocol import JSON

_SCORES: dict[str, JSON] = {
    "type": "object",
    "description": "an integer score per seat",
    "additionalProperties": {"type": "integer"},
}
_RANKING: dict[str, JSON] = {
    "type": "array",
    "description": "places from first to last; seats sharing a place share one list",
    "items": {"type": "array", "items": {"type": "string"}},
}
SCHEMAS: dict[str, JSON] = {
    "options": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:gamelog:freeform:options:1",
        "description": "freeform options: a title for the game (what is being played)",
        "type": "object",
        "properties": {
            "component_set": {"const": "freeform/none"},
            "title": {"type": "string", "description": "what game is recorded"},
        },
        "additionalProperties": False,
        "examples": [{"title": "Azul"}, {"component_set": "freeform/none", "title": ""}],
    },
    "move": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:gamelog:freeform:move:1",
        "description": (
            "a seat's move: any non-empty JSON object, recorded as given; the arbiter "
            'ends the game with {"result": {"scores": {seat: integer}, "ranking": [[seat]]}} '
            "(ranking optional: higher scores rank first, equal scores share a place)"
        ),
        "type": "object",
        "minProperties": 1,
        "examples": [
            {"text": "1. e4"},
            {"result": {"scores": {"ann": 61, "ben": 40}}},
        ],
    },
    "view": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:gamelog:freeform:view:1",
        "description": "the same for every viewer: nothing is hidden",
        "type": "object",
        "required": ["seats", "moves", "moves_by_seat", "last_move", "last_seat", "result"],
        "properties": {
            "seats": {"type": "array", "items": {"type": "string"}},
            "moves": {"type": "integer", "description": "moves recorded so far"},
            "moves_by_seat": {"type": "object", "additionalProperties": {"type": "integer"}},
            "last_move": {"type": ["object", "null"]},
            "last_seat": {"type": ["string", "null"]},
            "result": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "properties": {
                            "scores": _SCORES,
                            "ranking": _RANKING,
                            "winners": {"type": "array", "items": {"type": "string"}},
                        },
                        "required": ["scores", "ranking", "winners"],
                    },
                ]
            },
            "note": {"type": "string"},
        },
        "examples": [
            {
                "seats": ["ann", "ben"],
                "moves": 1,
                "moves_by_seat": {"ann": 1, "ben": 0},
                "last_move": {"text": "1. e4"},
                "last_seat": "ann",
                "result": None,
                "note": "freeform: moves are recorded without rule checks",
            }
        ],
    },
    "event": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:gamelog:freeform:event:1",
        "description": "what happened: a recorded move, or the result the arbiter entered",
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "type": {"const": "MoveRecorded"},
                    "seat": {"type": "string"},
                    "move": {"type": "object"},
                },
                "required": ["type", "seat", "move"],
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {
                    "type": {"const": "ResultEntered"},
                    "scores": _SCORES,
                    "ranking": _RANKING,
                },
                "required": ["type", "scores", "ranking"],
                "additionalProperties": False,
            },
        ],
        "examples": [
            {"type": "MoveRecorded", "seat": "ann", "move": {"text": "1. e4"}},
            {
                "type": "ResultEntered",
                "scores": {"ann": 1, "ben": 0},
                "ranking": [["ann"], ["ben"]],
            },
        ],
    },
}
