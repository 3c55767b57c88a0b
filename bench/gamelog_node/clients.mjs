// One client process of bench case a's like-for-like row: gamelog's Play
// stream driven from Node (grpc-js), as bench/boardgameio/clients.js drives
// boardgame.io's server, so both servers are measured behind the same kind
// of client.
//
//   node clients.mjs ADDRESS MOVES SEED
//
// 1. Creates its games of three-too-many (two seats), reads each seat's hand
//    once (GetState), opens one Play stream per seat, joins every game on
//    both, and plays one whole game untimed (V8 compiles the hot paths
//    first, as boardgame.io's clients do); then prints {"ready": true}.
// 2. Waits for a line on stdin (the driver's start signal, every client
//    at once).
// 3. Plays MOVES moves through its games in turn, each on its seat's stream
//    with a request id. A move counts once both seats hold its record (its
//    ack on the mover's stream, the record on the other's): what
//    boardgame.io's clients wait for too. Each seat follows its own hand
//    from its own stream's records.
// 4. Prints one JSON line: moves, errors, start_ns, end_ns, latencies_ms,
//    cpu_s (this process's CPU over the timed part).
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import readline from 'node:readline';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const [ADDRESS, MOVES_TEXT, SEED_TEXT] = process.argv.slice(2);
const MOVES = Number(MOVES_TEXT);
const SEATS = ['p1', 'p2'];
const MOVES_PER_GAME = 36;
const PROTO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../proto');

// A small seeded generator (mulberry32): the same cards for the same seed.
let seed = Number(SEED_TEXT) >>> 0;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function gameLogClient(address) {
  const definition = protoLoader.loadSync('gamelog/v1/gamelog.proto', {
    includeDirs: [PROTO_ROOT],
    keepCase: true,
    longs: Number,
    defaults: true,
    oneofs: true,
  });
  const { GameLog } = grpc.loadPackageDefinition(definition).gamelog.v1;
  return new GameLog(address, grpc.credentials.createInsecure());
}

function bearer(token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.add('authorization', `Bearer ${token}`);
  return metadata;
}

function unary(client, method, request, token) {
  return new Promise((resolve, reject) =>
    client[method](request, bearer(token), (error, response) =>
      error ? reject(error) : resolve(response),
    ),
  );
}

/** One seat's stream: answers matched to requests, records followed. */
class SeatStream {
  constructor(client, seat, games) {
    this.seat = seat;
    this.games = games; // by game id
    this.call = client.Play(new grpc.Metadata());
    this.waiting = new Map();
    this.count = 0;
    this.call.on('data', (response) => this.receive(response));
    this.call.on('error', (error) => {
      for (const waiter of this.waiting.values()) waiter.reject(error);
    });
  }

  receive(response) {
    const game = this.games.get(response.game_id);
    if (response.answer === 'record') {
      this.follow(game, response.record);
      return;
    }
    if (response.answer === 'ack') {
      for (const record of response.ack.records) this.follow(game, record);
    }
    const answer = response[response.answer];
    const waiter = this.waiting.get(answer.request_id);
    this.waiting.delete(answer.request_id);
    if (waiter) waiter.resolve(response);
  }

  follow(game, message) {
    const record = JSON.parse(message.record_json);
    game.reached[this.seat] = record.position;
    if (record.kind === 'finished') game.finished = true;
    for (const event of record.events || []) {
      if (event.type === 'GameEnded') game.finished = true;
      if (event.seat !== this.seat) continue; // the other seat's stream follows that hand
      const hand = game.hands[this.seat];
      if (event.type === 'CardPlaced') hand.splice(hand.indexOf(event.card), 1);
      else if (event.type === 'CardsDrawn' && event.cards) hand.push(...event.cards);
    }
    const wake = game.wake;
    game.wake = null;
    if (wake) wake();
  }

  ask(game_id, action, body) {
    const request_id = `${this.seat}-${SEED_TEXT}-${++this.count}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(request_id, { resolve, reject });
      this.call.write({ request_id, game_id, [action]: body });
    });
  }
}

async function openGame(client, streams, games) {
  const created = await unary(client, 'CreateGame', {
    game: 'three-too-many',
    seats: SEATS,
    options_json: '{}',
  });
  const game = {
    id: created.game_id,
    hands: {},
    position: 0,
    turn: 0,
    finished: false,
    reached: { p1: 0, p2: 0 },
    wake: null,
  };
  games.set(game.id, game);
  for (const seat of SEATS) {
    const token = created.seat_tokens[seat];
    const state = await unary(client, 'GetState', { game_id: game.id }, token);
    game.hands[seat] = JSON.parse(state.view_json).hand;
    game.position = state.position;
    const joined = await streams[seat].ask(game.id, 'join', { token, from_position: game.position + 1 });
    if (joined.answer !== 'ack') throw new Error(`join refused: ${JSON.stringify(joined.refusal)}`);
  }
  return game;
}

function bothReached(game, position) {
  return new Promise((resolve) => {
    const check = () => {
      if (SEATS.every((seat) => game.reached[seat] >= position)) resolve();
      else game.wake = check;
    };
    check();
  });
}

async function playMoves(streams, pending, count) {
  const latencies = [];
  let errors = 0;
  while (latencies.length < count && pending.length) {
    const game = pending[0];
    if (game.finished) {
      pending.shift();
      continue;
    }
    const seat = SEATS[game.turn];
    const hand = game.hands[seat];
    const card = hand[Math.floor(random() * hand.length)];
    const t0 = process.hrtime.bigint();
    const answer = await streams[seat].ask(game.id, 'move', {
      move_json: JSON.stringify({ card }),
      at_position: game.position,
    });
    if (answer.answer !== 'ack') {
      errors += 1;
      throw new Error(`move refused: ${JSON.stringify(answer.refusal)}`);
    }
    await bothReached(game, answer.ack.position);
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    game.position = answer.ack.position;
    game.turn = (game.turn + 1) % SEATS.length;
  }
  return { latencies, errors };
}

async function main() {
  const client = gameLogClient(ADDRESS);
  const games = new Map();
  const streams = Object.fromEntries(SEATS.map((seat) => [seat, new SeatStream(client, seat, games)]));
  const warmUp = await openGame(client, streams, games);
  await playMoves(streams, [warmUp], MOVES_PER_GAME * 2);
  const pending = [];
  for (let i = 0; i < Math.ceil(MOVES / MOVES_PER_GAME) + 2; i++) {
    pending.push(await openGame(client, streams, games));
  }
  process.stdout.write(JSON.stringify({ ready: true }) + '\n');
  const lines = readline.createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once('line', resolve));

  const start = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const { latencies, errors } = await playMoves(streams, pending, MOVES);
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
    }) + '\n',
  );
  for (const stream of Object.values(streams)) stream.call.end();
  client.close();
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + '\n');
  process.exit(1);
});
