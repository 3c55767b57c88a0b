"""The names stored events know their classes by, old and new.

eventsourcing stores each event with its class's *topic*, ``module:Class``,
and finds the class again by that topic when it reads the event back. The
aggregates lived in other modules before the service was arranged in rooms
(``gamelog.service.game`` and so on); events stored then keep those topics
for ever, so each old module is registered here as an alias of the module
that holds its classes now. Reading resolves an old topic to today's class;
anything that selects stored events by topic (the game index) asks
``topics_of`` for every name a class was stored under.

>>> from gamelog.service.model.game import Game
>>> topics_of(Game.Created)
('gamelog.service.model.game:Game.Created', 'gamelog.service.game:Game.Created')
"""

from __future__ import annotations

import importlib

from eventsourcing.utils import get_topic, register_topic

MOVED_MODULES = {
    "gamelog.service.game": "gamelog.service.model.game",
    "gamelog.service.tournament": "gamelog.service.model.tournament",
    "gamelog.service.credentials": "gamelog.service.model.credentials",
    "gamelog.service.tournament_credentials": "gamelog.service.model.tournament_credentials",
}
"""Where each module that stored events named now lives."""


def register_moved_modules() -> None:
    """Let events stored under an old module's topics resolve to today's classes."""
    for old, new in MOVED_MODULES.items():
        register_topic(old, importlib.import_module(new))


def topics_of(cls: type) -> tuple[str, ...]:
    """Every topic events of ``cls`` may be stored under: today's first."""
    topic = get_topic(cls)
    module, _, name = topic.partition(":")
    old = [f"{was}:{name}" for was, now in MOVED_MODULES.items() if now == module]
    return (topic, *old)


register_moved_modules()
