"""The records a ``Game``'s commands write, as docs/record-format.md has them.

Every record after the creation is framed alike: its position (the next
one), its kind, the hash of the record before it and, in format 2, its time
(the command's one reading of the clock). It is then sealed in the game's
own format: a game created before hiding commitments (format 1) goes on
without salts. A move record also says when its seat did not play it itself
(``by_rule``, ``by_arbiter``) and carries the client's request id; every
``finished`` record reveals the seed (and, in format 2, its nonce).

``Game``'s commands decide whether a record may be written; this module
says what is in it, so that the two are read apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamelog.games.protocol import Event, Move
from gamelog.replay.record import Record, seal

if TYPE_CHECKING:
    from gamelog.service.model.game import Game

__all__ = ["finished_record", "move_record", "next_record", "sealed"]

_PARTS = frozenset({"move", "events"})
"""A move record's parts, which ``seal`` needs not look at again once
``stored_form`` found orjson writes them alike."""


def next_record(game: Game, kind: str, now: str, **fields: Any) -> Record:
    """The next record; ``now`` is the command's one reading of the clock."""
    record = {"position": game.position + 1, "kind": kind, "prev_hash": game.last_hash}
    if game.salted:
        record["time"] = now
    return {**record, **fields}


def sealed(game: Game, record: Record, parts_alike: bool = False) -> Record:
    """Seal in the game's format; ``parts_alike``: ``stored_form`` found
    the move record's parts alike."""
    alike_fields = _PARTS if parts_alike else frozenset()
    return seal(record, salted=game.salted, alike_fields=alike_fields)


def move_record(
    game: Game,
    now: str,
    seat: str,
    ply: int,
    stored: tuple[Move, list[Event]],
    parts_alike: bool,
    request_id: str = "",
    by_rule: bool = False,
    by_arbiter: bool = False,
) -> Record:
    """A move's record, sealed: ``stored``, the move and its events in
    their stored form (``parts_alike`` as ``stored_form`` said)."""
    move, events = stored
    record = next_record(game, "move", now, seat=seat, ply=ply, move=move, events=events)
    if request_id:
        record["request_id"] = request_id
    if by_rule:
        record["by_rule"] = True
    if by_arbiter:
        record["by_arbiter"] = True
    return sealed(game, record, parts_alike=parts_alike)


def finished_record(game: Game, now: str, result: dict[str, Any], **fields: Any) -> Record:
    """The end's record, sealed: the result and the revealed seed."""
    if game.salted:
        seed = {"seed": game.seed_hex, "seed_nonce": game.seed_nonce_hex}
    else:
        seed = {"seed": game.seed_hex}
    return sealed(game, next_record(game, "finished", now, result=result, **fields, **seed))
