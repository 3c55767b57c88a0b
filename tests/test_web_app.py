"""The web front end's request parsing, without a server."""

from __future__ import annotations

import pytest

from gamelog.web.app import position_from
from gamelog.web.gateway import GatewayError


@pytest.mark.parametrize("text", ["²", "-1", "1.5", "x"])
def test_a_position_that_is_no_plain_number_is_a_bad_request(text: str) -> None:
    with pytest.raises(GatewayError) as refused:
        position_from(text, "at")
    assert refused.value.reason == "bad-position"


def test_a_plain_number_is_a_position() -> None:
    assert position_from("12", "at") == 12 and position_from("", "at") is None
