"""The game protocols: the three small interfaces every game implements.

``Rules`` is the decider, ``Secrecy`` cuts what each viewer may know,
``Presentation`` puts the game in words and pictures; ``GameType`` is the one
object a game exports, all three at once (docs/adding-a-game.md).

A game is a *decider* (see docs/design.md, "Games are deciders"): pure
functions over an immutable state, with no I/O, no clock and no hidden
randomness. The service stores what they return; replay folds it back.

    state = rules.start(seats, options)                # the empty table
    for event in rules.setup(options, seats, rng):     # the deal, with outcomes
        state = rules.evolve(state, event)
    events = rules.decide(state, "alice", move, rng)   # may raise IllegalMove
    for event in events:
        state = rules.evolve(state, event)

Worked example with the freeform game (moves are recorded, not judged):

>>> from gamelog.games.freeform import RULES
>>> seats = ("alice", "bob")
>>> options = RULES.normalize_options({}, seats)
>>> state = RULES.start(seats, options)
>>> for event in RULES.setup(options, seats, rng_for(b"seed", 0)):
...     state = RULES.evolve(state, event)
>>> events = RULES.decide(state, "alice", {"say": "e4"}, rng_for(b"seed", 1))
>>> for event in events:
...     state = RULES.evolve(state, event)
>>> RULES.view(state, None)["moves"]
1

Conventions every game follows:

* Moves and events are plain JSON data: dicts with string keys, lists, strings,
  ints, bools and None (no floats, so hashes are stable). Every event is a dict
  with a ``"type"`` naming one fact in the game's own words (``"CardPlaced"``,
  ``"TributesRevealed"``).
* Randomness only through the ``rng`` argument. Its outcome is written into the
  events (a shuffle records the resulting order), so ``evolve`` never draws.
* Hidden information lives in events and state in full; ``view`` and ``redact``
  cut it per viewer. A viewer is a seat name, ``None`` for a spectator, or
  ``ARBITER``, who sees everything.
* A *declared fact*, recorded as a seat or the arbiter states it because the
  rules we have do not define it, is an event with ``"declared": True``; the
  notation and the audit name it as declared rather than rule-checked.
* States are frozen dataclasses (tuples, frozensets and nested frozen
  dataclasses inside), so ``==`` compares positions and ``codec`` can store
  them in snapshots.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final, Generic, Protocol, TypeGuard, TypeVar, cast

JSON = Any
"""A JSON-compatible value: dict[str, JSON] | list[JSON] | str | int | bool | None."""

Move = dict[str, Any]
Event = dict[str, Any]
Options = dict[str, Any]

ARBITER: Final = "#arbiter"
"""The viewer who sees everything; seat names may never contain '#'."""

Viewer = str | None
"""A seat name, ARBITER, or None for a spectator."""


def is_int(value: Any) -> TypeGuard[int]:
    """A JSON integer (``True`` is an int to Python, not to JSON).

    >>> is_int(3), is_int(True), is_int(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


class Refusal(Exception):
    """A refusal with a machine-readable ``code`` and a sentence a player
    understands: the rules' refusals below, and the service's own."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class RulesError(Refusal):
    """A refusal by the rules."""


class IllegalMove(RulesError):
    """The move breaks a rule (or is not this seat's to make)."""


class InvalidOptions(RulesError):
    """The game cannot be set up this way (player count, deal, component set)."""


def check_table(
    game: str,
    options: Mapping[str, Any],
    known_options: frozenset[str],
    seats: Sequence[str],
    players: tuple[int, int],
) -> None:
    """The checks every game's ``normalize_options`` starts with: options are
    an object with no unknown keys, the player count is one the rulebook
    allows, and seat names are distinct, non-empty and free of '#'.

    >>> try:
    ...     check_table("panem", {}, frozenset({"deal"}), ["ann"], (2, 4))
    ... except InvalidOptions as refusal:
    ...     print(refusal)
    player-count: panem is played by 2 to 4 players
    """
    if not isinstance(options, Mapping):
        raise InvalidOptions("bad-option", "options must be a JSON object")
    unknown = set(options) - known_options
    if unknown:
        raise InvalidOptions("unknown-option", f"{game} takes no option {sorted(unknown)}")
    fewest, most = players
    if not fewest <= len(seats) <= most:
        raise InvalidOptions("player-count", f"{game} is played by {fewest} to {most} players")
    if len(set(seats)) != len(seats) or any(not seat or "#" in seat for seat in seats):
        raise InvalidOptions("bad-seats", "seat names must be distinct, non-empty, without '#'")


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game.

    ``ranking`` lists places from first to last; seats sharing a place (a tie
    the rules do not break) share one inner tuple. ``winners`` is the first place.
    """

    scores: Mapping[str, int]
    ranking: tuple[tuple[str, ...], ...]
    details: Mapping[str, JSON] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[str, ...]:
        return self.ranking[0] if self.ranking else ()

    def to_json(self) -> dict[str, JSON]:
        return {
            "scores": dict(self.scores),
            "ranking": [list(place) for place in self.ranking],
            "winners": list(self.winners),
            "details": dict(self.details),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Result:
        return cls(
            scores=dict(data["scores"]),
            ranking=tuple(tuple(place) for place in data["ranking"]),
            details=dict(data.get("details", {})),
        )


def rank_by(scores: Mapping[str, Any], seats: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Places from best to worst by a sort key per seat (higher is better).

    Seats with equal keys share a place, in seat order:

    >>> rank_by({"a": 5, "b": 9, "c": 5}, ["a", "b", "c"])
    (('b',), ('a', 'c'))
    """
    places: dict[Any, list[str]] = {}
    for seat in seats:
        places.setdefault(scores[seat], []).append(seat)
    return tuple(tuple(places[key]) for key in sorted(places, reverse=True))


_FIELDS: dict[type, frozenset[str]] = {}
T = TypeVar("T")


def frozen_replace(state: T, **changes: Any) -> T:
    """``dataclasses.replace`` for the games' frozen state dataclasses, at a
    fraction of its cost: it copies the instance's fields instead of calling
    ``__init__`` again with every field looked up by name. States are folded
    once per event on every move, so this is the rules' hottest call.

    Only for frozen dataclasses without ``__post_init__``, ``slots`` or
    ``init=False`` fields (all game states): nothing of ``__init__`` is
    skipped that these have. The copy stays frozen and compares equal to
    what ``dataclasses.replace`` makes:

    >>> import dataclasses
    >>> @dataclasses.dataclass(frozen=True)
    ... class Pos:
    ...     turn: int
    ...     hands: tuple[int, ...] = ()
    >>> moved = frozen_replace(Pos(0, (1, 2)), turn=1)
    >>> moved == dataclasses.replace(Pos(0, (1, 2)), turn=1), moved
    (True, Pos(turn=1, hands=(1, 2)))
    >>> moved.turn = 2
    Traceback (most recent call last):
    dataclasses.FrozenInstanceError: cannot assign to field 'turn'
    >>> frozen_replace(moved, turns=3)
    Traceback (most recent call last):
    TypeError: Pos has no field(s) ['turns']
    """
    cls = type(state)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(f.name for f in fields(cls))  # type: ignore[arg-type]
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(set(changes) - names)}")
    copy = object.__new__(cls)
    attributes = copy.__dict__
    attributes.update(state.__dict__)
    attributes.update(changes)
    return copy


def rng_for(seed: bytes, ply: int) -> random.Random:
    """The random source for the decision at ``ply`` (0 is the set-up).

    Derived from the game's secret seed and the position alone, so the same
    position always draws the same cards: taking a move back cannot fish for
    a better draw. Anyone holding the revealed seed can re-run every shuffle.
    """
    digest = hashlib.sha256(seed + b"/" + str(ply).encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


class _SeededOnUse:
    """``rng_for(seed, ply)``, built the first time it is used. Seeding a
    Mersenne Twister costs more than deciding most moves, and most moves
    draw nothing."""

    __slots__ = ("_ply", "_rng", "_seed")

    def __init__(self, seed: bytes, ply: int) -> None:
        self._seed = seed
        self._ply = ply
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> Any:
        rng = self._rng
        if rng is None:
            rng = self._rng = rng_for(self._seed, self._ply)
        return getattr(rng, name)


def lazy_rng_for(seed: bytes, ply: int) -> random.Random:
    """``rng_for``, seeded only if a method of it is called: the same draws.

    >>> lazy = lazy_rng_for(b"seed", 3)
    >>> [lazy.random(), lazy.sample(range(90), 3)] == [
    ...     (rng := rng_for(b"seed", 3)).random(), rng.sample(range(90), 3)]
    True
    """
    return cast(random.Random, _SeededOnUse(seed, ply))


S = TypeVar("S")
Viewed = TypeVar("Viewed", contravariant=True)
"""The state type of a protocol that only reads states (``Secrecy``, ``Presentation``)."""


class Rules(Protocol, Generic[S]):
    """The decider: what the game is, what may happen and what it leads to.

    Everything here is the game's logic as a referee knows it, the whole
    state in view: the table before the deal (``start``), the deal
    (``setup``), whose turn it is (``to_act``), a move judged (``decide``)
    and folded (``evolve``), the moves there are (``legal_moves`` and
    ``sampled``, which says whether they are all), the end (``result``).
    ``normalize_options`` and ``schemas`` belong here too: they say what a
    game may be set up with and what its moves and events are, which the
    decider alone defines. ``concurrent`` does as well: whether two seats'
    events commute is a fact of the rules, which the service only relies on.

    A fold, a self-play or a clock needs nothing more than this.
    """

    name: str
    """The game's id in the API and CLI, e.g. ``"three-too-many"``."""
    title: str
    rules_version: str
    """Bumped whenever a change could decide a recorded move differently."""
    min_players: int
    max_players: int
    default_component_set: str
    """The component set used when the creator names none, e.g. ``"panem/house-1"``."""

    def normalize_options(self, options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
        """Check creation options and fill in defaults (component set, explicit
        deal, variants); raise InvalidOptions. The result is stored in the
        record, so replay never depends on changing defaults."""
        ...

    def start(self, seats: Sequence[str], options: Options) -> S:
        """The empty table before the deal."""
        ...

    def setup(self, options: Options, seats: Sequence[str], rng: random.Random) -> list[Event]:
        """The deal, as events carrying their outcomes. With ``options["deal"]``
        the caller's deck orders are used instead of ``rng``."""
        ...

    def to_act(self, state: S) -> tuple[str, ...]:
        """Seats that may move now (several during simultaneous choices or a
        trading phase); empty once the game is over. ``ARBITER`` appears
        when only the arbiter can go on (e.g. entering a freeform result)."""
        ...

    def decide(self, state: S, seat: str, move: Move, rng: random.Random) -> list[Event]:
        """Validate ``move`` by ``seat`` and return what happened.
        Raises IllegalMove with a reason a player understands."""
        ...

    def evolve(self, state: S, event: Event) -> S:
        """Apply one event: a pure fold, no validation, no randomness."""
        ...

    def legal_moves(self, state: S, seat: str) -> list[Move]:
        """Every move ``seat`` may make now, where that is enumerable (for
        open-ended moves, a representative sample documented by the game)."""
        ...

    def result(self, state: S) -> Result | None:
        """The outcome once the game is over, else None."""
        ...

    def sampled(self, state: S, seat: str) -> str | None:
        """None when ``legal_moves(state, seat)`` lists every legal move;
        otherwise a sentence saying what the listed sample covers (open-ended
        moves: trades of any size, freeform notes)."""
        ...

    def concurrent(self, event: Event) -> bool:
        """True for an event that is one seat's part of a simultaneous step
        and adds or changes none of another seat's choices (it may take some
        away: a move that relied on one is refused when decided): a sealed
        choice before the reveal, a seat ending its own trading. A seat's move made
        at an older position is still accepted when everything stored since
        is such events of other seats (docs/service-decisions.md), so seats
        acting at once need no reload-and-retry."""
        ...

    def schemas(self) -> Mapping[str, JSON]:
        """JSON Schemas (draft 2020-12) of what a client sends and receives:
        ``{"options": ..., "move": ..., "view": ..., "event": ...}``, each with
        ``description`` and ``examples``. ``view`` covers every viewer (say in
        descriptions which fields a seat, a spectator or the arbiter gets).
        Every move ``legal_moves`` gives, every view and every event, redacted
        or not, validates against them (the contract tests check)."""
        ...


class Secrecy(Protocol, Generic[Viewed]):
    """Who may know what: the state and the events cut per viewer.

    The service sends nothing to a seat or a spectator that has not passed
    through ``view`` or ``redact``; ``hidden_from`` names what must never
    show, for the leak tests; ``shows_hidden`` marks the events an undo may
    not cross; ``secret_options`` the creation options kept from everyone
    but the arbiter until the end.
    """

    secret_options: frozenset[str]
    """Option keys that make the creation's options secret (from everyone but
    the arbiter until the end): an explicit ``deal``, or cards whose faces
    the rules hide (a club's own Pyramidion boats, with their points)."""

    def view(self, state: Viewed, viewer: Viewer) -> dict[str, JSON]:
        """What ``viewer`` may see of ``state``, as JSON."""
        ...

    def redact(self, event: Event, viewer: Viewer) -> Event:
        """``event`` as ``viewer`` may see it (hidden cards replaced by counts
        or ``None``). Must return the event unchanged for ``ARBITER``."""
        ...

    def shows_hidden(self, event: Event) -> bool:
        """True if this event shows someone what was hidden before: a draw, a
        look at a face-down stack, a reveal of sealed choices. Undo policies
        refuse to take a player back across such an event."""
        ...

    def hidden_from(self, state: Viewed, viewer: Viewer) -> frozenset[str | int]:
        """Ids of the components whose identity ``viewer`` may not know in
        ``state`` (other hands, face-down stacks it never looked at, sealed
        choices before the reveal). The leak tests assert that none of them
        shows up in anything the viewer is sent: a string id anywhere, an
        integer id inside a list or under a key naming one card or tile
        (see ``leaks``).
        Games give hidden components ids that are unique within the game."""
        ...


class Presentation(Protocol, Generic[Viewed]):
    """The game in a reader's words and pictures: a stored move as one line
    of notation, the table as terminal text and as an SVG picture. Each
    takes the viewer (or, for ``notate``, the record as the reader may see
    it) and shows nothing ``Secrecy`` hides."""

    def notate(
        self, state: Viewed, seat: str | None, move: Move | None, events: Sequence[Event]
    ) -> str:
        """One readable line for a stored move, in the game's own notation,
        as chess has SAN: ``ann plays 31 on row 1, takes 10 and 12``.

        ``state`` is the position before the move; ``seat`` is None for the
        deal (``events`` are then the creation's). ``move`` and ``events`` come
        as the reader may see them: ``move`` is None and the events are
        redacted where the rules hide them, and the line hides only that part
        (``ben draws 6 cards``). Use nothing of ``state`` that ``view(state,
        None)`` does not show, so a line never tells a reader more than the
        redacted record does."""
        ...

    def render_text(self, state: Viewed, viewer: Viewer) -> str:
        """The table as plain text for the terminal, as ``viewer`` sees it:
        words and numbers a player reads, never Python reprs or raw JSON."""
        ...

    def render_svg(self, state: Viewed, viewer: Viewer) -> str:
        """The table as a picture, as ``viewer`` sees it: one standalone
        ``<svg>`` element (no scripts, no external references), the same
        picture the CLI's ``show --svg`` writes and the replay page shows."""
        ...


class GameType(Rules[S], Secrecy[S], Presentation[S], Protocol):
    """One game, as each game package exports it (``RULES``): one object that
    is all three of its protocols, as python-chess's ``Board`` is the rules,
    the position and its notation at once. A consumer types its parameter
    against the one protocol it uses (a fold takes ``Rules``, a redaction
    ``Secrecy``, a log ``Presentation``) and the registry (``get_rules``)
    hands out the whole ``GameType``."""


class FoldsWhileDeciding(Protocol, Generic[S]):
    """An optional addition to ``Rules``: rules whose ``decide`` folds the
    events it decides anyway (to see what follows by itself, a refill or
    an end) may hand over the state it reached.

    ``decide_and_fold(state, seat, move, rng)`` returns ``(events, after)``
    with ``events`` exactly what ``decide`` returns and ``after`` equal to
    folding them over ``state`` with ``evolve``. The service then keeps
    ``after`` instead of folding the same events again, but only where the
    stored events equal the decided ones (``after`` must be what a replay
    from the store would reach); property tests check the equality for
    every game that offers it.
    """

    def decide_and_fold(
        self, state: S, seat: str, move: Move, rng: random.Random
    ) -> tuple[list[Event], S]: ...
