// A card game of the same weight as three-too-many's card play, written for
// boardgame.io: 90 cards, three open rows, a face-down pile and a hidden hand
// per seat. A turn plays one hand card into the row its number names; a row's
// fifth card takes the row into the mover's collection; a hand down to two
// cards draws six from the pile. Two seats, 36 moves a game, as in gamelog's
// bench (bench/load.py MOVES_PER_GAME). The server alone decides a move
// (`client: false`), and each seat sees only its own hand (`playerView`).
'use strict';

const { INVALID_MOVE } = require('boardgame.io/core');

const CARDS = 90;
const DISPLAY_CARDS = 3;
const PILE_SIZE = 20;
const HAND_SIZE = 8;
const REFILL = 6;
const REFILL_AT = 2;
const ROW_TAKEN_AT = 5;
const COLOURS = 6;

const rowOf = (card) => Math.floor(card / 30);

function setup({ ctx, random }) {
  const deck = random.Shuffle([...Array(CARDS).keys()]);
  const rows = [[], [], []];
  for (const card of deck.slice(0, DISPLAY_CARDS)) rows[rowOf(card)].push(card);
  const players = {};
  const piles = {};
  ctx.playOrder.forEach((seat, i) => {
    const start = DISPLAY_CARDS + i * PILE_SIZE;
    const pile = deck.slice(start, start + PILE_SIZE);
    players[seat] = { hand: pile.slice(0, HAND_SIZE).sort((a, b) => a - b) };
    piles[seat] = pile.slice(HAND_SIZE);
  });
  const collections = Object.fromEntries(
    ctx.playOrder.map((seat) => [seat, Array(COLOURS).fill(0)])
  );
  return { rows, players, collections, played: 0, secret: { piles } };
}

function play({ G, ctx }, card) {
  const seat = ctx.currentPlayer;
  const hand = G.players[seat].hand;
  const at = hand.indexOf(card);
  if (at < 0) return INVALID_MOVE;
  hand.splice(at, 1);
  const row = G.rows[rowOf(card)];
  row.push(card);
  if (row.length >= ROW_TAKEN_AT) {
    for (const taken of row) G.collections[seat][taken % COLOURS] += 1;
    G.rows[rowOf(card)] = [];
  }
  const pile = G.secret.piles[seat];
  if (hand.length <= REFILL_AT && pile.length > 0) {
    hand.push(...pile.splice(0, REFILL));
    hand.sort((a, b) => a - b);
  }
  G.played += 1;
}

function score(collection) {
  return collection.reduce((sum, count) => sum + (count >= 3 ? count : -count), 0);
}

const CardPlay = {
  name: 'card-play',
  minPlayers: 2,
  maxPlayers: 2,
  setup,
  playerView: ({ G, playerID }) => {
    const players = playerID in G.players ? { [playerID]: G.players[playerID] } : {};
    const { secret, ...open } = G; // eslint-disable-line no-unused-vars
    return { ...open, players };
  },
  moves: {
    play: { move: play, client: false },
  },
  turn: { minMoves: 1, maxMoves: 1 },
  endIf: ({ G, ctx }) => {
    const done = ctx.playOrder.every(
      (seat) => G.secret.piles[seat].length === 0 && G.players[seat].hand.length <= REFILL_AT
    );
    if (!done) return undefined;
    const scores = Object.fromEntries(
      ctx.playOrder.map((seat) => [seat, score(G.collections[seat])])
    );
    return { scores };
  },
};

module.exports = { CardPlay, MOVES_PER_GAME: 2 * (PILE_SIZE - REFILL_AT) };
