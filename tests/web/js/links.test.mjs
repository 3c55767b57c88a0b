// The seat links' order (web/static/links.js): the new-game and fork dialogs
// list seats as the game seats them, then the arbiter.

import assert from "node:assert/strict";
import { test } from "node:test";

import { linkRows } from "../../../web/static/links.js";

test("seat links follow seat order, whatever order the token map has", () => {
  const tokens = { amy: "t-amy", zoe: "t-zoe", max: "t-max" };
  const rows = linkRows(tokens, "t-arb", ["zoe", "amy", "max"]);
  assert.deepEqual(
    rows.map(([who]) => who),
    ["zoe", "amy", "max", "arbiter"],
  );
  assert.deepEqual(rows[0], ["zoe", "t-zoe"]);
});

test("without the seats, links still list every token once, the arbiter last", () => {
  const rows = linkRows({ zoe: "a", amy: "b" }, "c");
  assert.deepEqual(
    rows.map(([who]) => who),
    ["amy", "zoe", "arbiter"],
  );
});
