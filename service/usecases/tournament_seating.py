"""A round's tables made games: what pairing and re-seating a round have in common.

Tables are ordinary games, created through the same path as ``create_game``
(``creation.prepare_game``) with these tags: ``Event``, ``Site``, ``Date``,
``Round``, ``Table``, ``Tournament`` (the tournament's id where it was
created: an imported tournament's tables go on naming that one), the
tournament's ``TimeControl`` and ``OnTimeout``, and ``Duplicate`` in a
duplicate round; the tournament's id here is kept beside each table's
creation record (``Game.Created.tournament_id``). A seat is named by the id
of the player who holds it, so the seat → player pairs of every table are
its seats themselves.

Each table's seed comes from the tournament's (``table_seed``): a duplicate
round's tables of one size share a deal, and a table made when the director
seats a round again is seeded apart from the one it replaces. A round may be
seated again or withdrawn only before it starts (``refuse_if_started``).
The commands that save these games with the round are
``tournament_commands``'.
"""

from __future__ import annotations

from uuid import UUID

from gamelog.games.protocol import JSON
from gamelog.replay.seated_games import (
    DUPLICATE_TAG,
    NAMES_TAG,
    TOURNAMENT_TAG,
    event_tags,
    names_digest,
    table_seed,
)
from gamelog.service.model.credentials import Credentials
from gamelog.service.model.game import Game
from gamelog.service.model.refusals import Refused
from gamelog.service.model.tournament import Tournament
from gamelog.service.storage.store import GameStore
from gamelog.service.usecases.creation import prepare_game
from gamelog.tournaments.rounds import Round

__all__ = ["TableGames", "refuse_if_started", "reseated_games", "table_games"]

TableGames = tuple[dict[int, tuple[str, UUID]], list[Game | Credentials]]
"""Each table's game (its creation hash and id), and the aggregates to save."""


def table_games(
    tournament: Tournament,
    seated: Round,
    duplicate: str,
    deal: JSON | None,
    overriding: bool = False,
) -> TableGames:
    """Each table's new game (creation hash, id), and the aggregates to save
    (``overriding``: games replacing others, seeded apart from them)."""
    created = tournament.record_created
    options = dict(created["options"])
    if deal is not None:
        options["deal"] = deal
    tags = {
        **event_tags(created),
        "Round": str(seated.number),
        TOURNAMENT_TAG: str(tournament.origin_id),
    }
    if created["time_control"]:
        tags["TimeControl"] = created["time_control"]
        tags["OnTimeout"] = created["on_timeout"]
    if duplicate != "none":
        tags[DUPLICATE_TAG] = f"round {seated.number}: every table of a size has one deal"
    names = {player.id: player.name for player in tournament.state.players}
    games: dict[int, tuple[str, UUID]] = {}
    aggregates: list[Game | Credentials] = []
    for table in seated.tables:
        seed = table_seed(
            tournament.seed,
            seated.number,
            table.number,
            len(table.seats),
            duplicate,
            table.seats if overriding else None,
            tournament.state.withdrawals(seated.number),
        )
        game, credentials, made = prepare_game(
            created["game"],
            table.seats,
            options,
            created["undo_policy"],
            {
                **{k: v for k, v in tags.items() if v},
                "Table": str(table.number),
                NAMES_TAG: names_digest([names[seat] for seat in table.seats]),
            },
            seed,
            tournament_id=tournament.id,
        )
        games[table.number] = (made.record["hash"], made.game_id)
        aggregates += [game, credentials]
    return games, aggregates


def reseated_games(store: GameStore, tournament: Tournament, seated: Round) -> TableGames:
    """The games of the round paired last seated again as ``seated``:
    tables that stay as they were keep their games, the others get new ones
    (the old ones are never played), dealt as the round's were."""
    last = tournament.state.rounds[-1]
    kept = {
        t.number: (last.games[t.number], tournament.game_id_of(last.games[t.number]))
        for t in seated.tables
        if any(old == t for old in last.tables)
    }
    changed = Round(seated.number, tuple(t for t in seated.tables if t.number not in kept), ())
    deal = None
    if last.duplicate == "deal":
        first = tournament.game_id_of(next(iter(last.games.values())))
        assert first is not None
        deal = store.peek_game(first).record_created["options"]["deal"]
    new_games, aggregates = table_games(tournament, changed, last.duplicate, deal, overriding=True)
    games: dict[int, tuple[str, UUID]] = {}
    for number, (game_hash, game_id) in {**kept, **new_games}.items():
        assert game_id is not None
        games[number] = (game_hash, game_id)
    return games, aggregates


def refuse_if_started(store: GameStore, tournament: Tournament, code: str, what: str) -> None:
    """Refuse when a table of the round paired last has a move or a result."""
    last = tournament.state.rounds[-1]
    for game_hash in last.games.values():
        game_id = tournament.game_id_of(game_hash)
        if (game_id is not None and store.has_moves(game_id)) or (last.recorded or last.directed):
            raise Refused(
                code,
                f"round {last.number} is played (a table has moves or a result); "
                f"{what} only before the round starts: correct its results instead",
            )
