"""Feeding (phase B): every card in the display eats 1 food. Unfed seats
remove cards of their choice (values and abilities go with them) until fed,
or pay with the coin-feeding card; the surplus card pays coins for spare food.

Which removals are legal (rules 1.3, decision 6): the cards go one at a time
"so lange ..., bis" the people are fed, so a removal R is legal when some
order of its cards leaves the people unfed (lacking more than the cards paid
for, p) before each card goes; the display K left after the last one must
feed them, which :func:`feeding_problem` checks first. Write ``lack(T)`` for
what the people lack with the cards T of R still on display, T running from
all of R down to the last card alone. Then:

    **R can go in a good order if and only if lack(R) > p and lack({c}) > p
    for some card c of R** (c is the card that goes last).

Both are plainly needed. They suffice because ``lack`` has diminishing returns
(is submodular): a card put back brings 1 mouth and its own food (values,
bonus tile, bust card), which do not depend on the other cards, plus colour
steps: those it gives as a colour-step card on food (its steps for each card
of its colour on display) and those it earns as a card of a colour such a card
on display counts. Steps are never negative (every set, shipped or inline, is
refused at creation if a step count is: ``cards.ABILITIES``), so with more
cards already back a card adds at most as much lack as with fewer. Now take T
with lack(T) > p, T not all of R, and the m >= 1 cards e of R not in T.
Putting them back one by one adds lack(R) - lack(T), and each adds at most
what it adds to T alone, lack(T + e) - lack(T). Were every lack(T + e) <= p,
that is at most p - lack(T) < 0, so lack(R) <= lack(T) + m * (p - lack(T)) =
p + (m - 1) * (p - lack(T)) <= p, against lack(R) > p. So starting from T =
{c}, some card can always come back with the people still unfed, until T = R;
read backwards, that is an order of removal. The check costs one food count
per removed card instead of a search over orders (which took up to 23 s on a
60-card display; tests/games/hadara_feeding_reference.py keeps that search as
the oracle the property tests compare with).

The colour-step bonus is what makes this worth saying: it counts only while
its card is on display. Worked example (tests/games/test_hadara_feeding.py):
yellow-01, yellow-02, red-01, red-03, blue-01 (no food), green-01 (2 food) and
the green colour-step card purple-14 (1 food per green card), the start card
giving 3 food: 7 cards, 6 food, p = 0. Removing {purple-14, yellow-01} leaves
5 cards with 5 food. lack(R) = 7 - 6 = 1 > 0; with yellow-01 alone back 6
cards eat 5 food, lack 1 > 0, so yellow-01 can go last; with purple-14 alone
back 6 cards eat 6 food, lack 0, so it cannot. Legal: purple-14 first (7
cards, 6 food), then yellow-01 (6 cards, 5 food). Removing {yellow-01,
yellow-02} instead is refused: with either back, 6 cards eat 6 food, so
whichever goes second goes after the people are fed.

Negative colour steps would break diminishing returns. Example: a
colour-step card with 2 food of its own and -2 food per green card, a green
card with 2 food and a yellow one with none, start food 0. With the yellow
card and either of the others on display, 2 cards eat 2 food (fed); with all
three, 3 cards eat 2 food (lacking 1): the second card back adds more lack
than the first. Removing all three passes the last-card test (the yellow card
alone lacks 1), yet whichever card goes first leaves the people fed too early.
Deciding such removals needed a search over orders, exponential in the worst
case, so a client's inline set could have made feeding slow. No Hadara card
moves a track backwards: the parser refuses negative steps, and the search
that only they needed is gone.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamelog.games.hadara.state import HadaraState, Player, ability_param, tracks
from gamelog.games.protocol import Event, Move
from gamelog.games.protocol import frozen_replace as replace


def without(player: Player, removed: Sequence[str]) -> Player:
    gone = set(removed)
    return replace(
        player,
        cards=tuple(c for c in player.cards if c not in gone),
        card_tiles={c: t for c, t in player.card_tiles.items() if c not in gone},
    )


def shortfall(state: HadaraState, player: Player, removed: Sequence[str]) -> int:
    after = without(player, removed)
    return len(after.cards) - tracks(after, state)["food"]


def feeding_cap(state: HadaraState, player: Player) -> int:
    """Cards the seat may feed with coins instead of removing them."""
    params = ability_param(player, state.components, "feed_with_coins")
    if params is None:
        return 0
    per: int = params["coins_per_card"]  # at least 1: checked with the set
    cap: int = params["max_coins_per_section"]
    return min(cap // per, player.coins // per)


def feeding_problem(
    state: HadaraState, player: Player, removed: Sequence[str], pay_for: int
) -> str | None:
    """Why a feeding is not legal, or None. Cards go one at a time "so lange
    ..., bis" the people are fed: the removal is legal when some order of its
    cards leaves the people unfed before each card and fed after the last.
    A card with food may go first, then more cards must follow ("Dadurch
    müsstest du noch weitere Karten entfernen")."""
    if len(set(removed)) != len(removed) or not set(removed) <= set(player.cards):
        return "remove only cards of your display, each once"
    if pay_for < 0 or pay_for > feeding_cap(state, player):
        return "you cannot feed that many cards with coins"
    lacking = shortfall(state, player, removed)
    if lacking > pay_for:
        return f"your food still lacks {lacking - pay_for}: remove or pay for more cards"
    if pay_for > max(0, lacking):
        return "do not pay for more cards than your food lacks"
    if removed and not _removable_in_some_order(state, player, removed, pay_for):
        return (
            "your people are fed before the last of these cards goes, whatever the "
            "order: remove cards only until they are fed"
        )
    return None


def _removable_in_some_order(
    state: HadaraState, player: Player, removed: Sequence[str], pay_for: int
) -> bool:
    """Whether the cards can go one by one with the people unfed (more lacking
    than ``pay_for``) before each of them: the display is unfed and some card
    can go last (unfed with only it back), see the module docstring: one food
    count per removed card, whatever the set."""
    return shortfall(state, player, []) > pay_for and any(
        shortfall(state, player, [c for c in removed if c != last]) > pay_for for last in removed
    )


def _minimal_removal(
    state: HadaraState, player: Player, first: str | None, pay_for: int
) -> list[str]:
    components = state.components
    removed: list[str] = [first] if first else []
    pool = sorted(
        (c for c in player.cards if c != first),
        key=lambda c: (components.card(c).values[3], components.card(c).points, c),
    )
    for card_id in pool:
        if shortfall(state, player, removed) <= pay_for:
            break
        removed.append(card_id)
    changed = True
    while changed:
        changed = False
        for card_id in list(reversed(removed)):
            rest = [c for c in removed if c != card_id]
            if shortfall(state, player, rest) <= pay_for:
                removed = rest
                changed = True
    return removed


def feeding_moves(state: HadaraState, seat: str) -> list[Move]:
    """A representative set of legal feedings: for each card of the display,
    removing it first and then the cards with the least food and points; and,
    with the coin-feeding card, each number of cards paid for up to what food
    lacks with at most one card gone: paying for more, the removal below stops
    at one card or none, which lacks less than is paid for (refused). The list
    is the one every number up to the card's cap gives, at the cost of the
    seat's hunger rather than of the cap (a set's card may pay for 100 cards).
    """
    player = state.player(seat)
    seen: set[tuple[tuple[str, ...], int]] = set()
    moves: list[Move] = []
    at_most_one_gone = [[], *([card_id] for card_id in player.cards)]
    hunger = max(shortfall(state, player, gone) for gone in at_most_one_gone)
    for pay_for in range(0, min(feeding_cap(state, player), max(0, hunger)) + 1):
        for first in [None, *player.cards]:
            removed = _minimal_removal(state, player, first, pay_for)
            key = (tuple(sorted(removed)), pay_for)
            if key in seen or feeding_problem(state, player, removed, pay_for) is not None:
                continue
            seen.add(key)
            move: Move = {"remove": sorted(removed)}
            if pay_for:
                move["pay_for"] = pay_for
            moves.append(move)
    return moves


def fed_event(state: HadaraState, player: Player, removed: list[str], pay_for: int) -> Event:
    """The ``PeopleFed`` event of ``player`` removing ``removed`` and paying
    coins for ``pay_for`` cards, with the coins a food surplus brings."""
    params = ability_param(player, state.components, "feed_with_coins")
    paid = pay_for * params["coins_per_card"] if params and pay_for else 0
    after = without(player, removed)
    surplus = tracks(after, state)["food"] - len(after.cards)
    surplus_coins = 0
    bonus = ability_param(after, state.components, "food_surplus_coins")
    if bonus is not None and surplus > 0:
        surplus_coins = min(surplus * bonus["coins_per_food"], bonus["max_coins_per_section"])
    return {
        "type": "PeopleFed",
        "seat": player.seat,
        "removed": sorted(removed),
        "paid": paid,
        "surplus_coins": surplus_coins,
    }
