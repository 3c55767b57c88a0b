// What a seat may choose now, step by step: the logic every game's picker
// shares. Pure functions (no DOM), so node's test runner checks them.
//
// A game's picker (pickers/<game>.js) describes its moves:
//   {
//     kindOf(move)            which kind a move is ("go", "place", "declare:gain"; default: its keys)
//     kinds: { KIND: {
//       title,                the heading, in the game's words
//       steps: [ { fields: ["place.x", "place.y"], words(values, view) }, ... ],
//                             chosen in order; a field is a dotted path into the move
//       sets: [{ field, title, items(view, moves), words(item, view) }]
//                             fields whose value is a list, chosen item by item
//                             (items: what a set may hold; default: those in the listed moves)
//       open: true,           any combination may be sent (the listing is a sample)
//       board: { selector, fields: { "place.x": "x", ... } }   clicks on the picture
//     } },
//     describe(move, view)    one line for the list of every legal move
//   }
//
// offer(picker, view, legal, picked) gives the sections to show:
//   [{ kind, title, choices: [{ label, move } | { label, pick } | { label, toggle, pressed }
//                            | { label, unpick } | { label, move: null, disabled, why }] }]
// and a choice's `pick`, `toggle` or `unpick` goes back through choose().
//
// >>> offer(picker, view, [{card: 3}, {card: 9}], {})[0].choices.map(c => c.move)
// [{card: 3}, {card: 9}]

export function kindOf(picker, move) {
  if (picker.kindOf) {
    const kind = picker.kindOf(move);
    if (kind) return kind;
  }
  return Object.keys(move).sort().join("+");
}

// A move's fields as dotted paths: {place: {x: 1}} -> {"place.x": 1}. Lists
// and other values stay whole.
export function flatten(move, prefix = "") {
  const out = {};
  for (const [key, value] of Object.entries(move)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length) {
      Object.assign(out, flatten(value, path));
    } else out[path] = value;
  }
  return out;
}

// The move a set of dotted fields makes: {"place.x": 1} -> {place: {x: 1}}.
export function unflatten(fields) {
  const out = {};
  for (const [path, value] of Object.entries(fields)) {
    const keys = path.split(".");
    let node = out;
    for (const key of keys.slice(0, -1)) node = node[key] ??= {};
    node[keys[keys.length - 1]] = value;
  }
  return out;
}

// JSON with keys sorted: the same value always gives the same text.
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

const sameSet = (a, b) => canonical([...a].map(canonical).sort()) === canonical([...b].map(canonical).sort());

// The moves of one listing grouped by kind, in the order the picker names
// its kinds (then any other kind, as first listed).
export function groups(picker, moves) {
  const byKind = new Map();
  for (const move of moves) {
    const kind = kindOf(picker, move);
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind).push(move);
  }
  const order = Object.keys(picker.kinds || {});
  const rank = (kind) => {
    const exact = order.indexOf(kind);
    const i = exact >= 0 ? exact : order.indexOf(kind.split(":")[0]);
    return i >= 0 ? i : order.length;
  };
  return [...byKind.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
}

function spec(picker, kind) {
  const kinds = picker.kinds || {};
  return kinds[kind] || kinds[kind.split(":")[0]] || {};
}

function stepsOf(spec, sample) {
  if (spec.steps) return spec.steps;
  const inSets = new Set(setsOf(spec).map((set) => set.field));
  const fields = Object.keys(flatten(sample)).filter((f) => !inSets.has(f));
  return fields.map((field) => ({ fields: [field] }));
}

function valuesOf(move, step) {
  const flat = flatten(move);
  return step.fields.map((field) => flat[field]);
}

function stepWords(step, values, view) {
  if (step.words) return step.words(values, view);
  return values.map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v))).join(" ");
}

// The sections a seat sees for this listing, given its choices so far.
// `picked` maps a kind to { values: [[...], ...] (one per step chosen),
// items: { field: [...] } (what each set holds so far) }.
export function offer(picker, view, legal, picked = {}) {
  const sections = [];
  for (const [kind, moves] of groups(picker, legal.moves)) {
    const kindSpec = spec(picker, kind);
    const steps = stepsOf(kindSpec, moves[0]);
    const chosen = picked[kind] || { values: [], items: {} };
    let candidates = moves;
    chosen.values.forEach((values, i) => {
      candidates = candidates.filter((m) => canonical(valuesOf(m, steps[i])) === canonical(values));
    });
    const open = Boolean(kindSpec.open);
    const choices = [];
    if (chosen.values.length) {
      const said = chosen.values.map((values, i) => stepWords(steps[i], values, view)).join(" · ");
      choices.push({ label: `‹ ${said}`, unpick: kind, back: true });
    }
    const next = steps[chosen.values.length];
    if (next) {
      const seen = new Map();
      for (const move of candidates) {
        const values = valuesOf(move, next);
        const key = canonical(values);
        if (!seen.has(key)) seen.set(key, { values, moves: [] });
        seen.get(key).moves.push(move);
      }
      for (const { values, moves: these } of seen.values()) {
        const label = stepWords(next, values, view);
        const hasSets = setsOf(kindSpec).length > 0;
        if (these.length === 1 && !hasSets) choices.push({ label, move: these[0] });
        else choices.push({ label, pick: { kind, values } });
      }
    } else if (setsOf(kindSpec).length) {
      choices.push(...setChoices(kind, kindSpec, view, candidates, chosen, steps, open));
    }
    const title = (picker.titleOf && picker.titleOf(kind)) || kindSpec.title || kind;
    sections.push({ kind, title, choices, board: kindSpec.board || null, open: Boolean(kindSpec.open) });
  }
  return sections;
}

function setsOf(kindSpec) {
  if (kindSpec.sets) return kindSpec.sets;
  if (kindSpec.set) return [{ field: kindSpec.set, items: kindSpec.items, words: kindSpec.itemWords }];
  return [];
}

function setChoices(kind, kindSpec, view, candidates, chosen, steps, open) {
  const choices = [];
  const sets = setsOf(kindSpec);
  const words = (set, item) => (set.words ? set.words(item, view) : String(item));
  for (const set of sets) {
    const listed = [];
    for (const move of candidates) for (const item of flatten(move)[set.field] || []) listed.push(item);
    const items = set.items ? set.items(view, candidates) : listed;
    const unique = [...new Map(items.map((item) => [canonical(item), item])).values()];
    const pressed = new Set((chosen.items[set.field] || []).map(canonical));
    for (const item of unique) {
      choices.push({
        label: words(set, item),
        group: set.title || set.field,
        toggle: { kind, field: set.field, item },
        pressed: pressed.has(canonical(item)),
      });
    }
  }
  const fitsSets = (move) => sets.every((set) => sameSet(flatten(move)[set.field] || [], chosen.items[set.field] || []));
  let move = candidates.find(fitsSets) || null;
  if (!move && open && candidates.length) {
    const fields = flatten(candidates[0]);
    chosen.values.forEach((values, i) => steps[i].fields.forEach((f, j) => (fields[f] = values[j])));
    for (const set of sets) fields[set.field] = chosen.items[set.field] || [];
    move = unflatten(fields);
  }
  const said = sets
    .map((set) => {
      const items = chosen.items[set.field] || [];
      return `${set.title || set.field}: ${items.length ? items.map((i) => words(set, i)).join(", ") : "nothing"}`;
    })
    .join("; ");
  const label = kindSpec.sendWords ? kindSpec.sendWords(chosen.items, view) : `${kindSpec.title || kind} (${said})`;
  choices.push(
    move
      ? { label, move, send: true }
      : { label, move: null, disabled: true, send: true, why: "the rules allow no such choice" },
  );
  return choices;
}

// The choices so far after one more click (a new object: nothing is changed in place).
export function choose(picked, choice) {
  const next = { ...picked };
  if (choice.pick) {
    const { kind, values } = choice.pick;
    const was = next[kind] || { values: [], items: {} };
    next[kind] = { values: [...was.values, values], items: was.items };
  } else if (choice.toggle) {
    const { kind, field, item } = choice.toggle;
    const was = next[kind] || { values: [], items: {} };
    const key = canonical(item);
    const had = was.items[field] || [];
    const items = had.some((i) => canonical(i) === key) ? had.filter((i) => canonical(i) !== key) : [...had, item];
    next[kind] = { values: was.values, items: { ...was.items, [field]: items } };
  } else if (choice.unpick) {
    const was = next[choice.unpick];
    const values = was ? was.values.slice(0, -1) : [];
    if (values.length || (was && Object.keys(was.items).length)) next[choice.unpick] = { values, items: was.items };
    else delete next[choice.unpick];
  }
  return next;
}

// The choices so far that still fit a new listing (after the game moved on):
// a step whose value is no longer offered is dropped, with those after it.
export function keepFitting(picker, legal, picked) {
  const kept = {};
  for (const [kind, moves] of groups(picker, legal.moves)) {
    const was = picked[kind];
    if (!was) continue;
    const steps = stepsOf(spec(picker, kind), moves[0]);
    const values = [];
    let candidates = moves;
    for (const [i, chosen] of was.values.entries()) {
      const fit = candidates.filter((m) => canonical(valuesOf(m, steps[i])) === canonical(chosen));
      if (!fit.length) break;
      values.push(chosen);
      candidates = fit;
    }
    kept[kind] = { values, items: was.items };
  }
  return kept;
}

// The pick a click on the picture makes: the board element's data attributes
// mapped to the step's fields ({x: "0", y: "-1"} -> values [0, -1]).
export function boardPick(section, dataset) {
  const board = section.board;
  if (!board) return null;
  const values = Object.values(board.fields).map((name) => {
    const text = dataset[name];
    return /^-?\d+$/.test(text ?? "") ? Number(text) : text;
  });
  return values;
}

// One line for any legal move: the picker's words, else its JSON.
export function describe(picker, move, view) {
  if (picker.describe) {
    const words = picker.describe(move, view);
    if (words) return words;
  }
  return Object.entries(move)
    .map(([key, value]) => (value === true ? key : `${key} ${typeof value === "object" ? JSON.stringify(value) : value}`))
    .join(", ");
}
