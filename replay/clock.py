"""Clocks: time per player per game plus an increment per move, read from the records.

A game with a time control names it in its creation record's tags (so it is
hashed with the record and cannot change later):

* ``TimeControl``: ``BASE+INCREMENT`` in seconds, as PGN's tag of that name
  writes it (``"300+5"``: five minutes each, five seconds added after each
  move; ``"600"``: ten minutes, no increment; up to three decimals);
* ``OnTimeout``: what a seat whose time runs out gets: ``lose`` (the game
  ends, that seat last; the default) or ``play-by-rule`` (the game goes on,
  and the service makes every later move of that seat by rule: the first of
  its legal moves).

Every stored record carries the server's ``time`` (hashed), so the clocks are
a pure function of the records: between two records, the clock of every seat
that was to act runs (several at once in a simultaneous step; the arbiter has
no clock); a seat's own move adds the increment. A seat is out of time when
its remaining time is zero or less. The service checks when a move arrives
and when the state is read, and stores a ``timeout`` record; the audit runs
the same clocks over the records and checks every ``timeout`` record, every
move made by rule, and that no seat moved after its time ran out.

>>> control = parse_time_control("60+2")
>>> clocks = Clocks.start(control, ("ann", "ben"), "2026-11-30T20:00:00.000Z", ("ann",))
>>> clocks = clocks.after("2026-11-30T20:00:10.500Z", "ann", ("ben",))
>>> clocks.remaining("ann", millis("2026-11-30T20:00:30.000Z"))
51500
>>> clocks.remaining("ben", millis("2026-11-30T20:00:30.000Z"))
40500
>>> clocks.expired(millis("2026-11-30T20:01:10.500Z"))
('ben',)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Final

from gamelog.games.protocol import ARBITER, Rules

TIME_CONTROL_TAG: Final = "TimeControl"
ON_TIMEOUT_TAG: Final = "OnTimeout"
ON_TIMEOUT: Final = ("lose", "play-by-rule")
MAX_SECONDS: Final = 7 * 24 * 3600
_SPEC = re.compile(r"(\d{1,7}(?:\.\d{1,3})?)(?:\+(\d{1,7}(?:\.\d{1,3})?))?")


class ClockError(ValueError):
    """A time control that cannot be read."""


@dataclass(frozen=True)
class TimeControl:
    base_ms: int
    increment_ms: int = 0
    on_timeout: str = "lose"

    def text(self) -> str:
        """``300+5``, the tag's own form.

        >>> TimeControl(90_500, 2_000).text()
        '90.5+2'
        """
        return f"{_seconds(self.base_ms)}+{_seconds(self.increment_ms)}"


def _seconds(ms: int) -> str:
    whole, part = divmod(ms, 1000)
    return f"{whole}.{part:03d}".rstrip("0").rstrip(".") if part else str(whole)


def _ms(text: str) -> int:
    whole, _, part = text.partition(".")
    return int(whole) * 1000 + int((part + "000")[:3])


def parse_time_control(text: str, on_timeout: str = "lose") -> TimeControl:
    """A time control from its tag text; ``ClockError`` with a sentence if bad.

    >>> parse_time_control("300+5")
    TimeControl(base_ms=300000, increment_ms=5000, on_timeout='lose')
    >>> parse_time_control("0.25", "play-by-rule").base_ms
    250
    """
    match = _SPEC.fullmatch(text)
    if not match:
        raise ClockError(
            f"time control {text!r} is not BASE+INCREMENT in seconds (e.g. 300+5, or 600)"
        )
    base, increment = _ms(match.group(1)), _ms(match.group(2) or "0")
    if not 0 < base <= MAX_SECONDS * 1000 or increment > MAX_SECONDS * 1000:
        raise ClockError("a time control gives each seat more than no time, at most a week")
    if on_timeout not in ON_TIMEOUT:
        raise ClockError(f"{ON_TIMEOUT_TAG} is one of {', '.join(ON_TIMEOUT)}")
    return TimeControl(base, increment, on_timeout)


def time_control_of(tags: Mapping[str, Any]) -> TimeControl | None:
    """The time control a record's tags name (None: the game is untimed)."""
    text = tags.get(TIME_CONTROL_TAG)
    if text is None:
        if ON_TIMEOUT_TAG in tags:
            raise ClockError(f"{ON_TIMEOUT_TAG} needs a {TIME_CONTROL_TAG}")
        return None
    return parse_time_control(str(text), str(tags.get(ON_TIMEOUT_TAG, "lose")))


def time_control_problem(tags: Mapping[str, Any]) -> str | None:
    """What is wrong with a record's clock tags, or None."""
    try:
        time_control_of(tags)
    except ClockError as error:
        return str(error)
    return None


def millis(time_text: str) -> int:
    """A record's ``time`` (ISO 8601 UTC with milliseconds) as milliseconds
    since the epoch."""
    moment = datetime.fromisoformat(time_text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return round(moment.timestamp() * 1000)


@dataclass(frozen=True)
class Clocks:
    """Every seat's clock after some record."""

    control: TimeControl
    used_ms: Mapping[str, int]
    """Time each seat has used so far, up to ``since_ms``."""
    moves: Mapping[str, int]
    """Moves each seat made in time (each earned the increment)."""
    since_ms: int
    """The time of the last record."""
    running: tuple[str, ...] = ()
    """The seats whose clocks run now: those to act, but no seat out of time."""
    out_of_time: tuple[str, ...] = field(default=())
    """Seats recorded as out of time (``timeout`` records), in that order."""

    @classmethod
    def start(
        cls, control: TimeControl, seats: Sequence[str], time_text: str, running: Sequence[str]
    ) -> Clocks:
        return cls(
            control,
            {seat: 0 for seat in seats},
            {seat: 0 for seat in seats},
            millis(time_text),
            tuple(s for s in running if s in seats),
        )

    @classmethod
    def at_creation(cls, record: Mapping[str, Any], rules: Rules[Any], state: Any) -> Clocks | None:
        """A new game's clocks, from its creation record (with its
        ``TimeControl`` tag) and the state after the deal; None for a game
        without a time control."""
        if "time" not in record:  # format 1: no times, no clocks
            return None
        try:
            control = time_control_of(record.get("metadata") or {})
        except ClockError:
            return None  # an old game with a tag of that name before clocks existed
        if control is None:
            return None
        seats = list(record["seats"])
        return cls.start(control, seats, record["time"], timed_seats(rules, state))

    def remaining(self, seat: str, now_ms: int) -> int:
        """The seat's time left at ``now_ms`` (negative once it ran out)."""
        control = self.control
        left = control.base_ms + control.increment_ms * self.moves.get(seat, 0)
        left -= self.used_ms.get(seat, 0)
        if seat in self.running:
            left -= max(0, now_ms - self.since_ms)
        return left

    def next_flag_ms(self) -> int | None:
        """When the first running seat's time runs out (ms since the epoch),
        if nothing is stored before; None while no clock runs.

        >>> one_second_in = "1970-01-01T00:00:01Z"
        >>> clocks = Clocks.start(TimeControl(30_000, 0), ["ann", "ben"], one_second_in, ["ann"])
        >>> clocks.next_flag_ms()
        31000
        >>> clocks.expired(30_999), clocks.expired(31_000)
        ((), ('ann',))
        """
        flags = [self.since_ms + self.remaining(seat, self.since_ms) for seat in self.running]
        return min(flags, default=None)

    def expired(self, now_ms: int) -> tuple[str, ...]:
        """The seats whose time ran out by ``now_ms`` and are not yet recorded so."""
        return tuple(s for s in self.running if self.remaining(s, now_ms) <= 0)

    def after(
        self,
        time_text: str,
        mover: str | None,
        running: Sequence[str],
        timed_out: Sequence[str] = (),
    ) -> Clocks:
        """The clocks after a record stored at ``time_text``: the time since
        the last record charged to every running seat, the increment to
        ``mover`` (a seat's own move in time), ``timed_out`` seats recorded
        out of time, and ``running`` the seats to act now."""
        now = millis(time_text)
        elapsed = max(0, now - self.since_ms)
        used = {s: t + (elapsed if s in self.running else 0) for s, t in self.used_ms.items()}
        moves = dict(self.moves)
        if mover in moves:
            moves[mover] += 1
        out = (*self.out_of_time, *(s for s in timed_out if s not in self.out_of_time))
        return replace(
            self,
            used_ms=used,
            moves=moves,
            since_ms=now,
            running=tuple(s for s in running if s in used and s not in out),
            out_of_time=out,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "control": [self.control.base_ms, self.control.increment_ms, self.control.on_timeout],
            "used_ms": dict(self.used_ms),
            "moves": dict(self.moves),
            "since_ms": self.since_ms,
            "running": list(self.running),
            "out_of_time": list(self.out_of_time),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Clocks:
        base, increment, on_timeout = data["control"]
        return cls(
            TimeControl(base, increment, on_timeout),
            dict(data["used_ms"]),
            dict(data["moves"]),
            data["since_ms"],
            tuple(data["running"]),
            tuple(data["out_of_time"]),
        )


def timeout_result(seats: Sequence[str], out_of_time: Sequence[str]) -> dict[str, Any]:
    """The result of a game ended because ``out_of_time`` ran out (``lose``):
    those seats share the last place, every other seat shares the first (the
    game stopped before it could rank them); nobody scores.

    >>> timeout_result(["ann", "ben", "cy"], ["ben"])["ranking"]
    [['ann', 'cy'], ['ben']]
    """
    others = [s for s in seats if s not in out_of_time]
    late = [s for s in seats if s in out_of_time]
    ranking = [place for place in (others, late) if place]
    return {
        "scores": {seat: 0 for seat in seats},
        "ranking": ranking,
        "winners": ranking[0],
        "details": {"out_of_time": late},
    }


def timed_seats(rules: Rules[Any], state: Any) -> list[str]:
    """The seats whose clocks run in ``state``: those to act, the arbiter aside."""
    return [seat for seat in rules.to_act(state) if seat != ARBITER]


def seat_by_rule(rules: Rules[Any], state: Any, clocks: Clocks | None) -> str | None:
    """The seat whose move the service makes by rule in ``state``, if any:
    the first seat to act that ran out of time under ``play-by-rule``. The
    service (``Game.seat_by_rule``) and the audit both ask this."""
    if clocks is None or clocks.control.on_timeout != "play-by-rule":
        return None
    return next((s for s in rules.to_act(state) if s in clocks.out_of_time), None)
