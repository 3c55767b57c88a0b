"""The decider: set-up, moves and legal moves; the class that is ``RULES``
hands options, the fold, views, notation, text and picture to their modules."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from gamelog.games.carcassonne_hg import notation, picture, text, views
from gamelog.games.carcassonne_hg.board import fits, fits_somewhere, placements
from gamelog.games.carcassonne_hg.evolve import evolve
from gamelog.games.carcassonne_hg.features import (
    KIND_TYPES,
    Feature,
    all_features,
    feature_at,
    features_on_tile,
)
from gamelog.games.carcassonne_hg.options import DEFAULT_SET, PLAYERS, normalize, reference_for
from gamelog.games.carcassonne_hg.schemas import SCHEMAS
from gamelog.games.carcassonne_hg.scoring import (
    PIECE_FOR_KIND,
    Follower,
    forest_points,
    majority,
    meadow_points,
    meadow_scorers,
    on_feature,
    river_points,
    system_points,
)
from gamelog.games.carcassonne_hg.state import HUTS, TRIBE_MEMBERS, HGState, Phase
from gamelog.games.carcassonne_hg.tiles import (
    resolve,
    tile_by_id,
)
from gamelog.games.protocol import (
    JSON,
    Event,
    GameType,
    IllegalMove,
    Move,
    Options,
    Result,
    Viewer,
    is_int,
    rank_by,
)

KIND_FOR_PIECE = {piece: kind for kind, piece in PIECE_FOR_KIND.items()}
"""The feature a piece claims: gatherer forest, fisher river, hunter meadow, hut river system."""
ZONE_FOR_PIECE = {piece: KIND_TYPES[kind] for piece, kind in KIND_FOR_PIECE.items()}
"""The zone types a piece may stand on: a hut on a river or a lake, the others on their own."""


class HuntersAndGatherers:
    name = "carcassonne-hg"
    title = "Carcassonne: Hunters and Gatherers (2002)"
    rules_version = "1.0"
    min_players, max_players = PLAYERS
    default_component_set = DEFAULT_SET
    secret_options = frozenset({"deal"})

    # ----------------------------------------------------------------- set-up

    def normalize_options(self, options: Mapping[str, JSON], seats: Sequence[str]) -> Options:
        return normalize(options, seats)

    def start(self, seats: Sequence[str], options: Options) -> HGState:
        ref = reference_for(options)
        tileset = resolve(ref)
        deal = options.get("deal", {})
        n = len(seats)
        return HGState(
            seats=tuple(seats),
            components=ref,
            deal_order=tuple(deal.get("order", ())),
            bonus_deal_order=tuple(deal.get("bonus_order", ())),
            land_pile=frozenset(tileset.ids("land")),
            bonus_pile=frozenset(tileset.ids("bonus")),
            members=(TRIBE_MEMBERS,) * n,
            huts=(HUTS,) * n,
            scores=(0,) * n,
        )

    def setup(self, options: Options, seats: Sequence[str], rng: random.Random) -> list[Event]:
        state = self.start(seats, options)
        events: list[Event] = []
        start_event: Event = {
            "type": "StartTilePlaced",
            "tile": state.tileset.start_tile,
            "x": 0,
            "y": 0,
            "rotation": 0,
        }
        emit = self._emitter(state, events)
        state = emit(start_event)
        self._begin_turn(state, seats[0], rng, emit)
        return events

    # ------------------------------------------------------------------ moves

    def to_act(self, state: HGState) -> tuple[str, ...]:
        if state.phase in (Phase.PLACE, Phase.DEPLOY):
            return (state.current_seat,)
        return ()

    def decide(self, state: HGState, seat: str, move: Move, rng: random.Random) -> list[Event]:
        if state.phase is Phase.OVER:
            raise IllegalMove("game-over", "the game is over")
        if seat not in state.seats:
            raise IllegalMove("not-a-seat", f"{seat!r} does not play in this game")
        if seat != state.current_seat or state.phase not in (Phase.PLACE, Phase.DEPLOY):
            raise IllegalMove("not-your-turn", f"it is {state.current_seat}'s turn")
        if not isinstance(move, dict):
            raise IllegalMove("bad-move", "a move is a JSON object")
        events: list[Event] = []
        emit = self._emitter(state, events)
        if state.phase is Phase.PLACE:
            emit(self._checked_placement(state, seat, move))
            return events
        after = emit(self._checked_deployment(state, seat, move))
        self._finish_tile(after, seat, rng, emit)
        return events

    def _checked_placement(self, state: HGState, seat: str, move: Move) -> Event:
        place = move.get("place")
        if set(move) != {"place"} or not isinstance(place, dict):
            raise IllegalMove(
                "place-a-tile",
                'lay the drawn tile: {"place": {"x": .., "y": .., "rotation": 0..3}}',
            )
        if set(place) != {"x", "y", "rotation"} or not all(is_int(v) for v in place.values()):
            raise IllegalMove("bad-move", "place needs integer x, y and rotation")
        x: int = place["x"]
        y: int = place["y"]
        rotation: int = place["rotation"]
        if not 0 <= rotation <= 3:
            raise IllegalMove("bad-rotation", "rotation is 0, 1, 2 or 3 quarter turns clockwise")
        assert state.tile is not None
        if (x, y) in state.board:
            raise IllegalMove("occupied", f"a tile already lies at ({x}, {y})")
        if not fits(state.tileset, state.board, state.tile, (x, y), rotation):
            raise IllegalMove(
                "does-not-fit",
                f"tile {state.tile} turned {rotation} must touch the map by a side and match "
                "every touching side (forest to forest, meadow to meadow, river to river)",
            )
        return {
            "type": "TilePlaced",
            "seat": seat,
            "tile": state.tile,
            "x": x,
            "y": y,
            "rotation": rotation,
            "bonus": state.tile_is_bonus,
        }

    def _checked_deployment(self, state: HGState, seat: str, move: Move) -> Event:
        if move == {"pass": True}:
            return {"type": "NothingPlaced", "seat": seat}
        deploy = move.get("deploy")
        if (
            set(move) != {"deploy"}
            or not isinstance(deploy, dict)
            or set(deploy) != {"piece", "zone"}
        ):
            raise IllegalMove(
                "bad-move", 'place a piece {"deploy": {"piece": .., "zone": ..}} or {"pass": true}'
            )
        piece, zone_index = deploy["piece"], deploy["zone"]
        if not isinstance(piece, str) or piece not in ZONE_FOR_PIECE:
            raise IllegalMove("bad-piece", "the piece is gatherer, fisher, hunter or hut")
        assert state.placed_at is not None
        x, y = state.placed_at
        tile = tile_by_id(state.tileset, state.board[(x, y)].tile)
        zone = next((z for z in tile.zones if z.index == zone_index), None)
        if zone is None or not is_int(zone_index):
            raise IllegalMove("bad-zone", f"tile {tile.id} has no zone {zone_index!r}")
        if zone.type not in ZONE_FOR_PIECE[piece]:
            where = " or ".join(ZONE_FOR_PIECE[piece])
            raise IllegalMove("wrong-zone", f"a {piece} stands on a {where}, not a {zone.type}")
        index = state.seats.index(seat)
        if piece == "hut" and state.huts[index] == 0:
            raise IllegalMove("no-hut-left", "both your huts are built")
        if piece != "hut" and state.members[index] == 0:
            raise IllegalMove("no-member-left", "all your tribe members are out")
        kind = KIND_FOR_PIECE[piece]
        feature = feature_at(state.tileset, state.board, (x, y, zone_index), kind)
        if on_feature(state.followers, feature):
            raise IllegalMove(
                "occupied", f"that {'river system' if kind == 'system' else kind} has a {piece}"
            )
        kind_name = "HutBuilt" if piece == "hut" else "FollowerPlaced"
        return {"type": kind_name, "seat": seat, "piece": piece, "x": x, "y": y, "zone": zone_index}

    # --------------------------------------------------------- turn machinery

    def _emitter(self, state: HGState, events: list[Event]) -> Callable[[Event], HGState]:
        box = [state]

        def emit(event: Event) -> HGState:
            events.append(event)
            box[0] = self.evolve(box[0], event)
            return box[0]

        return emit

    def _finish_tile(
        self, state: HGState, seat: str, rng: random.Random, emit: Callable[[Event], HGState]
    ) -> None:
        assert state.placed_at is not None
        pos = state.placed_at
        from_land_tile = not state.board[pos].bonus
        gold = False
        for kind in ("forest", "river"):
            for feature in features_on_tile(state.tileset, state.board, pos, kind):
                if feature.complete:
                    event = self._completion(state, feature)
                    gold = gold or bool(event.get("gold_nugget"))
                    state = emit(event)
        if gold and from_land_tile:
            while True:
                if not state.bonus_pile:
                    state = emit({"type": "NoBonusTileLeft", "seat": seat})
                    break
                state = emit(self._draw(state, seat, rng, bonus=True))
                assert state.tile is not None
                if fits_somewhere(state.tileset, state.board, state.tile):
                    return
                state = emit(
                    {"type": "TileSetAside", "seat": seat, "tile": state.tile, "bonus": True}
                )
        following = state.seats[(state.turn + 1) % len(state.seats)]
        self._begin_turn(state, following, rng, emit)

    def _begin_turn(
        self, state: HGState, seat: str, rng: random.Random, emit: Callable[[Event], HGState]
    ) -> None:
        while state.land_pile:
            state = emit(self._draw(state, seat, rng, bonus=False))
            assert state.tile is not None
            if fits_somewhere(state.tileset, state.board, state.tile):
                return
            state = emit({"type": "TileSetAside", "seat": seat, "tile": state.tile, "bonus": False})
        self._final_scoring(state, emit)

    def _draw(self, state: HGState, seat: str, rng: random.Random, *, bonus: bool) -> Event:
        pile = state.bonus_pile if bonus else state.land_pile
        order = state.bonus_deal_order if bonus else state.deal_order
        drawn = state.bonus_draws if bonus else state.land_draws
        tile = order[drawn] if drawn < len(order) else rng.choice(sorted(pile))
        return {"type": "TileDrawn", "seat": seat, "tile": tile, "bonus": bonus}

    def _completion(self, state: HGState, feature: Feature) -> Event:
        pieces = on_feature(state.followers, feature)
        facts: Mapping[str, int | bool]
        if feature.kind == "forest":
            name, facts = "ForestCompleted", forest_points(state.tileset, state.board, feature)
        else:
            name, facts = "RiverCompleted", river_points(state.tileset, state.board, feature)
        return {
            "type": name,
            **facts,
            "scorers": majority(pieces, state.seats),
            "returned": [p.to_json() for p in pieces],
        }

    def _final_scoring(self, state: HGState, emit: Callable[[Event], HGState]) -> None:
        home = [f for f in state.followers if f.piece in ("gatherer", "fisher")]
        state = emit(
            {"type": "UnfinishedFeaturesAbandoned", "returned": [f.to_json() for f in home]}
        )
        for system in all_features(state.tileset, state.board, "system"):
            huts = on_feature(state.followers, system)
            if huts:
                facts = system_points(state.tileset, state.board, system)
                state = emit(
                    {
                        "type": "RiverSystemScored",
                        **facts,
                        "huts": self._counts(huts, state.seats),
                        "scorers": majority(huts, state.seats),
                    }
                )
        for meadow in all_features(state.tileset, state.board, "meadow"):
            hunters = on_feature(state.followers, meadow)
            if hunters:
                meadow_facts = meadow_points(state.tileset, state.board, meadow)
                scorers, shrine = meadow_scorers(state.tileset, state.board, hunters, state.seats)
                state = emit(
                    {
                        "type": "MeadowScored",
                        **meadow_facts,
                        "hunters": self._counts(hunters, state.seats),
                        "shrine": shrine,
                        "scorers": scorers,
                    }
                )
        scores = dict(zip(state.seats, state.scores))
        ranking = rank_by(scores, state.seats)
        emit(
            {
                "type": "GameEnded",
                "scores": scores,
                "ranking": [list(place) for place in ranking],
            }
        )

    @staticmethod
    def _counts(pieces: Sequence[Follower], seats: Sequence[str]) -> dict[str, int]:
        """Pieces per seat that has any, in seat order."""
        counts = Counter(p.seat for p in pieces)
        return {seat: counts[seat] for seat in seats if counts[seat]}

    # ----------------------------------------------------------------- evolve

    def evolve(self, state: HGState, event: Event) -> HGState:
        return evolve(state, event)

    # ------------------------------------------------------------ enumeration

    def legal_moves(self, state: HGState, seat: str) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase is Phase.PLACE:
            assert state.tile is not None
            return [
                {"place": {"x": pos[0], "y": pos[1], "rotation": rotation}}
                for pos, rotation in placements(state.tileset, state.board, state.tile)
            ]
        return [*self.deployments(state, seat), {"pass": True}]

    def deployments(self, state: HGState, seat: str) -> list[Move]:
        assert state.placed_at is not None
        x, y = state.placed_at
        index = state.seats.index(seat)
        tile = tile_by_id(state.tileset, state.board[(x, y)].tile)
        moves: list[Move] = []
        # The tile's features of each kind, found once: several zones may share one.
        features_of_kind: dict[str, list[Feature]] = {}
        for zone in tile.zones:
            for piece, zone_types in ZONE_FOR_PIECE.items():
                if zone.type not in zone_types:
                    continue
                if (state.huts if piece == "hut" else state.members)[index] == 0:
                    continue
                kind = KIND_FOR_PIECE[piece]
                if kind not in features_of_kind:
                    features_of_kind[kind] = features_on_tile(
                        state.tileset, state.board, (x, y), kind
                    )
                feature = next(f for f in features_of_kind[kind] if (x, y, zone.index) in f.nodes)
                if not on_feature(state.followers, feature):
                    moves.append({"deploy": {"piece": piece, "zone": zone.index}})
        return moves

    # ------------------------------------------------------------------ views

    def view(self, state: HGState, viewer: Viewer) -> dict[str, JSON]:
        return views.view(state, viewer, self.to_act(state), self.result(state))

    def redact(self, event: Event, viewer: Viewer) -> Event:
        return views.redact(event, viewer)

    def shows_hidden(self, event: Event) -> bool:
        return views.shows_hidden(event)

    def hidden_from(self, state: HGState, viewer: Viewer) -> frozenset[str | int]:
        return views.hidden_from(state, viewer)

    def result(self, state: HGState) -> Result | None:
        if state.phase is not Phase.OVER or state.ranking is None:
            return None
        return Result(scores=dict(zip(state.seats, state.scores)), ranking=state.ranking)

    def render_text(self, state: HGState, viewer: Viewer) -> str:
        return text.render_text(state, self._deployments_now(state))

    def render_svg(self, state: HGState, viewer: Viewer) -> str:
        return picture.render_svg(state, self._deployments_now(state))

    def _deployments_now(self, state: HGState) -> list[Move]:
        """The figures the seat to act may place on the tile just laid."""
        if state.phase is not Phase.DEPLOY:
            return []
        return self.deployments(state, state.current_seat)

    # ------------------------------------------------- the record, for readers

    def notate(
        self, state: HGState, seat: str | None, move: Move | None, events: Sequence[Event]
    ) -> str:
        return notation.notate(state, seat, events)

    def schemas(self) -> Mapping[str, JSON]:
        return SCHEMAS

    def sampled(self, state: HGState, seat: str) -> str | None:
        return None

    def concurrent(self, event: Event) -> bool:
        # Seats take turns; no event leaves another seat's choice open.
        return False


RULES = HuntersAndGatherers()
_IS_A_GAME_TYPE: GameType[HGState] = RULES  # mypy checks all three protocols
