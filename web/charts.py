"""A rating's history as a small line chart: inline SVG, no library, no script.

``rating_chart`` draws one player's rating game by game: the band ``mu ± sigma``
(what the model believes, and how unsure), the line ``mu`` and, bold, the
rating a list shows (``mu - 3·sigma``). The x axis counts games (each game
one step, however far apart they were played); the y axis is labelled with
round numbers. The SVG scales to its container's width (``viewBox``), so one
drawing serves a phone and a laptop.

>>> svg = rating_chart([(25.0, 8.3), (27.1, 7.9), (26.0, 7.5)], "ann")
>>> svg.startswith("<svg") and svg.count("<polyline") == 2
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT = 640, 280
"""The canvas for a wide screen; a phone's page asks for a narrower one, so
that its text is not shrunk to nothing."""
LEFT, RIGHT, TOP, BOTTOM = 44, 14, 14, 34


def ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round values from ``low`` to ``high``, at most ``most`` of them.

    >>> ticks(-3.2, 31.7)
    [0.0, 10.0, 20.0, 30.0]
    """
    span = max(high - low, 1e-9)
    raw = span / most
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    count = math.floor((high - first) / step + 1e-9) + 1
    return [round(first + i * step, 6) + 0.0 for i in range(count)]


def rating_chart(
    steps: Sequence[tuple[float, float]], title: str, width: int = WIDTH, height: int = HEIGHT
) -> str:
    """``steps``: (mu, sigma) after each game, oldest first; the SVG text,
    drawn on a ``width`` × ``height`` canvas (its text 12 units high)."""
    start = (25.0, 25.0 / 3)  # every player's rating before a first game
    points = [start, *steps]
    lows = [mu - 3 * sigma for mu, sigma in points]
    highs = [mu + sigma for mu, sigma in points]
    low, high = min(lows), max(highs)
    pad = (high - low) * 0.05 or 1.0
    low, high = low - pad, high + pad
    plot_w, plot_h = width - LEFT - RIGHT, height - TOP - BOTTOM
    last = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return LEFT + plot_w * i / last

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    def line(values: Sequence[float]) -> str:
        return " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))

    mus = [mu for mu, _ in points]
    band = (
        line([mu + s for mu, s in points])
        + " "
        + " ".join(
            f"{x(i):.1f},{y(mu - s):.1f}" for i, (mu, s) in reversed(list(enumerate(points)))
        )
    )
    grid = []
    for value in ticks(low, high):
        grid.append(
            f'<line x1="{LEFT}" x2="{width - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            'class="grid"/>'
            f'<text x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{value:g}</text>'
        )
    for i in ticks(0, last, most=8):
        if i == int(i):
            grid.append(
                f'<text x="{x(int(i)):.1f}" y="{height - BOTTOM + 16}" '
                f'text-anchor="middle">{int(i)}</text>'
            )
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" class="rating"/>'
        for i, v in enumerate(lows)
        if i
    )
    return (
        f'<svg viewBox="0 0 {width} {height}" role="img" class="chart" '
        f'aria-label="{escape(title)}: rating after each game">'
        f"<title>{escape(title)}</title>"
        "<style>.chart text{font:12px system-ui,sans-serif;fill:#555}"
        ".chart .grid{stroke:#e2e2e2}.chart .band{fill:#1d4f91;fill-opacity:.12}"
        ".chart .mu{fill:none;stroke:#1d4f91;stroke-dasharray:4 3}"
        ".chart polyline.rating{fill:none;stroke:#b3261e;stroke-width:2.5}"
        ".chart circle.rating{fill:#b3261e}</style>"
        + "".join(grid)
        + f'<polygon points="{band}" class="band"/>'
        f'<polyline points="{line(mus)}" class="mu"/>'
        f'<polyline points="{line(lows)}" class="rating"/>{dots}'
        f'<text x="{LEFT + plot_w / 2:.0f}" y="{height - 4}" text-anchor="middle">'
        "games played</text></svg>"
    )


__all__ = ["rating_chart", "ticks"]
