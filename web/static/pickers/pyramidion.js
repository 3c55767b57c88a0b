// Pyramidion: phase 7 is refereed (load a ship, fetch resources, or pass);
// phases 1 to 5 are declarations of what happened at the table, each a form
// (the service lists a sample of them: a declaration may name any amounts).

const DECLARE = {
  draw: "Declare cards drawn",
  activate: "Declare a location activated",
  play: "Declare cards played",
  marker: "Declare the order marker taken",
  gain: "Declare resources gained",
  boat: "Declare a boat",
  produce: "Declare production",
  production: "Declare what a location produces",
  "place-troops": "Declare troops placed",
  "move-troops": "Declare troops moved",
  done: "Declare the phase done",
};

export default {
  kindOf: (move) => ("declare" in move ? `declare:${move.declare}` : null),
  kinds: {
    load: {
      title: "Load the ship",
      steps: [{ fields: ["load"], words: ([load]) => `load ${load}` }],
    },
    "fetch+load": {
      title: "Load and fetch",
      steps: [
        { fields: ["load"], words: ([load]) => `load ${load}` },
        { fields: ["fetch"], words: ([fetch]) => `fetch ${fetch.map((f) => `${f.resource} from ${f.location}`).join(", ")}` },
      ],
    },
    pass: { title: "Pass", steps: [{ fields: ["pass"], words: () => "pass" }] },
    declare: { title: "Declarations" },
  },
  titleOf: (kind) => (kind.startsWith("declare:") ? DECLARE[kind.slice(8)] || `Declare ${kind.slice(8)}` : null),
  describe(move) {
    if (move.declare) {
      const rest = Object.entries(move)
        .filter(([key]) => key !== "declare")
        .map(([key, value]) => `${key} ${typeof value === "object" ? JSON.stringify(value) : value}`);
      return `declare ${move.declare}${rest.length ? `: ${rest.join(", ")}` : ""}`;
    }
    return null;
  },
};
