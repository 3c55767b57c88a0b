"""The table: frozen records of every player's board and of the game board.

Track values are never stored: :func:`tracks` counts them from what a player
owns (start card, cards, allied colonies, carved busts, purple abilities), as
the rulebook allows at any time ("Werte überprüfen und nachzählen"). Removing
a card therefore takes back its values and every ability step at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gamelog.games.hadara.cards import COLOUR_TRACK, COLOURS, TRACKS, Card, Components, Values
from gamelog.games.protocol import JSON


@dataclass(frozen=True)
class Player:
    seat: str
    side: str = "A"
    start_card: str = ""
    start_values: Values = (0, 0, 0, 0)
    initiative: int = 0
    coins: int = 0
    cards: tuple[str, ...] = ()
    """The display, in recruiting order."""
    card_tiles: Mapping[str, str] = field(default_factory=dict)
    """bonus_tile_steps cards -> the track of the bonus tile assigned to them."""
    colonies: tuple[tuple[str, bool], ...] = ()
    """(slot, allied) per colony taken."""
    busts: tuple[tuple[int, str, str], ...] = ()
    """(bust number 1-4, tile track, "front" or "back") per carved bust."""
    silver_seals: tuple[str, ...] = ()
    golden_seals: int = 0
    sold_face_down: tuple[str, ...] = ()
    """Cards this seat sold in phase A (face down: nobody else knows them)."""
    laid_face_up: tuple[str, ...] = ()
    """Cards this seat laid on the outer stacks in phase A: it drew them, so it
    still knows them once another card covers them."""


@dataclass(frozen=True)
class HadaraState:
    seats: tuple[str, ...]
    components: Components
    first_game: bool
    players: tuple[Player, ...]
    deal_epochs: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    """The creator's explicit stack orders per epoch ("1".."3"), if given."""
    epoch: int = 0
    phase: str = ""
    stage: str = "setup"
    """Where the epoch stands, in playing order:

    ``setup`` (before the first epoch's cards are laid), ``wheel`` (phase A: the
    start player sets the wheel), ``drawing`` (automatic: everyone draws 2 cards
    at their crest), ``choose`` (phase A: sealed choices, one per seat),
    ``turn_wheel`` (automatic: the wheel turns one segment), ``income``
    (automatic, in turn order), ``colony`` and ``bust`` (in turn order), ``take``
    (phase B: the top card of an outer stack, in turn order), ``feed`` and
    ``seals`` (phase B, in turn order), ``new_epoch`` (automatic: the next
    epoch's cards are laid), ``scoring`` (automatic) and ``over``.
    """
    start_player: str = ""
    order: tuple[str, ...] = ()
    """Turn order of this epoch, from the start player clockwise."""
    turn: int = 0
    """Index into ``order`` of the seat to act in turn-order stages."""
    section_taken: int = 0
    section_paid: int = 0
    draw_round: int = 0
    wheel: int = 0
    """Crest k (seat k) points at colour (k + wheel) mod 5."""
    inner: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Face-down stacks; sorted (unordered) unless the creator fixed the deal."""
    explicit_order: bool = False
    outer: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Face-up stacks, bottom to top. Only the top card can be seen ("die
    Stapel nie durchsuchen"): views show it and the count."""
    drawn: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    chosen: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    colony_slots: Mapping[str, str] = field(default_factory=dict)
    """slot ("3a", "9b", ...) -> colony id; the id names the hidden back."""
    colony_owner: Mapping[str, str] = field(default_factory=dict)
    discard: tuple[str, ...] = ()
    """Cards discarded face up for all to see (phase-B sales, feeding)."""
    final_sheet: Mapping[str, Any] | None = None

    def player(self, seat: str) -> Player:
        return self.players[self.seats.index(seat)]

    def with_player(self, player: Player) -> tuple[Player, ...]:
        index = self.seats.index(player.seat)
        return (*self.players[:index], player, *self.players[index + 1 :])

    @property
    def actor(self) -> str:
        return self.order[self.turn] if self.order else ""

    def top(self, colour: str) -> str | None:
        """The face-up card on top of an outer stack, None if it is empty."""
        stack = self.outer.get(colour, ())
        return stack[-1] if stack else None


def slot_level(slot: str) -> int:
    return int(slot[:-1])


def ability_params(
    player: Player, components: Components, ability: str
) -> list[Mapping[str, JSON]]:
    """The parameters of every purple card in the display with ``ability``:
    an ability lasts as long as its card lies there ("so lange, wie die Karte
    vor dir ausliegt"), so it is always read from the display. They were
    checked, and the ones left out given their defaults, when the set was
    parsed (``cards.ABILITIES``), so callers read them as they are."""
    return [card.params for card in map(components.card, player.cards) if card.ability == ability]


def ability_param(
    player: Player, components: Components, ability: str
) -> Mapping[str, JSON] | None:
    """The parameters of the first card with an ability that a second copy
    does not add to (``"stacks": false`` in the set), or None without one."""
    found = ability_params(player, components, ability)
    return found[0] if found else None


def colour_count(player: Player, components: Components, colour: str) -> int:
    return sum(1 for c in player.cards if components.card(c).colour == colour)


def colour_counts(player: Player, components: Components) -> dict[str, int]:
    counts = dict.fromkeys(COLOURS, 0)
    for card_id in player.cards:
        counts[components.card(card_id).colour] += 1
    return counts


def colour_step(card: Card) -> tuple[str, str, int] | None:
    """What a colour-step card counts: (colour, track, steps per card), the
    track by default the colour's own (green: food); None for other cards.

    >>> from gamelog.games.hadara.component_set import shipped_components
    >>> colour_step(shipped_components("hadara/house-1").card("I-purple-14"))
    ('green', 'food', 1)
    """
    if card.ability != "colour_step_bonus":
        return None
    colour: str = card.params["colour"]
    track: str = card.params.get("track") or COLOUR_TRACK.get(colour, "income")
    return colour, track, card.params["steps_per_card"]


def tracks(player: Player, state: HadaraState) -> dict[str, int]:
    """Income, military, culture and food as the figures show them now."""
    components = state.components
    total = dict(zip(TRACKS, player.start_values))
    colours = colour_counts(player, components)
    bust_bonus = 0
    for card_id in player.cards:
        card = components.card(card_id)
        for track, steps in zip(TRACKS, card.values):
            total[track] += steps
        step = colour_step(card)
        if step is not None:
            counted, moved, per_card = step
            total[moved] += per_card * colours.get(counted, 0)
        elif card.ability == "bonus_tile_steps" and card_id in player.card_tiles:
            total[player.card_tiles[card_id]] += card.params["steps"]
        elif card.ability == "bust_step_bonus":
            bust_bonus += card.params["steps_per_bust"]
    for slot, allied in player.colonies:
        if allied:
            colony = components.colony_by_id[state.colony_slots[slot]]
            for track, steps in zip(TRACKS, colony.back_values):
                total[track] += steps
    busts = components.busts[player.side]
    for number, tile, side in player.busts:
        if side == "front":
            total[tile] += busts[number - 1].reward_steps + bust_bonus
    return total


def free_tiles(player: Player) -> dict[str, int]:
    """Bonus tiles (2 per track) not yet on a bust, a seal or a purple card."""
    free = dict.fromkeys(TRACKS, 2)
    for _, tile, _ in player.busts:
        free[tile] -= 1
    for tile in player.silver_seals:
        free[tile] -= 1
    for tile in player.card_tiles.values():
        free[tile] -= 1
    return free


def free_tile_tracks(player: Player) -> list[str]:
    """The tracks of which the seat still has a free bonus tile."""
    return [track for track, count in free_tiles(player).items() if count > 0]


def track_marker(value: int) -> dict[str, int]:
    """A track value as the board shows it: the figure's field and 10-markers."""
    markers = max(0, (value - 1) // 10)
    return {"value": value, "position": value - 10 * markers, "ten_markers": markers}
