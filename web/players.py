"""A player's page: their rating in each game type, its history as a chart,
and the games that made it.

Served at ``/players/{player}`` from ``GetPlayerRatings``, as plain HTML
(no script): a heading per game type with the rating shown in lists
(``mu - 3·sigma``), its rank and games, the chart (``web/charts.py``), and
the games one line each, each a link to the game on the replay page.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from gamelog.web.charts import rating_chart
from gamelog.web.sheets import short_game_id

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 60em;
       padding: 0 1em; color: #222; background: #fdfdfb; }
h1 { margin: 0 0 .2em; } p.model { color: #555; margin-top: 0; font-size: .9em; }
h2 { margin: 1.4em 0 .2em; } p.facts { margin: 0 0 .6em; }
.chart { width: 100%; height: auto; display: block; }
.on-narrow { display: none; }
.key span { margin-right: 1.2em; font-size: .85em; color: #444; white-space: nowrap; }
.key i { display: inline-block; width: 1.6em; height: .3em; vertical-align: middle;
         margin-right: .3em; }
table { border-collapse: collapse; margin: .8em 0; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: .25em .5em; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
a { color: #1d4f91; }
@media (max-width: 480px) { body { font-size: 14px; padding: 0 .5em; }
                            .wide, .on-wide { display: none; } .on-narrow { display: block; } }
"""

KEY = (
    '<p class="key"><span><i style="background:#b3261e"></i>rating (mu − 3σ)</span>'
    '<span><i style="border-top:2px dashed #1d4f91;height:0"></i>mu</span>'
    '<span><i style="background:#1d4f9133;height:.8em"></i>mu ± σ</span></p>'
)


def player_page(player: str, found: Any) -> str:
    """The page of ``player`` from a ``GetPlayerRatingsResponse``."""
    sections = []
    for history in found.ratings:
        rating = history.rating
        steps = list(history.steps)
        points = [(s.mu, s.sigma) for s in steps]
        title = f"{player}, {rating.game}"
        # One drawing per screen width: an SVG scales its text with it.
        chart = (
            f'<div class="on-wide">{rating_chart(points, title)}</div>'
            f'<div class="on-narrow">{rating_chart(points, title, 360, 260)}</div>'
        )
        rows = "".join(
            f"<tr><td class='num'>{n}</td><td>{escape(s.finished_at[:10])}</td>"
            f'<td><a href="/#/game/{quote(s.game_id)}">{escape(short_game_id(s.game_id))}</a>'
            f"</td><td>{s.place} of {s.table_size}</td>"
            f"<td class='num'>{s.rating:.2f}</td><td class='num wide'>{s.mu:.2f}</td>"
            f"<td class='num wide'>{s.sigma:.2f}</td></tr>"
            for n, s in reversed(list(enumerate(steps, start=1)))
        )
        sections.append(
            f"<section><h2>{escape(rating.game)}</h2>"
            f'<p class="facts">Rating <b>{rating.rating:.2f}</b> · #{rating.rank} · '
            f"{rating.games} game{'s' if rating.games != 1 else ''}</p>"
            f"{chart}{KEY}"
            "<table><tr><th class='num'>#</th><th>Ended</th><th>Game</th><th>Place</th>"
            "<th class='num'>Rating</th><th class='num wide'>mu</th>"
            f"<th class='num wide'>σ</th></tr>{rows}</table></section>"
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(player)} · ratings</title><style>{STYLE}</style></head>"
        f'<body><h1>{escape(player)}</h1><p class="model">{escape(found.model)}; '
        "from the finished games whose records audit clean.</p>"
        + "".join(sections)
        + "</body></html>\n"
    )


__all__ = ["player_page"]
