"""The store's transcoder: eventsourcing's JSON transcoder, with the state of
a stored event written by orjson where orjson writes the same bytes.

Every stored event's state is a dict of a few attributes: a record (plain
JSON) and the event's timestamp, sometimes a UUID or other values that
eventsourcing's transcodings encode. When every attribute is either plain
JSON that orjson writes byte for byte as the standard library does
(``record.canonical_json`` says which) or a ``datetime``, orjson writes the
state, calling the library's own transcoding for the datetime, so the stored
bytes are exactly what ``JSONTranscoder`` would have written; anything else
(a UUID, a float, an encoded game state in a snapshot) is written by
``JSONTranscoder`` itself. Reading is the library's, unchanged.

>>> from datetime import UTC, datetime
>>> from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder
>>> state = {"timestamp": datetime(2026, 11, 30, tzinfo=UTC), "record": {"kind": "move"}}
>>> fast, reference = RecordTranscoder(), JSONTranscoder()
>>> for transcoder in (fast, reference):
...     transcoder.register(DatetimeAsISO())
>>> fast.encode(state) == reference.encode(state)
True
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson
from eventsourcing.persistence import JSONTranscoder

from gamelog.replay.record import orjson_writes_it_alike

TOPIC = "gamelog.service.storage.transcoder:RecordTranscoder"


class RecordTranscoder(JSONTranscoder):
    """``JSONTranscoder`` with a faster writer for the states it can write alike."""

    def encode(self, obj: Any) -> bytes:
        if type(obj) is dict and all(
            type(key) is str and (type(value) is datetime or orjson_writes_it_alike(value))
            for key, value in obj.items()
        ):
            try:
                return orjson.dumps(
                    obj, default=self._encode_obj, option=orjson.OPT_PASSTHROUGH_DATETIME
                )
            except (orjson.JSONEncodeError, RecursionError):
                pass  # a lone surrogate, deep nesting: the library decides
        return super().encode(obj)
