"""What the table does by itself: drawing and renewing the draw pile, starting a
round, moving on after trading and after the tribute, and the end of the game."""

from __future__ import annotations

from gamelog.games.panem.catalog import BAKERY, HOB
from gamelog.games.panem.scoring import score
from gamelog.games.panem.state import DISCARD, NEUTRAL
from gamelog.games.panem.table import Table


def _draw_number(table: Table, taken: list[str]) -> int | None:
    """The index in the deal's ``draws`` of the next card drawn; None during
    the set-up, whose cards the deal names by place instead."""
    return table.s.draws_made + len(taken) if table.s.round >= 1 else None


def pick(table: Table, available: frozenset[str], index: int | None) -> str:
    draws = table.s.deal.get("draws", [])
    if index is not None and index < len(draws) and draws[index] in available:
        return str(draws[index])
    return table.rng.choice(sorted(available))


def draw(table: Table, count: int) -> list[str]:
    """Cards from the draw pile; renews it from the discard pile when it runs out.

    The rulebook renews the pile "sofort" (at once) when its last card is
    drawn, so the renewal happens before the drawn cards are laid anywhere
    (the forest's two discards start the new discard pile; a visitor to the
    Capitol storehouse finds one card, not the whole old pile).
    """
    taken: list[str] = []
    for _ in range(count):
        if not table.s.draw_pile - set(taken):
            _renew(table, taken, minimum=1)
        available = table.s.draw_pile - set(taken)
        if not available:
            break
        taken.append(pick(table, available, _draw_number(table, taken)))
    if taken and not table.s.draw_pile - set(taken):
        _renew(table, taken, minimum=2)
    return taken


def _renew(table: Table, taken: list[str], minimum: int) -> None:
    """Shuffle the discard pile into a new draw pile and start a new discard pile.

    ``taken`` are cards drawn but not yet laid anywhere (their event comes
    after). A discard pile of one card is only renewed when a card must be
    drawn: renewing it at once would just lay the same card back.
    """
    if len(table.s.pile(DISCARD)) < minimum:
        return
    table.emit({"type": "DrawPileRenewed", "count": len(table.s.pile(DISCARD))})
    available = table.s.draw_pile - set(taken)
    card = pick(table, available, _draw_number(table, taken))
    table.emit({"type": "DiscardStarted", "card": card})


def begin_round(table: Table, number: int) -> None:
    spec = table.s.catalog.round_spec(number)
    table.emit({"type": "RoundStarted", "round": number})
    if spec.pass_start:
        seats = table.s.seats
        after = seats[(seats.index(table.s.start_player) + 1) % len(seats)]
        table.emit({"type": "StartPlayerPassed", "to": after})
    # Bakery before Hob, the left space before the right one, covered spaces unused.
    if spec.bakery:
        for space in table.s.open_spaces(BAKERY):
            cards = draw(table, spec.bakery)
            if cards:
                table.emit({"type": "BakeryStocked", "space": space, "cards": cards})
    if spec.hob:
        for space in table.s.open_spaces(HOB):
            cards = draw(table, spec.hob)
            if cards:
                table.emit({"type": "HobStocked", "space": space, "cards": cards})
    if spec.advantages and table.s.later_advantages:
        left = table.s.later_advantages
        chosen = [a for a in table.s.deal.get("later_advantages", []) if a in left]
        chosen = chosen[: spec.advantages]
        rest = sorted(left - set(chosen))
        chosen += table.rng.sample(rest, min(spec.advantages - len(chosen), len(rest)))
        table.emit({"type": "AdvantagesRevealed", "advantages": chosen})
    if spec.trade:
        table.emit({"type": "TradingOpened"})
    else:
        after_trading(table, closing=False)


def after_trading(table: Table, closing: bool = True) -> None:
    if closing:
        table.emit({"type": "TradingClosed"})
    spec = table.s.catalog.round_spec(table.s.round)
    if spec.tribute:
        table.emit({"type": "TributeDemanded", "goods": list(spec.tribute)})
    else:
        after_tribute(table)


def after_tribute(table: Table) -> None:
    spec = table.s.catalog.round_spec(table.s.round)
    if spec.end:
        _finish(table)
        return
    seats = table.s.seats
    first = seats.index(table.s.start_player)
    order = [seats[(first + i) % len(seats)] for i in range(len(seats))]
    table.emit({"type": "MovementStarted", "order": order})


def _finish(table: Table) -> None:
    s = table.s
    lots = [owner for owner in (*s.seats, NEUTRAL) for _ in range(s.glass_ball.get(owner, 0))]
    table.rng.shuffle(lots)
    wanted = s.deal.get("tribute_lot")
    if wanted in lots:
        lots.remove(wanted)
        lots.insert(0, wanted)
    table.emit({"type": "LotDrawn", "glass_ball": lots, "owner": lots[0]})
    result = score(table.s)
    table.emit(
        {
            "type": "GameEnded",
            "hands": {seat: sorted(table.s.hands[seat]) for seat in s.seats},
            **result.to_json(),
        }
    )
