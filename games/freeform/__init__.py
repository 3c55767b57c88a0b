"""Freeform: record any game, judge nothing.

Moves are any JSON object, stored and replayed without rule checks, so a
tournament can keep the record of a game gamelog has no rules for. Any seat may
move at any time; the arbiter ends the game by entering the result:

>>> from gamelog.games.protocol import ARBITER, rng_for
>>> seats = ("ann", "ben")
>>> state = RULES.start(seats, RULES.normalize_options({}, seats))
>>> for e in RULES.decide(state, "ann", {"text": "1. e4"}, rng_for(b"s", 1)):
...     state = RULES.evolve(state, e)
>>> result = {"result": {"scores": {"ann": 1, "ben": 0}}}
>>> for e in RULES.decide(state, ARBITER, result, rng_for(b"s", 2)):
...     state = RULES.evolve(state, e)
>>> RULES.result(state).winners
('ann',)

Decisions (also in docs/rules-decisions.md): the arbiter's result gives
integer scores per seat; a ranking may be given explicitly, otherwise higher
scores rank first and equal scores share a place. The state keeps only counts
and the last move, never the whole list: the log is the record.

The smallest game with the layout every game has (docs/adding-a-game.md):
``state``, ``options``, ``rules`` (the decider, and the class that is
``RULES``), ``evolve`` (the fold), ``views`` (secrecy: nothing is hidden),
``notation``, ``text``, ``picture`` and ``schemas``.
"""

from gamelog.games.freeform.rules import RULES, Freeform
from gamelog.games.freeform.state import FreeformState

__all__ = ["RULES", "Freeform", "FreeformState"]
