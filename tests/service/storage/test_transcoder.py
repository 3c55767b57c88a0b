"""The store's transcoder writes exactly the bytes eventsourcing's own JSON
transcoder writes, for every kind of event gamelog stores."""

from __future__ import annotations

from eventsourcing.persistence import JSONTranscoder

from gamelog.service.storage.transcoder import RecordTranscoder
from gamelog.service.usecases.application import GameLog


def test_stored_states_are_the_librarys_bytes() -> None:
    app = GameLog(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        assert isinstance(app.store.mapper.transcoder, RecordTranscoder)
        reference = JSONTranscoder()
        app.store.register_transcodings(reference)
        created = app.games.create_game("three-too-many", ["ann", "ben"], undo_policy="free")
        for position in range(6):
            seat = app.queries.view(created.game_id, None).to_act[0]
            move = app.queries.legal_moves(created.game_id, created.tokens[seat]).moves[0]
            app.games.play(created.game_id, created.tokens[seat], move, position, f"r{position}")
        app.games.take_back(created.game_id, created.arbiter_token, "request", 2, 6)
        stored = list(app.store.recorder.select_notifications(start=1, limit=1000))
        assert len(stored) > 8  # the games' events, credentials, the take-back
        for event in stored:
            state = reference.decode(event.state)
            assert app.store.mapper.transcoder.encode(state) == reference.encode(state)
    finally:
        app.close()
