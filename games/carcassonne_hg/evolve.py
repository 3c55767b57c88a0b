"""Folding events into the state: a pure fold, no checks, no randomness.

``EVOLVE`` maps each event type to the small function that folds it
(``games/evolving.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gamelog.games.carcassonne_hg.board import Placement
from gamelog.games.carcassonne_hg.scoring import Follower
from gamelog.games.carcassonne_hg.state import HGState, Phase
from gamelog.games.evolving import EvolveTable, evolve_by
from gamelog.games.protocol import Event
from gamelog.games.protocol import frozen_replace as replace


def evolve(state: HGState, event: Event) -> HGState:
    return evolve_by(EVOLVE, "carcassonne-hg", state, event)


def _start_tile_placed(state: HGState, event: Event) -> HGState:
    board = dict(state.board)
    board[(event["x"], event["y"])] = Placement(event["tile"], event["rotation"])
    return replace(state, board=board, land_pile=state.land_pile - {event["tile"]})


def _tile_drawn(state: HGState, event: Event) -> HGState:
    tile, bonus = event["tile"], event["bonus"]
    if bonus:
        state = replace(
            state, bonus_pile=state.bonus_pile - {tile}, bonus_draws=state.bonus_draws + 1
        )
    else:
        state = replace(state, land_pile=state.land_pile - {tile}, land_draws=state.land_draws + 1)
    return replace(
        state,
        tile=tile,
        tile_is_bonus=bonus,
        phase=Phase.PLACE,
        placed_at=None,
        turn=state.seats.index(event["seat"]),
    )


def _tile_set_aside(state: HGState, event: Event) -> HGState:
    return replace(
        state, set_aside=(*state.set_aside, event["tile"]), tile=None, phase=Phase.BETWEEN
    )


def _tile_placed(state: HGState, event: Event) -> HGState:
    board = dict(state.board)
    pos = (event["x"], event["y"])
    board[pos] = Placement(event["tile"], event["rotation"], event["seat"], event["bonus"])
    return replace(state, board=board, tile=None, phase=Phase.DEPLOY, placed_at=pos)


def _follower_placed_or_hut_built(state: HGState, event: Event) -> HGState:
    index = state.seats.index(event["seat"])
    follower = Follower(event["seat"], event["piece"], event["x"], event["y"], event["zone"])
    members, huts = list(state.members), list(state.huts)
    if event["type"] == "HutBuilt":
        huts[index] -= 1
    else:
        members[index] -= 1
    return replace(
        state,
        followers=(*state.followers, follower),
        members=tuple(members),
        huts=tuple(huts),
        phase=Phase.BETWEEN,
    )


def _nothing_placed_or_no_bonus_tile_left(state: HGState, event: Event) -> HGState:
    return replace(state, phase=Phase.BETWEEN)


def _unfinished_features_abandoned(state: HGState, event: Event) -> HGState:
    return _return_pieces(state, event["returned"])


def _forest_completed_or_river_completed(state: HGState, event: Event) -> HGState:
    state = _return_pieces(state, event["returned"])
    return _add_points(state, event["scorers"], event["points"])


def _river_system_scored_or_meadow_scored(state: HGState, event: Event) -> HGState:
    return _add_points(state, event["scorers"], event["points"])


def _game_ended(state: HGState, event: Event) -> HGState:
    ranking = tuple(tuple(place) for place in event["ranking"])
    return replace(state, phase=Phase.OVER, ranking=ranking, tile=None)


def _return_pieces(state: HGState, returned: Sequence[Mapping[str, Any]]) -> HGState:
    gone = [Follower(r["seat"], r["piece"], r["x"], r["y"], r["zone"]) for r in returned]
    members = list(state.members)
    for follower in gone:
        members[state.seats.index(follower.seat)] += 1
    followers = tuple(f for f in state.followers if f not in gone)
    return replace(state, followers=followers, members=tuple(members))


def _add_points(state: HGState, scorers: Sequence[str], points: int) -> HGState:
    scores = list(state.scores)
    for seat in scorers:
        scores[state.seats.index(seat)] += points
    return replace(state, scores=tuple(scores))


EVOLVE: EvolveTable[HGState] = {
    "StartTilePlaced": _start_tile_placed,
    "TileDrawn": _tile_drawn,
    "TileSetAside": _tile_set_aside,
    "TilePlaced": _tile_placed,
    "FollowerPlaced": _follower_placed_or_hut_built,
    "HutBuilt": _follower_placed_or_hut_built,
    "NothingPlaced": _nothing_placed_or_no_bonus_tile_left,
    "NoBonusTileLeft": _nothing_placed_or_no_bonus_tile_left,
    "UnfinishedFeaturesAbandoned": _unfinished_features_abandoned,
    "ForestCompleted": _forest_completed_or_river_completed,
    "RiverCompleted": _forest_completed_or_river_completed,
    "RiverSystemScored": _river_system_scored_or_meadow_scored,
    "MeadowScored": _river_system_scored_or_meadow_scored,
    "GameEnded": _game_ended,
}
