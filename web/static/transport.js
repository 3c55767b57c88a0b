// How the table talks to the service: unary calls through the front end
// (GET table, POST moves and take-backs) while new records arrive on the
// live feed (live.js). One small class, so a play stream can take its place
// later without the table noticing.

import { get, post } from "./api.js";

let counter = 0;

// A request id per move sent: a retried send is answered with the first
// call's result instead of being played twice.
function requestId() {
  counter += 1;
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `web-${random[0].toString(36)}${random[1].toString(36)}-${counter}`;
}

export class Moves {
  table(gameId, token, seat = "") {
    const query = seat ? `?seat=${encodeURIComponent(seat)}` : "";
    return get(`/api/games/${encodeURIComponent(gameId)}/table${query}`, token);
  }

  // seat: the arbiter plays that seat's move on its behalf.
  play(gameId, token, move, at, seat = "") {
    const body = { move, at, request_id: requestId() };
    if (seat) body.seat = seat;
    return post(`/api/games/${encodeURIComponent(gameId)}/moves`, body, token);
  }

  takeBack(gameId, token, action, to, at) {
    return post(`/api/games/${encodeURIComponent(gameId)}/takeback`, { action, to, at }, token);
  }
}
