// freeform: any game, recorded without rule checks. A seat writes its move
// as it would on paper; the arbiter enters the result. The listing is a
// sample, so the form built from the move's schema is the way to move.

export default {
  kinds: {
    note: { title: "Record a move", steps: [{ fields: ["note"], words: ([note]) => (note ? `"${note}"` : "an empty note") }] },
  },
};
