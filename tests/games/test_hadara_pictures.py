"""Hadara's text board and SVG picture: what each viewer sees, in words and
in a picture, with nothing hidden from that viewer."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hadara_tables import TWO, VIEWERS, dealt, names, play, through_phase_a

from gamelog.games.hadara import RULES
from gamelog.games.hadara.cards import COLOURS, TRACKS
from gamelog.games.hadara.state import HadaraState, tracks
from gamelog.games.playout import play_out
from gamelog.games.protocol import ARBITER, Viewer

NS = {"svg": "http://www.w3.org/2000/svg"}


def picture(state: HadaraState, viewer: Viewer) -> ET.Element:
    return ET.fromstring(RULES.render_svg(state, viewer))


def groups(root: ET.Element, kind: str, **data: str) -> list[ET.Element]:
    """``<g>`` elements whose class list holds ``kind`` and whose data-*
    attributes have the given values."""
    found = []
    for element in root.iter("{http://www.w3.org/2000/svg}g"):
        if kind not in element.get("class", "").split():
            continue
        if all(element.get(f"data-{k.replace('_', '-')}") == v for k, v in data.items()):
            found.append(element)
    return found


def hidden_words(text: str, hidden: frozenset[str | int]) -> set[str]:
    return set(re.findall(r"[\w-]+", text)) & {h for h in hidden if isinstance(h, str)}


# --- text ------------------------------------------------------------------------------


def test_text_holds_the_score_sheet_once_as_a_table() -> None:
    state, _ = through_phase_a(dealt())
    text = RULES.render_text(state, None)
    assert text.count("score sheet") == 1 and text.count("Total") == 1
    sheet = text[text.index("score sheet") :]
    header = sheet.splitlines()[1].split()
    assert header == ["ann", "bob"]
    total = next(line for line in sheet.splitlines() if line.startswith("Total"))
    assert [int(n) for n in total.split()[1:]] == [
        RULES.view(state, None)["score_sheet"]["rows"][-1]["scores"][s] for s in TWO
    ]


def test_text_shows_a_draw_only_to_its_seat() -> None:
    state, _ = play(dealt(), "ann", {"wheel": "red"})
    assert (
        "draw: I-red-01 (+1 military; 2 points) and I-red-02 (+2 military, +1 food; 0 points)"
        in RULES.render_text(state, "ann")
    )
    for viewer in ("bob", None):
        text = RULES.render_text(state, viewer)
        assert not names(text, "I-red-01") and "choosing" in text


def test_text_speaks_words_for_every_viewer_through_a_whole_game() -> None:
    seats = ("s1", "s2", "s3")
    line = play_out(RULES, seats, seed=8)
    for state in [*line.states[::9], line.final_state]:
        for viewer in (*seats, None, ARBITER):
            text = RULES.render_text(state, viewer)
            assert not any(mark in text for mark in ("{", "}", "'", "[", "None", "_"))
            assert not hidden_words(text, RULES.hidden_from(state, viewer))
    assert RULES.render_text(line.final_state, None).startswith("Hadara, game over: 1. ")


# --- the picture --------------------------------------------------------------------------


def test_picture_of_phase_a_shows_the_crests_and_the_seats_own_draw() -> None:
    state, _ = play(dealt(), "ann", {"wheel": "red"})
    for viewer in VIEWERS:
        root = picture(state, viewer)
        assert groups(root, "status", stage="choose", phase="A", round="1")
        assert groups(root, "crest", seat="ann", colour="red")
        assert groups(root, "crest", seat="bob", colour="blue")
        assert len(groups(root, "crest")) == 2
        assert len(groups(root, "colony")) == 10
        for colour in COLOURS:
            assert groups(root, "stack", stack="inner", colour=colour)
        ann_draw = groups(root, "draw", seat="ann")[0]
        shown = {g.get("data-card") for g in ann_draw.iter() if g.get("data-card")}
        assert shown == ({"I-red-01", "I-red-02"} if viewer in ("ann", ARBITER) else set())


def test_picture_of_phase_b_shows_each_outer_top_and_count_only() -> None:
    state, _ = through_phase_a(dealt())
    for viewer in (*TWO, None):
        root = picture(state, viewer)
        assert not groups(root, "crest")  # the wheel plays no part in phase B
        for colour in COLOURS:
            top = state.outer[colour][-1]
            stack = groups(root, "stack", stack="outer", colour=colour, count="2", top=top)
            assert len(stack) == 1 and groups(stack[0], "card", card=top)
        svg = RULES.render_svg(state, viewer)
        assert not hidden_words(svg, RULES.hidden_from(state, viewer))
        own = set(state.player(viewer).laid_face_up) if viewer else set()
        below = {state.outer[c][0] for c in COLOURS} - own
        assert below and not any(names(svg, card) for card in below)


def test_picture_of_each_seat_board() -> None:
    state, _ = through_phase_a(dealt())
    state, _ = play(state, "ann", {"take": "blue", "action": "recruit"})
    root = picture(state, None)
    for player in state.players:
        board = groups(root, "seat", seat=player.seat)
        assert len(board) == 1
        values = tracks(player, state)
        for track in TRACKS:
            assert groups(board[0], "track", track=track, value=str(values[track]))
        assert groups(board[0], "coins", coins=str(player.coins))
        assert len(groups(board[0], "bust")) == 4
        assert len(groups(board[0], "seal")) == 4
    ann = groups(root, "seat", seat="ann")[0]
    assert groups(ann, "card", card="I-blue-03", colour="blue")
    assert groups(ann, "cards", colour="blue", count="1")


def test_colony_backs_show_only_to_the_arbiter_until_allied() -> None:
    state = dealt()
    spectator = picture(state, None)
    assert all(g.get("data-colony") is None for g in groups(spectator, "colony"))
    arbiter = picture(state, ARBITER)
    assert {g.get("data-colony") for g in groups(arbiter, "colony", slot="9a")} == {"colony-09-1"}


def test_picture_of_the_end_holds_the_final_score_sheet() -> None:
    line = play_out(RULES, TWO, seed=3)
    root = picture(line.final_state, None)
    assert groups(root, "status", stage="over")
    assert groups(root, "score-sheet")
    result = RULES.result(line.final_state)
    assert result is not None
    for seat in TWO:
        board = groups(root, "seat", seat=seat)[0]
        assert groups(board, "points", points=str(result.scores[seat]))
