// Hadara: set the wheel; in the sealed draw, lay one card and recruit or
// sell the other (with the bonus tile it takes); take cards and choose
// recruit or sell; found or ally a colony; build a bust; choose seals.

const COLOURS = { yellow: "yellow (income)", red: "red (military)", blue: "blue (culture)", green: "green (food)", purple: "purple (abilities)" };

export default {
  kindOf: (move) => ("place" in move ? "place" : null),
  kinds: {
    wheel: { title: "Set the wheel", steps: [{ fields: ["wheel"], words: ([colour]) => `to ${COLOURS[colour] || colour}` }] },
    place: {
      title: "Your drawn cards",
      steps: [
        { fields: ["place"], words: ([card]) => `lay ${card} face up` },
        { fields: ["action"], words: ([action]) => `${action} the other` },
        { fields: ["tile"], words: ([tile]) => (tile ? `with the ${tile} tile` : "no bonus tile") },
      ],
    },
    "action+take": {
      title: "Take a card",
      steps: [
        { fields: ["take"], words: ([colour]) => `from ${COLOURS[colour] || colour}` },
        { fields: ["action"], words: ([action]) => action },
      ],
    },
    "ally+colony": {
      title: "A colony",
      steps: [
        { fields: ["colony"], words: ([colony]) => `colony ${colony}` },
        { fields: ["ally"], words: ([ally]) => (ally ? "as an ally" : "by conquest") },
      ],
    },
    "bust+side+tile": {
      title: "Build a bust",
      steps: [
        { fields: ["bust"], words: ([bust]) => `bust ${bust}` },
        { fields: ["tile"], words: ([tile]) => `on ${tile}` },
        { fields: ["side"], words: ([side]) => `${side} side` },
      ],
    },
    "golden+silver": {
      title: "Choose seals",
      steps: [{ fields: ["golden"], words: ([golden]) => `${golden} golden` }],
      sets: [{ field: "silver", title: "silver seals" }],
    },
    pass: { title: "Pass", steps: [{ fields: ["pass"], words: () => "pass" }] },
  },
  describe(move) {
    if (move.wheel) return `set the wheel to ${move.wheel}`;
    if (move.place) return `lay ${move.place}, ${move.action} the other${move.tile ? ` (${move.tile} tile)` : ""}`;
    if (move.take) return `take from ${move.take} and ${move.action}`;
    return null;
  },
};
