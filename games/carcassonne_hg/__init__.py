"""Carcassonne: Hunters and Gatherers (Jegere og Sankere, 2002 rules), 2–5 players.

Players lay landscape tiles to grow forests, rivers and meadows, put tribe
members on them (gatherers in forests, fishers on rivers, hunters on meadows)
and build huts on river systems. Completed forests and rivers score at once;
huts and hunters score at the end.

Turn shape (all JSON):

* A turn begins with ``{"type": "TileDrawn", "seat", "tile", "bonus": false}``
  emitted by the set-up (first turn) or by the previous turn's last decision.
  A drawn tile that fits nowhere is followed by ``TileSetAside`` and another
  ``TileDrawn`` for the same seat.
* Move 1: ``{"place": {"x": int, "y": int, "rotation": 0..3}}`` (rotation in
  quarter turns clockwise; x grows east, y grows south; the start tile lies at
  (0, 0), rotation 0) gives ``TilePlaced {seat, tile, x, y, rotation, bonus}``.
* Move 2: ``{"deploy": {"piece": "gatherer"|"fisher"|"hunter"|"hut", "zone": int}}``
  or ``{"pass": true}``. ``zone`` is the tile's own zone index from the data
  file (independent of rotation). Events: ``FollowerPlaced`` / ``HutBuilt``
  ``{seat, piece, x, y, zone}`` or ``NothingPlaced``; then for each forest or
  river completed by the tile ``ForestCompleted {size, mushrooms, gold_nugget,
  points, scorers, returned}`` / ``RiverCompleted {size, fish, points,
  scorers, returned}``; then, after a gold nugget, ``TileDrawn`` with
  ``"bonus": true`` for the same seat (or ``NoBonusTileLeft``); otherwise the
  next seat's ``TileDrawn``. After the last land tile: ``UnfinishedFeaturesAbandoned
  {returned}``, ``RiverSystemScored {fish, points, huts, scorers}`` per river
  system with huts, ``MeadowScored {deer, mammoth, aurochs, tiger, fire,
  points, hunters, shrine, scorers}`` per meadow with hunters, ``GameEnded
  {scores, ranking}``. Every seat in ``scorers`` gains ``points``.

Options: ``{"component_set": "carcassonne-hg/house-2002"}`` (default) or
``{"components": {...a whole tile set in the data file's schema...}}``, and an
optional explicit deal ``{"deal": {"order": [land tile ids], "bonus_order":
[bonus tile ids]}}``: the n-th land draw of the game (counting tiles set aside)
takes ``order[n]``, the n-th bonus draw ``bonus_order[n]``; the lists hold
distinct ids of the right kind and may be shorter than the piles, after which
draws are random again. Without a deal every draw is made with the decision's
rng at the moment of drawing; the piles are unordered sets.
A side's optional ``zones`` in an inline set is a list naming the zones of
its three segments; anything else is refused (a number raised TypeError).

Hidden: the ids of the tiles still in the land and bonus piles, from every
viewer but the arbiter. A drawn tile is public.

Rules decisions (also in the carcassonne-hg section of docs/rules-decisions.md):

1. Each player has 5 tribe members to play and 2 huts: of the 6 figures of a
   colour one marks the score track, as the rulebook says.
2. The first seat begins (the youngest player's choice happens before creation).
3. A completed river scores 1 per tile it runs through plus the fish of the
   lakes at its ends (each lake once, even if both ends reach the same lake);
   fish drawn on the river itself (the derived tile set has a few) count only
   for huts, as part of the river system. A river closed in a loop is complete
   and scores 1 per tile (it reaches no lake).
4. A river system is every river and lake joined together (lakes join the
   rivers flowing into them); a hut scores 1 per fish in it, lakes and rivers
   alike, whether the system is finished or not. A hut needs a system with no
   hut yet; fishers and huts do not exclude each other.
5. A forest is complete when none of its forest edges is open. It scores 2 per
   tile ("skogstykke": a tile counts once even when two of its forest parts belong
   to the forest; likewise a river's tile counts once) and 2 per mushroom site.
   Completing a forest that holds a gold nugget anywhere, with a land tile,
   gives the player who laid it one bonus tile (at most one per turn, however
   many forests); a bonus tile never gives another. The bonus tile is laid,
   may get a piece, and scores, at once.
6. A bonus tile that fits nowhere is set aside and another bonus tile is drawn,
   as for land tiles ("placed by the general rules").
7. Pieces go only on the tile just laid, on a zone whose feature has no piece
   of that kind: gatherer on forest, fisher on river (not on a lake), hunter on
   meadow, hut on river or lake (no hut in the river system). A piece may be
   placed on a feature the same tile completes; it scores and comes home, and
   a member that came home may go out again on the bonus tile of that turn.
8. Meadows: 2 points per deer, mammoth and aurochs; each tiger cancels one
   deer (never below zero); fire anywhere in the meadow removes all its tigers;
   a hunter standing on the shrine meadow zone takes the meadow alone.
   Otherwise majority, ties all score.
9. The game ends after the turn in which the last land tile was laid or set
   aside (a bonus tile earned in that turn is still played).
10. Ranking by points; equal points share a place (the rulebook breaks no tie).
    Scores are plain totals: the score track's 50/100 counters only keep count.
11. The drawn tile is shown to everybody ("viser hun brikka til
    medspillerne"): pictures and text show it, where it fits and which figures
    may go on the tile just laid, to every viewer.

Readers and clients: ``notation`` (one line per stored move: the tile laid, then
the figure and what followed), ``text`` (the terminal board), ``picture`` with
``tile_art`` and ``geometry`` (the SVG), ``data/schemas.json`` (JSON Schemas).
"""

from __future__ import annotations

from gamelog.games.carcassonne_hg.rules import RULES, HuntersAndGatherers
from gamelog.games.carcassonne_hg.state import HGState

__all__ = ["RULES", "HGState", "HuntersAndGatherers"]
