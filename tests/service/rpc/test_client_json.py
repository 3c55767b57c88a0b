"""Client JSON: the short path (orjson) answers exactly as the reference path
(the standard library's parser and the checks behind it) for any text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelog.service.model.refusals import GamelogError
from gamelog.service.rpc.client_json import _parse_by_reference, parse_json

LIMIT = 64 * 1024


def answer(parse: Any, text: str, depth: int) -> tuple[str, Any]:
    """What a parse gives: its value (with every type, as JSON cannot tell
    1 from 1.0 or True from 1), or its refusal's code and message."""
    try:
        value = (
            parse(text, "move", LIMIT, depth=depth)
            if parse is parse_json
            else parse(text, "move", depth)
        )
    except GamelogError as error:
        return "refused", (type(error).__name__, error.code, error.message)
    return "value", typed(value)


def typed(value: Any) -> Any:
    if isinstance(value, dict):
        return ("dict", [(key, typed(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [typed(item) for item in value])
    return (type(value).__name__, value)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["a", "card", "_type_", "_data_", "é"]), children, max_size=3
        )
    ),
    max_leaves=20,
)

# Text around the JSON grammar's edges, where parsers tend to differ.
tricky_texts = st.lists(
    st.sampled_from(
        ['"', "\\", "\\ud800", "\\udc00", "\\u00e9", "{", "}", "[", "]", ",", ":", " ", "\t",
         "\n", "\x00", "\x1f", "\x7f", "\u2028", "1", "-0", "1e400", "NaN", "Infinity", "true",
         "null", "01", "1.", ".5", "+1", "a", "é", "\ufeff"]
    ),
    min_size=1,
    max_size=12,
).map("".join)  # empty text is refused before either path  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(json_values, st.integers(min_value=0, max_value=4))
def test_any_json_value_is_answered_as_the_reference_answers(value: Any, depth: int) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert answer(parse_json, text, depth) == answer(_parse_by_reference, text, depth)


@settings(max_examples=400, deadline=None)
@given(tricky_texts)
def test_any_text_is_answered_as_the_reference_answers(text: str) -> None:
    assert answer(parse_json, text, 32) == answer(_parse_by_reference, text, 32)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"card": 123456789012345678901234567890}', {"card": 123456789012345678901234567890}),
        ('{"card": 42}', {"card": 42}),
        ('"\\ud83d\\ude00"', "\U0001f600"),
    ],
)
def test_values_orjson_reads_otherwise_keep_the_reference_reading(text: str, expected: Any) -> None:
    # orjson reads a number past 64 bits as a float: the short path must not keep it.
    assert typed(parse_json(text, "move", LIMIT)) == typed(expected)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"card": 4.2}', "move may hold integers, not fractions"),
        ('"\\ud800"', "move may not hold lone surrogates (\\ud800-\\udfff)"),
        ('{"_type_": 1, "_data_": 2}',
         'move may not hold an object whose only keys are "_type_" and "_data_"'),
        ("[" * 33 + "]" * 33, "move nests deeper than 32"),
        ("[" * 2000 + "]" * 2000, "move nests deeper than 32"),
    ],
)  # fmt: skip
def test_refusals_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(GamelogError) as refused:
        parse_json(text, "move", LIMIT)
    assert refused.value.code == "bad-move"
    assert refused.value.message == message
