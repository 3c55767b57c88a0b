"""Hadara's move notation: one line per stored move, as the reader may see it.

A move's events are the seat's own (a choice, a colony, a card taken, ...)
and whatever follows by itself (draws, reveals, income, automatic passes, the
next epoch, the final scoring); the line tells them in order, joined by
``;``. Everything comes from the events as ``redact`` left them for the
reader, so a line hides exactly what the record hides: another seat's sealed
choice, draw and face-down sale, and a laid card that a later card covers.

>>> from gamelog.games.hadara.state import HadaraState
>>> from gamelog.games.hadara.component_set import shipped_components
>>> state = HadaraState(seats=("ann", "bob"), components=shipped_components("hadara/house-1"),
...                     first_game=False, players=())
>>> notate(state, "ann", None, [{"type": "DrawChosen", "seat": "ann"}])
'ann chooses (sealed)'
>>> taken = {"type": "CardTaken", "seat": "bob", "colour": "red", "card": "I-red-03",
...          "action": "sell", "coins": 2, "uncovered": "I-red-01"}
>>> print(notate(state, "bob", None, [taken]))
bob takes I-red-03 (+2 military; 2 points) from red and sells it for 2 coins; \
I-red-01 (+1 military; 2 points) now lies on top
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gamelog.games.hadara import phases
from gamelog.games.hadara.scoring import sheet_result
from gamelog.games.hadara.state import HadaraState
from gamelog.games.hadara.words import (
    card_named,
    epoch_name,
    outcome_words,
    side_words,
    track_words,
)
from gamelog.games.protocol import Event, Move
from gamelog.games.wording import and_list, counted, standings_line

AUTO_PASSES: Mapping[str, str] = {
    "ColonyPassed": "cannot take a colony",
    "BustPassed": "cannot carve a bust",
    "SealsPassed": "cannot buy a seal",
}
CHOSEN_PASSES: Mapping[str, str] = {
    "ColonyPassed": "takes no colony",
    "BustPassed": "carves no bust",
    "SealsPassed": "buys no seal",
}


def notate(state: HadaraState, seat: str | None, move: Move | None, events: Sequence[Event]) -> str:
    phrases = [phrase for phrase in _phrases(state, events) if phrase]
    line = "; ".join(phrases) or f"{seat} moves"
    return f"deal: {line}" if seat is None else line


def _phrases(state: HadaraState, events: Sequence[Event]) -> list[str]:
    """One phrase per event, with runs of automatic passes (and of people
    fed without losing a card) told once for all their seats."""
    phrases: list[str] = []
    index = 0
    while index < len(events):
        event = events[index]
        group = _group_key(event)
        if group is None:
            phrases.append(_phrase(state, event))
            index += 1
            continue
        run = [event]
        while index + len(run) < len(events) and _group_key(events[index + len(run)]) == group:
            run.append(events[index + len(run)])
        phrases.append(_group_phrase(run))
        index += len(run)
    return phrases


def _group_key(event: Event) -> str | None:
    if event["type"] in AUTO_PASSES and event.get("auto"):
        return str(event["type"])
    if event["type"] == "PeopleFed" and not event["removed"] and not event["paid"]:
        return "fed"
    return None


def _group_phrase(run: list[Event]) -> str:
    seats = and_list(event["seat"] for event in run)
    if run[0]["type"] in AUTO_PASSES:
        return f"{seats} {AUTO_PASSES[run[0]['type']]}"
    earned = [f"{e['seat']} +{e['surplus_coins']}" for e in run if e["surplus_coins"]]
    extra = f" (coins for spare food: {', '.join(earned)})" if earned else ""
    return f"{seats} {'feeds' if len(run) == 1 else 'feed'} the people{extra}"


def _phrase(state: HadaraState, event: Event) -> str:
    describe = _DESCRIBE.get(event["type"])
    return describe(state, event) if describe else event["type"]


def _start_cards(state: HadaraState, event: Event) -> str:
    cards = [
        f"{seat} {card} (initiative {event['initiative'][seat]})"
        for seat, card in event["start_cards"].items()
    ]
    return f"start cards {', '.join(cards)}"


def _start_coin(state: HadaraState, event: Event) -> str:
    why = "starts only once" if len(state.seats) == 2 else "never starts"
    takes = "takes" if len(event["seats"]) == 1 else "take"
    return f"{and_list(event['seats'])} {takes} {counted(event['coins'], 'coin')} ({why})"


def _colonies_laid(state: HadaraState, event: Event) -> str:
    levels = sorted({int(slot[:-1]) for slot in event["fronts"]})
    per_level = len(event["fronts"]) // max(1, len(levels))
    return (
        f"{counted(len(event['fronts']), 'colony', 'colonies')} laid coin side up, "
        f"{per_level} per military level {and_list(levels)}"
    )


def _epoch_begun(state: HadaraState, event: Event) -> str:
    counts = {len(s) if isinstance(s, list) else s for s in event["stacks"].values()}
    per_stack = counts.pop() if len(counts) == 1 else 0
    return (
        f"epoch {epoch_name(event['epoch'])} begins, {event['start_player']} starts: "
        f"{counted(per_stack, 'card')} face down on each inner stack"
    )


def _crests(state: HadaraState, wheel: int) -> str:
    return ", ".join(
        f"{seat} at {phases.crest_colour(state.seats, seat, wheel)}" for seat in state.seats
    )


def _wheel_set(state: HadaraState, event: Event) -> str:
    return f"{event['seat']} sets the wheel: {_crests(state, event['wheel'])}"


def _wheel_turned(state: HadaraState, event: Event) -> str:
    return f"the wheel turns: {_crests(state, event['wheel'])}"


def _named(state: HadaraState, card: object) -> str:
    return card_named(state.components, card)


def _named_outcome(state: HadaraState, outcome: Mapping[str, Any]) -> Mapping[str, Any]:
    """A recruit or sale with its card named with what it gives (a card sold
    face down stays unnamed)."""
    card = outcome.get("card")
    return {**outcome, "card": _named(state, card)} if isinstance(card, str) else outcome


def _cards_drawn(state: HadaraState, event: Event) -> str:
    seen = [
        f"{seat} {' and '.join(_named(state, card) for card in draw['cards'])}"
        for seat, draw in event["draws"].items()
        if draw["cards"] is not None
    ]
    shown = f" ({'; '.join(seen)})" if seen else ""
    return f"round {event['round']}: each seat draws 2 cards at its crest{shown}"


def _laid(state: HadaraState, choice: Mapping[str, Any]) -> str:
    if choice.get("place"):
        return f"lays {_named(state, choice['place'])} on {choice['stack']}"
    return f"lays a {choice['stack']} card face up (covered later)"


def _draw_chosen(state: HadaraState, event: Event) -> str:
    if "place" not in event:
        return f"{event['seat']} chooses (sealed)"
    return (
        f"{event['seat']} chooses (sealed): lays {_named(state, event['place'])} face up, "
        f"{outcome_words(_named_outcome(state, event), third_person=True)}"
    )


def _draws_revealed(state: HadaraState, event: Event) -> str:
    told = [
        f"{seat} {_laid(state, choice)} and "
        f"{outcome_words(_named_outcome(state, choice), third_person=True)}"
        for seat, choice in event["choices"].items()
    ]
    return f"round {event['round']} revealed: {', '.join(told)}"


def _income(state: HadaraState, event: Event) -> str:
    extra = event.get("extra", {})
    paid = [
        f"{seat} {coins}" + (f" +{extra[seat]}" if extra.get(seat) else "")
        for seat, coins in event["income"].items()
    ]
    return f"income: {', '.join(paid)} coins"


def _colony_payments(event: Event) -> str:
    parts = []
    if event["requirement_coins"]:
        parts.append(f"pays {counted(event['requirement_coins'], 'coin')} for missing military")
    if event["colony_coins"]:
        parts.append(f"gets {counted(event['colony_coins'], 'colony coin')}")
    return f" ({', '.join(parts)})" if parts else ""


def _plundered(state: HadaraState, event: Event) -> str:
    return (
        f"{event['seat']} plunders colony {event['slot']} for "
        f"{counted(event['coins'], 'coin')}{_colony_payments(event)}"
    )


def _allied(state: HadaraState, event: Event) -> str:
    values = [event["back_values"][t] for t in ("income", "military", "culture", "food")]
    return (
        f"{event['seat']} allies with colony {event['slot']} for "
        f"{counted(event['cost'], 'coin')}{_colony_payments(event)}: {event['colony']}, "
        f"{track_words(values)}, {counted(event['back_points'], 'point')}"
    )


def _passed(state: HadaraState, event: Event) -> str:
    passes = AUTO_PASSES if event.get("auto") else CHOSEN_PASSES
    return f"{event['seat']} {passes[event['type']]}"


def _bust(state: HadaraState, event: Event) -> str:
    paid = event["requirement_coins"]
    payment = f" (pays {counted(paid, 'coin')} for missing culture)" if paid else ""
    return (
        f"{event['seat']} carves bust {event['bust']} with {_a(event['tile'])} tile on its "
        f"{side_words(event['side'])}{payment}"
    )


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _card_taken(state: HadaraState, event: Event) -> str:
    outcome = outcome_words({**event, "card": "it"}, third_person=True)
    uncovered = event.get("uncovered")
    after = (
        f"{_named(state, uncovered)} now lies on top"
        if uncovered
        else f"the {event['colour']} stack is empty"
    )
    taken = _named(state, event["card"])
    return f"{event['seat']} takes {taken} from {event['colour']} and {outcome}; {after}"


def _fed(state: HadaraState, event: Event) -> str:
    parts = []
    if event["removed"]:
        parts.append(f"removes {and_list(event['removed'])}")
    if event["paid"]:
        parts.append(f"pays {counted(event['paid'], 'coin')}")
    done = " and ".join(parts) + " to feed the people" if parts else "feeds the people"
    spare = event["surplus_coins"]
    extra = f" (+{counted(spare, 'coin')} for spare food)" if spare else ""
    return f"{event['seat']} {done}{extra}"


def _seals(state: HadaraState, event: Event) -> str:
    bought = [f"a silver seal ({track} tile)" for track in event["silver"]]
    if event["golden"]:
        bought.append(counted(event["golden"], "golden seal"))
    return f"{event['seat']} buys {and_list(bought)} for {counted(event['cost'], 'coin')}"


def _game_ended(state: HadaraState, event: Event) -> str:
    result = sheet_result(event["sheet"], event["sheet"]["columns"])
    return f"game over: {standings_line(result.to_json())}"


_DESCRIBE: Mapping[str, Callable[[HadaraState, Event], str]] = {
    "StartCardsDealt": _start_cards,
    "StartPlayerCoinTaken": _start_coin,
    "ColoniesLaid": _colonies_laid,
    "EpochBegun": _epoch_begun,
    "WheelSet": _wheel_set,
    "WheelTurned": _wheel_turned,
    "CardsDrawn": _cards_drawn,
    "DrawChosen": _draw_chosen,
    "DrawsRevealed": _draws_revealed,
    "IncomeTaken": _income,
    "ColonyPlundered": _plundered,
    "ColonyAllied": _allied,
    "ColonyPassed": _passed,
    "BustCarved": _bust,
    "BustPassed": _passed,
    "CardTaken": _card_taken,
    "PeopleFed": _fed,
    "SealsBought": _seals,
    "SealsPassed": _passed,
    "GameEnded": _game_ended,
}
