"""Pyramidion (White Goblin Games), for 2 to 5 players: partly refereed.

We have only page 7 of the eight-page German rulebook. What it defines is
rule-checked like any other game: phase 6 (the player order from the markers
taken in Gizeh), phase 7 (loading boats: resources back to the supply, the
statue as any resource, each torturer troop fetching once per round a
resource its location produces), phase 8 (the secret count, +1 point for the
most troops, the end at 10 points), the end of the game with its tie-breaks,
the variants (12 or 15 points, or until every boat is loaded) and the
two-player rules that touch what we model. Everything else (phases 1 to 5)
is recorded as *declared facts*: events with ``"declared": true``, stated by
the seat concerned or by the arbiter, checked for consistency only (see
``declarations``). Every view says so (``refereed``).

Seats are listed in the starting player order (the first seat starts). A
round: the seats declare phases 1 to 5 in any order, each until it declares
itself done (``{"declare": "done"}``); the arbiter may declare meanwhile. Then
phase 6 sets the order, the arbiter turns up any missing boats and confirms
the display (``{"declare": "display-complete"}``), and in player order each
seat loads a boat (``{"load": n, "fetch": [...], "statue_for": [...]}``) or
passes (``{"pass": true}``) until nobody loads any more; phase 8 follows.

Options: ``component_set`` (default ``pyramidion/page-7``: only what page 7
states) or ``components`` (a club's own set, see ``components``), ``goal``
(10, 12, 15 or ``"all-boats"``) and, with a boat deck, ``deal``
(``{"boats": [card ids]}``: the order of the first boats turned up).

Rules decisions (also in the pyramidion section of docs/rules-decisions.md):

* Phase 6: the holder of marker n takes space n of the order, everybody else
  fills the spaces left in their previous order (page 7's example: Red takes
  "1", order Red - Blue - Yellow). The markers are numbered 1 to the number
  of players, one per seat and round, taken only in an activated Gizeh.
  Gizeh not activated: the order stays; with two players the second player
  then starts the next round ("für die nächste Runde"): this round's phase 7
  keeps the order, and the swap is an ``OrderSet`` (rule
  ``two-player-swap``) after ``RoundEnded`` when the game goes on. (Rules
  1.1: 1.0 moved the holders to the front even when a marker was left
  untaken. Rules 1.2: 1.1 swapped the two players already in phase 6, so
  the second player loaded first in that round and led the tie-break.)
* Order markers are declared facts: page 7 ties them to torturer cards on
  Gizeh, but cards are declared by count, not kind, and how markers are
  taken is on the missing pages; a marker needs no card declared on Gizeh.
* Phase 7: a pass ends the seat's loading for the round; the phase ends when
  every seat has passed or no boat is displayed. A fetched resource must be
  used on the boat it was fetched for. The statue stands in for any other
  resource; the move says for which.
* Points: a displayed boat shows its requirements to all but its points to
  nobody but the arbiter (page 7 has the owner look at his points once the
  boat is his and keep them hidden; a record cannot hide later what it showed
  once). A loaded boat's points are its owner's; the count at a round end is
  each seat's own; everything is revealed when the game ends.
* Phase 8: the troop bonus goes to the one seat with the most troops on all
  locations; a tie gives it to nobody. The count and the end check come
  before the hands are discarded, so the tie-break "most cards in hand" reads
  the hands held at the end. The tie-break chain orders every place.
* The game also ends at a round end when no boat is left (deck empty, or
  declared empty, and none displayed): nothing else could end it.
* Two players: three activations a round, by the first, second and first
  player in order; phases 1 to 5 end only when three locations are
  activated and each seat played at least one card on each while it held
  cards; at most five cards per seat and location; no recruiting.
* Cards played on the locations count per round: the round end clears them
  with the sundials (page 7 says nothing of them), so the two-player limits
  (at least one, at most five per location) are per round.
* Boat ids: ``number`` (the n-th boat turned up, public) names a boat in
  moves; ``card`` (the set's card id, or ``declared-<n>``) names its face and
  is what ``hidden_from`` lists.
"""

from gamelog.games.pyramidion.rules import RULES, Pyramidion

__all__ = ["RULES", "Pyramidion"]
