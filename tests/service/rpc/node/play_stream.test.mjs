// Run by tests/service/rpc/test_play_stream_node.py with GAMELOG_SERVER set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlayStream, gameLogClient, unary } from './play_stream.mjs';

const address = process.env.GAMELOG_SERVER;

test('two seats play a few moves over their own Play streams', { skip: !address }, async () => {
  const client = gameLogClient(address);
  const created = await unary(client, 'CreateGame', {
    game: 'three-too-many',
    seats: ['ann', 'ben'],
    seed_hex: '0707',
  });
  const game = created.game_id;
  const tokens = created.seat_tokens;
  const streams = { ann: new PlayStream(client), ben: new PlayStream(client) };
  for (const [seat, stream] of Object.entries(streams)) {
    const joined = await stream.join(game, tokens[seat]);
    assert.equal(joined.answer, 'ack');
    assert.deepEqual(stream.records.get(game).map((r) => r.kind), ['created']);
  }

  const played = [];
  for (let at = 0; at < 6; at += 1) {
    const state = await unary(client, 'GetState', { game_id: game });
    const seat = state.to_act[0];
    const legal = await unary(client, 'ListLegalMoves', { game_id: game }, tokens[seat]);
    const move = JSON.parse(legal.moves_json[0]);
    played.push({ seat, move });
    const answer = await streams[seat].move(game, move, at, `n-${at}`);
    assert.equal(answer.answer, 'ack', JSON.stringify(answer.refusal));
    assert.equal(answer.ack.position, at + 1);
    // The move's record came before its ack, or in it.
    assert.equal(streams[seat].records.get(game).at(-1).position, at + 1);
  }

  const stale = await streams.ann.move(game, { card: 1 }, 0);
  assert.equal(stale.answer, 'refusal');
  assert.equal(stale.refusal.code, 'ABORTED');
  assert.equal(stale.refusal.reason, 'stale-position');
  assert.equal(stale.refusal.metadata.position, '6');

  // A retry of the first move, with its request id: stored once, acked as replayed.
  const retried = await streams[played[0].seat].move(game, played[0].move, 0, 'n-0');
  assert.equal(retried.answer, 'ack');
  assert.deepEqual([retried.ack.position, retried.ack.replayed], [1, true]);

  for (const stream of Object.values(streams)) await stream.end();
  for (const [seat, stream] of Object.entries(streams)) {
    const positions = stream.records.get(game).map((r) => r.position);
    assert.deepEqual(positions, [0, 1, 2, 3, 4, 5, 6], seat);
  }
  client.close();
});
