"""A call through the gRPC client that must be refused: the refusal, to look at.

>>> # error = refused(client.play, game_id, {"card": 999}, 0, token)
>>> # assert error.code == "FAILED_PRECONDITION"
"""

from __future__ import annotations

from typing import Any

import pytest

from gamelog.cli.client import ApiError


def refused(call: Any, *args: Any, **kwargs: Any) -> ApiError:
    with pytest.raises(ApiError) as error:
        call(*args, **kwargs)
    return error.value
