"""SQLite: a transaction's events are stored with one statement
(service/storage/sqlite_recorder.py).

These tests hold it to what the library's BEGIN / INSERT … / COMMIT gave:
all of a transaction's events or none (a position already taken fails the
whole save, the other games' events included), the notification ids the
log then shows, and a save too big for one statement still stored whole.
"""

from __future__ import annotations

import uuid

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from gamelog.service.storage.sqlite_recorder import MAX_ROWS, OneStatementRecorder
from gamelog.service.usecases.application import GameLog


def _events(originator: uuid.UUID, versions: range) -> list[StoredEvent]:
    return [StoredEvent(originator, v, "gamelog.test:Event", b"{}") for v in versions]


def _ids_in_log(recorder: OneStatementRecorder) -> list[tuple[int, str, int]]:
    return [
        (n.id, str(n.originator_id), n.originator_version)
        for n in recorder.select_notifications(1, 10_000)
    ]


def test_the_sqlite_store_writes_through_the_one_statement_recorder(sqlite_app: GameLog) -> None:
    assert isinstance(sqlite_app.store.recorder, OneStatementRecorder)
    created = sqlite_app.games.create_game("freeform", ["ann", "ben"])
    sqlite_app.games.play(created.game_id, created.tokens["ann"], {"note": 1}, 0)
    assert sqlite_app.queries.audit(created.game_id).ok


def test_a_transaction_is_stored_whole_with_the_log_ids_it_answers(sqlite_app: GameLog) -> None:
    recorder = sqlite_app.store.recorder
    assert isinstance(recorder, OneStatementRecorder)
    before = _ids_in_log(recorder)
    first, second = uuid.uuid4(), uuid.uuid4()
    ids = recorder.insert_events(_events(first, range(1, 4)) + _events(second, range(1, 3)))
    added = _ids_in_log(recorder)[len(before) :]
    assert ids == [n for n, _, _ in added]
    assert [(o, v) for _, o, v in added] == [(str(first), v) for v in (1, 2, 3)] + [
        (str(second), v) for v in (1, 2)
    ]


def test_a_position_already_taken_fails_the_whole_transaction(sqlite_app: GameLog) -> None:
    recorder = sqlite_app.store.recorder
    assert isinstance(recorder, OneStatementRecorder)
    taken, other = uuid.uuid4(), uuid.uuid4()
    recorder.insert_events(_events(taken, range(1, 3)))
    before = _ids_in_log(recorder)
    with pytest.raises(IntegrityError):
        recorder.insert_events(_events(other, range(1, 4)) + _events(taken, range(2, 4)))
    assert _ids_in_log(recorder) == before
    # The connection is left fit for the next transaction.
    assert recorder.insert_events(_events(other, range(1, 2)))


def test_a_save_too_big_for_one_statement_is_stored_whole(sqlite_app: GameLog) -> None:
    recorder = sqlite_app.store.recorder
    assert isinstance(recorder, OneStatementRecorder)
    big = uuid.uuid4()
    before = _ids_in_log(recorder)
    ids = recorder.insert_events(_events(big, range(1, MAX_ROWS + 2)))
    added = _ids_in_log(recorder)[len(before) :]
    assert ids == [n for n, _, _ in added] and len(added) == MAX_ROWS + 1
    taken = _events(uuid.uuid4(), range(1, MAX_ROWS + 2)) + _events(big, range(5, 6))
    with pytest.raises(IntegrityError):
        recorder.insert_events(taken)
    assert len(_ids_in_log(recorder)) == len(before) + MAX_ROWS + 1


def test_writes_go_through_one_kept_connection_in_turn_with_the_pools_writers(
    sqlite_app: GameLog,
) -> None:
    """The recorder keeps one connection for writing (its page cache stays
    warm); the pool's other writers, the library's long saves among them,
    still take turns with it, and the log's ids stay the ones answered."""
    recorder = sqlite_app.store.recorder
    assert isinstance(recorder, OneStatementRecorder)
    game = uuid.uuid4()
    ids = list(recorder.insert_events(_events(game, range(1, 3))) or [])
    kept = recorder._writer
    assert kept is not None
    ids += recorder.insert_events(_events(game, range(3, 4 + MAX_ROWS))) or []  # the pool's path
    ids += recorder.insert_events(_events(game, range(4 + MAX_ROWS, 6 + MAX_ROWS))) or []
    assert recorder._writer is kept
    stored = [(n, v) for n, o, v in _ids_in_log(recorder) if o == str(game)]
    assert stored == list(zip(ids, range(1, 6 + MAX_ROWS), strict=True))
    recorder.close_writer()
    assert recorder._writer is None
    with pytest.raises(IntegrityError):  # a new writer, the same table and key
        recorder.insert_events(_events(game, range(1, 2)))


def test_a_kept_connection_that_breaks_is_made_afresh_for_the_next_write(
    sqlite_app: GameLog,
) -> None:
    recorder = sqlite_app.store.recorder
    assert isinstance(recorder, OneStatementRecorder)
    game = uuid.uuid4()
    recorder.insert_events(_events(game, range(1, 2)))
    broken = recorder._writer
    assert broken is not None
    broken._sqlite_conn.close()  # as a connection the driver gave up on
    with pytest.raises(Exception):  # noqa: B017 - the driver's error, mapped
        recorder.insert_events(_events(game, range(2, 3)))
    assert recorder._writer is None
    ids = recorder.insert_events(_events(game, range(2, 3)))
    assert [(n, v) for n, o, v in _ids_in_log(recorder) if o == str(game)][-1] == (ids[0], 2)
    with pytest.raises(IntegrityError):  # a refusal keeps the connection
        recorder.insert_events(_events(game, range(2, 3)))
    assert recorder._writer is not None
