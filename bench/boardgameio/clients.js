// One bench client of boardgame.io: plays its own games through the server's
// socket.io transport with boardgame.io's own client, holding both seats
// (one Client, so one socket, per seat) as gamelog's bench clients do
// (bench/load.py).
//
// Usage: node clients.js SERVER_URL MOVES SEED
// 1. Plays one game untimed (to warm V8 up), then creates and joins enough
//    games through the lobby API, connects every seat's Client and waits for
//    its first state; prints {"ready": true}.
// 2. Waits for a line on stdin (the driver's start signal, every client
//    together), then plays MOVES moves: the seat to act plays a random card
//    of its hand, and the move counts when both seats' clients hold the
//    state the server made of it (the mover's acknowledgement, and what the
//    next mover needs). A finished game makes way for the next.
// 3. Prints {"moves", "errors", "start_ns", "end_ns", "latencies_ms", "cpu_s"}:
//    start and end read CLOCK_MONOTONIC, as Python's time.monotonic_ns does;
//    cpu_s is this process's own CPU time while it played.
'use strict';

const readline = require('readline');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { CardPlay, MOVES_PER_GAME } = require('./game');

const [server, movesText, seedText] = process.argv.slice(2);
const MOVES = Number(movesText);
let seed = Number(seedText) || 1;
const SEATS = ['0', '1'];

function random() {
  // mulberry32: a seeded pick, so runs are repeatable.
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

async function post(path, body) {
  const response = await fetch(server + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A seat's Client and a promise for its next state at or after a state id. */
function seatClient(matchID, playerID, credentials) {
  const client = Client({
    game: CardPlay,
    numPlayers: SEATS.length,
    matchID,
    playerID,
    credentials,
    multiplayer: SocketIO({ server, socketOpts: { transports: ['websocket'] } }),
    debug: false,
  });
  const seat = { client, state: null, waiting: [] };
  client.subscribe((state) => {
    if (!state) return;
    seat.state = state;
    seat.waiting = seat.waiting.filter(({ stateID, resolve }) => {
      if (state._stateID < stateID) return true;
      resolve(state);
      return false;
    });
  });
  seat.reach = (stateID) =>
    seat.state && seat.state._stateID >= stateID
      ? Promise.resolve(seat.state)
      : new Promise((resolve) => seat.waiting.push({ stateID, resolve }));
  client.start();
  return seat;
}

async function openGame() {
  const { matchID } = await post('/games/card-play/create', { numPlayers: SEATS.length });
  const seats = [];
  for (const playerID of SEATS) {
    const { playerCredentials } = await post(`/games/card-play/${matchID}/join`, {
      playerID,
      playerName: `p${playerID}`,
    });
    seats.push(seatClient(matchID, playerID, playerCredentials));
  }
  await Promise.all(seats.map((seat) => seat.reach(0)));
  return seats;
}

/** Play up to `count` moves through `games` in turn: {latencies, errors}. */
async function playMoves(games, count) {
  const latencies = [];
  let errors = 0;
  while (latencies.length < count && games.length) {
    const seats = games[0];
    const state = seats[0].state;
    if (state.ctx.gameover) {
      games.shift();
      continue;
    }
    const mover = seats[Number(state.ctx.currentPlayer)];
    const hand = mover.state.G.players[state.ctx.currentPlayer].hand;
    const card = hand[Math.floor(random() * hand.length)];
    const next = state._stateID + 1;
    const t0 = process.hrtime.bigint();
    mover.client.moves.play(card);
    const reached = await Promise.race([
      Promise.all(seats.map((seat) => seat.reach(next))),
      new Promise((resolve) => setTimeout(() => resolve(null), 10000)),
    ]);
    if (reached === null) {
      errors += 1;
      break;
    }
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { latencies, errors };
}

async function main() {
  // One whole game first, untimed: V8 compiles the hot paths of the client
  // (and the server's) before the clock runs, as a long-running client would.
  const warmUp = await openGame();
  await playMoves([warmUp], MOVES_PER_GAME);
  const games = [];
  for (let i = 0; i < Math.ceil(MOVES / MOVES_PER_GAME) + 1; i++) games.push(await openGame());
  process.stdout.write(JSON.stringify({ ready: true }) + '\n');
  const lines = readline.createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once('line', resolve));

  const start = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const { latencies, errors } = await playMoves(games, MOVES);
  const cpu = process.cpuUsage(cpuBefore);
  const end = process.hrtime.bigint();
  process.stdout.write(
    JSON.stringify({
      moves: latencies.length,
      errors,
      start_ns: start.toString(),
      end_ns: end.toString(),
      latencies_ms: latencies,
      cpu_s: (cpu.user + cpu.system) / 1e6,
    }) + '\n'
  );
  for (const seats of [warmUp, ...games]) for (const seat of seats) seat.client.stop();
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + '\n');
  process.exit(1);
});
