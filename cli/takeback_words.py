"""What a take-back call did, in one sentence a player reads.

Every answer to a take-back says what happened and where the game goes on,
never just that something was stored. The CLI (``gamelog undo``) and the web
page (``gamelog web``) both print these sentences.

>>> request = {"kind": "undo-request", "seat": "ann", "to_position": 12}
>>> takeback_words([request], 13, ["ben", "cy"])
'ann asked to go back to position 12; waiting for ben and cy to answer'
>>> decline = {"kind": "undo-decline", "seat": "ben", "to_position": 12}
>>> takeback_words([decline], 14, [])
'ben declined; the game goes on at position 14'
>>> approve = {"kind": "undo-approve", "seat": "ben", "to_position": 12}
>>> back = {"kind": "takeback", "by": "ann", "to_position": 12, "position": 15}
>>> takeback_words([approve, back], 15, [])
'ben approved; back to position 12: the game goes on at position 15'
>>> takeback_words([{**back, "by": "#arbiter"}], 15, [])
'the arbiter took the game back to position 12; it goes on at position 15'
>>> takeback_words([request, back], 14, [])  # a policy that needs no answer
'ann took the game back to position 12; it goes on at position 14'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games.protocol import ARBITER
from gamelog.games.wording import and_list


def who(seat: object) -> str:
    """A seat by its name; the arbiter as "the arbiter"."""
    return "the arbiter" if seat == ARBITER else str(seat)


def takeback_words(
    records: Sequence[Mapping[str, Any]], position: int, waiting: Sequence[str]
) -> str:
    """The sentence for the records one take-back call stored.

    ``position`` is the game's latest position after the call; ``waiting``
    the seats whose answer a request still needs."""
    parts: list[str] = []
    for record in records:
        kind = record.get("kind")
        seat = who(record.get("seat"))
        if kind == "undo-request":
            asked = f"{seat} asked to go back to position {record.get('to_position')}"
            if waiting:
                asked += f"; waiting for {and_list(waiting)} to answer"
            parts.append(asked)
        elif kind == "undo-approve":
            parts.append(f"{seat} approved")
        elif kind == "undo-decline":
            parts.append(f"{seat} declined; the game goes on at position {position}")
        elif kind == "takeback":
            by = record.get("by")
            if not parts or parts[-1].startswith(f"{who(by)} asked"):
                return (
                    f"{who(by)} took the game back to position {record.get('to_position')}; "
                    f"it goes on at position {position}"
                )
            parts.append(
                f"back to position {record.get('to_position')}: "
                f"the game goes on at position {position}"
            )
    if not parts:
        return f"nothing was stored; the game stands at position {position}"
    if len(parts) == 2 and records[-1].get("kind") == "takeback":
        return f"{parts[0]}; {parts[1]}"
    return "; ".join(parts)


def waiting_for(pending_undo_json: str, seats: Sequence[str]) -> list[str]:
    """The seats a pending request still waits for: all but the asker and
    those who approved already.

    >>> waiting_for('{"seat": "ann", "to_position": 3, "approved": ["ben"]}', ["ann", "ben", "cy"])
    ['cy']
    >>> waiting_for("", ["ann", "ben"])
    []
    """
    if not pending_undo_json:
        return []
    pending = json.loads(pending_undo_json)
    answered = {pending.get("seat"), *pending.get("approved", [])}
    return [seat for seat in seats if seat not in answered]
