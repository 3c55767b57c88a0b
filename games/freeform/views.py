"""What each viewer may know: everything. A freeform record hides nothing,
so every viewer gets the same view and every event whole."""

from __future__ import annotations

from gamelog.games.freeform.state import FreeformState
from gamelog.games.protocol import JSON, Event, Viewer


def view(state: FreeformState, viewer: Viewer) -> dict[str, JSON]:
    return {
        "seats": list(state.seats),
        "moves": state.moves,
        "moves_by_seat": dict(zip(state.seats, state.moves_by_seat)),
        "last_move": state.last_move,
        "last_seat": state.last_seat,
        "result": state.result.to_json() if state.result else None,
        "note": "freeform: moves are recorded without rule checks",
    }


def redact(event: Event, viewer: Viewer) -> Event:
    return event


def shows_hidden(event: Event) -> bool:
    return False


def hidden_from(state: FreeformState, viewer: Viewer) -> frozenset[str | int]:
    return frozenset()
