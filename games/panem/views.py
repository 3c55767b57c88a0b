"""What each viewer may see: views, redacted events and the hidden cards.

A seat sees its own hand, the counts of the others, what lies face up, the
piles it looked at (while nobody else has exchanged there since) and the
cards it was shown (while they cannot have left the shower's hand unseen); a
spectator sees what a person at the table sees; ``ARBITER`` sees everything.
"""

from __future__ import annotations

from gamelog.games.panem.scoring import score
from gamelog.games.panem.state import DISCARD, OVER, PUBLIC, TRADING, TRIBUTE, PanemState
from gamelog.games.protocol import ARBITER, JSON, Event, Viewer


def known(s: PanemState, viewer: Viewer) -> frozenset[str]:
    known = s.seen.get(PUBLIC, frozenset())
    if viewer is not None and viewer in s.seen:
        known = known | s.seen[viewer]
    return known


def memory(s: PanemState, viewer: Viewer, pile: str) -> list[str]:
    remembered = s.memory.get(PUBLIC, {}).get(pile, frozenset())
    if viewer is not None and viewer in s.memory:
        remembered = remembered | s.memory[viewer].get(pile, frozenset())
    return sorted(remembered & s.pile(pile))


def shown_to(s: PanemState, viewer: Viewer) -> dict[str, list[str]]:
    """Holder -> the cards ``viewer`` was shown (to it or to everybody) and
    knows are still in the holder's hand."""
    holders: dict[str, frozenset[str]] = dict(s.shown.get(PUBLIC, {}))
    if viewer is not None:
        for holder, cards in s.shown.get(viewer, {}).items():
            holders[holder] = holders.get(holder, frozenset()) | cards
    return {
        holder: sorted(holders[holder] & s.hands[holder])
        for holder in s.seats
        if holder != viewer and holders.get(holder, frozenset()) & s.hands[holder]
    }


def view(state: PanemState, viewer: Viewer) -> dict[str, JSON]:
    s = state
    arbiter = viewer == ARBITER
    mover = s.mover
    hands: dict[str, JSON] = {}
    for seat in s.seats:
        if arbiter or viewer == seat or s.phase == OVER:
            hands[seat] = sorted(s.hands[seat])
    hob: dict[str, JSON] = {}
    for space, cards in s.hob.items():
        entry: dict[str, JSON] = {"count": len(cards)}
        entry["known"] = sorted(cards) if arbiter else memory(s, viewer, space)
        hob[space] = entry
    discard: dict[str, JSON] = {
        "top": s.discard_top,
        "count": len(s.pile(DISCARD)),
        "known": sorted(s.pile(DISCARD)) if arbiter else memory(s, viewer, DISCARD),
    }
    turn: dict[str, JSON] | None = None
    if mover is not None:
        turn = {"seat": mover, "step": s.step, "revealed": list(s.revealed)}
        if arbiter or viewer == mover:
            turn["drawn"] = list(s.drawn)
            if s.looking is not None:
                turn["looking_at"] = s.looking
                turn["pile_cards"] = sorted(s.pile(s.looking))
        else:
            turn["drawn_count"] = len(s.drawn)
            turn["looking_at"] = s.looking
    tribute: dict[str, JSON] | None = None
    if s.phase == TRIBUTE:
        tribute = {"goods": list(s.tribute_goods), "sealed": sorted(s.sealed)}
        if arbiter:
            tribute["choices"] = {k: list(v) for k, v in s.sealed.items()}
        elif viewer in s.sealed:
            tribute["mine"] = list(s.sealed[viewer])
    offers = []
    for offer in s.offers:
        party = arbiter or viewer in (offer.proposer, offer.target)
        offers.append(
            {
                "id": offer.id,
                "from": offer.proposer,
                "to": offer.target,
                "give": list(offer.give) if party else len(offer.give),
                "ask": list(offer.ask),
            }
        )
    result = score(s) if s.phase == OVER else None
    view: dict[str, JSON] = {
        "game": "panem",
        "viewer": viewer,
        "round": s.round,
        "phase": s.phase,
        "seats": list(s.seats),
        "start_player": s.start_player,
        "covered": sorted(s.covered),
        "figures": dict(s.position),
        "last_locations": dict(s.last_location),
        "hands": hands,
        "hand_counts": {seat: len(s.hands[seat]) for seat in s.seats},
        "bakery": {space: sorted(cards) for space, cards in s.bakery.items()},
        "hob": hob,
        "discard": discard,
        "draw_pile_count": len(s.draw_pile),
        "glass_ball": dict(s.glass_ball),
        "lots_left": dict(s.lots_left),
        "advantages": dict(s.advantage),
        "advantages_beside": dict(s.beside),
        "hidden_advantages_left": len(s.later_advantages),
        "took_advantage": sorted(s.took_advantage),
        "chips": sorted(s.chips),
        "turn": turn,
        "tribute": tribute,
        "hand_limit": dict(s.hand_limit),
        "trading": (
            {"done": sorted(s.trading_done), "offers": offers} if s.phase == TRADING else None
        ),
        "lot_drawn": s.lot_drawn,
        "result": result.to_json() if result else None,
    }
    view["shown"] = shown_to(s, None if arbiter else viewer)
    if arbiter:
        view["draw_pile"] = sorted(s.draw_pile)
        view["box"] = sorted(s.box)
        view["shown_to"] = {seat: shown for seat in s.seats if (shown := shown_to(s, seat))}
    return view


def redact(event: Event, viewer: Viewer) -> Event:
    if viewer == ARBITER:
        return event
    kind = event["type"]
    seat = event.get("seat")
    if kind == "StartCardsDealt":
        return {
            "type": kind,
            "hands": {
                s: (cards if s == viewer else len(cards)) for s, cards in event["hands"].items()
            },
            "boxed": len(event["boxed"]),
        }
    if kind == "HobStocked":
        return {"type": kind, "space": event["space"], "count": len(event["cards"])}
    if seat is not None and viewer == seat:
        return event
    if kind == "CardsDrawn":
        return {"type": kind, "seat": seat, "count": len(event["cards"])}
    if kind == "CardKept":
        return {"type": kind, "seat": seat, "discarded": event["discarded"]}
    if kind == "PileLooked":
        out = {"type": kind, "seat": seat, "pile": event["pile"], "count": len(event["cards"])}
        if "top" in event:
            out["top"] = event["top"]
        return out
    if kind == "PileExchanged":
        out = {"type": kind, "seat": seat, "pile": event["pile"], "count": len(event["pairs"])}
        if "top" in event:
            out["top"] = event["top"]
        return out
    if kind == "TributeSealed":
        return {"type": kind, "seat": seat}
    if kind == "TradeProposed":
        offer = event["offer"]
        if viewer in (offer["from"], offer["to"]):
            return event
        return {"type": kind, "offer": {**offer, "give": len(offer["give"])}}
    if kind == "CardsShown":
        if event["public"] or viewer in event["to"]:
            return event
        return {**{k: v for k, v in event.items() if k != "cards"}, "count": len(event["cards"])}
    if kind == "TradeAccepted":
        if viewer in (event["from"], event["to"]):
            return event
        return {**event, "give": len(event["give"]), "take": len(event["take"])}
    return event


def hidden_from(state: PanemState, viewer: Viewer) -> frozenset[str | int]:
    """Cards lying where the viewer cannot see them and whose face it never saw.

    A card a viewer once saw (face up on the table, in its hand, in a pile it
    looked at, offered to it in a trade) is no longer hidden from it: it knows
    that card. Views still never say where such a card went unless the viewer
    saw it go there.
    """
    if viewer == ARBITER:
        return frozenset()
    s = state
    places: set[str] = set(s.draw_pile) | set(s.discard) | set(s.box) | set(s.start_pool)
    for cards in s.hob.values():
        places |= cards
    for seat in s.seats:
        if seat != viewer:
            places |= s.hands[seat]
    if s.mover is not None and s.mover != viewer:
        places |= set(s.drawn)
    return frozenset(places - known(s, viewer))


# -- the end ----------------------------------------------------------------------


SHOWS_HIDDEN = frozenset(
    {
        "StartCardsDealt",
        "HobStocked",
        "BakeryStocked",
        "DiscardStarted",
        "DrawPileRenewed",
        "AdvantagesRevealed",
        "StartAdvantagesDealt",
        "ForestRevealed",
        "CardsDrawn",
        "PileLooked",
        "TributesRevealed",
        "TradeProposed",
        "TradeAccepted",
        "CardsShown",
        "LotDrawn",
        "GameEnded",
    }
)
"""Events that show someone what was hidden before: a deal, a draw, a look
at a pile, a reveal, a trade's cards."""


def shows_hidden(event: Event) -> bool:
    return event.get("type") in SHOWS_HIDDEN
