"""Die Tribute von Panem: Überleben in Distrikt 12 (Kosmos), for 2 to 4 players.

Seats are listed clockwise; the first seat is the start player (the rulebook's
"youngest player"). Twelve rounds and the end round follow the round track of
the component set (``data/house-1.json``, ``round_track``): bakery and Hob
refills (left space first, covered spaces unused), advantage cards revealed
beside their locations (rounds 3, 6, 9: 2, 2, 1), passing the start player
token (4, 7, 10), tributes with the hand limit of six after each (4, 7, 10 and
the end round), trading (3, 6, 9, 12). Then the glass ball is shuffled (with
the rng; the order and the lot drawn are written into ``LotDrawn``).

Card ids: survival cards ``<good>-<value>-<nn>`` (``food-2-03``); a card
*kind* is ``<good>-<value>`` (``food-2``). Advantages have ids such as
``gale``, ``katniss_bow``. Lot owners are seats or ``"#neutral"``.

Options: ``{"component_set": "panem/house-1"}`` (default) or
``{"components": {...}}`` (a whole set in the shape of ``data/house-1.json``,
validated and stored in the options), and optionally ``{"deal": {...}}``.

Explicit deal (every key optional; what is left out is dealt with the rng)::

    {"start_advantages": {"<seat>": "<start advantage id>", ...},  # every seat
     "start_cards": {"<seat>": ["<start card id>", ...], ...},     # 2/3, 2/3/4, 3 each
     "hob": {"hob-1": ["<id>", "<id>"], ...},       # each open Hob space: 2 cards
     "bakery": {"bakery-1": ["<id>"], ...},         # each open bakery space: 1 card
     "discard": "<id>",                             # first card of the discard pile
     "later_advantages": ["katniss_bow", ...],      # order of the advantage reveals
     "draws": ["<id>", ...],                        # order of the draws after set-up
     "tribute_lot": "<seat or #neutral>"}           # the lot drawn at the end

``draws`` gives the n-th card drawn from the draw pile after the set-up (refills,
forest, Everdeen house, Peeta, a renewed discard pile's first card); when the
listed card is not in the draw pile at that moment, or the list is used up, the
card is drawn with the rng. Without a deal the draw pile is an unordered set and
each card is drawn with the rng when the rules draw it.

An inline set names at most 20 goods; its numbers are integers from 0 to 1000
(``lots_per_player`` from
1 and the lots, counted out one by one into the glass ball, to 100), and the
set-up (``setup.hob_cards`` on each Hob space, ``setup.bakery_cards`` on each
bakery space, then the first discard) must fit in the draw pile of the cards
that are no start cards; anything else is refused with ``bad-components``.

Moves (the seat that may move is in ``to_act``):

* movement: ``{"go": "<space>"}``; then ``{"skip": true}``, ``{"act": true}``
  (the location's action), ``{"take_advantage": true}`` or, at the Justice
  building, ``{"swap_with": "<seat>"}`` followed by a move at the new place;
  forest: ``{"keep": "<id>" | null}``; Prim at the Everdeen house:
  ``{"keep": "<id>"}``; Hob and Capitol storehouse, after the look:
  ``{"exchange": [["<hand id>", "<pile id>"], ...]}`` (``[]`` for none).
* trading (every seat not yet done): ``{"propose": {"to": seat, "give": [ids],
  "ask": [kinds]}}``, ``{"accept": offer_id}`` (optionally ``"cards": [ids]``
  naming which of one's cards match the asked kinds), ``{"decline": offer_id}``,
  ``{"withdraw": offer_id}``, ``{"done": true}``, and showing hand cards:
  ``{"show": [ids] | "hand", "to": [seats] | "all"}``. ``legal_moves`` lists
  done, accept/decline/withdraw of open offers and, while a seat has no open
  offer and made fewer than two this phase, every 1-for-1 proposal of one of
  its cards for a card of the same value of another good (a kind the set has);
  once a phase, showing
  the whole hand to everybody or to one seat, or one card to one seat;
  ``decide`` accepts any size (``sampled`` says so).
* tribute (sealed; every seat that has not chosen): ``{"tribute": [ids]}``, at
  most one card of each good asked; a lot goes into the glass ball for each
  missing card. The last chooser's decide returns ``TributesRevealed``.
* hand limit: ``{"discard": [ids]}``, exactly down to six.

Rules decisions (also in the panem section of docs/rules-decisions.md):

* A space is free when no figure stands on it, including figures that have not
  moved yet this round. A figure may not stay at or return to the location it
  stood on at the end of last round (after a Justice swap the swapped player's
  location is the Justice building).
* Anyone may move to a free Justice building space; swapping needs the chip.
  The swap partner must have moved already this round and must not stand at the
  swapper's location of last round; the swapper then acts at the new place
  (its action, or the advantage card beside it). The partner may be put on the
  Justice building even if it stood there last round: the rule against staying
  binds a player's own move, and the rulebook says the swapped player suffers
  no disadvantage ("hat dadurch keinen Nachteil").
* An advantage card may be taken instead of the action, once per game; it
  replaces the start advantage. Mayor Undersee needs no chip, and taking it
  with the chip in hand keeps the chip: the chip pays for the swap ("Um die
  zugehörige Aktion nutzen zu dürfen"), and the card is taken instead of it.
* Haymitch: at most two exchanges, each of a different hand card and a
  different pile card (all as held before the exchange).
* Prim: two cards drawn, one kept; the other goes face up on the discard pile.
  Peeta: after taking the bakery stack, the top card of the draw pile, secretly.
* The discard pile is face up: every card laid on it (tributes, forest,
  Prim, hand limit) is seen by everybody; only its top card stays visible. At
  the Capitol storehouse a card given takes the place of the card taken: it is
  the new top card (seen by all) if the top card was taken, else it is hidden
  in the pile. (The rulebook lets the player push it in anywhere; since only
  the top card shows and the pile below it is kept unordered, the player does
  not choose the place.)
* The draw pile is renewed from the discard pile at once ("sofort") when its
  last card is drawn, before the drawn cards are laid anywhere; one card then
  starts the new discard pile (rules 1.1; 1.0 renewed only at the next draw).
  A discard pile of a single card is renewed only when a card must be drawn,
  and then the rulebook's two steps leave nothing to draw: its one card
  becomes the new draw pile and at once the new discard pile's first card.
  The draw takes no card (both steps stay in the record).
  If both piles are empty, fewer cards are drawn.
* Hand-limit discards are open and made in any order. Tribute cards go onto
  the discard pile face up, in seat order.
* Trades: cards asked are named by kind (``food-3``), since nobody knows the
  ids in another hand. Any numbers of cards may be traded; one side may be
  empty (a gift), not both. The partners see each other's traded cards; others
  see counts. A proposal stays open until it is accepted, declined or
  withdrawn, or a party declares done (which voids one's open proposals and
  those made to one; proposals to a seat that is done are refused). One whose
  cards are gone (the proposer gave the offered cards away, or the asked
  player no longer holds the asked kinds) cannot be accepted: the refusal
  goes only to the player asked. Rules 1.1 voided such a proposal at once,
  in the record: everybody then learnt that a trade they saw only as counts
  had taken a card of an asked kind (asked kinds are public), so 1.2 voids
  nothing a player could not see for themselves.
* Ties: fewest lots in the glass ball (each player's first lot included),
  then a shared place. The tribute ranks last whatever its points; with two
  players a neutral lot leaves both in the running (most points wins), a
  player's lot makes the other the winner.
* Scores in the result are survival points with advantage bonuses (the tribute
  too, for the record).

* Showing hand cards ("Die Spieler dürfen zeigen, welche Karten sie auf der
  Hand haben", in the trading paragraph) is a move of the trading phase only,
  by a seat still trading: the permission serves the trade, and showing cards
  outside it (before a sealed tribute, say) would let players coordinate what
  the rules keep secret. A seat shows any of its cards, or its whole hand, to
  chosen other seats or to everybody (spectators too). The others see that it
  showed so many cards to whom. A shown seat knows the cards (they are no
  longer ``hidden_from`` it: its own record names them) and its view lists
  them under ``shown`` until they could have left the hand unseen: a trade it
  did not take part in, an exchange at the Hob or Capitol storehouse (unless
  the one card given became the open top card) makes it forget the holder's
  shown cards; open discards and tributes take only those cards away.
  ``CardsShown`` shows hidden cards, so no undo crosses it. Showing changes no
  seat's legal moves and nothing ``decide`` does with the other moves: a move
  with ``"show"`` was refused before and refused moves are never recorded, so
  showing left rules_version at 1.1.
* ``concurrent``: a sealed tribute and a seat showing cards leave every other
  seat's choices as they were; a seat ending its trading (``TradingDone``, and
  the ``TradeVoided`` of its open proposals) only takes choices away, so the
  seats may all say "done" at one position. A stale proposal to a seat that is
  done, or acceptance of a voided proposal, is refused as it would be fresh.

Notation (``notation.py``): one line per move, in words (``ann goes to the Hob
(space 1)``, ``ann looks at the 2 cards of the stack at the Hob (space 1)``,
``ann seals a tribute``, ``ann shows ben medicine 3 and food 2``); cards are
named by good and value. Text board ``text.py``, picture ``picture.py``,
schemas ``data/schemas.json``.

Hidden information: ``hidden_from`` lists the cards lying where the viewer
cannot look (other hands, Hob stacks, the draw pile, the discard pile below the
top card, the box) whose face the viewer never saw. Once a viewer has seen a
card (face up on the table, in its hand, in a pile it looked at, offered to it)
the card is no longer hidden from it; views never show other hands, and show a
pile's remembered cards only while nobody else has exchanged there since.
Sealed tributes are shown to nobody else before ``TributesRevealed``.
"""

from __future__ import annotations

from gamelog.games.panem.rules import RULES, Panem

__all__ = ["RULES", "Panem"]
