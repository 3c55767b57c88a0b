"""The store's transcoder writes exactly the bytes eventsourcing's own JSON
transcoder writes, for every kind of event gamelog stores."""

from __future__ import annotations

from eventsourcing.persistence import JSONTranscoder

from gamelog.service.app import GameLog
from gamelog.service.transcoder import RecordTranscoder


def test_stored_states_are_the_librarys_bytes() -> None:
    app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        assert isinstance(app.mapper.transcoder, RecordTranscoder)
        reference = JSONTranscoder()
        app.register_transcodings(reference)
        created = app.create_game("three-too-many", ["ann", "ben"], undo_policy="free")
        for position in range(6):
            seat = app.view(created.game_id, None).to_act[0]
            move = app.legal_moves(created.game_id, created.tokens[seat]).moves[0]
            app.play(created.game_id, created.tokens[seat], move, position, f"r{position}")
        app.take_back(created.game_id, created.arbiter_token, "request", 2, 6)
        stored = list(app.recorder.select_notifications(start=1, limit=1000))
        assert len(stored) > 8  # the games' events, credentials, the take-back
        for event in stored:
            state = reference.decode(event.state)
            assert app.mapper.transcoder.encode(state) == reference.encode(state)
    finally:
        app.close()
