"""3 sind eine zu viel! (AMIGO): collect one or two cards of each colour, never three.

Game ``three-too-many``, 2–4 players, component set ``three-too-many/house-1``
(``data/house-1.json``: the house colouring of the 84 coloured numbers).

Set-up: the start cards 0, 30, 60 head the rows 1–29, 31–59, 61–89; three
random number cards go into the display; each seat gets a face-down pile of
20 cards and draws 8 of them; the other cards go to the box unseen.
A turn plays one hand card into its row (see ``display``); the fifth card of a
row (counting the start card) takes cards into the player's collection (see
``collection``). At two hand cards a player draws six; after 18 cards each
the game ends.

Moves: ``{"card": 42}``. Events (JSON):

* ``{"type": "DisplayDealt", "cards": [7, 33, 70]}``
* ``{"type": "PilesDealt", "piles": {seat: [20 cards]}, "box": [cards],
  "in_draw_order": false}``; others see counts, ``"piles": {seat: 20}, "box": 44``
  with two players
* ``{"type": "CardsDrawn", "seat": "ann", "cards": [...]}``; other viewers
  see ``{"type": "CardsDrawn", "seat": "ann", "count": 6}``
* ``{"type": "CardPlaced", "seat": "ann", "card": 28, "row": 0}``
* ``{"type": "CardsTaken", "seat": "ann", "row": 0, "cards": [10],
  "to_box": [], "turned_face_down": ["red"]}``
* ``{"type": "InterimBonusTaken", "seat": "ann", "points": 10}``
* ``{"type": "GameEnded", "final_bonus": {seat: 5}, "scores": {seat: 20}}``

Options: ``component_set`` (or ``components``, a whole set inline in the shape
of ``data/house-1.json``, with at most 87 colours: one per number card),
``start_seat`` (default: the first seat), and
``deal``, an explicit deal::

    {"deal": {"display": [7, 33, 70],
              "hands": {"ann": [8 cards], "ben": [8 cards]},
              "piles": {"ann": [12 cards], "ben": [12 cards]}}}

``hands`` are the eight cards each seat starts with; ``piles`` the other
twelve cards of its draw pile in the order they are drawn (the first six at
the first refill, the last six at the second). Every seat is named; every
card is a number card (1..89 but not 30 or 60) used at most once; cards not
named lie in the box. A bad deal raises InvalidOptions ``bad-deal``.

Illegal move codes: ``game-over``, ``not-a-seat``, ``not-your-turn``,
``bad-move`` (malformed), ``no-such-card`` (not 0..89), ``not-in-hand``.

Rules decisions (also in docs/rules-decisions.md, section three-too-many):

* Start player: the rulebook says the youngest; we take the option
  ``start_seat``, by default the first seat. Turns then go in seat order.
* A draw pile is unordered: cards are drawn at the moment of drawing with the
  decision's random source. Only an explicit deal fixes the draw order.
* A refill happens at the end of the turn that leaves two cards in hand, and
  only while the pile has cards (twice per player). The game ends right after
  the turn that leaves every player with two cards and an empty pile; these
  last two cards go to the box unscored and stay hidden from the other seats.
* Cards taken in one turn enter the collection in ascending order; the third
  card of a colour turns the three face down at once, so taking two cards of a
  colour holding one turns three and none is left face up.
* Colourless cards (15, 45, 75) taken from a row go to the box openly (every
  player saw them); they count for nothing.
* Face-down collection cards stay public in views (every player saw them taken).
* Interim bonus: checked after each of the player's own turns; the top card of
  the stack (10, 7, 5, 3), once per player, when every colour of the set lies
  face up in the collection. Final bonus: 5 for six colours face up, 10 for
  seven (the best card earned; "six or more" for sets of other sizes).
* Equal totals share a place: several winners, no tie-break (rulebook).
* Hidden components: other seats' hands, every draw pile (even from its owner,
  face down), and the box's undealt cards (only the arbiter sees them).
* Notation (``notation``) numbers the rows 1, 2, 3 as the rulebook does;
  events keep 0, 1, 2. A seat's view has ``hand``, the arbiter's ``hands``
  (``data/schemas.json`` says which viewer gets which field).

Readers and clients: ``notation`` (one line per move), ``text`` (the terminal
board), ``picture`` (the SVG), ``data/schemas.json`` (the JSON Schemas).
"""

from gamelog.games.three_too_many.rules import RULES, ThreeTooMany
from gamelog.games.three_too_many.state import ThreeTooManyState

__all__ = ["RULES", "ThreeTooMany", "ThreeTooManyState"]
