"""One followed game of the fan-out: its stored records, the state after each
(for their notation), and each record as each kind of viewer may see it,
made once, the first time a follower of that kind needs it.

A ``GameFeed`` reads the store in an executor thread: all of the game when
its first follower comes, then only what is new, when poked (``poke``: a
save in this process, a notification from another, a catch-up). Records this
process has just committed are handed over by their committer (``offer``),
with the game's state after them where it has it, and need no read at all.
The ``Fanout`` (``fanout.py``) keeps one feed per followed game; its
followers are ``Subscription``s, cursors into the feed's shared ``Entry``s.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from gamelog.games.protocol import GameType, Viewer
from gamelog.replay.fold import start_state
from gamelog.replay.notation import record_line_or_kind
from gamelog.replay.record import Record, compact_json
from gamelog.replay.redact import redact_record

if TYPE_CHECKING:
    from gamelog.service.live.fanout import Fanout

log = logging.getLogger(__name__)

RETRY_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)
"""Waits between failed reads of the store (it may be away for a moment)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One record as one kind of viewer sees it, with its JSON made once."""

    position: int
    kind: str
    record: Record
    json: str
    notation: str = ""
    """The record as one readable line in the game's notation, for this viewer."""


class GameFeed:
    """One followed game: its records, and what each kind of viewer sees of them."""

    def __init__(self, fanout: Fanout, game_id: UUID) -> None:
        self.fanout = fanout
        self.game_id = game_id
        self.rules: GameType[Any] | None = None
        self.records: list[Record] = []
        self.states: list[Any] = []
        """The game's state after each position (for each record's notation)."""
        self.finished = False
        self.followers = 0
        """How many follow it (counted by ``join`` and ``leave``, with their viewers)."""
        self.changed = asyncio.Event()
        self._shown: dict[Viewer, dict[int, Entry]] = {}
        self._viewers: dict[Viewer, int] = {}
        self._reading: asyncio.Task[None] | None = None
        self._again = False
        self._poked = -1
        self._covered = -1
        self._blind = False
        """Told that something was stored without where (look whatever the head)."""
        self._ready = False
        self.loaded: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._load())

    @property
    def head(self) -> int:
        """The last position read from the store (-1 before the first read)."""
        return len(self.records) - 1

    # -- reading the store ---------------------------------------------------------

    async def _load(self) -> None:
        source = self.fanout.source

        def read() -> tuple[GameType[Any], list[Record]]:
            return source.rules_of(self.game_id), source.records_after(self.game_id, 0)

        self.rules, records = await self.fanout.in_executor(read)
        self._append(records)
        self._ready = True
        if self._again:  # poked while loading: the load may have missed it
            self.poke()

    def poke(self, position: int | None = None) -> None:
        """Something was stored (up to ``position``, if known): read what is new,
        unless a read that started after that store already covers it."""
        if position is not None:
            if position <= self.head or position <= self._covered:
                return
            self._poked = max(self._poked, position)
        else:
            self._blind = True
        self._again = True
        if self._reading is None and self._ready:
            self._reading = asyncio.get_running_loop().create_task(self._read_new())

    async def settled(self) -> None:
        """Wait for the read in progress, if any (a fresh look at the store)."""
        await asyncio.shield(self.loaded)
        if self._reading is not None:
            await asyncio.shield(self._reading)

    async def _read_new(self) -> None:
        failures = 0
        try:
            while self._again and self.followers:
                self._again = False
                if not self._blind and self._poked <= self.head:
                    # Its committer offered what was stored (``offer``) while
                    # this read waited for its turn: nothing is left to read.
                    continue
                self._blind = False
                # Everything poked until now was committed before this read
                # starts, so the read sees it: later pokes up to here need none.
                self._covered = self._poked
                try:
                    records = await self.fanout.in_executor(
                        self.fanout.source.records_after, self.game_id, self.head + 1
                    )
                except Exception:
                    log.exception("reading game %s for its followers failed", self.game_id)
                    self._covered = self.head
                    self._again = self._blind = True
                    await asyncio.sleep(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
                    failures += 1
                    continue
                failures = 0
                self._append(records)
        finally:
            self._reading = None

    def offer(self, records: list[Record], state: Any = None) -> None:
        """Records this process just committed, handed over by the one that
        committed them: held at once if they continue the feed, saving the
        store read (the committed records are the stored ones: the same hash
        chain); else the read brings them. ``state``, the game's state after
        them, where the committer has it, saves folding them again."""
        if self._ready and records and records[0]["position"] == self.head + 1:
            self._covered = max(self._covered, records[-1]["position"])
            self._append(records, state)

    def _append(self, records: list[Record], state: Any = None) -> None:
        was_finished = self.finished
        # The committer's state is the state after the batch's one move
        # (the records after it, an end, change no state); else fold.
        moves = [record for record in records if record["kind"] == "move"]
        known = moves[0] if state is not None and len(moves) == 1 else None
        for record in records:
            if record["position"] < len(self.records):
                continue  # held already: offered by its committer while a read was under way
            if record["position"] != len(self.records) or self.finished:
                log.error("game %s: record at %s out of line", self.game_id, record["position"])
                break
            self.records.append(record)
            self.states.append(state if record is known else self._state_after(record))
            self.finished = record["kind"] == "finished"
        if self.finished and not was_finished:
            # Once finished, every viewer sees the finished game's record,
            # also at the positions some followers have not reached yet.
            self._shown.clear()
        self.wake()

    def wake(self) -> None:
        """Let every follower waiting for a record look again."""
        self.changed.set()
        self.changed.clear()

    def _state_after(self, record: Record) -> Any:
        """Folded once per game, whoever follows it: notation needs the state
        before each record."""
        assert self.rules is not None
        rules, kind = self.rules, record["kind"]
        try:
            if kind == "created":
                return start_state(rules, record)
            if kind == "takeback":
                return self.states[record["to_position"]]
            state = self.states[-1]
            if kind == "move":
                for event in record["events"]:
                    state = rules.evolve(state, event)
            return state
        except Exception:  # the record's own readers get DATA_LOSS; followers a bare line
            log.exception("game %s: cannot fold position %s", self.game_id, record["position"])
            return None

    def _line(self, position: int, shown: Record) -> str:
        assert self.rules is not None
        record = self.records[position]
        if position == 0:
            before = self.rules.start(tuple(record["seats"]), record["options"])
        else:
            before = self.states[position - 1]
        return record_line_or_kind(self.rules, before, shown)

    # -- what each viewer sees -----------------------------------------------------

    def entry(self, position: int, viewer: Viewer) -> Entry:
        """The record at ``position`` as ``viewer`` may see it, redacted the
        first time any follower of that kind of viewer needs it."""
        shown = self._shown.setdefault(viewer, {})
        entry = shown.get(position)
        if entry is None:
            record = self._redact(self.records[position], viewer)
            entry = shown[position] = Entry(
                position,
                record["kind"],
                record,
                compact_json(record),
                self._line(position, record),
            )
        return entry

    def _redact(self, record: Record, viewer: Viewer) -> Record:
        # The only place the fan-out redacts.
        assert self.rules is not None
        return redact_record(self.rules, record, viewer, self.finished)

    def check_start(self, position: int) -> bool:
        """True if a follow may start at ``position``: a stored position, or a
        running game's next one."""
        return position <= self.head or (position == self.head + 1 and not self.finished)

    def join(self, viewer: Viewer) -> None:
        self.followers += 1
        self._viewers[viewer] = self._viewers.get(viewer, 0) + 1

    def leave(self, viewer: Viewer) -> None:
        self.followers -= 1
        left = self._viewers[viewer] - 1
        if left:
            self._viewers[viewer] = left
        else:
            del self._viewers[viewer]
            self._shown.pop(viewer, None)
