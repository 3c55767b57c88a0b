"""``gamelog tournament …``: run a tournament from the command line.

    gamelog tournament new "Club night" --game panem --table-size 4 --rounds 5
    gamelog tournament register T "Ann Smith" "Ben Jones" … --token D
    gamelog tournament pair T --token D
    gamelog tournament selfplay T --token D
    gamelog tournament result T 3 ann ben=cy dee --token D --reason "played on paper"
    gamelog tournament standings T --csv
    gamelog tournament export T --html site/
    gamelog tournament finish T --token D

T is the tournament's id, D the director's token (or $GAMELOG_TOKEN). A
refused call exits with status 1 and prints the status code, the reason and
the message, as every ``gamelog`` command does.

The group alone lives here; its commands live by what they are about, one
module each: who plays (``tournament_registration``), the rounds and their
results (``tournament_rounds``), random players for a round
(``tournament_selfplay``), and what anyone may read and take away
(``tournament_reading``).
"""

from __future__ import annotations

import click

from gamelog.cli.tournament_reading import audit, export, list_tournaments, sheets, show, standings
from gamelog.cli.tournament_registration import new, reenter, register, tokens, withdraw
from gamelog.cli.tournament_rounds import finish, override, pair, result, withdraw_round
from gamelog.cli.tournament_selfplay import selfplay


@click.group(
    # One line a module: who plays, the rounds, random players, reading.
    commands=[
        *(new, register, withdraw, reenter, tokens),
        *(pair, override, withdraw_round, result, finish),
        selfplay,
        *(list_tournaments, show, standings, audit, export, sheets),
    ]
)
def tournament() -> None:
    """Tournaments: players, rounds, tables, results, standings, archives."""
