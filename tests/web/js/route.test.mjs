// The page's router (web/static/route.js): what a fragment opens.

import assert from "node:assert/strict";
import { test } from "node:test";

import { gameHash, parseHash } from "../../../web/static/route.js";

test("a seat link opens its game as the seat, the token only in the fragment", () => {
  const where = parseHash("#/game/abc-1?token=T0k_en");
  assert.equal(where.view, "game");
  assert.equal(where.game, "abc-1");
  assert.equal(where.params.get("token"), "T0k_en");
  assert.equal(where.at, null);
});

test("a position in the fragment, and links made back from it", () => {
  assert.equal(parseHash("#/game/g?at=12").at, 12);
  assert.equal(parseHash("#/game/g?at=x").at, null);
  assert.equal(gameHash("g", 3, "t"), "#/game/g?at=3&token=t");
  assert.equal(gameHash("g"), "#/game/g");
});

test("the other views", () => {
  assert.equal(parseHash("#/new").view, "new");
  assert.equal(parseHash("#/tournaments").view, "tournaments");
  assert.equal(parseHash("#/event?name=E").params.get("name"), "E");
  assert.equal(parseHash("").view, "games");
  assert.equal(parseHash("#token=T").params.get("token"), "T");
});
