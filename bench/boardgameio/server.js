// boardgame.io's own server (Koa + socket.io, the lobby API on the same port)
// with its in-memory storage, serving the card game of game.js. Prints one
// JSON line when it listens: {"port": N, "pid": P}.
// Usage: node server.js PORT
'use strict';

const { Server } = require('boardgame.io/server');
const { CardPlay } = require('./game');

const port = Number(process.argv[2]);
const server = Server({ games: [CardPlay], origins: ['http://127.0.0.1'] });
server.run(port).then(() => {
  process.stdout.write(JSON.stringify({ port, pid: process.pid }) + '\n');
});
