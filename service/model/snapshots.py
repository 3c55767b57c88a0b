"""A game's snapshot: the aggregate's attributes, its game state through the
state codec.

Snapshots are a cache (docs/design.md): a load starts from the newest one at
or before the position asked for and folds the records after it. The rules'
state, the line of play and the clocks are frozen dataclasses, which the
store's JSON cannot hold as they are, so they go through their codecs
(``games.codec``, ``line_to_json``, ``Clocks.to_json``) and back.

A snapshot taken by an older version of gamelog may lack an attribute added
since; ``mutate`` fills it in from what the snapshot has (``_UPGRADES``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from eventsourcing.domain import Snapshot

from gamelog.games.codec import decode, encode
from gamelog.replay.clock import Clocks
from gamelog.replay.line import Line, UndoRequest
from gamelog.replay.record import as_stored
from gamelog.service.model.tournament_tables import tournament_of
from gamelog.service.model.unreadable import reading


def line_to_json(line: Line) -> dict[str, Any]:
    """The line as plain JSON, as the store gives it back."""
    return dict(as_stored(dataclasses.asdict(line)))


def line_from_json(data: dict[str, Any]) -> Line:
    pending = data.get("pending")
    return Line(
        seats=tuple(data["seats"]),
        policy=data["policy"],
        base_ply=data["base_ply"],
        positions=tuple(data["positions"]),
        reveals=tuple(data["reveals"]),
        pending=None
        if pending is None
        else UndoRequest(pending["seat"], pending["to_position"], tuple(pending["approved"])),
        finished=data["finished"],
    )


def _tournament_id(attributes: dict[str, Any]) -> Any:
    # Kept as the raw stored field (``seated_by``), or not at all, before.
    return tournament_of(attributes["record_created"], attributes.pop("seated_by", None))


_UPGRADES: dict[str, Callable[[dict[str, Any]], Any]] = {
    "tournament_id": _tournament_id,
    "restorations": lambda attributes: (),
}
"""Attributes an older snapshot may lack, each made from the others."""


class GameSnapshot(Snapshot):
    """A snapshot whose game state is stored through the state codec."""

    @classmethod
    def take(cls, aggregate: Any) -> GameSnapshot:
        snapshot = super().take(aggregate)
        state = dict(snapshot.state)
        state["state"] = encode(state["state"])
        state["line"] = line_to_json(state["line"])
        clock = state.get("clock")
        state["clock"] = clock.to_json() if clock is not None else None
        state["restorations"] = [list(pair) for pair in state.get("restorations", ())]
        return cls(
            originator_id=snapshot.originator_id,
            originator_version=snapshot.originator_version,
            timestamp=snapshot.timestamp,
            topic=snapshot.topic,
            state=state,
        )

    def mutate(self, _: None) -> Any:
        with reading(self.originator_version - 1):
            aggregate = super().mutate(None)
            attributes = aggregate.__dict__
            attributes["state"] = decode(attributes["state"])
            attributes["line"] = line_from_json(attributes["line"])
            clock = attributes.get("clock")
            attributes["clock"] = Clocks.from_json(clock) if clock else None
            for name, upgrade in _UPGRADES.items():
                if name not in attributes:
                    attributes[name] = upgrade(attributes)
            attributes["restorations"] = tuple(tuple(r) for r in attributes["restorations"])
        return aggregate
