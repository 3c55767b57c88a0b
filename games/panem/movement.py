"""Phases of movement and action: moving a figure to a space, the action there
(taking, exchanging, the forest, swapping places), ending a turn, and the
legal moves of these phases."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from gamelog.games.panem.catalog import (
    BAKERY,
    CAPITOL_STOREHOUSE,
    EVERDEEN_HOUSE,
    FOREST,
    HOB,
    JUSTICE_BUILDING,
)
from gamelog.games.panem.rounds import begin_round, draw
from gamelog.games.panem.state import (
    ACT,
    DISCARD,
    EXCHANGE,
    FOREST_KEEP,
    HOUSE_KEEP,
    MOVE,
    PanemState,
)
from gamelog.games.panem.table import Table, only
from gamelog.games.protocol import Event, IllegalMove, Move

FOREST_REVEAL = 3
FOREST_KEEP_GOODS = ("food",)
HOUSE_DRAW = 1
EXCHANGES = 1
SAMPLED_DOUBLE_EXCHANGE = (
    "a sample: every single exchange, and double exchanges only among your first four "
    "hand cards and the first five pile cards (in id order), each matched one way; any "
    "two pairs, matched either way, are legal."
)


def decide_movement(table: Table, seat: str, move: Move) -> None:
    s = table.s
    if s.step == MOVE:
        only(move, "go")
        if "go" not in move:
            raise IllegalMove("bad-move", 'move your figure first: {"go": "<space>"}')
        space = move["go"]
        reason = _space_refusal(s, seat, space)
        if reason:
            raise IllegalMove("space-not-allowed", reason)
        table.emit({"type": "FigureMoved", "seat": seat, "space": space})
        return
    if s.step == ACT:
        _decide_action(table, seat, move)
        return
    if s.step == FOREST_KEEP:
        only(move, "keep")
        if "keep" not in move:
            raise IllegalMove("bad-move", 'choose {"keep": "<card>"} or {"keep": null}')
        kept = move["keep"]
        if kept is not None and kept not in _forest_choices(s, seat):
            raise IllegalMove("cannot-keep", "you may keep one revealed card you are allowed")
        rest = [c for c in s.revealed if c != kept]
        table.emit({"type": "ForestEnded", "seat": seat, "kept": kept, "discarded": rest})
        _end_turn(table, seat)
        return
    if s.step == HOUSE_KEEP:
        only(move, "keep")
        kept = move.get("keep")
        if kept not in s.drawn:
            raise IllegalMove("cannot-keep", "keep one of the cards you drew")
        rest = [c for c in s.drawn if c != kept]
        table.emit({"type": "CardKept", "seat": seat, "kept": kept, "discarded": rest})
        _end_turn(table, seat)
        return
    # EXCHANGE
    only(move, "exchange")
    pairs = move.get("exchange")
    assert s.looking is not None
    reason = _exchange_refusal(s, seat, pairs)
    if reason:
        raise IllegalMove("bad-exchange", reason)
    event: Event = {"type": "PileExchanged", "seat": seat, "pile": s.looking, "pairs": pairs}
    if s.looking == DISCARD:
        top = s.discard_top
        for give, take in pairs or []:
            top = give if take == top else top
        event["top"] = top
    table.emit(event)
    _end_turn(table, seat)


def _space_refusal(s: PanemState, seat: str, space: Any) -> str | None:
    if not isinstance(space, str) or space not in {sp.id for sp in s.catalog.spaces}:
        return f"there is no action space {space!r}"
    if space in s.covered:
        return f"{space} is covered with {len(s.seats)} players"
    holder = next((o for o, at in s.position.items() if at == space and o != seat), None)
    if holder is not None:
        return f"{holder}'s figure stands on {space}"
    location = s.catalog.location_of(space)
    if location == s.last_location.get(seat) or location == s.location(seat):
        return f"you stood at the {location} last round; move to another location"
    return None


def act_location(s: PanemState, seat: str) -> str:
    location = s.location(seat)
    assert location is not None
    return location


def _effect(s: PanemState, seat: str, kind: str) -> Mapping[str, Any] | None:
    advantage = s.advantage.get(seat)
    if advantage is None:
        return None
    effect = s.catalog.advantages[advantage].effect
    return effect if effect.get("kind") == kind else None


def exchange_limit(s: PanemState, seat: str, location: str) -> int:
    effect = _effect(s, seat, "exchange")
    if effect is not None and location in effect["locations"]:
        return int(effect["count"])
    return EXCHANGES


def _forest_choices(s: PanemState, seat: str) -> list[str]:
    effect = _effect(s, seat, "forest_keep")
    goods = set(FOREST_KEEP_GOODS) | set(effect["goods"] if effect else ())
    return [c for c in s.revealed if s.catalog.cards[c].good in goods]


def _decide_action(table: Table, seat: str, move: Move) -> None:
    s = table.s
    location = act_location(s, seat)
    if move.get("skip") is True:
        only(move, "skip")
        table.emit({"type": "ActionSkipped", "seat": seat})
        _end_turn(table, seat)
        return
    if move.get("take_advantage") is True:
        only(move, "take_advantage")
        advantage = s.beside.get(location)
        if advantage is None:
            raise IllegalMove("no-advantage", f"no advantage card lies beside the {location}")
        if seat in s.took_advantage:
            raise IllegalMove("advantage-taken", "you already took an advantage card this game")
        table.emit(
            {
                "type": "AdvantageTaken",
                "seat": seat,
                "advantage": advantage,
                "returned": s.advantage.get(seat),
            }
        )
        _end_turn(table, seat)
        return
    if "swap_with" in move:
        only(move, "swap_with")
        _swap_places(table, seat, move["swap_with"])
        return
    if move.get("act") is not True:
        raise IllegalMove(
            "bad-move", 'choose {"act": true}, {"skip": true}, {"take_advantage": true}'
        )
    only(move, "act")
    space = s.position[seat]
    assert space is not None
    if location == FOREST:
        cards = draw(table, FOREST_REVEAL)
        table.emit({"type": "ForestRevealed", "seat": seat, "cards": cards})
        if not _forest_choices(table.s, seat):
            table.emit({"type": "ForestEnded", "seat": seat, "kept": None, "discarded": cards})
            _end_turn(table, seat)
    elif location == EVERDEEN_HOUSE:
        effect = _effect(s, seat, "house_draw")
        cards = draw(table, int(effect["draw"]) if effect else HOUSE_DRAW)
        choose = len(cards) > 1
        table.emit({"type": "CardsDrawn", "seat": seat, "cards": cards, "choose": choose})
        if not choose:
            _end_turn(table, seat)
    elif location == BAKERY:
        cards = sorted(s.bakery.get(space, frozenset()))
        table.emit({"type": "BakeryTaken", "seat": seat, "space": space, "cards": cards})
        effect = _effect(s, seat, "bakery_draw")
        if effect:
            extra = draw(table, int(effect["count"]))
            table.emit({"type": "CardsDrawn", "seat": seat, "cards": extra, "choose": False})
        _end_turn(table, seat)
    elif location in (HOB, CAPITOL_STOREHOUSE):
        pile = space if location == HOB else DISCARD
        event: Event = {
            "type": "PileLooked",
            "seat": seat,
            "pile": pile,
            "cards": sorted(s.pile(pile)),
        }
        if pile == DISCARD:
            event["top"] = s.discard_top
        table.emit(event)
    else:
        raise IllegalMove(
            "bad-move", 'at the Justice building choose {"swap_with": "<seat>"} or skip'
        )


def _swap_refusal(s: PanemState, seat: str, other: Any) -> str | None:
    if act_location(s, seat) != JUSTICE_BUILDING:
        return "only the Justice building lets you swap places"
    if seat not in s.chips:
        return "you already gave up your player chip"
    if other not in s.seats or other == seat:
        return f"{other!r} is not another player"
    if other not in s.order[: s.turn]:
        return f"{other} has not moved yet this round"
    if s.location(other) == s.last_location.get(seat):
        return f"you stood at the {s.location(other)} last round"
    return None


def _swap_places(table: Table, seat: str, other: Any) -> None:
    s = table.s
    reason = _swap_refusal(s, seat, other)
    if reason:
        raise IllegalMove("cannot-swap", reason)
    table.emit(
        {
            "type": "PlacesSwapped",
            "seat": seat,
            "with": other,
            "space": s.position[other],
            "other_space": s.position[seat],
        }
    )


def _exchange_refusal(s: PanemState, seat: str, pairs: Any) -> str | None:
    assert s.looking is not None
    location = act_location(s, seat)
    limit = exchange_limit(s, seat, location)
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(c, str) for c in p) for p in pairs
    ):
        return 'exchange is a list of [hand card, pile card] pairs: {"exchange": [[g, t]]}'
    if len(pairs) > limit:
        return f"you may exchange at most {limit} card(s) here"
    gives = [g for g, _ in pairs]
    takes = [t for _, t in pairs]
    if len(set(gives)) != len(gives) or len(set(takes)) != len(takes):
        return "each card may be exchanged once"
    if not set(gives) <= s.hands[seat]:
        return "you can only give cards from your hand"
    if not set(takes) <= s.pile(s.looking):
        return "you can only take cards of the pile you looked at"
    return None


def _end_turn(table: Table, seat: str) -> None:
    table.emit({"type": "TurnEnded", "seat": seat})
    s = table.s
    if s.turn < len(s.order):
        return
    table.emit(
        {
            "type": "RoundEnded",
            "round": s.round,
            "locations": {seat: s.location(seat) for seat in s.seats},
        }
    )
    begin_round(table, s.round + 1)


def movement_moves(s: PanemState, seat: str) -> list[Move]:
    if s.step == MOVE:
        return [
            {"go": space} for space in s.open_spaces() if _space_refusal(s, seat, space) is None
        ]
    if s.step == FOREST_KEEP:
        return [{"keep": None}, *[{"keep": c} for c in _forest_choices(s, seat)]]
    if s.step == HOUSE_KEEP:
        return [{"keep": c} for c in s.drawn]
    if s.step == EXCHANGE:
        assert s.looking is not None
        hand, pile = sorted(s.hands[seat]), sorted(s.pile(s.looking))
        moves: list[Move] = [{"exchange": []}]
        moves += [{"exchange": [[g, t]]} for g in hand for t in pile]
        if exchange_limit(s, seat, act_location(s, seat)) >= 2:
            # Double exchanges (Haymitch) are only sampled, from the first
            # hand and pile cards: all of them would run to hundreds of
            # thousands with a big hand and pile. decide accepts any pair.
            for gives in itertools.combinations(hand[:4], 2):
                for takes in itertools.combinations(pile[:5], 2):
                    moves.append({"exchange": [list(p) for p in zip(gives, takes)]})
        return moves
    location = act_location(s, seat)
    moves = [{"skip": True}]
    if location != JUSTICE_BUILDING:
        moves.append({"act": True})
    if location in s.beside and seat not in s.took_advantage:
        moves.append({"take_advantage": True})
    moves += [{"swap_with": other} for other in s.seats if _swap_refusal(s, seat, other) is None]
    return moves
