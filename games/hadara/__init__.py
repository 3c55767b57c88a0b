"""Hadara (Hans im Glück 2019, Benjamin Schwer), 2-5 players.

Three epochs of phase A (sealed draws at the wheel, then income, colony, bust)
and phase B (face-up cards in turn order, income, colony, bust, feeding,
seals), then the final scoring. Modules: ``cards`` (the components),
``component_set`` (reading and checking a set), ``state``, ``phases`` (start
player, wheel, turn order), ``prices``, ``colonies``, ``busts``, ``feeding``,
``seals``, ``scoring``, ``options``, ``rules`` (the decider), ``automatic``
(what follows by itself), ``evolve`` (the fold), ``views`` (hidden cards,
redaction and the view per viewer), ``text``, ``picture`` (the SVG, drawn with
``drawing`` and ``player_boards``), ``notation``, ``words`` and ``schemas``
(``data/schemas.json``).

Options::

    {"component_set": "hadara/house-1"}   # default; or {"components": {...}}
    {"first_game": false}                 # true: only purple cards without star,
                                          # every board on side A
    {"board_sides": {"ann": "B"}}         # later games; unnamed seats: side A
    {"deal": {...}}                       # see below

Explicit deal (each key optional; what is left out is drawn with the rng)::

    {"start_cards": {"ann": "start-2", "bob": "start-4"},
     "colonies": {"3": [n colony ids], "9": [...], "15": [...], "21": [...],
                  "30": [...]},          # laid as slots 3a, 3b, ... in order
     "epochs": {"1": {"yellow": [2n card ids], "red": [...], "blue": [...],
                      "green": [...], "purple": [...]},
                "2": {...}, "3": {...}}}  # each list is the inner stack in
                                          # draw order: a draw takes the next two

Every id in a deal is a string; a list or an object in its place is refused
with ``bad-deal`` (it used to raise TypeError at creation).

Moves (``legal_moves`` lists them all, except feeding: see below):

* wheel (start player, phase A): ``{"wheel": colour}``, the stack the start
  player's crest points at; the others follow from the wheel.
* sealed choice (every seat at once): ``{"place": card, "action": "recruit"|
  "sell"}``, with ``"tile": track`` when recruiting a card that takes a bonus
  tile (the other drawn card is the one recruited or sold).
* colony: ``{"colony": "9b", "ally": true|false}`` or ``{"pass": true}``.
* bust: ``{"bust": 1-4, "tile": track, "side": "front"|"back"}`` or
  ``{"pass": true}``.
* phase B: ``{"take": colour, "action": "recruit"|"sell"}`` (+ ``"tile"``).
* feeding: ``{"remove": [cards], "pay_for": k}`` (``pay_for`` only with the
  coin-feeding card). ``legal_moves`` gives a representative set: for each card
  removed first, the fewest further cards with the least food and points, and
  each number of cards paid for; it is never empty.
* seals: ``{"silver": [tracks], "golden": k}`` or ``{"pass": true}``.

Events: ``StartCardsDealt``, ``StartPlayerCoinTaken``, ``ColoniesLaid``
(``colonies`` slot -> id, redacted away; ``fronts`` public), ``EpochBegun``
(inner ``stacks``, redacted to counts), ``WheelSet``/``WheelTurned``,
``CardsDrawn`` (``draws`` seat -> colour and two cards, others' cards redacted
to null), ``DrawChosen`` (sealed: others see only the seat), ``DrawsRevealed``
(every choice with the ``stack`` the laid card goes on and ``stays_on_top``;
for other seats the laid card is null unless it stays on top, a card sold
face down is null), ``IncomeTaken``, ``ColonyPlundered``, ``ColonyAllied``
(reveals the colony id and back), ``ColonyPassed``, ``BustCarved``,
``BustPassed``, ``CardTaken`` (with ``uncovered``, the card that comes to
light), ``PeopleFed``, ``SealsBought``, ``SealsPassed``, ``GameEnded`` (the
score sheet). Seats with nothing to decide pass automatically (``"auto":
true``). ``data/schemas.json`` describes every move, view and event.

Notation (``notate``), one line per move: ``ann chooses (sealed)`` (for ann:
``ann chooses (sealed): lays I-red-01 face up, sells I-red-02 for 2 coins``),
``round 1 revealed: ann lays a red card face up (covered later) and sells a
card face down for 2 coins, bob lays I-blue-01 on blue and recruits I-blue-02
for 2 coins``, ``ann takes I-blue-03 from blue and recruits it for 2 coins;
I-blue-01 now lies on top``, ``game over: 1. ann 107, 2. bob 104``.
``sampled`` names the feeding sample; ``concurrent`` is true for
``DrawChosen`` only.

The view's ``score_sheet`` is ``{"columns": [seats], "rows": [{"category",
"label", "scores": {seat: points}}...], "coins_left": {seat: coins}}``: the
running count during play, the final scoring once the game is over;
``coins_left`` is what breaks a tie: the coins kept after handing in every 5.

Rules version 1.1 (review against the rulebook): the wheel turns the way of
the rulebook's example, ties compare the coins kept after handing in 5s, a
bust is named by an integer. Rules version 1.2: the outer stacks show only
their top card (decision 17); ``DrawsRevealed`` choices carry ``stack`` and
``stays_on_top``, ``CardTaken`` carries ``uncovered``. Rules version 1.3:
feeding accepts a removal whose cards can go one by one while the people are
unfed (decision 6), so a card with food may go first; every 1.2 removal stays
legal, but a 1.3 record may hold one that 1.2 refused.

Rules decisions (also in docs/rules-decisions.md, section hadara):

1. The board's parts may be put together in any order; the engine uses one:
   seat k (in seat order, which is clockwise) holds crest k, which points at
   colour k + w of yellow, red, blue, green, purple at wheel setting w. A turn
   moves every crest to the colour before it in that list: red -> yellow as in
   the rulebook's example, yellow -> purple, ..., blue -> red.
2. Each seat lays its card on the stack its crest points at, and the crests
   point at different stacks, so no two cards reach one stack in a round.
   (Rules 1.0-1.1 named an order for that case; it never arises.)
3. A sealed choice is checked against the seat's coins when it is made: in a
   round a seat's coins change only by its own choice.
4. A card sold in phase A goes face down: other seats never learn it. Cards
   sold in phase B and cards removed when feeding were face up: public.
5. Income is automatic. A seat with no colony, bust or seal it could take
   passes automatically; one that could may still pass.
6. Feeding goes in turn order. Cards are removed one by one "so lange ...,
   bis" the people are fed: a removal is legal when its cards can go in some
   order with the people unfed before each card and fed after the last. A
   card with food may go first and then more cards must follow ("Dadurch
   müsstest du noch weitere Karten entfernen"; rules 1.0-1.2 refused such a
   removal when the other cards alone would have fed the people). With the
   coin-feeding card one pays for exactly as many cards as food still lacks.
7. Colony: requirement coins (the buy-requirement card) are paid first, the
   colony-coins card's 4 coins come next and may pay the alliance.
8. A bust takes a bonus tile of some track on either side; the move names the
   track even for the point side. The bust card adds 2 steps per front-side
   bust, 2 points per back-side bust, per card.
9. Seals may be bought in every epoch (the set's prices per epoch; the seal
   card lowers them in II and III), several at once in one move. Both silver
   seals may take tiles of one track (a seat has two tiles of each); each
   scores half that track, rounded up alone.
10. The silver full-points card scores the seal with the highest track; the
    wildcard card counts only for golden seals; the set-points card counts
    complete sets.
11. First game is an option (default false: later game, all purple cards).
    Start cards are dealt at random from the whole set.
12. Never-start coin: nobody with 3 players; the highest initiative with 4;
    the two highest with 5; with 2 players the one who starts only in II.
13. A colony stays face down to everybody (the plunderer too) unless allied;
    its id names its back, so views show slots ("3a") and fronts only. The
    set is kept as shipped; where a front is unique within its level (12 of
    25 in house-1) someone who knows the set can tell its back.
14. Tracks have no upper end: a value v shows as field and 10-markers (11 is a
    marker and field 1).
15. Ties on points: more coins kept after handing in every 5 (0-4) wins
    ("1 Münze behältst du für einen möglichen Gleichstand"); still tied: a
    shared place.
16. The bonus-tile card ("Du musst dieser Karte sofort eines deiner
    Bonusplättchen-Vorderseiten zuordnen") recruited with no free bonus tile
    takes none and has no effect; a bust or a silver seal needs a free tile.
17. The outer stacks show only their top card ("Dabei darfst du die Stapel
    nie durchsuchen, sondern musst immer die Karte nehmen, die oben auf dem
    jeweiligen Stapel liegt"): views give each stack's top and count; the
    cards below are hidden from everybody but the arbiter and the seat that
    drew them, in views, records, notation, text and picture. A card laid in
    phase A is seen while it lies on top, but a record is the same at every
    position, so a reveal names a laid card to other viewers only when no
    later card of the phase covers it (``stays_on_top``, fixed by the wheel);
    a card that gets covered is named again when a take uncovers it.
    Players at a real table may remember covered cards; the engine is no
    memory aid.
18. A purple card's ability params are checked when the component set is
    parsed, so an inline set is refused at creation (``bad-components``,
    naming the card and the param) rather than failing mid-game.
    ``cards.ABILITIES`` declares per ability the params it takes, each with
    its kind, range and default: counts are integers from 0 to 100 (the
    coin-feeding card's ``coins_per_card`` divides: at least 1), colours and
    tracks come from the set's, and params the rules implement one way only
    (``stacks``, ``tile_side``, ...) may be stated but not changed. Unknown
    params, bools, floats, strings or objects for numbers are refused. No
    Hadara card moves a track backwards, so neither may a set's: negative
    steps would make the feeding check a search over orders (see ``feeding``).
    The double card's ``colonies_per_section`` and ``busts_per_section`` are
    read as given (before, a misspelt name made 2 count whatever the set said).
"""

from __future__ import annotations

from gamelog.games.hadara.rules import RULES, Hadara

__all__ = ["RULES", "Hadara"]
