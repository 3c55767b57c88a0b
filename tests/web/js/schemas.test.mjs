// Every game's published schemas (options, moves, views, events) compile
// under ajv's strict mode, with no allowUnionTypes: a client author's
// validator takes them as they are. ajv comes from tests/web/browser/
// (npm ci there); without it this skips, unless GAMELOG_REQUIRE_BROWSER=1.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";

const root = new URL("../../../", import.meta.url).pathname;
const require = createRequire(`${root}tests/web/browser/package.json`);

function strictAjv() {
  try {
    const Ajv2020 = require("ajv/dist/2020").default;
    return () => new Ajv2020({ strict: true, allErrors: true });
  } catch {
    if (process.env.GAMELOG_REQUIRE_BROWSER === "1") {
      throw new Error("ajv is required: npm ci in tests/web/browser/");
    }
    return null;
  }
}

function publishedSchemas() {
  const venv = `${root}.venv/bin/python`;
  const python = process.env.GAMELOG_PYTHON || (existsSync(venv) ? venv : "python3");
  const out = execFileSync(python, ["-m", "gamelog.games.schema_docs", "--json"], {
    cwd: root,
    encoding: "utf-8",
  });
  return JSON.parse(out);
}

const makeAjv = strictAjv();

test("every published schema names its draft and versioned $id, and compiles strictly", {
  skip: makeAjv ? false : "ajv is not installed (npm ci in tests/web/browser/)",
}, () => {
  const games = publishedSchemas();
  assert.ok(Object.keys(games).length >= 6);
  for (const [game, parts] of Object.entries(games)) {
    assert.deepEqual(Object.keys(parts).sort(), ["event", "move", "options", "view"]);
    for (const [part, schema] of Object.entries(parts)) {
      const where = `${game} ${part}`;
      assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema", where);
      assert.match(schema.$id, new RegExp(`^urn:gamelog:${game}:${part}:[1-9][0-9]*$`), where);
      const validate = makeAjv().compile(schema);
      for (const example of schema.examples || []) {
        assert.ok(validate(example), `${where}: ${JSON.stringify(validate.errors)}`);
      }
    }
  }
});
