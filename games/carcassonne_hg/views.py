"""What each viewer may know: everything on the table is open; the order of
the land and bonus piles is hidden from all but the arbiter."""

from __future__ import annotations

from gamelog.games.carcassonne_hg.state import HGState
from gamelog.games.protocol import ARBITER, JSON, Event, Result, Viewer


def view(
    state: HGState, viewer: Viewer, to_act: tuple[str, ...], result: Result | None
) -> dict[str, JSON]:
    """The whole table: every viewer sees the same (only the piles' order is hidden)."""
    return {
        "seats": list(state.seats),
        "phase": state.phase.value,
        "to_act": state.current_seat if to_act else None,
        "current_tile": state.tile,
        "current_tile_is_bonus": state.tile_is_bonus if state.tile is not None else None,
        "placed_at": (
            {"x": state.placed_at[0], "y": state.placed_at[1]} if state.placed_at else None
        ),
        "map": [
            {
                "x": pos[0],
                "y": pos[1],
                "tile": placed.tile,
                "rotation": placed.rotation,
                "seat": placed.seat,
                "bonus": placed.bonus,
            }
            for pos, placed in state.board.items()
        ],
        "followers": [f.to_json() for f in state.followers],
        "supply": {
            seat: {"tribe_members": state.members[i], "huts": state.huts[i]}
            for i, seat in enumerate(state.seats)
        },
        "scores": dict(zip(state.seats, state.scores)),
        "land_left": len(state.land_pile),
        "bonus_left": len(state.bonus_pile),
        "set_aside": list(state.set_aside),
        "component_set": state.tileset.name,
        "result": result.to_json() if result else None,
    }


def redact(event: Event, viewer: Viewer) -> Event:
    return event


def shows_hidden(event: Event) -> bool:
    return event.get("type") == "TileDrawn"


def hidden_from(state: HGState, viewer: Viewer) -> frozenset[str | int]:
    if viewer == ARBITER:
        return frozenset()
    return frozenset(state.land_pile | state.bonus_pile)
