"""Seat links: one URL per seat (and the arbiter) that opens the game's table
as that seat, and each as a QR code a phone at the table can scan.

The token travels in the URL's fragment only (``#/game/ID?token=T``): a
browser never sends a fragment to any server, so no access log, proxy or
``Referer`` header can keep it. A link never carries a token in its path or
query string.

>>> links = seat_links("http://127.0.0.1:8080/", "g1", {"ann": "t-a"}, "t-arb")
>>> links
[('ann', 'http://127.0.0.1:8080/#/game/g1?token=t-a'), ('arbiter', 'http://127.0.0.1:8080/#/game/g1?token=t-arb')]
>>> qr_svg(links[0][1]).startswith("<svg")
True
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from urllib.parse import quote, urlsplit

import segno

MAX_LINK_CHARS = 600
"""A link is a base URL, a game id and a token: a few hundred characters at most."""


def web_base(url: str) -> str:
    """The page's address as a base for links: http(s), no query or fragment.

    >>> web_base("http://club.example:8080")
    'http://club.example:8080/'
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"{url!r} is not the page's address (http://host:port/)")
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return f"{parts.scheme}://{parts.netloc}{path}"


def seat_link(base: str, game_id: str, token: str) -> str:
    return f"{web_base(base)}#/game/{quote(game_id, safe='')}?token={quote(token, safe='')}"


def seat_links(
    base: str, game_id: str, seat_tokens: Mapping[str, str], arbiter_token: str
) -> list[tuple[str, str]]:
    """(who, link) for every seat in order, then the arbiter."""
    links = [(seat, seat_link(base, game_id, token)) for seat, token in seat_tokens.items()]
    links.append(("arbiter", seat_link(base, game_id, arbiter_token)))
    return links


def qr_svg(text: str) -> str:
    """``text`` as a QR code: an SVG element with no XML declaration, sized by
    its viewBox so the page scales it (segno: a pure-Python, well-kept QR
    encoder)."""
    if not text or len(text) > MAX_LINK_CHARS:
        raise ValueError(f"a QR code here holds 1 to {MAX_LINK_CHARS} characters")
    code = segno.make_qr(text, error="m")  # never a Micro QR: few phones read those
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=1,
        border=2,
        xmldecl=False,
        svgns=True,
        omitsize=True,
        svgclass="qr",
        lineclass=None,
        title=None,
    )
    return out.getvalue().decode()
