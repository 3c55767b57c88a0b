// A Node client of gamelog.v1's Play stream: the worked example of
// docs/play-stream.md, and what play_stream.test.mjs runs against a server.
//
//   const client = gameLogClient('127.0.0.1:50051');
//   const ann = new PlayStream(client);
//   const joined = await ann.join(gameId, annToken);     // the records so far, then this ack
//   const answer = await ann.move(gameId, { card: 14 }, joined.ack.position);
//   answer.ack?.position  // or answer.refusal: { code, reason, message, metadata }
//   ann.records.get(gameId)  // every record of the game, as ann may see it
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const PROTO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../proto');

/** A GameLog client on an insecure channel (a local server). */
export function gameLogClient(address) {
  const definition = protoLoader.loadSync('gamelog/v1/gamelog.proto', {
    includeDirs: [PROTO_ROOT],
    keepCase: true, // field names as in the proto: request_id, at_position
    longs: Number, // positions are int64; a game's fit in a double
    defaults: true,
    oneofs: true, // each PlayResponse says which answer it holds: .answer
  });
  const { GameLog } = grpc.loadPackageDefinition(definition).gamelog.v1;
  return new GameLog(address, grpc.credentials.createInsecure());
}

/** Metadata carrying a token, as every unary call takes it. */
export function bearer(token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.add('authorization', `Bearer ${token}`);
  return metadata;
}

/** A unary call as a promise: unary(client, 'GetState', { game_id }, token). */
export function unary(client, method, request, token) {
  return new Promise((resolve, reject) =>
    client[method](request, bearer(token), (error, response) =>
      error ? reject(error) : resolve(response),
    ),
  );
}

/**
 * One Play stream: each request a promise of its answer (a PlayResponse
 * holding .ack or .refusal), every record of every joined game (a record
 * answer, or in a move's ack) kept in `records` (parsed JSON, by game id)
 * and handed to `onRecord`.
 */
export class PlayStream {
  constructor(client, token = '') {
    this.call = client.Play(bearer(token));
    this.records = new Map();
    this.onRecord = () => {};
    this.prefix = randomUUID().slice(0, 8); // request ids are kept per game, for every seat
    this.count = 0;
    this.waiting = new Map();
    this.ended = new Promise((resolve, reject) => {
      this.call.on('end', resolve);
      this.call.on('error', (error) => {
        for (const { reject: fail } of this.waiting.values()) fail(error);
        reject(error);
      });
    });
    this.ended.catch(() => {}); // read by whoever awaits it
    this.call.on('data', (response) => this.#receive(response));
  }

  #keep(game_id, message) {
    const record = JSON.parse(message.record_json);
    if (!this.records.has(game_id)) this.records.set(game_id, []);
    this.records.get(game_id).push(record);
    this.onRecord(game_id, record, message.notation);
  }

  #receive(response) {
    if (response.answer === 'record') {
      this.#keep(response.game_id, response.record);
      return;
    }
    // A move's ack carries its records that did not come before it.
    if (response.answer === 'ack') {
      for (const message of response.ack.records) this.#keep(response.game_id, message);
    }
    const { request_id } = response[response.answer];
    const waiter = this.waiting.get(request_id);
    if (waiter) {
      this.waiting.delete(request_id);
      waiter.resolve(response);
    }
  }

  ask(game_id, action, body, request_id = `${this.prefix}-${++this.count}`) {
    return new Promise((resolve, reject) => {
      this.waiting.set(request_id, { resolve, reject });
      this.call.write({ request_id, game_id, [action]: body });
    });
  }

  join(game_id, token, from_position = 0) {
    return this.ask(game_id, 'join', { token, from_position });
  }

  move(game_id, move, at_position, request_id) {
    return this.ask(game_id, 'move', { move_json: JSON.stringify(move), at_position }, request_id);
  }

  takeBack(game_id, action, to_position, at_position) {
    return this.ask(game_id, 'take_back', { action, to_position, at_position });
  }

  /** No more requests: the server ends the stream once all are answered. */
  end() {
    this.call.end();
    return this.ended;
  }
}
