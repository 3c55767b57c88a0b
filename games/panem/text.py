"""The table as text for a terminal, as one viewer sees it.

Everything is read from ``views.view`` (so the text can show nothing the
view hides) and worded as a player would say it: ``ben: at the forest,
advantage Katniss' bow, 2 lots in the glass ball, 4 cards``.
"""

from __future__ import annotations

from typing import Any

from gamelog.games.panem.catalog import Catalog
from gamelog.games.panem.state import NEUTRAL, PanemState
from gamelog.games.panem.views import view as view_of
from gamelog.games.panem.words import (
    PHASE_NAMES,
    STEP_NAMES,
    advantage_name,
    cards_text,
    kind_name,
    location_name,
    pile_name,
    space_name,
    space_number,
)
from gamelog.games.protocol import ARBITER, Viewer
from gamelog.games.wording import and_list, counted, standings_line

LEGEND = "Cards are named by good and survival points: food 2 is a food card worth 2."


def round_words(catalog: Catalog, number: int) -> str:
    if number == 0:
        return "before the first round"
    rounds = len(catalog.round_track) - 1
    if catalog.round_spec(number).end:
        return "the end round"
    return f"round {number} of {rounds}"


def render_text(state: PanemState, viewer: Viewer) -> str:
    v = view_of(state, viewer)
    cat = state.catalog
    covered = state.covered

    def place(space: str | None) -> str:
        return "not on the board yet" if space is None else f"at {space_name(cat, covered, space)}"

    who = "the arbiter" if viewer == ARBITER else viewer or "a spectator"
    lines = [
        f"Die Tribute von Panem: {round_words(cat, v['round'])}, {PHASE_NAMES[v['phase']]}; "
        f"start player {v['start_player']} (as {who} sees it)"
    ]
    for seat in v["seats"]:
        parts = [place(v["figures"][seat])]
        advantage = v["advantages"][seat]
        parts.append(f"advantage {advantage_name(cat, advantage)}")
        parts.append("player chip kept" if seat in v["chips"] else "player chip given up")
        parts.append(
            f"{counted(v['glass_ball'].get(seat, 0), 'lot')} in the glass ball, "
            f"{v['lots_left'][seat]} left"
        )
        hand = v["hands"].get(seat)
        if hand is not None:
            parts.append(f"hand {len(hand)}: {cards_text(cat, hand)}" if hand else "no card")
        else:
            parts.append(counted(v["hand_counts"][seat], "card"))
            if seat in v["shown"]:
                parts.append(f"shown: {cards_text(cat, v['shown'][seat])}")
        you = " (you)" if seat == viewer else ""
        lines.append(f"  {seat}{you}: {', '.join(parts)}")
    if NEUTRAL in v["glass_ball"]:
        lines.append(f"  neutral lots in the glass ball: {v['glass_ball'][NEUTRAL]}")
    lines += _table_lines(state, v)
    lines += _now_lines(state, v)
    lines.append(LEGEND)
    return "\n".join(lines)


def _table_lines(state: PanemState, v: dict[str, Any]) -> list[str]:
    cat = state.catalog
    bakery = [
        f"space {space_number(space)} {cards_text(cat, cards) if cards else 'empty'}"
        for space, cards in v["bakery"].items()
    ]
    hob = []
    for space, entry in v["hob"].items():
        known = entry["known"]
        knows = f" (known: {cards_text(cat, known)})" if known else ""
        hob.append(
            f"space {space_number(space)} {counted(entry['count'], 'card')} face down{knows}"
        )
    discard = v["discard"]
    top = discard["top"]
    top_words = f", {cards_text(cat, [top])} on top" if top else ""
    below = [card for card in discard["known"] if card != top]
    knows = f" (known below: {cards_text(cat, below)})" if below else ""
    beside = [
        f"{advantage_name(cat, adv)} beside {location_name(location)}"
        for location, adv in v["advantages_beside"].items()
    ]
    left = v["hidden_advantages_left"]
    if left:
        beside.append(f"{left} still face down")
    ball = v["glass_ball"]
    lines = [
        f"  bakery: {'; '.join(bakery)}",
        f"  Hob: {'; '.join(hob)}",
        f"  Capitol storehouse: discard pile of {counted(discard['count'], 'card')}{top_words}"
        f"{knows}",
        f"  draw pile: {counted(v['draw_pile_count'], 'card')} face down",
        f"  advantage cards: {and_list(beside) if beside else 'none beside the locations'}",
        f"  glass ball: {counted(sum(ball.values()), 'lot')}",
    ]
    if "draw_pile" in v:
        lines.append(f"  draw pile cards: {cards_text(cat, v['draw_pile'])}")
    return lines


def _now_lines(state: PanemState, v: dict[str, Any]) -> list[str]:
    cat, covered = state.catalog, state.covered
    lines: list[str] = []
    turn = v["turn"]
    if turn is not None:
        mover = turn["seat"]
        doing = STEP_NAMES.get(turn["step"], turn["step"])
        lines.append(f"to move: {mover}, who {doing}")
        if turn["revealed"]:
            lines.append(f"  turned up in the forest: {cards_text(cat, turn['revealed'])}")
        if turn.get("drawn"):
            lines.append(f"  drawn, to keep one: {cards_text(cat, turn['drawn'])}")
        elif turn.get("drawn_count"):
            lines.append(f"  {mover} drew {counted(turn['drawn_count'], 'card')} to keep one")
        if turn.get("looking_at"):
            pile = turn["looking_at"]
            name = pile_name(cat, covered, pile)
            cards = turn.get("pile_cards")
            seen = f": {cards_text(cat, cards)}" if cards is not None else ""
            lines.append(f"  {mover} looks at {name}{seen}")
    trading = v["trading"]
    if trading is not None:
        done = trading["done"]
        lines.append(f"trading; done: {and_list(done) if done else 'nobody yet'}")
        for offer in trading["offers"]:
            give = offer["give"]
            gives = counted(give, "card") if isinstance(give, int) else cards_text(cat, give)
            asks = and_list(kind_name(k) for k in offer["ask"])
            lines.append(
                f"  proposal {offer['id']}: {offer['from']} offers {offer['to']} "
                f"{gives if give else 'nothing'} for {asks if offer['ask'] else 'nothing'}"
            )
    tribute = v["tribute"]
    if tribute is not None:
        sealed = tribute["sealed"]
        lines.append(
            f"tribute: one card each of {and_list(tribute['goods'])}; "
            f"sealed by {and_list(sealed) if sealed else 'nobody yet'}"
        )
        if "mine" in tribute:
            lines.append(f"  your sealed tribute: {cards_text(cat, tribute['mine'])}")
        for seat, cards in tribute.get("choices", {}).items():
            lines.append(f"  {seat} sealed: {cards_text(cat, cards)}")
    if v["hand_limit"]:
        owed = ", ".join(f"{seat} {n}" for seat, n in v["hand_limit"].items())
        lines.append(f"hand limit {cat.hand_limit}: still to discard {owed}")
    if v["result"] is not None:
        owner = v["lot_drawn"]
        drawn = "a neutral lot" if owner == NEUTRAL else f"{owner}'s lot ({owner} is the tribute)"
        lines.append(f"lot drawn: {drawn}")
        lines.append(f"result: {standings_line(v['result'])}")
    return lines
