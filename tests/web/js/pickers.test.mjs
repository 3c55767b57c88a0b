// The move pickers' logic (web/static/pickers/), with node's own test runner:
//   node --test tests/js/
// Listings and views are as the service sends them (GetState view_json,
// ListLegalMoves) for real positions of each game.

import assert from "node:assert/strict";
import { test } from "node:test";

import { boardPick, choose, describe, flatten, keepFitting, offer, unflatten } from "../../../web/static/pickers/engine.js";
import { pickerFor } from "../../../web/static/pickers/index.js";

const listing = (moves, complete = true) => ({ seat: "ann", position: 3, moves, complete, sample_note: "" });
const click = (picked, sections, label) => {
  const choice = sections.flatMap((s) => s.choices).find((c) => c.label === label);
  assert.ok(choice, `no choice "${label}" in ${JSON.stringify(sections.flatMap((s) => s.choices.map((c) => c.label)))}`);
  return choose(picked, choice);
};
const moves = (sections) => sections.flatMap((s) => s.choices).filter((c) => c.move).map((c) => c.move);

test("flatten and unflatten are each other's inverse", () => {
  const move = { place: { x: 0, y: -1, rotation: 2 }, note: [1, 2] };
  assert.deepEqual(flatten(move), { "place.x": 0, "place.y": -1, "place.rotation": 2, note: [1, 2] });
  assert.deepEqual(unflatten(flatten(move)), move);
});

test("three-too-many: each card in the hand is one click, carrying its move", () => {
  const picker = pickerFor("three-too-many");
  const legal = listing([{ card: 1 }, { card: 9 }, { card: 57 }]);
  const [section] = offer(picker, {}, legal);
  assert.equal(section.title, "Play a card from your hand");
  assert.deepEqual(section.choices.map((c) => c.label), ["card 1", "card 9", "card 57"]);
  assert.deepEqual(section.choices.map((c) => c.move), legal.moves);
  assert.deepEqual(boardPick(section, { card: "57" }), [57]);
});

test("carcassonne: a free place, then the turn, gives the move; back undoes a step", () => {
  const picker = pickerFor("carcassonne-hg");
  const legal = listing([
    { place: { x: 0, y: -1, rotation: 0 } },
    { place: { x: 0, y: -1, rotation: 2 } },
    { place: { x: 1, y: 0, rotation: 1 } },
  ]);
  let sections = offer(picker, {}, legal);
  assert.deepEqual(sections[0].choices.map((c) => c.label), ["at (0, -1)", "at (1, 0)"]);
  assert.equal(sections[0].choices[0].move, undefined, "two turns fit there: a step, not a move");
  assert.deepEqual(sections[0].choices[1].move, { place: { x: 1, y: 0, rotation: 1 } });
  // A click on the map's marked place picks the same step.
  assert.deepEqual(boardPick(sections[0], { x: "0", y: "-1" }), [0, -1]);
  let picked = choose({}, { pick: { kind: "place", values: [0, -1] } });
  sections = offer(picker, {}, legal, picked);
  assert.deepEqual(moves(sections), [{ place: { x: 0, y: -1, rotation: 0 } }, { place: { x: 0, y: -1, rotation: 2 } }]);
  assert.deepEqual(sections[0].choices.map((c) => c.label), ["‹ at (0, -1)", "not turned", "turned 180°"]);
  picked = click(picked, sections, "‹ at (0, -1)");
  assert.deepEqual(picked, {});
  const deploy = listing([{ deploy: { piece: "gatherer", zone: 0 } }, { deploy: { piece: "gatherer", zone: 2 } }, { pass: true }]);
  sections = offer(picker, {}, deploy);
  assert.deepEqual(sections.map((s) => s.title), ["Place a figure", "Place no figure"]);
  picked = click({}, sections, "a gatherer");
  assert.deepEqual(moves(offer(picker, {}, deploy, picked)), [
    { deploy: { piece: "gatherer", zone: 0 } },
    { deploy: { piece: "gatherer", zone: 2 } },
    { pass: true },
  ]);
});

test("panem: a location is one click; a tribute is chosen card by card", () => {
  const picker = pickerFor("panem");
  const view = { viewer: "ann", seats: ["ann", "ben"], hands: { ann: ["food-1-02", "fuel-1-03"] } };
  const go = offer(picker, view, listing([{ go: "forest-1" }, { go: "everdeen_house-2" }]));
  assert.deepEqual(go[0].choices.map((c) => [c.label, c.move]), [
    ["Forest 1", { go: "forest-1" }],
    ["Everdeen house 2", { go: "everdeen_house-2" }],
  ]);
  const legal = listing([{ tribute: [] }, { tribute: ["food-1-02"] }, { tribute: ["fuel-1-03", "food-1-02"] }]);
  let sections = offer(picker, view, legal);
  const send = () => sections[0].choices.find((c) => c.send);
  assert.deepEqual(send().move, { tribute: [] }, "nothing chosen: an empty tribute");
  let picked = click({}, sections, "food-1-02");
  sections = offer(picker, view, legal, picked);
  assert.deepEqual(send().move, { tribute: ["food-1-02"] });
  picked = click(picked, sections, "fuel-1-03");
  sections = offer(picker, view, legal, picked);
  assert.deepEqual(send().move, { tribute: ["fuel-1-03", "food-1-02"] }, "the listed move, in its order");
  assert.ok(sections[0].choices.filter((c) => c.toggle).every((c) => c.pressed));
});

test("panem: a trade to any seat, your cards for the goods you ask, though the listing is a sample", () => {
  const picker = pickerFor("panem");
  const view = { viewer: "ann", seats: ["ann", "ben"], hands: { ann: ["food-1-02", "fuel-1-03"] }, trading: { offers: [{ id: 3, from: "ben", to: "ann", give: ["medicine-1-03"], ask: ["food-1"] }] } };
  const legal = listing(
    [
      { done: true },
      { accept: 3 },
      { decline: 3 },
      { propose: { to: "ben", give: ["food-1-02"], ask: ["medicine-1"] } },
      { propose: { to: "ben", give: ["fuel-1-03"], ask: ["clothing-1"] } },
    ],
    false,
  );
  let sections = offer(picker, view, legal);
  assert.deepEqual(
    sections.map((s) => s.title),
    ["Accept an offer", "Decline an offer", "Propose a trade", "Done trading"],
  );
  assert.equal(sections[0].choices[0].label, "ben gives medicine-1-03 to ann for food-1");
  assert.deepEqual(sections[0].choices[0].move, { accept: 3 });
  let picked = click({}, sections, "to ben");
  picked = click(picked, offer(picker, view, legal, picked), "food-1-02");
  picked = click(picked, offer(picker, view, legal, picked), "fuel-1-03");
  picked = click(picked, offer(picker, view, legal, picked), "clothing-1");
  sections = offer(picker, view, legal, picked);
  const send = sections.find((s) => s.kind === "propose").choices.find((c) => c.send);
  assert.deepEqual(send.move, { propose: { to: "ben", give: ["food-1-02", "fuel-1-03"], ask: ["clothing-1"] } });
  assert.equal(send.label, "Offer food-1-02 and fuel-1-03 for clothing-1");
});

test("hadara: the sealed draw is the card laid, then recruit or sell, then the tile", () => {
  const picker = pickerFor("hadara");
  const legal = listing([
    { place: "I-yellow-02", action: "sell" },
    { place: "I-yellow-02", action: "recruit", tile: "income" },
    { place: "I-purple-01", action: "sell" },
  ]);
  let sections = offer(picker, {}, legal);
  assert.equal(sections.length, 1, "one section for the draw, with or without a tile");
  assert.deepEqual(sections[0].choices.map((c) => c.label), ["lay I-yellow-02 face up", "lay I-purple-01 face up"]);
  const picked = click({}, sections, "lay I-yellow-02 face up");
  sections = offer(picker, {}, legal, picked);
  assert.deepEqual(moves(sections), [
    { place: "I-yellow-02", action: "sell" },
    { place: "I-yellow-02", action: "recruit", tile: "income" },
  ]);
});

test("pyramidion: declarations get a section each, named in words", () => {
  const picker = pickerFor("pyramidion");
  const legal = listing(
    [{ declare: "done" }, { declare: "activate", location: "gizeh" }, { declare: "draw", cards: 4 }],
    false,
  );
  const sections = offer(picker, {}, legal);
  assert.deepEqual(sections.map((s) => s.title), ["Declare the phase done", "Declare a location activated", "Declare cards drawn"]);
  assert.equal(describe(picker, { declare: "draw", cards: 4 }, {}), "declare draw: cards 4");
});

test("choices that no longer fit a new listing are dropped, the rest kept", () => {
  const picker = pickerFor("carcassonne-hg");
  const before = { place: { values: [[0, -1]], items: {} } };
  const still = listing([{ place: { x: 0, y: -1, rotation: 0 } }]);
  assert.deepEqual(keepFitting(picker, still, before), before);
  const gone = listing([{ place: { x: 3, y: 3, rotation: 0 } }]);
  assert.deepEqual(keepFitting(picker, gone, before), { place: { values: [], items: {} } });
});

test("a game without a picker still offers every move, worded from its JSON", () => {
  const picker = pickerFor("some-new-game");
  const sections = offer(picker, {}, listing([{ roll: true }, { bet: 3 }]));
  assert.deepEqual(moves(sections), [{ roll: true }, { bet: 3 }]);
  assert.equal(describe(picker, { bet: 3 }, {}), "bet 3");
});

import { moveFrom, variantsOf } from "../../../web/static/pickers/schema.js";

test("the schema form: one variant per kind of move, each field typed", () => {
  const schema = {
    oneOf: [
      { type: "object", properties: { declare: { const: "draw" }, cards: { type: "integer", minimum: 1 } }, required: ["declare", "cards"] },
      { type: "object", properties: { declare: { const: "gain" }, resources: { type: "object", examples: [{ camel: 1 }] } }, required: ["declare", "resources"] },
      { type: "object", title: "set the wheel", properties: { wheel: { enum: ["yellow", "red"] } }, required: ["wheel"] },
    ],
  };
  const variants = variantsOf(schema);
  assert.deepEqual(variants.map((v) => v.title), ["draw", "gain", "set the wheel"]);
  assert.deepEqual(variants[0].fields.map((f) => f.kind), ["const", "integer"]);
  assert.deepEqual(moveFrom(variants[0], { cards: "4" }), { move: { declare: "draw", cards: 4 } });
  assert.deepEqual(moveFrom(variants[0], { cards: "four" }), { error: "cards is a whole number" });
  assert.deepEqual(moveFrom(variants[1], { resources: '{"camel": 2}' }), { move: { declare: "gain", resources: { camel: 2 } } });
  assert.deepEqual(moveFrom(variants[2], { wheel: "red" }), { move: { wheel: "red" } });
});

test("the schema form: a move that is any object is typed as JSON", () => {
  const [variant] = variantsOf({ type: "object", minProperties: 1, examples: [{ text: "1. e4" }] });
  assert.equal(variant.fields[0].value, '{"text":"1. e4"}');
  assert.deepEqual(moveFrom(variant, { "": '{"text": "Nf3"}' }), { move: { text: "Nf3" } });
  assert.deepEqual(moveFrom(variant, { "": "[1]" }), { error: "a move is a JSON object" });
});

test("the schema form: a schema of exactly one key among several gives a variant per key", () => {
  const variants = variantsOf({ type: "object", properties: { go: { type: "string" }, skip: { const: true } } });
  assert.deepEqual(variants.map((v) => v.title), ["go", "skip"]);
  assert.deepEqual(moveFrom(variants[1], {}), { move: { skip: true } });
});

test("the schema form: boolean subschemas (strict schemas' absent and any) draw without error", () => {
  const [variant] = variantsOf({
    oneOf: [{ type: "object", properties: { done: { const: true }, trade: false, note: true }, required: ["done"] }],
  });
  assert.deepEqual(variant.fields.map((f) => [f.name, f.kind]), [["done", "const"], ["note", "json"]]);
  assert.deepEqual(moveFrom(variant, { note: "null" }).move.done, true);
});

import { beforeOwnLastMove, currentLine } from "../../../web/static/takeback.js";

test("taking back: a seat's last move still standing, across earlier take-backs", () => {
  const records = [
    { position: 0, kind: "created" },
    { position: 1, kind: "move", seat: "ann" },
    { position: 2, kind: "move", seat: "ben" },
    { position: 3, kind: "move", seat: "ann" },
    { position: 4, kind: "takeback", to_position: 2 },
    { position: 5, kind: "move", seat: "cy" },
  ];
  assert.deepEqual(currentLine(records).map((r) => r.position), [1, 2, 5]);
  assert.equal(beforeOwnLastMove(records, "ann"), 0);
  assert.equal(beforeOwnLastMove(records, "ben"), 1);
  assert.equal(beforeOwnLastMove(records, "cy"), 2);
  assert.equal(beforeOwnLastMove(records, "dee"), null);
});
