"""Epochs, phases and turn order: start players by initiative, the wheel.

Phase A: the start player sets the wheel; five rounds of sealed draws (the
wheel turns between them); then income, colony and bust sections. Phase B:
taking face-up cards in turn order until none is left; income, colony, bust,
feeding and seals. Every section runs clockwise from the start player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gamelog.games.hadara.cards import COLOURS


def start_player(initiative: Mapping[str, int], epoch: int) -> str:
    """The start player of an epoch: lowest initiative in I, second lowest in
    II, third lowest in III; with two players the lowest in I and III."""
    ranked = sorted(initiative, key=lambda seat: initiative[seat])
    if len(ranked) == 2:
        return ranked[1] if epoch == 2 else ranked[0]
    return ranked[epoch - 1]


def never_start_players(initiative: Mapping[str, int], seats: Sequence[str]) -> list[str]:
    """Seats that take the one coin: those who never start (with two
    players: the one who starts only once)."""
    if len(seats) == 2:
        return [start_player(initiative, 2)]
    starters = {start_player(initiative, epoch) for epoch in (1, 2, 3)}
    return [seat for seat in seats if seat not in starters]


def turn_order(seats: Sequence[str], first: str) -> tuple[str, ...]:
    index = list(seats).index(first)
    return (*seats[index:], *seats[:index])


def turned(wheel: int) -> int:
    """The wheel after one segment clockwise: every crest moves to the stack
    before it in ``COLOURS`` (red -> yellow, as in the rulebook's example,
    yellow -> purple, purple -> green, green -> blue, blue -> red)."""
    return (wheel - 1) % len(COLOURS)


def crest_colour(seats: Sequence[str], seat: str, wheel: int) -> str:
    """The stack the seat's crest points at; crest k belongs to seat k."""
    return COLOURS[(list(seats).index(seat) + wheel) % len(COLOURS)]


def wheel_for(seats: Sequence[str], seat: str, colour: str) -> int:
    """The wheel setting that puts ``seat``'s crest at ``colour``."""
    return (COLOURS.index(colour) - list(seats).index(seat)) % len(COLOURS)


def stays_on_top(seats: Sequence[str], wheel: int, draw_round: int, colour: str) -> bool:
    """Whether a card laid on the ``colour`` stack in ``draw_round`` (drawn at
    wheel setting ``wheel``) stays on top until phase B: no crest points at
    that stack in a later round of the phase. Every seat lays one card on the
    stack its crest points at, so the wheel alone decides it."""
    for _ in range(draw_round, len(COLOURS)):
        wheel = turned(wheel)
        if any(crest_colour(seats, seat, wheel) == colour for seat in seats):
            return False
    return True
